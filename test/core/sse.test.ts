// The one SSE reader and writer (src/core/sse.ts): the WHATWG parsing rules on their edge cases, pieces split
// anywhere, the bound on one message, and the writer read back by the reader.
import { describe, expect, it } from 'vitest';
import { formatSse, type SseMessage, SseParser } from '../../src/core/sse.ts';

class TooLong extends Error {}

function parser(out: SseMessage[], max = 1_000_000): SseParser {
  return new SseParser((m) => out.push(m), {
    maxMessageChars: max,
    tooLong: (limit) => new TooLong(`longer than ${limit}`),
  });
}

function parse(pieces: readonly string[], max?: number): SseMessage[] {
  const out: SseMessage[] = [];
  const p = parser(out, max);
  for (const piece of pieces) p.push(piece);
  p.end();
  return out;
}

const data = (pieces: readonly string[], max?: number): string[] => parse(pieces, max).map((m) => m.data);

/** Every way of cutting `text` in two, and one character a piece. */
function splits(text: string): string[][] {
  const out: string[][] = [[...text]];
  for (let cut = 0; cut <= text.length; cut++) out.push([text.slice(0, cut), text.slice(cut)]);
  return out;
}

describe('reading', () => {
  it('reads event, data, id and comments; ids carry over; a message without event: is `message`', () => {
    const stream = ': hello\n\nevent: phase\nid: t1:1\ndata: {"a":1}\n\ndata: line one\ndata:line two\n\n';
    expect(parse([stream])).toEqual([
      { event: 'phase', data: '{"a":1}', id: 't1:1' },
      { event: 'message', data: 'line one\nline two', id: 't1:1' },
    ]);
  });

  it('gives the same messages with LF, CRLF or CR line ends, however the text is split', () => {
    const body = 'event: narration_delta\ndata: {"text":"The lamps"}\n\nevent: done\ndata: {}\n\n';
    const expected = parse([body]);
    expect(expected).toHaveLength(2);
    for (const eol of ['\n', '\r\n', '\r']) {
      const text = body.replaceAll('\n', eol);
      for (const pieces of splits(text)) expect(parse(pieces), JSON.stringify(pieces)).toEqual(expected);
    }
  });

  it('a CR ending one piece and a LF starting the next are one line break; a CR then text is a break too', () => {
    expect(data(['data: one\r', '\n\r', '\ndata: two\r\n', '\r\n'])).toEqual(['one', 'two']);
    expect(data(['data: one\r', '\r', 'data: two\n\n'])).toEqual(['one', 'two']);
    expect(data(['data: one\r', '', '\n\n'])).toEqual(['one']);
  });

  it('drops one BOM at the very start of the stream, only there', () => {
    expect(data(['\uFEFFdata: a\n\n'])).toEqual(['a']);
    expect(data(['', '\uFEFF', 'data: a\n\n'])).toEqual(['a']);
    // A second BOM, or one later on, is text: here it makes an unknown field, so nothing is read.
    expect(data(['\uFEFF\uFEFFdata: a\n\n'])).toEqual([]);
    expect(data(['data: a\n\n\uFEFFdata: b\n\n'])).toEqual(['a']);
  });

  it('removes exactly one space after the colon; a line without a colon is a field with no value', () => {
    expect(data(['data:  two spaces\n\n'])).toEqual([' two spaces']);
    expect(data(['data\n\n'])).toEqual(['']);
    expect(data(['data:\ndata:\n\n'])).toEqual(['\n']);
  });

  it('a blank line without data dispatches nothing and forgets the event name', () => {
    expect(parse(['event: ping\n\ndata: x\n\n'])).toEqual([{ event: 'message', data: 'x', id: '' }]);
  });

  it('discards a message the stream does not close with a blank line', () => {
    expect(data(['data: {"a":1}\n\ndata: [DONE]'])).toEqual(['{"a":1}']);
    expect(data(['data: {"a":1}\n\ndata: [DONE]\n'])).toEqual(['{"a":1}']);
    const out: SseMessage[] = [];
    const p = parser(out);
    p.push('event: x\ndata: half');
    p.end();
    p.push('\n\n');
    expect(out).toEqual([]);
  });

  it('keeps the last id, refusing one with a NUL; an empty id: resets it', () => {
    expect(parse(['id: 1\ndata: a\n\nid: x\u0000y\ndata: b\n\nid\ndata: c\n\n']).map((m) => m.id)).toEqual([
      '1',
      '1',
      '',
    ]);
  });

  it('takes retry: of digits only; ignores unknown fields', () => {
    const out: SseMessage[] = [];
    const p = parser(out);
    expect(p.retry).toBeUndefined();
    p.push('retry: 1500\n\n');
    expect(p.retry).toBe(1500);
    p.push('retry: 15s\nretry: -1\nretry:\nfoo: bar\ndata: x\n\n');
    expect(p.retry).toBe(1500);
    expect(out.map((m) => m.data)).toEqual(['x']);
  });
});

describe('the bound on one message', () => {
  const max = 64;

  it('data of exactly the limit is read, whole or in pieces; one character more is refused', () => {
    expect(data([`data: ${'x'.repeat(max)}\n\n`], max)).toEqual(['x'.repeat(max)]);
    expect(data(['data: ', 'x'.repeat(max / 2), 'x'.repeat(max / 2), '\n\n'], max)).toEqual([
      'x'.repeat(max),
    ]);
    expect(() => data([`data: ${'x'.repeat(max + 1)}\n\n`], max)).toThrow(TooLong);
    expect(() => data(['data: ', 'x'.repeat(max / 2), 'x'.repeat(max / 2 + 1)], max)).toThrow(
      /longer than 64/,
    );
  });

  it('a line that never ends is refused once it passes the limit, without waiting for its end', () => {
    const p = parser([], 1_000);
    p.push('data: ');
    expect(() => {
      for (let i = 0; i < 100; i++) p.push('y'.repeat(100));
    }).toThrow(/longer than 1000/);
  });

  it('multi-line data counts toward the same limit, with its line breaks', () => {
    expect(data(['data: 12345\ndata: 1234\n\n'], 10)).toEqual(['12345\n1234']);
    expect(() => data(['data: 12345\ndata: 12345\n\n'], 10)).toThrow(TooLong);
  });
});

describe('writing', () => {
  it('writes event, id and data lines and a blank line', () => {
    expect(formatSse({ event: 'phase', id: 't1:2', data: '{"a":1}' })).toBe(
      'event: phase\nid: t1:2\ndata: {"a":1}\n\n',
    );
    expect(formatSse({ data: '[DONE]' })).toBe('data: [DONE]\n\n');
  });

  it('splits data on LF, CRLF and CR into data lines, so the reader gets it back with "\\n"', () => {
    expect(formatSse({ data: 'a\nb\r\nc\rd' })).toBe('data: a\ndata: b\ndata: c\ndata: d\n\n');
    for (const text of ['', 'one', 'a\nb', 'a\r\nb\rc', '\n', 'trailing\n', ' leading space']) {
      const expected = text.replaceAll('\r\n', '\n').replaceAll('\r', '\n');
      expect(data([formatSse({ event: 'e', id: '7', data: text })])).toEqual([expected]);
    }
  });

  it('cuts an event name or id at a line break, so it cannot inject another field', () => {
    const text = formatSse({ event: 'x\ndata: injected', id: '1\r\nevent: y', data: 'real' });
    expect(text).toBe('event: x\nid: 1\ndata: real\n\n');
    expect(parse([text])).toEqual([{ event: 'x', data: 'real', id: '1' }]);
  });
});
