// `mnesos mcp` as a client starts it: the real command (compiled) over stdio, reached by the SDK's own
// client and by a hand-written client that speaks newline-delimited JSON-RPC byte by byte, as the MCP stdio
// transport is specified.

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STDIO_LINE_BYTES } from '../../../src/apps/mcp/index.ts';
import { CLI, SPAWN_TIMEOUT_MS, useCompiledCli } from '../cli/helpers.ts';
import { toolText, workFolder } from './helpers.ts';
import { rmSync } from 'node:fs';

useCompiledCli();

/** The environment of a client that configured nothing: offline, no database URL. */
function offlineEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !/^(MNESOS_|OPENAI_|ANTHROPIC_|GOOGLE_)/.test(key)) env[key] = value;
  return env;
}

let dir: string;
beforeAll(() => {
  dir = workFolder();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('mnesos mcp over stdio', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it('serves the SDK client: tools, a validation, a game played and read back', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--db', join(dir, 'sdk.db'), '--seed', '5'],
      cwd: dir,
      env: offlineEnv(),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-test', version: '1' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe('mnesos');
      expect((await client.listTools()).tools).toHaveLength(10);
      const valid = toolText(
        await client.callTool({ name: 'validate_cartridge', arguments: { cartridge: 'minimal' } }),
      );
      expect(valid.text).toMatch(/^ok: Gullrock Light/);
      const started = toolText(
        await client.callTool({ name: 'new_session', arguments: { cartridge: 'lanternmere' } }),
      );
      const session = /^session: (\S+)$/m.exec(started.text)?.[1];
      const turn = toolText(
        await client.callTool({
          name: 'play_turn',
          arguments: { session, input: 'I look around the town.' },
        }),
      );
      expect(turn.isError).toBe(false);
      const state = toolText(await client.callTool({ name: 'session_state', arguments: { session } }));
      expect(state.text).toMatch(/^session \S+, turn \S+ \(depth \d\)/);
      // Lanternmere's armor and attack bonus are private fields: never in the player's view.
      expect(state.text).not.toMatch(/armor|attack_bonus/);
    } finally {
      await client.close();
    }
  });

  describe('a hand-written newline-delimited JSON-RPC client', () => {
    let child: ChildProcessWithoutNullStreams;
    const lines: string[] = [];
    const waiters: Array<{ id: number | null; resolve: (message: Record<string, unknown>) => void }> = [];
    let stdoutRest = '';
    let exit: Promise<number | null>;

    function send(text: string): void {
      child.stdin.write(`${text}\n`);
    }
    function answerTo(id: number | null): Promise<Record<string, unknown>> {
      const found = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((m) => m.id === id);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ id, resolve }));
    }

    beforeAll(async () => {
      child = spawn(process.execPath, [CLI, 'mcp', '--db', join(dir, 'ndjson.db')], {
        cwd: dir,
        env: offlineEnv(),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      exit = new Promise((resolve) => child.on('close', resolve));
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        const parts = (stdoutRest + chunk).split('\n');
        stdoutRest = parts.pop() ?? '';
        for (const line of parts) {
          lines.push(line);
          const message = JSON.parse(line) as Record<string, unknown>;
          for (const w of waiters.splice(0)) {
            if (w.id === message.id) w.resolve(message);
            else waiters.push(w);
          }
        }
      });
      send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'ndjson', version: '1' },
          },
        }),
      );
      const init = await answerTo(1);
      expect(init).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'mnesos' } } });
      send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    }, SPAWN_TIMEOUT_MS);

    it('every line on stdout is one JSON-RPC message; a tool call is answered by its id', async () => {
      send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'run_event', arguments: { cartridge: 'minimal', event: 'light_lamp' } },
        }),
      );
      const answer = await answerTo(2);
      expect(answer).toMatchObject({ id: 2, result: { content: [{ type: 'text' }] } });
      expect(JSON.stringify(answer)).toContain('state.lamp.lit: false → true');
      for (const line of lines) expect(JSON.parse(line)).toHaveProperty('jsonrpc', '2.0');
    });

    it(`a line of ${MAX_STDIO_LINE_BYTES} bytes is read; one byte more is refused unread, and the next line is served`, async () => {
      const ping = (id: number, bytes: number) => {
        const text = JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });
        return `${text.slice(0, -1)}${' '.repeat(bytes - text.length)}}`;
      };
      const at = ping(3, MAX_STDIO_LINE_BYTES);
      expect(Buffer.byteLength(at)).toBe(MAX_STDIO_LINE_BYTES);
      send(at);
      expect(await answerTo(3)).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
      send(ping(4, MAX_STDIO_LINE_BYTES + 1));
      send(ping(5, 100));
      expect(await answerTo(5)).toEqual({ jsonrpc: '2.0', id: 5, result: {} });
      expect(await answerTo(null)).toMatchObject({
        id: null,
        error: { code: -32600, message: expect.stringContaining(`over ${MAX_STDIO_LINE_BYTES} bytes`) },
      });
      expect(lines.some((l) => JSON.parse(l).id === 4)).toBe(false);
    });

    it('answers what was asked before its input closed, then exits 0', async () => {
      send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 6,
          method: 'tools/call',
          params: { name: 'explore_cartridge', arguments: { cartridge: 'minimal', runs: 3, depth: 3 } },
        }),
      );
      child.stdin.end();
      expect(await exit).toBe(0);
      expect(JSON.stringify(await answerTo(6))).toContain('explored Gullrock Light');
    });
  });
});
