// `POST /v1/mcp` under `serve`: the real server over loopback, reached by the SDK's own streamable HTTP
// client and by plain fetch. The endpoint sits behind the same API keys, body cap and rate limit as every
// /v1 route, and its sessions belong to the key that made them.

import { rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_A, KEY_B, startTestServer, type TestServer } from '../server/helpers.ts';
import { toolText, workFolder } from './helpers.ts';

const BODY_LIMIT = 4096;

async function connect(server: TestServer, key: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/v1/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  const client = new Client({ name: 'http-test', version: '1' });
  await client.connect(transport);
  return client;
}

/** A JSON-RPC ping whose body is exactly `bytes` long (padded with spaces inside the object). */
function pingOfBytes(id: number, bytes: number): string {
  const text = JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });
  return `${text.slice(0, -1)}${' '.repeat(bytes - text.length)}}`;
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

let dir: string;
let server: TestServer;
beforeAll(async () => {
  dir = workFolder();
  server = await startTestServer({
    apiKeys: [
      { label: 'alice', key: KEY_A },
      { label: 'bob', key: KEY_B },
    ],
    mcpFolders: [dir],
    limits: { maxJsonBodyBytes: BODY_LIMIT, rateLimit: 10_000 },
  });
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('POST /v1/mcp (streamable HTTP under serve)', () => {
  it('without a key is 401, as every /v1 route', async () => {
    const response = await server.call('/v1/mcp', {
      method: 'POST',
      headers: MCP_HEADERS,
      body: pingOfBytes(1, 100),
    });
    expect(response.status).toBe(401);
  });

  it("serves the SDK client: tools, a folder's cartridge validated, a game played; sessions belong to their key", async () => {
    const alice = await connect(server, KEY_A);
    const bob = await connect(server, KEY_B);
    try {
      expect(alice.getServerVersion()?.name).toBe('mnesos');
      expect((await alice.listTools()).tools.map((t) => t.name).sort()).toEqual([
        'eval_expression',
        'explore_cartridge',
        'ledger_query',
        'list_cartridges',
        'lore_lookup',
        'new_session',
        'play_turn',
        'run_event',
        'session_state',
        'validate_cartridge',
      ]);
      const valid = toolText(
        await alice.callTool({ name: 'validate_cartridge', arguments: { cartridge: 'minimal' } }),
      );
      expect(valid.text).toMatch(/^ok: Gullrock Light/);
      const outside = toolText(
        await alice.callTool({ name: 'validate_cartridge', arguments: { cartridge: '/etc' } }),
      );
      expect(outside.isError).toBe(true);
      const started = toolText(
        await alice.callTool({ name: 'new_session', arguments: { cartridge: 'lanternmere' } }),
      );
      const session = /^session: (\S+)$/m.exec(started.text)?.[1];
      expect(session).toBeDefined();
      const turn = toolText(
        await alice.callTool({
          name: 'play_turn',
          arguments: { session, input: 'I go to the Brine Market.' },
        }),
      );
      expect(turn.isError, turn.text).toBe(false);
      const mine = toolText(await alice.callTool({ name: 'session_state', arguments: { session } }));
      expect(mine.text).toMatch(/^session \S+, turn \S+ \(depth 1\)/);
      const theirs = toolText(await bob.callTool({ name: 'session_state', arguments: { session } }));
      expect(theirs.isError).toBe(true);
      expect(theirs.text).not.toContain('depth');
    } finally {
      await alice.close();
      await bob.close();
    }
  });

  it('GET has no stream to give (stateless) and answers 405 naming POST', async () => {
    const response = await server.call('/v1/mcp', { key: KEY_A, headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it(`a body of ${BODY_LIMIT} bytes is answered; one byte more is 413 (the /v1 body cap)`, async () => {
    const at = await server.call('/v1/mcp', {
      method: 'POST',
      key: KEY_A,
      headers: MCP_HEADERS,
      body: pingOfBytes(7, BODY_LIMIT),
    });
    expect(at.status).toBe(200);
    expect(await at.json()).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    const over = await server.call('/v1/mcp', {
      method: 'POST',
      key: KEY_A,
      headers: MCP_HEADERS,
      body: pingOfBytes(8, BODY_LIMIT + 1),
    });
    expect(over.status).toBe(413);
  });
});

describe('POST /v1/mcp and the rate limit', () => {
  const LIMIT = 5;
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({
      apiKeys: [{ label: 'alice', key: KEY_A }],
      limits: { rateLimit: LIMIT, rateWindowMs: 60_000 },
    });
  });
  afterAll(() => limited.stop());

  it(`the ${LIMIT}th request in the window is answered; the next is 429, and so is any /v1 route`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) {
      const response = await limited.call('/v1/mcp', {
        method: 'POST',
        key: KEY_A,
        headers: MCP_HEADERS,
        body: pingOfBytes(100 + i, 100),
      });
      statuses.push(response.status);
      await response.body?.cancel();
    }
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(200), 429]);
    expect((await limited.call('/v1/cartridges', { key: KEY_A })).status).toBe(429);
  });
});
