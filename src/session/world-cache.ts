// The world at a turn, without the world in the turn's record. A record keeps only its batch; the world at
// a turn is read from memory when this process played or read that turn recently, else built from the
// store's nearest snapshot on the branch plus the batches after it (parsed and applied: the batches were
// validated when they were committed).
// Worlds are immutable values and turns never change, so a cached world is never stale.

import type { World } from '../ledger/index.ts';
import {
  MAX_TURNS_BETWEEN_SNAPSHOTS,
  MIN_SNAPSHOT_EVENT_CHARS,
  SNAPSHOT_REPLAY_RATIO,
  WORLD_CACHE_SIZE,
} from './limits.ts';

/** A branch's world at one turn, with what the snapshot rule needs to know about the branch above it. */
export interface BranchWorld {
  readonly world: World;
  /** Characters of ledger events stored on the branch since its last snapshot (or since genesis). */
  readonly sinceSnapshotChars: number;
  /** Characters of that snapshot (0 when there is none). */
  readonly snapshotChars: number;
  /** Turns on the branch since that snapshot (or since genesis). */
  readonly sinceSnapshotTurns: number;
  /**
   * The session of the turn it was cached for: an entry with one answers for that session only (a turn id
   * of another session, even one this process played, is not found through it).
   */
  readonly sessionId?: string;
}

/** When a turn stores a snapshot (the defaults are SNAPSHOT_REPLAY_RATIO and MIN_SNAPSHOT_EVENT_CHARS). */
export interface SnapshotRule {
  readonly ratio: number;
  readonly minEventChars: number;
  /** Default MAX_TURNS_BETWEEN_SNAPSHOTS. */
  readonly maxTurns?: number;
}

export const DEFAULT_SNAPSHOT_RULE: SnapshotRule = {
  ratio: SNAPSHOT_REPLAY_RATIO,
  minEventChars: MIN_SNAPSHOT_EVENT_CHARS,
  maxTurns: MAX_TURNS_BETWEEN_SNAPSHOTS,
};

/** Whether the turn that brings the branch to `sinceSnapshotChars` should store a snapshot. */
export function snapshotDue(
  sinceSnapshotChars: number,
  snapshotChars: number,
  rule: SnapshotRule = DEFAULT_SNAPSHOT_RULE,
  sinceSnapshotTurns = 0,
): boolean {
  if (sinceSnapshotTurns >= (rule.maxTurns ?? MAX_TURNS_BETWEEN_SNAPSHOTS)) return true;
  return (
    sinceSnapshotChars > 0 &&
    sinceSnapshotChars >= Math.max(rule.minEventChars, Math.ceil(snapshotChars / rule.ratio))
  );
}

/** Least recently used values by turn id (turns never change, so an entry is never stale). */
export class TurnLru<V> {
  readonly #entries = new Map<string, V>();
  readonly #size: number;

  constructor(size: number, what: string) {
    if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`${what} size must be an integer ≥ 0`);
    this.#size = size;
  }

  get(turnId: string): V | undefined {
    const entry = this.#entries.get(turnId);
    if (entry === undefined) return undefined;
    this.#entries.delete(turnId);
    this.#entries.set(turnId, entry);
    return entry;
  }

  set(turnId: string, entry: V): void {
    if (this.#size === 0) return;
    this.#entries.delete(turnId);
    this.#entries.set(turnId, entry);
    while (this.#entries.size > this.#size) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** Least recently used worlds by turn id. */
export class WorldCache extends TurnLru<BranchWorld> {
  constructor(size = WORLD_CACHE_SIZE) {
    super(size, 'world cache');
  }
}
