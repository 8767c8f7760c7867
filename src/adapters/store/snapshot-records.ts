// The world projection's snapshots (snapshots.ts, lineage.ts store and read them). Types only.

import type { JsonValue } from './json.ts';
import type { Failure } from './results.ts';
import type { SnapshotPieces } from './snapshot-pieces.ts';
import type { LedgerEntry } from './turn-log-records.ts';

/** What the world at a turn is built from: the nearest snapshot on its branch and the events after it. */
export interface WorldBase {
  /** The nearest snapshot at or above the turn, or null when the walk reached the genesis turn without one. */
  snapshot: { turnId: string; depth: number; world: JsonValue; chars: number } | null;
  /** Ledger events of the turns after the snapshot (from genesis when there is none) up to the turn, in order. */
  entries: LedgerEntry[];
  /** Characters of the stored events in `entries` (JSON text), for snapshot scheduling. */
  eventChars: number;
  /** The turn's depth. */
  depth: number;
}

/** Snapshots of the world a turn's ledger events build, and what a world is rebuilt from. */
export type PutSnapshotResult = { ok: true } | Failure<'turn-not-found'>;

export interface SnapshotStore {
  /**
   * Stores pieces of the snapshot of `pieces.turnId`'s world (a turn of the session). Pieces already
   * stored stay as they are (a sibling branch may store the same ones); the snapshot is read once the
   * piece that carries `total` is stored.
   */
  putSnapshotPieces(sessionId: string, pieces: SnapshotPieces): Promise<PutSnapshotResult>;
  /** The world at a turn of the session, stored whole (in pieces, at once). */
  putSnapshot(sessionId: string, turnId: string, world: unknown): Promise<PutSnapshotResult>;
  /** What the world at `turnId` is built from, in one query: the nearest snapshot and the events after it. */
  getWorldBase(sessionId: string, turnId: string): Promise<WorldBase | undefined>;
}
