// A `text/event-stream` reader for a POST that streams (EventSource can only GET), over the one SSE parser
// (src/core/sse.ts, the WHATWG rules).

import { type SseMessage, SseParser } from '../../../core/sse.ts';

export type { SseMessage };

/** Characters buffered for one message; a server sending more without a blank line is broken. */
export const MAX_SSE_MESSAGE_CHARS = 1_000_000;

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

/** Reads a streaming response body as SSE messages. */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let messages: SseMessage[] = [];
  const parser = new SseParser((message) => messages.push(message), {
    maxMessageChars: MAX_SSE_MESSAGE_CHARS,
    tooLong: (max) =>
      new SseParseError(`event stream: a message is longer than ${max} characters (MAX_SSE_MESSAGE_CHARS)`),
  });
  const take = (): SseMessage[] => {
    const ready = messages;
    messages = [];
    return ready;
  };
  let finished = false;
  try {
    for (;;) {
      if (signal?.aborted) return;
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        parser.push(decoder.decode());
        parser.end();
        for (const m of take()) yield m;
        return;
      }
      parser.push(decoder.decode(value, { stream: true }));
      for (const m of take()) yield m;
    }
  } finally {
    // A consumer that stops early cancels the body, so the server sees the disconnect and aborts the turn.
    // `cancel` rejects only with the stream's own error (a body that already failed), which is the error
    // already on its way out of this generator, so that rejection is the one expected here.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
