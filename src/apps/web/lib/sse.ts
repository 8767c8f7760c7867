// A `text/event-stream` reader for a POST that streams (EventSource can only GET). It follows the WHATWG
// rules that matter here: `event:`, `data:` (several lines join with '\n'), `id:`, comments (`:`), CRLF/LF/CR
// line ends, a blank line dispatches, a message without data is dropped, and one leading space after the
// colon is removed.

/** Characters buffered for one message; a server sending more without a blank line is broken. */
export const MAX_SSE_MESSAGE_CHARS = 1_000_000;

export interface SseMessage {
  /** `message` when the server gave no `event:` line. */
  readonly event: string;
  readonly data: string;
  /** The last `id:` seen on the stream so far (WHATWG keeps it across messages). */
  readonly id: string;
}

export class SseParseError extends Error {}

/** Characters of a malformed message's data quoted in the error. */
const QUOTED_DATA_CHARS = 80;

/**
 * A message's data as JSON. Our server sends JSON in every message, so data that does not parse is a broken
 * stream (a truncating proxy, a server bug): an `SseParseError` naming the event, never a frame dropped in
 * silence (a dropped `done` would leave the player waiting for ever).
 */
export function jsonData(message: SseMessage): unknown {
  try {
    return JSON.parse(message.data);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    const quoted =
      message.data.length > QUOTED_DATA_CHARS ? `${message.data.slice(0, QUOTED_DATA_CHARS)}…` : message.data;
    throw new SseParseError(
      `event stream: the '${message.event}' message is not JSON (${error.message}): ${JSON.stringify(quoted)}`,
    );
  }
}

export class SseParser {
  #buffer = '';
  #event = '';
  #data: string[] = [];
  #dataChars = 0;
  #lastId = '';
  #sawCr = false;

  /** Feeds a chunk of decoded text; returns the messages it completed. */
  push(chunk: string): SseMessage[] {
    const out: SseMessage[] = [];
    let text = chunk;
    // A CR at the end of the previous chunk may be the first half of a CRLF.
    if (this.#sawCr && text.startsWith('\n')) text = text.slice(1);
    this.#sawCr = false;
    this.#buffer += text;
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.#buffer);
      if (match === null) break;
      // A lone CR at the very end might be followed by LF in the next chunk: consume it now, skip the LF later.
      if (match[0] === '\r' && match.index === this.#buffer.length - 1) this.#sawCr = true;
      const line = this.#buffer.slice(0, match.index);
      this.#buffer = this.#buffer.slice(match.index + match[0].length);
      const message = this.#line(line);
      if (message) out.push(message);
    }
    if (this.#buffer.length + this.#dataChars > MAX_SSE_MESSAGE_CHARS) {
      throw new SseParseError(
        `event stream: a message is longer than ${MAX_SSE_MESSAGE_CHARS} characters (MAX_SSE_MESSAGE_CHARS)`,
      );
    }
    return out;
  }

  /** The stream ended: an unterminated message is discarded, as the spec says. */
  end(): void {
    this.#buffer = '';
    this.#reset();
  }

  #reset(): void {
    this.#event = '';
    this.#data = [];
    this.#dataChars = 0;
  }

  #line(line: string): SseMessage | undefined {
    if (line === '') {
      if (this.#data.length === 0) {
        this.#reset();
        return undefined;
      }
      const message = { event: this.#event || 'message', data: this.#data.join('\n'), id: this.#lastId };
      this.#reset();
      return message;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.#event = value;
        break;
      case 'data':
        this.#data.push(value);
        this.#dataChars += value.length + 1;
        break;
      case 'id':
        if (!value.includes('\0')) this.#lastId = value;
        break;
      default:
        break; // `retry` and unknown fields are ignored: this reader does not reconnect by itself.
    }
    return undefined;
  }
}

/** Reads a streaming response body as SSE messages. */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  let finished = false;
  try {
    for (;;) {
      if (signal?.aborted) return;
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        for (const m of parser.push(decoder.decode())) yield m;
        parser.end();
        return;
      }
      for (const m of parser.push(decoder.decode(value, { stream: true }))) yield m;
    }
  } finally {
    // A consumer that stops early cancels the body, so the server sees the disconnect and aborts the turn.
    // `cancel` rejects only with the stream's own error (a body that already failed), which is the error
    // already on its way out of this generator, so that rejection is the one expected here.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
