// The SSE parser of the engine's OpenAI-compatible client: frames split anywhere, every line ending,
// comments and other fields ignored, and a bound on one event.

import { describe, expect, it } from 'vitest';
import { ModelError } from '../../src/adapters/llm/errors.ts';
import { MAX_SSE_EVENT_CHARS } from '../../src/adapters/llm/limits.ts';
import { SseParser } from '../../src/adapters/llm/sse.ts';

function parse(pieces: readonly string[], max?: number): string[] {
  const out: string[] = [];
  const parser = new SseParser((data) => out.push(data), max);
  for (const piece of pieces) parser.push(piece);
  parser.end();
  return out;
}

const STREAM = 'data: {"a":1}\n\ndata: {"b":"x y"}\n\ndata: [DONE]\n\n';

describe('SseParser', () => {
  it('reads whole events', () => {
    expect(parse([STREAM])).toEqual(['{"a":1}', '{"b":"x y"}', '[DONE]']);
  });

  it('gives the same events whatever the split, down to one character a piece', () => {
    const whole = parse([STREAM]);
    for (let size = 1; size <= 8; size++) {
      const pieces = Array.from({ length: Math.ceil(STREAM.length / size) }, (_, i) =>
        STREAM.slice(i * size, (i + 1) * size),
      );
      expect(parse(pieces)).toEqual(whole);
    }
  });

  it('accepts CRLF and lone CR line endings, also when CR and LF arrive in different pieces', () => {
    expect(parse(['data: one\r\n\r\ndata: two\r\r'])).toEqual(['one', 'two']);
    expect(parse(['data: one\r', '\n\r', '\ndata: two\r\n', '\r\n'])).toEqual(['one', 'two']);
    // A CR at the end of a piece followed by a new line's text is a line break, not lost text.
    expect(parse(['data: one\r', '\r', 'data: two\n\n'])).toEqual(['one', 'two']);
  });

  it('ignores comments and the event, id and retry fields; joins multi-line data with \\n', () => {
    const text = ': keep-alive\n\nevent: message\nid: 7\nretry: 100\ndata: first\ndata:second\n\n:\n\n';
    expect(parse([text])).toEqual(['first\nsecond']);
  });

  it('drops the single space after the colon only', () => {
    expect(parse(['data:  two spaces\n\n'])).toEqual([' two spaces']);
  });

  it('delivers a last event the server did not close with a blank line', () => {
    expect(parse(['data: {"a":1}\n\ndata: [DONE]'])).toEqual(['{"a":1}', '[DONE]']);
  });

  it('an event of exactly the limit is read; one character more is a bad-response error', () => {
    const max = 64;
    expect(parse([`data: ${'x'.repeat(max)}\n\n`], max)).toEqual(['x'.repeat(max)]);
    // The same, arriving in pieces (the line is pending between them).
    expect(parse(['data: ', 'x'.repeat(max / 2), 'x'.repeat(max / 2), '\n\n'], max)).toEqual([
      'x'.repeat(max),
    ]);
    expect(() => parse(['data: ', 'x'.repeat(max / 2), 'x'.repeat(max / 2 + 1)], max)).toThrow(
      /MAX_SSE_EVENT_CHARS/,
    );
    expect(() => parse([`data: ${'x'.repeat(max + 1)}\n\n`], max)).toThrow(ModelError);
    try {
      parse([`data: ${'x'.repeat(max + 1)}\n\n`], max);
    } catch (error) {
      expect(error).toMatchObject({ kind: 'bad-response' });
      expect((error as Error).message).toContain('MAX_SSE_EVENT_CHARS');
    }
  });

  it('a line that never ends is refused once it passes the limit, without waiting for the end', () => {
    const max = 1_000;
    const parser = new SseParser(() => {}, max);
    parser.push('data: ');
    expect(() => {
      for (let i = 0; i < 100; i++) parser.push('y'.repeat(100));
    }).toThrow(/longer than 1000 characters/);
  });

  it('multi-line data counts toward the same limit', () => {
    const max = 10;
    expect(parse(['data: 12345\ndata: 1234\n\n'], max)).toEqual(['12345\n1234']);
    expect(() => parse(['data: 12345\ndata: 12345\n\n'], max)).toThrow(/MAX_SSE_EVENT_CHARS/);
  });

  it('the default limit is 1 MiB', () => {
    expect(MAX_SSE_EVENT_CHARS).toBe(1024 * 1024);
    expect(parse([`data: ${'z'.repeat(MAX_SSE_EVENT_CHARS)}\n\n`])[0]).toHaveLength(MAX_SSE_EVENT_CHARS);
  });
});
