// Every live stream of this process, grouped by table. A table with open streams listens on the bus; when an
// event is announced (here or on another replica) the table's feed reads the new events from the store once,
// in order, and renders each for every member's stream (render.ts). A stream that reconnects with its
// Last-Event-ID first catches up from the store, in the same order. Bounded: streams per principal and per
// server (LiveLimits), a buffer per stream (stream.ts), a page of events per read; a backstop looks at each
// table's newest event number now and then, so a missed announcement (the bus reconnecting) delays, never
// loses, an event.

import type { TableResponse } from '../../contract/index.ts';
import type { BusMessage, TableBus } from '../../../adapters/bus/index.ts';
import type { Store, TableEvent, Turn } from '../../../adapters/store/index.ts';
import type { Cartridge } from '../../../core/cartridge/index.ts';
import type { SessionService, TableAccess } from '../../../engine/session/index.ts';
import { ApiError } from '../errors.ts';
import { viewerOf } from '../member-views.ts';
import { type RenderReads, renderEvent, renderPassing, sharedReads } from './render.ts';
import { type LiveEvent, LiveStream } from './stream.ts';

/** Events read from the store at once (a catch-up reads page after page). */
export const LIVE_PAGE = 200;
/** Milliseconds between the pings every open stream gets. */
export const LIVE_PING_MS = 15_000;
/** Milliseconds between the backstop's looks at each watched table's newest event. */
export const LIVE_BACKSTOP_MS = 2_000;

export interface LiveLimits {
  readonly perPrincipal: number;
  readonly total: number;
}

export interface LiveHubOptions {
  readonly store: Store;
  readonly bus: TableBus;
  readonly service: SessionService;
  readonly limits: LiveLimits;
  /** A turn this process committed lately (TableService.recentTurn): shown without reading it back. */
  readonly recentTurn?: (sessionId: string, turnId: string) => Turn | undefined;
  readonly pingMs?: number;
  readonly backstopMs?: number;
}

/** The first thing a stream says when it does not resume from an event: where the table is now. */
export type Hello = (access: TableAccess) => Promise<TableResponse>;

export class LiveHub {
  readonly #options: LiveHubOptions;
  readonly #feeds = new Map<string, SessionFeed>();
  readonly #byPrincipal = new Map<string, number>();
  readonly #timers: ReturnType<typeof setInterval>[];
  #total = 0;
  /** Streams dropped for falling behind, since start. */
  dropped = 0;

  constructor(options: LiveHubOptions) {
    this.#options = options;
    this.#timers = [
      setInterval(() => this.#ping(), options.pingMs ?? LIVE_PING_MS),
      setInterval(() => this.#backstop(), options.backstopMs ?? LIVE_BACKSTOP_MS),
    ];
    for (const timer of this.#timers) timer.unref();
  }

  /** Streams open now. */
  get open(): number {
    return this.#total;
  }

  /**
   * A stream for one member of a table: from `lastEventId` (catching up) or from now (after `hello`).
   * Refused with 429 past the streams one principal or this server may hold.
   */
  async connect(
    access: TableAccess,
    principalId: string,
    lastEventId: number | undefined,
    hello: Hello,
  ): Promise<LiveStream> {
    this.#admit(principalId);
    const sessionId = access.session.id;
    // The first turn this stream shows should not wait for its cartridge to load (another replica's table).
    void this.#options.service.cartridgeOf(access.session).catch(() => undefined);
    const table = await this.#options.store.getTable(sessionId);
    const newest = table?.eventSeq ?? 0;
    const stream = new LiveStream({
      principalId,
      sessionId,
      viewer: viewerOf(access),
      lastSent: lastEventId ?? newest,
      onEnd: (ended) => this.#ended(ended),
    });
    this.#count(principalId, +1);
    const feed = this.#feed(sessionId, newest);
    try {
      const resume = lastEventId !== undefined && (await this.#canResume(sessionId, lastEventId, newest));
      if (!resume) {
        if (lastEventId !== undefined) stream.send({ event: 'reset', data: { eventSeq: newest } });
        stream.lastSent = newest;
        stream.send({ event: 'hello', data: await hello(access) });
      }
    } catch (error) {
      this.#count(principalId, -1);
      if (feed.streams.size === 0) {
        feed.stop();
        this.#feeds.delete(sessionId);
      }
      throw error;
    }
    // From here the feed sends it what comes; the catch-up first sends what came since `lastSent`.
    if (stream.ended !== 'open') return stream;
    feed.streams.add(stream);
    feed.enqueue(() => feed.catchUp(stream));
    return stream;
  }

  /** Ends every stream and stops listening (the server is closing). */
  close(): void {
    for (const timer of this.#timers) clearInterval(timer);
    for (const feed of [...this.#feeds.values()]) for (const stream of [...feed.streams]) stream.close();
  }

  #admit(principalId: string): void {
    const { perPrincipal, total } = this.#options.limits;
    if (this.#total >= total)
      throw new ApiError(
        429,
        'too_many_streams',
        `this server holds ${total} live streams, the most it may`,
        { limit: total },
        { 'retry-after': '5' },
      );
    if ((this.#byPrincipal.get(principalId) ?? 0) >= perPrincipal)
      throw new ApiError(
        429,
        'too_many_streams',
        `you hold ${perPrincipal} live streams open, the most one key may; close one (another tab?) first`,
        { limit: perPrincipal },
        { 'retry-after': '5' },
      );
  }

  /** Whether events after `lastEventId` are all still stored (else the stream starts over with `reset`). */
  async #canResume(sessionId: string, lastEventId: number, newest: number): Promise<boolean> {
    if (lastEventId > newest) return false;
    if (lastEventId === newest) return true;
    const oldest = await this.#options.store.oldestTableEvent(sessionId);
    return oldest !== 0 && oldest <= lastEventId + 1;
  }

  #count(principalId: string, by: number): void {
    this.#total += by;
    const next = (this.#byPrincipal.get(principalId) ?? 0) + by;
    if (next <= 0) this.#byPrincipal.delete(principalId);
    else this.#byPrincipal.set(principalId, next);
  }

  #ended(stream: LiveStream): void {
    this.#count(stream.principalId, -1);
    if (stream.ended === 'dropped') this.dropped += 1;
    const feed = this.#feeds.get(stream.sessionId);
    if (feed === undefined) return;
    feed.streams.delete(stream);
    if (feed.streams.size === 0) {
      feed.stop();
      this.#feeds.delete(stream.sessionId);
    }
  }

  #feed(sessionId: string, newest: number): SessionFeed {
    let feed = this.#feeds.get(sessionId);
    if (feed === undefined) {
      feed = new SessionFeed(sessionId, newest, this.#options);
      this.#feeds.set(sessionId, feed);
    }
    return feed;
  }

  #ping(): void {
    for (const feed of this.#feeds.values()) for (const stream of feed.streams) stream.ping();
  }

  #backstop(): void {
    for (const feed of this.#feeds.values()) feed.enqueue(() => feed.pull());
  }
}

/** One table's streams on this process, fed in order by one chain of work. */
class SessionFeed {
  readonly streams = new Set<LiveStream>();
  readonly #sessionId: string;
  readonly #options: LiveHubOptions;
  readonly #unsubscribe: () => void;
  #lastSeq: number;
  #chain: Promise<void> = Promise.resolve();

  constructor(sessionId: string, newest: number, options: LiveHubOptions) {
    this.#sessionId = sessionId;
    this.#lastSeq = newest;
    this.#options = options;
    this.#unsubscribe = options.bus.subscribe(sessionId, (message) => this.#heard(message));
  }

  stop(): void {
    this.#unsubscribe();
  }

  /** Runs `work` after the feed's earlier work: events reach every stream in their order. */
  enqueue(work: () => Promise<void>): void {
    this.#chain = this.#chain.then(work).catch((error: unknown) => {
      process.emitWarning(`a live table feed failed: ${(error as Error).message}`, {
        code: 'MNESOS_LIVE_FEED',
      });
    });
  }

  #heard(message: BusMessage): void {
    switch (message.kind) {
      case 'event': {
        const carried = message.event;
        this.enqueue(async () => {
          if (message.seq <= this.#lastSeq) return;
          // The next one, carried whole: sent as it came; after a gap, read from the store in order.
          if (carried !== undefined && message.seq === this.#lastSeq + 1) {
            await this.#dispatch(carried as TableEvent, [...this.streams]);
            this.#lastSeq = message.seq;
          } else await this.pull();
        });
        return;
      }
      case 'passing':
        for (const stream of this.streams) {
          const shown = renderPassing(message.payload, stream.viewer);
          if (shown !== undefined) stream.send(shown);
        }
        return;
      default: {
        const unreachable: never = message;
        throw new Error(`unknown bus message ${JSON.stringify(unreachable)}`);
      }
    }
  }

  /** Reads the events after the newest one sent and sends each to every stream that has not had it. */
  async pull(): Promise<void> {
    for (;;) {
      const events = await this.#options.store.listTableEvents(this.#sessionId, this.#lastSeq, LIVE_PAGE);
      for (const event of events) {
        await this.#dispatch(event, [...this.streams]);
        this.#lastSeq = event.seq;
      }
      if (events.length < LIVE_PAGE) return;
    }
  }

  /** A stream resuming from its Last-Event-ID: the stored events after it, then it follows the feed. */
  async catchUp(stream: LiveStream): Promise<void> {
    for (;;) {
      const events = await this.#options.store.listTableEvents(this.#sessionId, stream.lastSent, LIVE_PAGE);
      for (const event of events) await this.#dispatch(event, [stream]);
      if (events.length < LIVE_PAGE || stream.ended !== 'open') return;
    }
  }

  async #dispatch(event: TableEvent, streams: readonly LiveStream[]): Promise<void> {
    const reads = sharedReads(this.#reads());
    for (const stream of streams) {
      if (stream.ended !== 'open' || stream.lastSent >= event.seq) continue;
      const shown = await renderEvent(event, stream.viewer, reads);
      if (shown === undefined) stream.lastSent = event.seq;
      else stream.send(shown);
      this.#follow(stream, shown);
    }
  }

  /** A member's own seat changed: their role (what they may read) or their leaving (the stream ends). */
  #follow(stream: LiveStream, shown: LiveEvent | undefined): void {
    const data = shown?.data as { character?: string; role?: string } | undefined;
    if (data?.character === undefined || data.character !== stream.viewer.character) return;
    if (shown?.event === 'member_left') stream.close();
    else if (shown?.event === 'member_role')
      stream.viewer = { ...stream.viewer, steers: data.role === 'gm' || data.role === 'owner' };
  }

  /** The table's cartridge, read once for the feed: a session's cartridge version never changes. */
  #cartridge: Promise<Cartridge> | undefined;

  #reads(): RenderReads {
    const { store, service } = this.#options;
    const sessionId = this.#sessionId;
    const session = async () => {
      const found = await store.findSessionForAudit(sessionId);
      if (found === undefined) throw new Error(`session ${sessionId} is gone`);
      return found;
    };
    this.#cartridge ??= session().then(async (s) => (await service.cartridgeOf(s)).cartridge);
    const cartridge = this.#cartridge;
    cartridge.catch(() => {
      if (this.#cartridge === cartridge) this.#cartridge = undefined;
    });
    const recent = this.#options.recentTurn;
    return {
      turn: async (turnId) => recent?.(sessionId, turnId) ?? store.getTurn(sessionId, turnId),
      session,
      cartridge: () => cartridge,
    };
  }
}
