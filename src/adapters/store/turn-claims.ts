// Idempotency keys claimed by the database before a turn runs (migrations 0003, 0008). The primary key
// (session, key) lets exactly one request, on any replica, win the claim; the others wait for the
// winner's turn. A claim whose holder is gone can be taken over, by a compare-and-set on the old claim so
// two waiters cannot both take it. "Gone" is judged two ways:
// - by the holder's liveness (migration 0008): the claim names its owner, a process that refreshes its
//   row in `claim_owners` while it holds claims; an owner whose heartbeat is older than `leaseBefore`, or
//   whose row is gone (it shut down), holds nothing, so a retry after a kill -9 runs within one lease;
// - by age, as a backstop (and for claims written before owners existed): older than `staleBefore`.

import type { StoreContext } from './context.ts';
import type { ClaimInput, ClaimResult } from './claim-records.ts';
import { checkId, checkIdempotencyKey, checkTimestamp } from './validate.ts';

export async function claimIdempotencyKey(
  ctx: StoreContext,
  input: ClaimInput,
  attempt = 0,
): Promise<ClaimResult> {
  const row = {
    session_id: checkId('claimIdempotencyKey.sessionId', input.sessionId),
    idempotency_key: checkIdempotencyKey('claimIdempotencyKey.key', input.key),
    turn_id: checkId('claimIdempotencyKey.turnId', input.turnId),
    claimed_at: checkTimestamp('claimIdempotencyKey.claimedAt', input.claimedAt),
    owner_id: input.ownerId === undefined ? null : checkId('claimIdempotencyKey.ownerId', input.ownerId),
  };
  const leaseBefore =
    input.leaseBefore === undefined
      ? undefined
      : checkTimestamp('claimIdempotencyKey.leaseBefore', input.leaseBefore);
  const inserted = await ctx.db
    .insertInto('turn_claims')
    .values(row)
    .onConflict((oc) => oc.columns(['session_id', 'idempotency_key']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { claimed: true };
  const existing = await ctx.db
    .selectFrom('turn_claims as c')
    .leftJoin('claim_owners as o', 'o.owner_id', 'c.owner_id')
    .select(['c.turn_id', 'c.claimed_at', 'c.owner_id', 'o.heartbeat_at'])
    .where('c.session_id', '=', row.session_id)
    .where('c.idempotency_key', '=', row.idempotency_key)
    .executeTakeFirst();
  // Released between the two statements: try again (a few times; each release ends a whole turn).
  if (existing === undefined) {
    if (attempt < 3) return claimIdempotencyKey(ctx, input, attempt + 1);
    return { claimed: false, turnId: '', claimedAt: row.claimed_at };
  }
  if (existing.turn_id === row.turn_id) return { claimed: true };
  const ownerGone =
    leaseBefore !== undefined &&
    existing.owner_id !== null &&
    (existing.heartbeat_at === null || Number(existing.heartbeat_at) < leaseBefore);
  if (ownerGone || Number(existing.claimed_at) < input.staleBefore) {
    const taken = await ctx.db
      .updateTable('turn_claims')
      .set({ turn_id: row.turn_id, claimed_at: row.claimed_at, owner_id: row.owner_id })
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

/**
 * Registers (or refreshes) a claiming process, heartbeat `at`; removes the rows of owners silent since
 * before `pruneBefore` (their claims, if any, are then taken over as the claims of a gone owner).
 */
export async function registerClaimOwner(
  ctx: StoreContext,
  input: { ownerId: string; at: number; pruneBefore: number },
): Promise<void> {
  const ownerId = checkId('registerClaimOwner.ownerId', input.ownerId);
  const at = checkTimestamp('registerClaimOwner.at', input.at);
  await ctx.db
    .insertInto('claim_owners')
    .values({ owner_id: ownerId, started_at: at, heartbeat_at: at })
    .onConflict((oc) => oc.column('owner_id').doUpdateSet({ heartbeat_at: at }))
    .execute();
  await ctx.db
    .deleteFrom('claim_owners')
    .where('heartbeat_at', '<', checkTimestamp('registerClaimOwner.pruneBefore', input.pruneBefore))
    .where('owner_id', '!=', ownerId)
    .execute();
}

/** Refreshes the owner's heartbeat; false when its row is gone (pruned, or ended), so it must register again. */
export async function heartbeatClaimOwner(ctx: StoreContext, ownerId: string, at: number): Promise<boolean> {
  const updated = await ctx.db
    .updateTable('claim_owners')
    .set({ heartbeat_at: checkTimestamp('heartbeatClaimOwner.at', at) })
    .where('owner_id', '=', checkId('heartbeatClaimOwner.ownerId', ownerId))
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** The owner stops (a clean shutdown): its row goes, so any claim it still holds is taken over at once. */
export async function endClaimOwner(ctx: StoreContext, ownerId: string): Promise<void> {
  await ctx.db.deleteFrom('claim_owners').where('owner_id', '=', ownerId).execute();
}
