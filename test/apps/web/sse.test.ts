// The browser's stream reader: readSse over the one SSE parser (test/core/sse.test.ts covers the parsing rules).
import { describe, expect, it } from 'vitest';
import { MAX_SSE_MESSAGE_CHARS, readSse, SseParseError } from '../../../src/apps/web/lib/sse.ts';

function body(...chunks: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
}

async function readAll(stream: ReadableStream<Uint8Array>) {
  const out = [];
  for await (const m of readSse(stream)) out.push(m);
  return out;
}

describe('readSse', () => {
  it('decodes UTF-8 split inside a character', async () => {
    const bytes = new TextEncoder().encode('data: café 💡\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const b of bytes) controller.enqueue(new Uint8Array([b]));
        controller.close();
      },
    });
    const out = [];
    for await (const m of readSse(body)) out.push(m);
    expect(out).toEqual([{ event: 'message', data: 'café 💡', id: '' }]);
  });

  it('yields each message once, in order, and drops an unterminated last one', async () => {
    expect(await readAll(body('event: a\ndata: 1\n\nevent: b\nda', 'ta: 2\n\ndata: 3'))).toEqual([
      { event: 'a', data: '1', id: '' },
      { event: 'b', data: '2', id: '' },
    ]);
  });

  it(`refuses a message past MAX_SSE_MESSAGE_CHARS (${MAX_SSE_MESSAGE_CHARS}) with an SseParseError`, async () => {
    const at = await readAll(body(`data: ${'x'.repeat(MAX_SSE_MESSAGE_CHARS)}\n\n`));
    expect(at[0]?.data).toHaveLength(MAX_SSE_MESSAGE_CHARS);
    const past = readAll(body(`data: ${'x'.repeat(MAX_SSE_MESSAGE_CHARS + 1)}\n\n`));
    await expect(past).rejects.toThrow(SseParseError);
    await expect(readAll(body(`data: ${'x'.repeat(MAX_SSE_MESSAGE_CHARS + 1)}`))).rejects.toThrow(
      /MAX_SSE_MESSAGE_CHARS/,
    );
  });

  it('cancels the body when the reader stops early (so the server sees the disconnect)', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('data: tick\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const m of readSse(body)) {
      expect(m.data).toBe('tick');
      break;
    }
    expect(cancelled).toBe(true);
  });
});
