import { describe, expect, it } from 'vitest';
import { MAX_SSE_MESSAGE_CHARS, readSse, SseParseError, SseParser } from '../../src/apps/web/lib/sse.ts';

function parseAll(chunks: readonly string[]) {
  const parser = new SseParser();
  return chunks.flatMap((c) => parser.push(c));
}

describe('SseParser', () => {
  it('reads events, multi-line data, ids and comments', () => {
    const stream = ': hello\n\nevent: phase\nid: t1:1\ndata: {"a":1}\n\ndata: line one\ndata:line two\n\n';
    expect(parseAll([stream])).toEqual([
      { event: 'phase', data: '{"a":1}', id: 't1:1' },
      { event: 'message', data: 'line one\nline two', id: 't1:1' },
    ]);
  });

  it('gives the same messages however the text is split, with LF, CRLF or CR line ends', () => {
    const body = 'event: narration_delta\ndata: {"text":"The lamps"}\n\nevent: done\ndata: {}\n\n';
    const expected = parseAll([body]);
    expect(expected).toHaveLength(2);
    for (const eol of ['\n', '\r\n', '\r']) {
      const text = body.replace(/\n/g, eol);
      for (let cut = 0; cut <= text.length; cut++) {
        expect(
          parseAll([text.slice(0, cut), text.slice(cut)]),
          `eol ${JSON.stringify(eol)} cut ${cut}`,
        ).toEqual(expected);
      }
      expect(parseAll([...text])).toEqual(expected);
    }
  });

  it('drops a message without data and an unterminated last message', () => {
    const parser = new SseParser();
    expect(parser.push('event: ping\n\nevent: x\ndata: half')).toEqual([]);
    parser.end();
    expect(parser.push('\n\n')).toEqual([]);
  });

  it(`buffers at most MAX_SSE_MESSAGE_CHARS (${MAX_SSE_MESSAGE_CHARS}) for one message`, () => {
    const at = new SseParser();
    // `data: ` plus the payload plus its newline is counted as the payload and one separator.
    const payload = 'x'.repeat(MAX_SSE_MESSAGE_CHARS - 1);
    expect(at.push(`data: ${payload}\n`)).toEqual([]);
    expect(at.push('\n')[0]?.data).toHaveLength(MAX_SSE_MESSAGE_CHARS - 1);
    const past = new SseParser();
    expect(() => past.push(`data: ${'x'.repeat(MAX_SSE_MESSAGE_CHARS)}\n`)).toThrow(SseParseError);
    expect(() => new SseParser().push('x'.repeat(MAX_SSE_MESSAGE_CHARS + 1))).toThrow(
      /MAX_SSE_MESSAGE_CHARS/,
    );
  });
});

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
