// One member's live stream: a Server-Sent Events body written as the table's events arrive. A reader that
// does not keep up is dropped, never waited for: what the socket has not taken queues in the stream, and
// past LIVE_BUFFER_BYTES the stream ends (the client reconnects with its Last-Event-ID and catches up from
// the store). So a slow member costs the server a bounded buffer and stalls nobody.

import type { LiveStreamEvent } from '../../contract/index.ts';
import { formatSse } from '../../../core/sse.ts';
import type { Viewer } from '../member-views.ts';

/** Bytes one stream may hold unread before it is dropped. */
export const LIVE_BUFFER_BYTES = 256 * 1024;
/** Milliseconds a client waits before reconnecting (the stream's `retry:`). */
export const LIVE_RETRY_MS = 2_000;

const encoder = new TextEncoder();

/** An event of the stream as the contract names it, with the table event's number (durable events only). */
export type LiveEvent = LiveStreamEvent & {
  /** The client's Last-Event-ID. */
  readonly id?: number;
};

export class LiveStream {
  readonly body: ReadableStream<Uint8Array>;
  readonly principalId: string;
  readonly sessionId: string;
  viewer: Viewer;
  /** The number of the newest durable event this stream was sent (or told it need not catch up past). */
  lastSent: number;
  /** When it ended: 'closed' by the client or the server, 'dropped' for falling behind. */
  ended: 'open' | 'closed' | 'dropped' = 'open';
  /** Bytes sent (for the benchmark's memory per stream and for tests). */
  bytesSent = 0;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  readonly #onEnd: (stream: LiveStream) => void;
  /** Cuts the connection under the stream (the HTTP server's socket), when the server gives one. */
  #cut: (() => void) | undefined;

  constructor(options: {
    principalId: string;
    sessionId: string;
    viewer: Viewer;
    lastSent: number;
    onEnd: (stream: LiveStream) => void;
  }) {
    this.principalId = options.principalId;
    this.sessionId = options.sessionId;
    this.viewer = options.viewer;
    this.lastSent = options.lastSent;
    this.#onEnd = options.onEnd;
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
          this.#write(`retry: ${LIVE_RETRY_MS}\n\n`);
        },
        cancel: () => this.#finish('closed'),
      },
      new ByteLengthQueuingStrategy({ highWaterMark: 16 * 1024 }),
    );
  }

  /** Bytes written but not yet taken by the socket. */
  get buffered(): number {
    const size = this.#controller?.desiredSize;
    return size === null || size === undefined ? 0 : Math.max(0, 16 * 1024 - size);
  }

  send(event: LiveEvent): void {
    if (this.ended !== 'open') return;
    this.#write(
      formatSse({
        event: event.event,
        ...(event.id === undefined ? {} : { id: String(event.id) }),
        data: JSON.stringify(event.data),
      }),
    );
    if (event.id !== undefined && event.id > this.lastSent) this.lastSent = event.id;
  }

  /** How to cut the connection when the reader falls behind (its unread bytes go with it). */
  cutWith(cut: () => void): void {
    this.#cut = cut;
  }

  /** A comment line: keeps proxies from closing an idle stream and finds sockets that are gone. */
  ping(): void {
    if (this.ended === 'open') this.#write(': ping\n\n');
  }

  close(): void {
    if (this.ended !== 'open') return;
    try {
      this.#controller?.close();
    } catch {
      // already cancelled by the client
    }
    this.#finish('closed');
  }

  #write(text: string): void {
    if (this.#controller === undefined) return;
    if (this.buffered > LIVE_BUFFER_BYTES) {
      this.#drop();
      return;
    }
    const bytes = encoder.encode(text);
    try {
      this.#controller.enqueue(bytes);
      this.bytesSent += bytes.byteLength;
    } catch {
      this.#finish('closed');
    }
  }

  #drop(): void {
    this.#finish('dropped');
    // The socket goes, and what it and the stream held unread with it; without one, the stream errors.
    if (this.#cut !== undefined) {
      this.#cut();
      return;
    }
    try {
      this.#controller?.error(new Error('the reader fell behind and was dropped'));
    } catch {
      // already closed
    }
  }

  #finish(how: 'closed' | 'dropped'): void {
    if (this.ended !== 'open') return;
    this.ended = how;
    this.#onEnd(this);
  }
}
