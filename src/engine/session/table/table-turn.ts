// A turn played at a table, as the caller holds it: the session's own prepared turn, with the table told
// what happens — that it started and whose it is, its prose as it streams (sent on the bus, never stored),
// that it committed (a numbered live event) or failed — and its place in the queue given up however it ends.

import type { BusMessage, PassingPayload, TableBus } from '../../../adapters/bus/index.ts';
import type { Turn } from '../../../adapters/store/index.ts';
import type { TurnEvent } from '../../turn/index.ts';
import type { ReadyTurn, RunOptions } from '../turn-job/types.ts';
import type { TableEventBody } from './events.ts';

/** Milliseconds narration is gathered before it goes on the bus (one message per pause, not per token). */
export const NARRATION_FLUSH_MS = 60;
/** Characters of narration in one bus message (PostgreSQL's NOTIFY carries under 8000 bytes). */
export const MAX_NARRATION_MESSAGE_CHARS = 2_000;

export interface TableTurnHooks {
  readonly bus: TableBus;
  readonly sessionId: string;
  /** The acting character; null for a round (every member acts). */
  readonly character: string | null;
  readonly whisper: boolean;
  readonly publish: (sessionId: string, body: TableEventBody) => Promise<unknown>;
  /** Keeps the committed turn for this process's live streams (they need not read it back). */
  readonly remember?: (turn: Turn) => void;
  /** Runs once when the turn is over (committed, failed, or released unrun). */
  readonly onEnd: () => Promise<void>;
}

export class TableTurn implements ReadyTurn {
  readonly kind = 'ready';
  readonly #inner: ReadyTurn;
  readonly #hooks: TableTurnHooks;
  #ended = false;

  constructor(inner: ReadyTurn, hooks: TableTurnHooks) {
    this.#inner = inner;
    this.#hooks = hooks;
  }

  get turnId(): string {
    return this.#inner.turnId;
  }
  get parentId(): string {
    return this.#inner.parentId;
  }
  get seed(): number {
    return this.#inner.seed;
  }
  get mode(): 'online' | 'offline' {
    return this.#inner.mode;
  }
  get cartridge(): ReadyTurn['cartridge'] {
    return this.#inner.cartridge;
  }

  release(): void {
    this.#inner.release();
    void this.#end();
  }

  async *run(options: RunOptions = {}): AsyncGenerator<TurnEvent, Turn, undefined> {
    const prose = new ProseOnBus(this.#hooks, this.turnId);
    this.#passing({
      type: 'turn_started',
      turnId: this.turnId,
      character: this.#hooks.character ?? '',
      whisper: this.#hooks.whisper,
    });
    const run = this.#inner.run(options);
    let finished = false;
    try {
      for (let step = await run.next(); ; step = await run.next()) {
        if (step.done) {
          finished = true;
          prose.flush();
          await this.#committed(step.value);
          return step.value;
        }
        if (step.value.type === 'narration_delta') prose.add(step.value.text);
        yield step.value;
      }
    } catch (error) {
      prose.flush();
      this.#passing({ type: 'turn_failed', turnId: this.turnId, character: this.#hooks.character ?? '' });
      throw error;
    } finally {
      prose.stop();
      if (!finished) await run.return(undefined as unknown as Turn);
      await this.#end();
    }
  }

  async #committed(turn: Turn): Promise<void> {
    this.#hooks.remember?.(turn);
    await this.#hooks.publish(this.#hooks.sessionId, {
      kind: 'turn',
      turnId: turn.id,
      parentId: turn.parentId ?? '',
      character: this.#hooks.character,
      whisper: this.#hooks.whisper,
    });
  }

  #passing(payload: PassingPayload): void {
    const message: BusMessage = { kind: 'passing', sessionId: this.#hooks.sessionId, payload };
    this.#hooks.bus.publish(message);
  }

  async #end(): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    await this.#hooks.onEnd();
  }
}

/** Narration gathered for NARRATION_FLUSH_MS and sent in pieces of at most MAX_NARRATION_MESSAGE_CHARS. */
class ProseOnBus {
  #text = '';
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly hooks: TableTurnHooks,
    readonly turnId: string,
  ) {}

  add(text: string): void {
    this.#text += text;
    if (this.#text.length >= MAX_NARRATION_MESSAGE_CHARS) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), NARRATION_FLUSH_MS);
  }

  flush(): void {
    this.stop();
    for (let at = 0; at < this.#text.length; at += MAX_NARRATION_MESSAGE_CHARS) {
      const text = this.#text.slice(at, at + MAX_NARRATION_MESSAGE_CHARS);
      this.hooks.bus.publish({
        kind: 'passing',
        sessionId: this.hooks.sessionId,
        payload: {
          type: 'narration',
          turnId: this.turnId,
          character: this.hooks.character ?? '',
          text,
          whisper: this.hooks.whisper,
        },
      });
    }
    this.#text = '';
  }

  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
