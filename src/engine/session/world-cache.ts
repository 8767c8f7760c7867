// The world at a turn, without the world in the turn's record. A record keeps only its batch; the world at
// a turn is read from memory when this process played or read that turn recently, else built from the
// store's nearest complete snapshot on the branch plus the batches after it (parsed and applied: the
// batches were validated when they were committed).
// Worlds are immutable values and turns never change, so a cached world is never stale.
//
// A snapshot is stored in pieces, a few per turn: when the snapshot rule falls due the turn keeps its
// world's JSON text in memory (`PendingSnapshot`) and the turns after it on the branch store the pieces at
// the pace the branch has been growing (the snapshot's size over the turns the last cycle took), so a long
// game's storage per turn stays flat instead of one turn writing megabytes every few thousand turns. The
// snapshot is read from the turn that stores its last piece on. A process that loses the pending text (a
// restart, an evicted cache entry, another replica playing the next turn) abandons it: its pieces stay
// unread, and the next turn that finds the branch overdue stores a fresh snapshot whole.

import type { World } from '../../core/ledger/index.ts';
import { pieceEnd, SNAPSHOT_PIECE_CHARS, type SnapshotPieces } from '../../adapters/store/index.ts';
import {
  MAX_TURNS_BETWEEN_SNAPSHOTS,
  MIN_SNAPSHOT_EVENT_CHARS,
  SNAPSHOT_CHARS_PER_WALKED_TURN,
  SNAPSHOT_REPLAY_RATIO,
  WORLD_CACHE_SIZE,
} from './limits.ts';

/** A snapshot being stored a few pieces per turn. */
export interface PendingSnapshot {
  /** The turn whose world it holds. */
  readonly turnId: string;
  /** That world's JSON text. */
  readonly text: string;
  /** Characters of `text` stored so far (always a piece boundary). */
  readonly written: number;
  /** Pieces stored so far. */
  readonly pieces: number;
  /** Characters to store per turn. */
  readonly pace: number;
  /** Characters paid for and not stored yet (pieces are stored whole). */
  readonly credit: number;
}

/** What the snapshot rule knows about a branch above a turn. */
export interface SnapshotProgress {
  /** Characters of ledger events stored on the branch since its last snapshot began (or since genesis). */
  readonly sinceSnapshotChars: number;
  /** Characters of that snapshot (0 when there is none). */
  readonly snapshotChars: number;
  /** Turns on the branch since that snapshot began (or since genesis). */
  readonly sinceSnapshotTurns: number;
  /** The snapshot still being stored, when this process holds its text. */
  readonly pending?: PendingSnapshot;
}

/** A branch's world at one turn, with what the snapshot rule needs to know about the branch above it. */
export interface BranchWorld extends SnapshotProgress {
  readonly world: World;
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
  /** Characters of a stored piece (default SNAPSHOT_PIECE_CHARS; tests use small ones). */
  readonly pieceChars?: number;
}

export const DEFAULT_SNAPSHOT_RULE: SnapshotRule = {
  ratio: SNAPSHOT_REPLAY_RATIO,
  minEventChars: MIN_SNAPSHOT_EVENT_CHARS,
  maxTurns: MAX_TURNS_BETWEEN_SNAPSHOTS,
};

/** Event characters after which a snapshot of `snapshotChars` is followed by the next one. */
function eventThreshold(snapshotChars: number, rule: SnapshotRule): number {
  return Math.max(rule.minEventChars, Math.ceil(snapshotChars / rule.ratio));
}

/** Turns after which a snapshot of `snapshotChars` is followed by the next one, whatever the events. */
function turnThreshold(snapshotChars: number, rule: SnapshotRule): number {
  return Math.max(
    rule.maxTurns ?? MAX_TURNS_BETWEEN_SNAPSHOTS,
    Math.ceil(snapshotChars / SNAPSHOT_CHARS_PER_WALKED_TURN),
  );
}

/** Whether the turn that brings the branch to `sinceSnapshotChars` should begin a snapshot. */
export function snapshotDue(
  sinceSnapshotChars: number,
  snapshotChars: number,
  rule: SnapshotRule = DEFAULT_SNAPSHOT_RULE,
  sinceSnapshotTurns = 0,
): boolean {
  if (sinceSnapshotTurns >= turnThreshold(snapshotChars, rule)) return true;
  return sinceSnapshotChars > 0 && sinceSnapshotChars >= eventThreshold(snapshotChars, rule);
}

/** One committed turn, as the snapshot rule sees it. */
export interface SnapshotStep {
  /** The turn being committed. */
  readonly turnId: string;
  /** Characters of its ledger events (JSON text). */
  readonly eventChars: number;
  /** The world after it as JSON text (called only when a snapshot begins). */
  readonly worldText: () => string;
}

/**
 * The branch's progress after a turn, and the snapshot pieces the turn stores. A snapshot begins when the
 * rule falls due and no other is pending; it is stored at `pace` characters a turn, the size of the
 * snapshot over the turns its cycle took, so the branch stores about SNAPSHOT_REPLAY_RATIO × its events'
 * size per turn (its first piece at once, so a small world's snapshot is stored whole by the turn that
 * begins it). A branch found overdue (twice past the rule: a pending snapshot was abandoned, or a
 * snapshot was never written) stores the new one whole at once, so the walk of a cold read stays bounded.
 */
export function nextSnapshotProgress(
  before: SnapshotProgress,
  step: SnapshotStep,
  rule: SnapshotRule,
): { progress: SnapshotProgress; write?: SnapshotPieces } {
  const pieceChars = rule.pieceChars ?? SNAPSHOT_PIECE_CHARS;
  let since = before.sinceSnapshotChars + step.eventChars;
  let turns = before.sinceSnapshotTurns + 1;
  let snapshotChars = before.snapshotChars;
  let pending = before.pending;
  if (pending === undefined && snapshotDue(since, snapshotChars, rule, turns)) {
    const overdue =
      since >= 2 * eventThreshold(snapshotChars, rule) || turns >= 2 * turnThreshold(snapshotChars, rule);
    const text = step.worldText();
    pending = {
      turnId: step.turnId,
      text,
      written: 0,
      pieces: 0,
      pace: overdue ? text.length : Math.ceil(text.length / turns),
      // The first piece at once: a world that fits in one piece is stored whole by the turn it is due.
      credit: pieceChars,
    };
    snapshotChars = text.length;
    since = 0;
    turns = 0;
  }
  const progress = { sinceSnapshotChars: since, snapshotChars, sinceSnapshotTurns: turns };
  if (pending === undefined) return { progress };
  return writePieces(progress, pending, pieceChars);
}

/** The pending snapshot's pieces its credit (plus this turn's pace) pays for; complete, it is no longer pending. */
function writePieces(
  progress: SnapshotProgress,
  pending: PendingSnapshot,
  pieceChars: number,
): { progress: SnapshotProgress; write?: SnapshotPieces } {
  const { text } = pending;
  let credit = pending.credit + pending.pace;
  let written = pending.written;
  const pieces: string[] = [];
  while (written < text.length) {
    const end = pieceEnd(text, written, pieceChars);
    if (end - written > credit) break;
    pieces.push(text.slice(written, end));
    credit -= end - written;
    written = end;
  }
  const complete = written === text.length;
  const write: SnapshotPieces | undefined =
    pieces.length === 0
      ? undefined
      : {
          turnId: pending.turnId,
          from: pending.pieces,
          pieces,
          ...(complete ? { total: pending.pieces + pieces.length } : {}),
        };
  return {
    progress: complete
      ? progress
      : { ...progress, pending: { ...pending, written, pieces: pending.pieces + pieces.length, credit } },
    ...(write === undefined ? {} : { write }),
  };
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
