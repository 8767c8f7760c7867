// World snapshots are stored as pieces of their JSON text (migration 0007): no stored row grows with the
// world, and a snapshot can be written a few pieces per turn (see session/world-cache.ts) so that storage
// per turn stays flat however big the world gets. A snapshot is readable once its last piece, the one that
// carries the total, is stored.

import { storableTextProblem } from '../../core/text-policy.ts';
import { StoreInputError } from './errors.ts';
import { checkBytes } from './json.ts';
import { MAX_SNAPSHOT_PIECE_BYTES, MAX_SNAPSHOT_PIECES } from './limits.ts';
import { checkId } from './validate.ts';

/**
 * Characters of one piece (the last piece of a snapshot may be shorter). Two pieces never split a
 * surrogate pair, so a piece may be one character shorter. At most three UTF-8 bytes a UTF-16 unit keeps
 * a piece under MAX_SNAPSHOT_PIECE_BYTES.
 */
export const SNAPSHOT_PIECE_CHARS = 16 * 1024;

/** Where the piece of `text` that starts at `start` ends: `size` characters on, or fewer to keep a pair whole. */
export function pieceEnd(text: string, start: number, size = SNAPSHOT_PIECE_CHARS): number {
  const end = Math.min(text.length, start + size);
  if (end >= text.length || end <= start + 1) return end;
  const last = text.charCodeAt(end - 1);
  // A high surrogate as the last unit would leave its pair's low half to the next piece.
  return last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
}

/** The whole of `text` as pieces. */
export function splitSnapshotText(text: string, size = SNAPSHOT_PIECE_CHARS): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; ) {
    const end = pieceEnd(text, start, size);
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces.length === 0 ? [''] : pieces;
}

/** Pieces of a world snapshot, as the session's projector stores them (SnapshotStore.putSnapshotPieces). */
export interface SnapshotPieces {
  /** The turn whose world the pieces hold. */
  readonly turnId: string;
  /** Position of the first piece given (0 for a snapshot's first piece). */
  readonly from: number;
  readonly pieces: readonly string[];
  /** Set on the write that stores a snapshot's last piece: how many pieces it has in all (`from + pieces.length`). */
  readonly total?: number;
}

/** Snapshot pieces as the store writes them. */
export interface EncodedSnapshotPieces {
  readonly turnId: string;
  readonly from: number;
  readonly pieces: readonly string[];
  readonly total: number | null;
}

function positionProblem(value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) return 'must be an integer ≥ 0';
  return undefined;
}

/** Checks a caller's pieces: positions, the limits on each piece and on their number, storable text. */
export function encodeSnapshotPieces(place: string, value: unknown): EncodedSnapshotPieces {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new StoreInputError(place, 'must be an object');
  const given = value as Record<string, unknown>;
  const turnId = checkId(`${place}.turnId`, given.turnId);
  const fromProblem = positionProblem(given.from);
  if (fromProblem !== undefined) throw new StoreInputError(`${place}.from`, fromProblem);
  const from = given.from as number;
  if (!Array.isArray(given.pieces) || given.pieces.length === 0)
    throw new StoreInputError(`${place}.pieces`, 'must be a non-empty array of strings');
  const pieces = given.pieces as unknown[];
  if (from + pieces.length > MAX_SNAPSHOT_PIECES)
    throw new StoreInputError(
      `${place}.pieces`,
      `would end at position ${from + pieces.length}, over the limit MAX_SNAPSHOT_PIECES = ${MAX_SNAPSHOT_PIECES}`,
    );
  for (const [i, piece] of pieces.entries()) {
    const at = `${place}.pieces[${i}]`;
    if (typeof piece !== 'string') throw new StoreInputError(at, 'must be a string');
    checkBytes(at, piece, MAX_SNAPSHOT_PIECE_BYTES, 'MAX_SNAPSHOT_PIECE_BYTES');
    const unstorable = storableTextProblem(piece);
    if (unstorable !== undefined) throw new StoreInputError(at, unstorable);
  }
  let total: number | null = null;
  if (given.total !== undefined) {
    if (given.total !== from + pieces.length)
      throw new StoreInputError(
        `${place}.total`,
        `must be the position after the last piece given (${from + pieces.length})`,
      );
    total = from + pieces.length;
  }
  return { turnId, from, pieces: pieces as string[], total };
}
