// The committed log and the worlds it implies. The log is the truth; a world is a fold of it.
// A LedgerIndex keeps a snapshot every K entries so `stateAt(turn)` folds at most K batches.

import { applyEvent, WorldDraft } from './apply.ts';
import type { LedgerError } from './errors.ts';
import type { LedgerEvent } from './events.ts';
import { DEFAULT_SNAPSHOT_INTERVAL } from './limits.ts';
import { DEFAULT_POLICY, type LedgerPolicy } from './policy.ts';
import { type ProposeResult, proposeBatch, type ValidateOptions } from './validate.ts';
import { emptyWorld, type Stamp, type World } from './world.ts';

/** One committed batch: the turn that committed it, its story clock, its validated events. */
export interface LogEntry {
  readonly turn: number;
  readonly gameTime?: string;
  readonly events: readonly LedgerEvent[];
}

function stampOf(entry: LogEntry): Stamp {
  return entry.gameTime === undefined ? { turn: entry.turn } : { turn: entry.turn, gameTime: entry.gameTime };
}

/** Folds entries onto `base` in one draft (tables copied at most once), without touching `base`. */
export function foldEntries(base: World, entries: Iterable<LogEntry>): World {
  const draft = new WorldDraft(base);
  for (const entry of entries) {
    const at = stampOf(entry);
    for (let index = 0; index < entry.events.length; index++)
      applyEvent(draft, entry.events[index]!, index, at);
  }
  return draft.finish();
}

/** The world after every entry with `turn ≤ upToTurn` (all of them when omitted), from empty. */
export function foldLog(log: readonly LogEntry[], upToTurn = Number.POSITIVE_INFINITY): World {
  return foldEntries(
    emptyWorld(),
    log.filter((entry) => entry.turn <= upToTurn),
  );
}

export type ReplayResult =
  | { readonly ok: true; readonly world: World; readonly log: LogEntry[] }
  | {
      readonly ok: false;
      readonly entry: number;
      readonly turn: number | null;
      readonly errors: LedgerError[];
    };

/**
 * Replays a stored log from untrusted data (a save file), re-validating every batch with the current
 * validator and policy: a batch the validator refuses fails the load with its entry and reasons;
 * nothing is skipped and nothing is applied blindly. Entries must have strictly increasing turns.
 */
export function replayLog(
  entries: ReadonlyArray<{ turn: unknown; gameTime?: unknown; events: unknown }>,
  policy: LedgerPolicy = DEFAULT_POLICY,
  options: {
    readonly cartridgeTurn?: number;
    /** The world the entries apply to (a stored snapshot); empty when omitted. */
    readonly base?: World;
    /** Entries must have turns greater than this (the snapshot's turn); -1 when omitted. */
    readonly afterTurn?: number;
  } = {},
): ReplayResult {
  let world = options.base ?? emptyWorld();
  const log: LogEntry[] = [];
  let lastTurn = options.afterTurn ?? -1;
  for (let i = 0; i < entries.length; i++) {
    const raw = entries[i]!;
    const turn = raw.turn;
    if (typeof turn !== 'number' || !Number.isSafeInteger(turn) || turn < 0 || turn <= lastTurn) {
      const message = `entry ${i}: turn must be an integer ≥ 0 greater than the previous entry's (${lastTurn})`;
      return { ok: false, entry: i, turn: null, errors: [{ index: -1, code: 'LEDGER_BAD_TYPE', message }] };
    }
    if (raw.gameTime !== undefined && typeof raw.gameTime !== 'string') {
      const message = `entry ${i}: gameTime must be a string`;
      return { ok: false, entry: i, turn, errors: [{ index: -1, code: 'LEDGER_BAD_TYPE', message }] };
    }
    const at: Stamp = raw.gameTime === undefined ? { turn } : { turn, gameTime: raw.gameTime };
    // The cartridge's starting world (turn 0 by convention) is replayed under the cartridge's rules.
    const source = turn === (options.cartridgeTurn ?? 0) ? 'cartridge' : 'narrator';
    const result = proposeBatch(world, raw.events, policy, { at, source });
    if (!result.ok) return { ok: false, entry: i, turn, errors: result.errors };
    world = result.world;
    log.push({ ...at, events: result.events });
    lastTurn = turn;
  }
  return { ok: true, world, log };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/**
 * An append-only committed log with its live world and periodic snapshots. There is no API to edit or
 * remove an entry; a correction is a new batch. Entries are stored as frozen copies.
 */
export class LedgerIndex {
  private readonly entries: LogEntry[] = [];
  /** snapshots[i] is the world after the first i × interval entries. */
  private readonly snapshots: World[];
  private live: World;
  readonly snapshotInterval: number;

  constructor(options: { readonly snapshotInterval?: number } = {}) {
    const interval = options.snapshotInterval ?? DEFAULT_SNAPSHOT_INTERVAL;
    if (!Number.isSafeInteger(interval) || interval < 1) {
      throw new RangeError(`snapshotInterval must be an integer ≥ 1, got ${interval}`);
    }
    this.snapshotInterval = interval;
    this.live = emptyWorld();
    this.snapshots = [this.live];
  }

  /** The world after every committed entry. */
  get current(): World {
    return this.live;
  }

  get length(): number {
    return this.entries.length;
  }

  /** The latest committed turn, or null before the first entry. */
  get lastTurn(): number | null {
    return this.entries[this.entries.length - 1]?.turn ?? null;
  }

  /** The committed entries (frozen; mutating them throws). */
  log(): readonly LogEntry[] {
    return this.entries.slice();
  }

  /**
   * Appends a validated batch. Turns strictly increase: a second batch for a turn already committed is a
   * conflict for the caller to resolve, not something to merge.
   */
  append(entry: LogEntry): World {
    const last = this.lastTurn;
    if (!Number.isSafeInteger(entry.turn) || entry.turn < 0 || (last !== null && entry.turn <= last)) {
      throw new RangeError(
        `turn ${entry.turn} must be an integer ≥ 0 after the last committed turn (${last})`,
      );
    }
    const copy: LogEntry = deepFreeze(structuredClone(entry));
    const next = foldEntries(this.live, [copy]);
    this.entries.push(copy);
    this.live = next;
    if (this.entries.length % this.snapshotInterval === 0) this.snapshots.push(next);
    return next;
  }

  /**
   * Validates a batch against the live world and, if it passes, commits it at `at` in one step, reusing
   * the scratch world validation built (no second fold). Nothing is appended on rejection.
   */
  commit(
    rawEvents: unknown,
    policy: LedgerPolicy,
    at: Stamp,
    options: Omit<ValidateOptions, 'at'> = {},
  ): ProposeResult {
    const last = this.lastTurn;
    if (!Number.isSafeInteger(at.turn) || at.turn < 0 || (last !== null && at.turn <= last)) {
      throw new RangeError(`turn ${at.turn} must be an integer ≥ 0 after the last committed turn (${last})`);
    }
    const result = proposeBatch(this.live, rawEvents, policy, { ...options, at });
    if (!result.ok) return result;
    const entry: LogEntry = deepFreeze({ ...at, events: result.events });
    this.entries.push(entry);
    this.live = result.world;
    if (this.entries.length % this.snapshotInterval === 0) this.snapshots.push(result.world);
    return result;
  }

  /** The world as of `turn`: every entry with turn ≤ `turn`; the nearest snapshot plus the tail. */
  stateAt(turn: number): World {
    const count = this.countUpTo(turn);
    if (count === this.entries.length) return this.live;
    const snapshotIndex = Math.floor(count / this.snapshotInterval);
    const base = this.snapshots[snapshotIndex]!;
    const from = snapshotIndex * this.snapshotInterval;
    if (from === count) return base;
    return foldEntries(base, this.entries.slice(from, count));
  }

  /** How many entries have turn ≤ `turn` (binary search: turns strictly increase). */
  private countUpTo(turn: number): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid]!.turn <= turn) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
