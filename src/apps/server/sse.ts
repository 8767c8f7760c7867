// Server-Sent Events: a Response whose body is written as events arrive. Each event has an `id:` (the turn
// id and a sequence number) so a client that lost the connection can ask for the rest. When the client
// goes away the body is cancelled and `signal` aborts, which cancels the turn (and its model calls).

export interface SseEvent {
  readonly event: string;
  readonly data: unknown;
  readonly id?: string;
}

export function formatSse(event: SseEvent): string {
  const lines = [`event: ${event.event}`];
  if (event.id !== undefined) lines.push(`id: ${event.id}`);
  // JSON has no raw newlines, so the data is always one line.
  lines.push(`data: ${JSON.stringify(event.data)}`);
  return `${lines.join('\n')}\n\n`;
}

export function wantsEventStream(accept: string | undefined): boolean {
  return (accept ?? '')
    .split(',')
    .some((part) => part.split(';')[0]?.trim().toLowerCase() === 'text/event-stream');
}

/**
 * Streams what `produce` sends. `signal` aborts when the client disconnects (or `requestSignal` aborts);
 * `produce` must stop then. The stream ends when `produce` returns.
 */
export function sseResponse(
  produce: (send: (event: SseEvent) => void, signal: AbortSignal) => Promise<void>,
  options: { requestSignal?: AbortSignal; headers?: Record<string, string> } = {},
): Response {
  const control = new AbortController();
  const encoder = new TextEncoder();
  const onRequestAbort = () => control.abort(new Error('client disconnected'));
  if (options.requestSignal?.aborted) control.abort();
  options.requestSignal?.addEventListener('abort', onRequestAbort, { once: true });
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (event: SseEvent): void => {
        if (control.signal.aborted) return;
        try {
          controller.enqueue(encoder.encode(formatSse(event)));
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
  });
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      ...options.headers,
    },
  });
}
