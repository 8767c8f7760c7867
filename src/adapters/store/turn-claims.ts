// Idempotency keys claimed by the database before a turn runs (migration 0003). The primary key
// (session, key) lets exactly one request, on any replica, win the claim; the others wait for the
// winner's turn. A claim older than `staleBefore` (its replica died mid-turn) can be taken over, by a
// compare-and-set on the old claim so two waiters cannot both take it.

import type { StoreContext } from './context.ts';
import type { ClaimResult } from './repository.ts';
import { checkId, checkIdempotencyKey, checkTimestamp } from './validate.ts';

export async function claimIdempotencyKey(
  ctx: StoreContext,
  input: { sessionId: string; key: string; turnId: string; claimedAt: number; staleBefore: number },
  attempt = 0,
): Promise<ClaimResult> {
  const row = {
    session_id: checkId('claimIdempotencyKey.sessionId', input.sessionId),
    idempotency_key: checkIdempotencyKey('claimIdempotencyKey.key', input.key),
    turn_id: checkId('claimIdempotencyKey.turnId', input.turnId),
    claimed_at: checkTimestamp('claimIdempotencyKey.claimedAt', input.claimedAt),
  };
  const inserted = await ctx.db
    .insertInto('turn_claims')
    .values(row)
    .onConflict((oc) => oc.columns(['session_id', 'idempotency_key']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { claimed: true };
  const existing = await ctx.db
    .selectFrom('turn_claims')
    .select(['turn_id', 'claimed_at'])
    .where('session_id', '=', row.session_id)
    .where('idempotency_key', '=', row.idempotency_key)
    .executeTakeFirst();
  // Released between the two statements: try again (a few times; each release ends a whole turn).
  if (existing === undefined) {
    if (attempt < 3) return claimIdempotencyKey(ctx, input, attempt + 1);
    return { claimed: false, turnId: '', claimedAt: row.claimed_at };
  }
  if (existing.turn_id === row.turn_id) return { claimed: true };
  if (Number(existing.claimed_at) < input.staleBefore) {
    const taken = await ctx.db
      .updateTable('turn_claims')
      .set({ turn_id: row.turn_id, claimed_at: row.claimed_at })
      .where('session_id', '=', row.session_id)
      .where('idempotency_key', '=', row.idempotency_key)
      .where('turn_id', '=', existing.turn_id)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) return { claimed: true };
  }
  return { claimed: false, turnId: existing.turn_id, claimedAt: Number(existing.claimed_at) };
}

/** Gives a claim back (its turn failed, or committed and the turn row now answers for the key). */
export async function releaseIdempotencyKey(
  ctx: StoreContext,
  sessionId: string,
  key: string,
  turnId: string,
): Promise<void> {
  await ctx.db
    .deleteFrom('turn_claims')
    .where('session_id', '=', sessionId)
    .where('idempotency_key', '=', key)
    .where('turn_id', '=', turnId)
    .execute();
}
