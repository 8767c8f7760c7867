// biome-ignore-all lint/suspicious/noExplicitAny: event data is read loosely; each test asserts the fields it needs.
// A live-stream reader for tests: GET /v1/sessions/{id}/live with fetch, parsed with the project's own SSE
// parser as events arrive, with a wait for the event a test expects next.

import { safeParse } from 'zod/mini';
import { liveStreamEvents } from '../../../src/apps/contract/index.ts';
import { SseParser } from '../../../src/core/sse.ts';

export interface LiveMessage {
  readonly event: string;
  readonly id: string;
  readonly data: any;
  /** performance.now() when it arrived. */
  readonly at: number;
}

export interface LiveReader {
  readonly status: number;
  readonly events: LiveMessage[];
  /** Resolves with the first event (from `from` on) that `match` accepts; rejects after `timeoutMs`. */
  next(match: (event: LiveMessage) => boolean, timeoutMs?: number, from?: number): Promise<LiveMessage>;
  /** The error body when the stream was refused. */
  readonly refused?: any;
  readonly ended: Promise<void>;
  close(): void;
}

export async function openLive(
  baseUrl: string,
  sessionId: string,
  options: { key?: string; lastEventId?: string } = {},
): Promise<LiveReader> {
  const control = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  const response = await fetch(`${baseUrl}/v1/sessions/${sessionId}/live`, {
    headers,
    signal: control.signal,
  });
  const events: LiveMessage[] = [];
  const waiters = new Set<() => void>();
  if (response.status !== 200) {
    const refused = await response.json();
    return {
      status: response.status,
      events,
      refused,
      next: () => Promise.reject(new Error(`stream refused: ${response.status}`)),
      ended: Promise.resolve(),
      close: () => undefined,
    };
  }
  const parser = new SseParser(
    (message) => {
      events.push({
        event: message.event,
        id: message.id,
        data: message.data === '' ? undefined : JSON.parse(message.data),
        at: performance.now(),
      });
      for (const wake of [...waiters]) wake();
    },
    { maxMessageChars: 10_000_000, tooLong: () => new Error('too long') },
  );
  const ended = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
        parser.push(decoder.decode(chunk, { stream: true }));
    } catch {
      // closed by the test or the server
    }
    for (const wake of [...waiters]) wake();
  })();
  let done = false;
  void ended.then(() => {
    done = true;
  });
  return {
    status: response.status,
    events,
    ended,
    close: () => control.abort(),
    next(match, timeoutMs = 5_000, from = 0) {
      return new Promise<LiveMessage>((resolve, reject) => {
        const look = (): boolean => {
          const found = events.slice(from).find(match);
          if (found !== undefined) {
            cleanup();
            resolve(found);
            return true;
          }
          if (done) {
            cleanup();
            reject(new Error(`stream ended without the event; got ${events.map((e) => e.event).join(',')}`));
            return true;
          }
          return false;
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(`no matching event in ${timeoutMs} ms; got ${events.map((e) => e.event).join(',')}`),
          );
        }, timeoutMs);
        const wake = () => void look();
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(wake);
        };
        if (!look()) waiters.add(wake);
      });
    },
  };
}

/**
 * What in `events` the contract does not describe (apps/contract/table.ts, `liveStreamEvents`): an event it
 * does not name, or data that does not match its event's schema. The web client parses with the same table.
 */
export function contractProblems(events: readonly LiveMessage[]): string[] {
  return events.flatMap((message) => {
    if (!Object.hasOwn(liveStreamEvents, message.event)) return [`${message.event}: not in the contract`];
    const parsed = safeParse(liveStreamEvents[message.event as keyof typeof liveStreamEvents], message.data);
    return parsed.success
      ? []
      : parsed.error.issues.map((issue) => `${message.event}: ${issue.path.join('.')}: ${issue.message}`);
  });
}
