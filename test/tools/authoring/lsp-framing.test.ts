// The language server's framing limits: header size, message size, Content-Length, JSON nesting. Each at
// the limit and past it; a bad frame gets a JSON-RPC error and the next frame is read. The last test
// drives the real `mnesos lsp --stdio` with the hostile frames that used to crash or stall it.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  type Frame,
  FrameReader,
  INVALID_REQUEST,
  MAX_LSP_HEADER_BYTES,
  MAX_LSP_JSON_DEPTH,
  MAX_LSP_MESSAGE_BYTES,
  PARSE_ERROR,
} from '../../../src/tools/authoring/lsp/framing.ts';
import { LspClient } from './lsp-client.ts';

const frame = (body: string, header = `Content-Length: ${Buffer.byteLength(body)}`) =>
  Buffer.from(`${header}\r\n\r\n${body}`);
const ok = (id: number) => frame(JSON.stringify({ jsonrpc: '2.0', id, method: 'x' }));
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const kinds = (frames: Frame[]) =>
  frames.map((f) => (f.kind === 'message' ? `msg ${(f.message as { id: number }).id}` : `bad ${f.code}`));

describe('FrameReader', () => {
  it('reads frames split anywhere and joined together', () => {
    const bytes = Buffer.concat([ok(1), ok(2), ok(3)]);
    const reader = new FrameReader();
    const out: Frame[] = [];
    for (let i = 0; i < bytes.length; i += 7) out.push(...reader.push(bytes.subarray(i, i + 7)));
    expect(kinds(out)).toEqual(['msg 1', 'msg 2', 'msg 3']);
  });

  it('JSON nesting at MAX_LSP_JSON_DEPTH and past it (100,000 deep is refused without parsing)', () => {
    const at = `{"jsonrpc":"2.0","id":1,"method":"x","params":${nested(MAX_LSP_JSON_DEPTH - 1)}}`;
    const past = `{"jsonrpc":"2.0","id":1,"method":"x","params":${nested(MAX_LSP_JSON_DEPTH)}}`;
    const reader = new FrameReader();
    expect(kinds(reader.push(frame(at)))).toEqual(['msg 1']);
    const refused = reader.push(Buffer.concat([frame(past), frame(nested(100_000)), ok(2)]));
    expect(kinds(refused)).toEqual([`bad ${INVALID_REQUEST}`, `bad ${INVALID_REQUEST}`, 'msg 2']);
    expect(refused[0]!.kind === 'bad' && refused[0]!.reason).toContain('MAX_LSP_JSON_DEPTH');
  });

  it('a message of MAX_LSP_MESSAGE_BYTES is read; one byte more is refused without waiting for its body', () => {
    const prefix = '{"jsonrpc":"2.0","id":1,"method":"x","params":"';
    const body = `${prefix}${'a'.repeat(MAX_LSP_MESSAGE_BYTES - prefix.length - 2)}"}`;
    expect(Buffer.byteLength(body)).toBe(MAX_LSP_MESSAGE_BYTES);
    expect(kinds(new FrameReader().push(frame(body)))).toEqual(['msg 1']);
    const reader = new FrameReader();
    const over = reader.push(Buffer.from(`Content-Length: ${MAX_LSP_MESSAGE_BYTES + 1}\r\n\r\n`));
    expect(over[0]!.kind === 'bad' && over[0]!.reason).toContain('MAX_LSP_MESSAGE_BYTES');
    expect(kinds(reader.push(ok(2)))).toEqual(['msg 2']);
    // A length of 1e12 is no different.
    expect(
      kinds(new FrameReader().push(Buffer.concat([frame('{}', 'Content-Length: 1000000000000'), ok(3)]))),
    ).toEqual([`bad ${INVALID_REQUEST}`, 'msg 3']);
  });

  it('a missing or malformed Content-Length is refused and the next frame read', () => {
    const reader = new FrameReader();
    const out = reader.push(
      Buffer.concat([
        frame('{"id":9}', 'Content-Type: application/json'),
        frame('{"id":9}', 'Content-Length: -4'),
        frame('{"id":9}', 'Content-Length: 12abc'),
        ok(4),
      ]),
    );
    expect(kinds(out)).toEqual([
      `bad ${INVALID_REQUEST}`,
      `bad ${INVALID_REQUEST}`,
      `bad ${INVALID_REQUEST}`,
      'msg 4',
    ]);
    expect(out[0]!.kind === 'bad' && out[0]!.reason).toContain('without a Content-Length');
  });

  it('a header section of MAX_LSP_HEADER_BYTES is read; past it, refused', () => {
    const pad = (n: number) => `Content-Length: 2\r\nX-Pad: ${'p'.repeat(n)}`;
    const base = Buffer.byteLength(pad(0));
    expect(kinds(new FrameReader().push(frame('{}', pad(MAX_LSP_HEADER_BYTES - base)))).length).toBe(1);
    expect(new FrameReader().push(frame('{}', pad(MAX_LSP_HEADER_BYTES - base)))[0]!.kind).toBe('message');
    const reader = new FrameReader();
    const past = reader.push(frame('{}', pad(MAX_LSP_HEADER_BYTES - base + 1)));
    expect(past[0]!.kind === 'bad' && past[0]!.reason).toContain('MAX_LSP_HEADER_BYTES');
    expect(kinds(reader.push(ok(5)))).toEqual(['msg 5']);
    // Garbage that never ends a header is dropped as it comes, not kept.
    const garbage = new FrameReader();
    expect(garbage.push(Buffer.alloc(MAX_LSP_HEADER_BYTES * 4, 'z'))[0]!.kind).toBe('bad');
    expect(kinds(garbage.push(ok(6)))).toEqual(['msg 6']);
  });

  it('a body that is not JSON is a parse error', () => {
    expect(kinds(new FrameReader().push(Buffer.concat([frame('{nope'), ok(7)])))).toEqual([
      `bad ${PARSE_ERROR}`,
      'msg 7',
    ]);
  });
});

describe('mnesos lsp --stdio under hostile frames', () => {
  it('answers each bad frame with a JSON-RPC error and keeps serving', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mnesos-lsp-frames-'));
    const client = new LspClient(dir);
    try {
      // Each hostile frame on its own, answered before the next is sent.
      const answered = async (count: number) => {
        while (client.frameErrors.length < count && !client.exited)
          await new Promise((r) => setTimeout(r, 20));
      };
      client.writeRaw(frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":${nested(100_000)}}`));
      await answered(1);
      client.writeRaw(frame('{}', 'Content-Length: 1000000000000'));
      await answered(2);
      client.writeRaw(frame('{"jsonrpc":"2.0","id":2,"method":"initialize"}', 'X-No-Length: 1'));
      await answered(3);
      const init = await client.request('initialize', {
        processId: process.pid,
        rootUri: pathToFileURL(dir).href,
        capabilities: {},
      });
      expect(init.capabilities).toBeDefined();
      expect(client.frameErrors.map((e) => e.code)).toEqual([
        INVALID_REQUEST,
        INVALID_REQUEST,
        INVALID_REQUEST,
      ]);
      expect(client.frameErrors[0].message).toContain('MAX_LSP_JSON_DEPTH');
      expect(client.frameErrors[1].message).toContain('MAX_LSP_MESSAGE_BYTES');
      expect(client.frameErrors[2].message).toContain('without a Content-Length');
      expect(client.exited).toBe(false);
      await client.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
