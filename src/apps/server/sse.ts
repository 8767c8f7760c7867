// Server-Sent Events: a Response whose body is written as events arrive. Each event has an `id:` (the turn
// id and a sequence number) so a client that lost the connection can ask for the rest. When the client
// goes away the body is cancelled and `signal` aborts, which cancels the turn (and its model calls).

import { formatSse } from '../../core/sse.ts';

export interface SseEvent {
  readonly event: string;
  readonly data: unknown;
  readonly id?: string;
}

/** The headers of every event stream the server sends (its own streams and the OpenAI-compatible one). */
export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  // nginx and similar proxies buffer responses unless told not to: events would arrive in lumps.
  'x-accel-buffering': 'no',
} as const;

/** One event of ours in the wire format (src/core/sse.ts): its data as JSON. */
export function formatEvent(event: SseEvent): string {
  return formatSse({
    event: event.event,
    ...(event.id === undefined ? {} : { id: event.id }),
    data: JSON.stringify(event.data),
  });
}

/** Counts what a stream holds unread in bytes (desiredSize is then minus the bytes queued). */
const UNREAD_BYTES: QueuingStrategy<Uint8Array> = { highWaterMark: 0, size: (chunk) => chunk.byteLength };

export function wantsEventStream(accept: string | undefined): boolean {
  return (accept ?? '')
    .split(',')
    .some((part) => part.split(';')[0]?.trim().toLowerCase() === 'text/event-stream');
}

/**
 * Streams what `produce` sends. `signal` aborts when the client disconnects (or `requestSignal` aborts);
 * `produce` must stop then. The stream ends when `produce` returns. `E` narrows the events to a table of the
 * contract (apps/contract/streams.ts: `TurnStreamEvent`), so what is sent is what the client parses. With
 * `maxUnreadBytes`, a client that leaves more than that many bytes unread (the socket full, the queue growing)
 * is dropped: the stream ends with an error, its queue is freed and `signal` aborts, so the work behind it (a
 * model call) stops.
 */
export function sseResponse<E extends { readonly event: string; readonly data: unknown } = SseEvent>(
  produce: (send: (event: E & { readonly id?: string }) => void, signal: AbortSignal) => Promise<void>,
  options: { requestSignal?: AbortSignal; headers?: Record<string, string>; maxUnreadBytes?: number } = {},
): Response {
  const control = new AbortController();
  const encoder = new TextEncoder();
  const onRequestAbort = () => control.abort(new Error('client disconnected'));
  if (options.requestSignal?.aborted) control.abort();
  options.requestSignal?.addEventListener('abort', onRequestAbort, { once: true });
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const send = (event: E & { readonly id?: string }): void => {
          if (control.signal.aborted) return;
          // What the client left unread of the earlier events (the one being sent may be large itself).
          const unread = -(controller.desiredSize ?? 0);
          if (options.maxUnreadBytes !== undefined && unread > options.maxUnreadBytes) {
            const error = new Error(
              `the client left ${unread} bytes unread; the limit is ${options.maxUnreadBytes} (the stream was dropped)`,
            );
            control.abort(error);
            controller.error(error);
            return;
          }
          try {
            controller.enqueue(encoder.encode(formatEvent(event)));
          } catch {
            control.abort(new Error('stream closed'));
          }
        };
        void produce(send, control.signal).finally(() => {
          options.requestSignal?.removeEventListener('abort', onRequestAbort);
          try {
            controller.close();
          } catch {
            // already cancelled by the client
          }
        });
      },
      cancel() {
        control.abort(new Error('client disconnected'));
      },
    },
    options.maxUnreadBytes === undefined ? undefined : UNREAD_BYTES,
  );
  return new Response(body, {
    status: 200,
    headers: { ...SSE_HEADERS, ...options.headers },
  });
}
