// The one reader of the server's event streams: a POST that answers with `text/event-stream` (EventSource
// can only GET), read with fetch over the engine's one SSE parser (src/core/sse.ts, the WHATWG rules), each
// message's data parsed with the contract's schema of its event (apps/contract/streams.ts).

import * as z from 'zod/mini';
import { type StreamEventOf, type StreamEventSchemas, responseProblems } from '../../contract/index.ts';
import { type SseMessage, SseParser } from '../../../core/sse.ts';
import { badResponse } from './answer.ts';
import type { ApiFailure } from './errors.ts';
import { readAnswer } from './errors.ts';
import type { ApiHttp } from './http.ts';

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

/**
 * One message read with a table of the contract: its event beside its parsed data; undefined for an event
 * the table does not name (a newer server may add some); a `bad_response` failure for data that does not
 * match its event's schema. `stream` names the stream in that failure (`the turn stream`).
 */
export function eventOf<T extends StreamEventSchemas>(
  table: T,
  message: { readonly event: string; readonly data: unknown },
  stream: string,
): StreamEventOf<T> | ApiFailure | undefined {
  if (!Object.hasOwn(table, message.event)) return undefined;
  const schema = table[message.event] as z.core.$ZodType;
  const parsed = z.safeParse(schema, message.data, { reportInput: true });
  if (parsed.success) return { event: message.event, data: parsed.data } as StreamEventOf<T>;
  return badResponse(responseProblems(parsed.error), `${stream} (${message.event})`);
}

/** What a streaming request answered: its event stream, or one JSON answer (a replay, a refusal in JSON). */
export type Opened =
  | { readonly kind: 'stream'; readonly body: ReadableStream<Uint8Array> }
  | { readonly kind: 'answer'; readonly json: unknown; readonly status: number };

/**
 * POSTs `body` asking for an event stream. An error status is the ApiFailure it describes (thrown); a
 * success that is not a stream is its JSON answer.
 */
export async function openEventStream(
  http: ApiHttp,
  path: string,
  body: unknown,
  signal?: AbortSignal,
): Promise<Opened> {
  const response = await http.send(
    'POST',
    path,
    { json: body },
    { headers: { accept: 'text/event-stream' }, signal },
  );
  const type = response.headers.get('content-type') ?? '';
  if (response.ok && response.body !== null && type.includes('text/event-stream'))
    return { kind: 'stream', body: response.body };
  return { kind: 'answer', json: await readAnswer(response), status: response.status };
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
