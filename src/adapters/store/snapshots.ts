// The snapshot store of the world projection: pieces of a turn's world as JSON text (migration 0007),
// written by the session's projector after the turn is in the log (src/engine/session/branch-world.ts),
// never by the append itself. A lost write only leaves a snapshot unread: the world is then rebuilt from an
// older snapshot and the ledger events after it (getWorldBase, lineage.ts).

import type { StoreContext } from './context.ts';
import { encodeJson } from './json.ts';
import { MAX_WORLD_SNAPSHOT_BYTES } from './limits.ts';
import type { PutSnapshotResult } from './snapshot-records.ts';
import { type EncodedSnapshotPieces, encodeSnapshotPieces, splitSnapshotText } from './snapshot-pieces.ts';
import { inTransaction } from './transaction.ts';
import { checkId } from './validate.ts';

/** Pieces per INSERT statement (well under either database's bound-parameter limit). */
const PIECES_PER_INSERT = 500;

export async function putSnapshotPieces(
  ctx: StoreContext,
  sessionId: string,
  pieces: unknown,
): Promise<PutSnapshotResult> {
  const session = checkId('putSnapshotPieces.sessionId', sessionId);
  return writePieces(ctx, session, encodeSnapshotPieces('putSnapshotPieces', pieces));
}

export async function putSnapshot(
  ctx: StoreContext,
  sessionId: string,
  turnId: string,
  world: unknown,
): Promise<PutSnapshotResult> {
  const session = checkId('putSnapshot.sessionId', sessionId);
  const turn = checkId('putSnapshot.turnId', turnId);
  const text = encodeJson('putSnapshot.world', world, MAX_WORLD_SNAPSHOT_BYTES, 'MAX_WORLD_SNAPSHOT_BYTES');
  const pieces = splitSnapshotText(text);
  return writePieces(ctx, session, { turnId: turn, from: 0, pieces, total: pieces.length });
}

async function writePieces(
  ctx: StoreContext,
  sessionId: string,
  encoded: EncodedSnapshotPieces,
): Promise<PutSnapshotResult> {
  const rows = encoded.pieces.map((text, i) => ({
    turn_id: encoded.turnId,
    session_id: sessionId,
    position: encoded.from + i,
    text,
    total: i === encoded.pieces.length - 1 ? encoded.total : null,
  }));
  return inTransaction(ctx.db, ctx.dialect, async (trx): Promise<PutSnapshotResult> => {
    // Pieces name a turn of this session: a turn of another session would change that session's world.
    const turn = await trx
      .selectFrom('turns')
      .select('id')
      .where('id', '=', encoded.turnId)
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    if (turn === undefined) return { ok: false, reason: 'turn-not-found' };
    for (let start = 0; start < rows.length; start += PIECES_PER_INSERT) {
      await trx
        .insertInto('world_snapshot_pieces')
        .values(rows.slice(start, start + PIECES_PER_INSERT))
        // A sibling branch may have stored the same pieces of an ancestor's snapshot already.
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    return { ok: true };
  });
}
