// Server-Sent Events, the `text/event-stream` wire format, read and written once for everyone: the model
// client reads provider streams with it, the browser reads the server's turn streams with it, and the
// server writes its streams with it. Reading follows the WHATWG rules (html.spec.whatwg.org, "Parsing an
// event stream"): one leading BOM dropped, LF, CRLF and lone CR line ends (a CR and its LF may arrive in
// different pieces), comments (`:`), `event`, `data` (several lines join with "\n"), `id` (kept across
// messages, refused with a NUL), `retry` (digits only), one space after the colon removed, a blank line
// dispatches, a message without data is dropped, and an unterminated message at the end is discarded.
// Pure and browser-safe: plain string work, each character scanned once, no regular expressions.

export interface SseMessage {
  /** `message` when the server gave no `event:` line. */
  readonly event: string;
  readonly data: string;
  /** The last `id:` seen on the stream so far. */
  readonly id: string;
}

export interface SseParserOptions {
  /** Characters of one message's data (its lines joined with "\n"); one more is refused. */
  readonly maxMessageChars: number;
  /** The error thrown past `maxMessageChars` (each caller names its own limit). */
  readonly tooLong: (maxMessageChars: number) => Error;
}

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;
const BOM = 0xfeff;
/** `data: `, which a pending line is assumed to start with when it is counted against the limit. */
const DATA_PREFIX_CHARS = 6;

export class SseParser {
  readonly #onMessage: (message: SseMessage) => void;
  readonly #max: number;
  readonly #tooLong: (max: number) => Error;
  /** Characters received but not yet ended by a line break. */
  #pending = '';
  /** Data lines of the message being read, joined with "\n"; `undefined` when it has none. */
  #data: string | undefined;
  #event = '';
  #lastId = '';
  #retry: number | undefined;
  /** The last piece ended with CR: a LF at the start of the next piece belongs to that line break. */
  #afterCR = false;
  /** Nothing has been read yet: a BOM here is not part of the stream. */
  #atStart = true;

  constructor(onMessage: (message: SseMessage) => void, options: SseParserOptions) {
    this.#onMessage = onMessage;
    this.#max = options.maxMessageChars;
    this.#tooLong = options.tooLong;
  }

  /** The reconnection time the stream last asked for (`retry:`, milliseconds), if any. */
  get retry(): number | undefined {
    return this.#retry;
  }

  /** Feeds decoded text; calls `onMessage` for every message it completes. Throws past the size limit. */
  push(text: string): void {
    if (text.length === 0) return;
    let start = 0;
    if (this.#atStart) {
      this.#atStart = false;
      if (text.charCodeAt(0) === BOM) start = 1;
    }
    if (this.#afterCR) {
      this.#afterCR = false;
      if (text.charCodeAt(start) === LF) start++;
    }
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
      this.#checkSize(Math.max(0, this.#pending.length - DATA_PREFIX_CHARS));
    }
  }

  /** The stream ended: a message not closed by a blank line is discarded, as the spec says. */
  end(): void {
    this.#pending = '';
    this.#data = undefined;
    this.#event = '';
    this.#afterCR = false;
  }

  #line(line: string): void {
    if (line === '') {
      this.#dispatch();
      return;
    }
    if (line.charCodeAt(0) === COLON) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === SPACE) value = value.slice(1);
    switch (field) {
      case 'data':
        this.#data = this.#data === undefined ? value : `${this.#data}\n${value}`;
        this.#checkSize(0);
        return;
      case 'event':
        this.#event = value;
        return;
      case 'id':
        if (!value.includes('\0')) this.#lastId = value;
        return;
      case 'retry':
        if (value !== '' && isDigits(value)) this.#retry = Number(value);
        return;
      default:
        return; // unknown fields are ignored
    }
  }

  #dispatch(): void {
    const data = this.#data;
    const event = this.#event;
    this.#data = undefined;
    this.#event = '';
    if (data !== undefined)
      this.#onMessage({ event: event === '' ? 'message' : event, data, id: this.#lastId });
  }

  /** `pendingChars` plus the message's data so far must stay within the limit. */
  #checkSize(pendingChars: number): void {
    if (pendingChars + (this.#data?.length ?? 0) > this.#max) throw this.#tooLong(this.#max);
  }
}

function isDigits(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/** What `formatSse` writes: `event` and `id` lines when given, then the data (one `data:` line per line). */
export interface SseOut {
  readonly event?: string;
  readonly id?: string;
  readonly data: string;
}

/**
 * One message in the wire format, ended by its blank line. The data's line breaks (LF, CRLF or CR) become
 * separate `data:` lines, so a reader gets the same text back (with "\n" between its lines).
 */
export function formatSse(message: SseOut): string {
  let out = '';
  if (message.event !== undefined) out += `event: ${oneLine(message.event)}\n`;
  if (message.id !== undefined) out += `id: ${oneLine(message.id)}\n`;
  let start = 0;
  const data = message.data;
  for (let i = 0; i < data.length; i++) {
    const code = data.charCodeAt(i);
    if (code !== LF && code !== CR) continue;
    out += `data: ${data.slice(start, i)}\n`;
    if (code === CR && data.charCodeAt(i + 1) === LF) i++;
    start = i + 1;
  }
  return `${out}data: ${data.slice(start)}\n\n`;
}

/** An `event` or `id` value cannot hold a line break (it would end the field): such text is cut there. */
function oneLine(value: string): string {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code === LF || code === CR) return value.slice(0, i);
  }
  return value;
}
