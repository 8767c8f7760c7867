// Incremental Server-Sent Events parser for model streams. Bytes arrive in arbitrary pieces (a frame
// split across reads, CRLF split between two reads); this keeps one pending string, scans each new
// character once, and hands out the `data` of each complete event. Plain string work: no per-chunk
// stream objects, no regular expressions.

import { ModelError } from './errors.ts';
import { MAX_SSE_EVENT_CHARS } from './limits.ts';

const LF = 10;
const CR = 13;
/** `data: ` */
const DATA_PREFIX_CHARS = 6;

export class SseParser {
  readonly #onData: (data: string) => void;
  readonly #maxEventChars: number;
  readonly #errorPrefix: string;
  /** Characters received but not yet ended by a line break. */
  #pending = '';
  /** Data lines of the event being read, already joined with `\n`; `undefined` when it has none. */
  #data: string | undefined;
  /** The last piece ended with CR: a LF at the start of the next piece belongs to that line break. */
  #afterCR = false;

  /** `errorPrefix` starts the message of the error past the limit (e.g. `model m: unusable response: `). */
  constructor(onData: (data: string) => void, maxEventChars: number = MAX_SSE_EVENT_CHARS, errorPrefix = '') {
    this.#onData = onData;
    this.#maxEventChars = maxEventChars;
    this.#errorPrefix = errorPrefix;
  }

  /** Feeds decoded text; calls `onData` for every event it completes. Throws past the size limit. */
  push(text: string): void {
    let start = 0;
    if (this.#afterCR && text.charCodeAt(0) === LF) start = 1;
    this.#afterCR = false;
    let lineStart = start;
    for (let i = start; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code !== LF && code !== CR) continue;
      const line = this.#pending === '' ? text.slice(lineStart, i) : this.#pending + text.slice(lineStart, i);
      this.#pending = '';
      if (code === CR) {
        if (i + 1 < text.length) {
          if (text.charCodeAt(i + 1) === LF) i++;
        } else {
          this.#afterCR = true;
        }
      }
      lineStart = i + 1;
      this.#line(line);
    }
    if (lineStart < text.length) {
      this.#pending += text.slice(lineStart);
      // The pending line still carries its `data: ` prefix, which the limit does not count.
      this.#checkSize(Math.max(0, this.#pending.length - DATA_PREFIX_CHARS));
    }
  }

  /** The stream ended: an event not closed by a blank line is still delivered (servers omit it). */
  end(): void {
    if (this.#pending !== '') {
      const line = this.#pending;
      this.#pending = '';
      this.#line(line);
    }
    this.#dispatch();
  }

  #line(line: string): void {
    if (line === '') {
      this.#dispatch();
      return;
    }
    if (line.charCodeAt(0) === 58 /* ':' comment */) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== 'data') return; // event, id, retry: nothing a chat completion stream needs
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    this.#data = this.#data === undefined ? value : `${this.#data}\n${value}`;
    this.#checkSize(0);
  }

  #dispatch(): void {
    const data = this.#data;
    this.#data = undefined;
    if (data !== undefined) this.#onData(data);
  }

  /** `pendingChars` plus the event's data so far must stay within the limit. */
  #checkSize(pendingChars: number): void {
    if (pendingChars + (this.#data?.length ?? 0) > this.#maxEventChars) {
      throw new ModelError(
        'bad-response',
        `${this.#errorPrefix}a server-sent event is longer than ${this.#maxEventChars} characters (MAX_SSE_EVENT_CHARS)`,
      );
    }
  }
}
