// Writing and reading the turn tree: append (with head check and idempotency), undo/jump, listings.

import type { StoreContext } from './context.ts';
import { isUniqueViolation, StoreInputError } from './errors.ts';
import type {
  AppendTurnInput,
  AppendTurnResult,
  SetHeadResult,
  Turn,
  TurnMessage,
  TurnNode,
} from './turn-log-records.ts';
import { TURN_MESSAGE_COLUMNS, TURN_NODE_COLUMNS, toSession, toTurnMessage, toTurnNode } from './rows.ts';
import { inRunnerTransaction, inTransaction, withRunner } from './transaction.ts';
import { encodeTurnContent } from './turn-content.ts';
import { loadTurnBy, lockForAppend, lockSession, storedTurn, turnRow, writeTurn } from './turn-rows.ts';
import { checkId, checkIdempotencyKey, checkTimestamp } from './validate.ts';
import { MAX_LOCATED_TURNS } from './limits.ts';
import { encodeRebased, writeRebased } from './rebased.ts';

/** Ids one locateTurns query looks up (well under either database's bound-parameter limit). */
const LOCATED_PER_QUERY = 500;

export async function appendTurn(ctx: StoreContext, input: AppendTurnInput): Promise<AppendTurnResult> {
  const content = encodeTurnContent('appendTurn', input);
  const turnId = input.id === undefined ? ctx.newId() : checkId('appendTurn.id', input.id);
  const key =
    input.idempotencyKey === undefined
      ? null
      : checkIdempotencyKey('appendTurn.idempotencyKey', input.idempotencyKey);
  const chain = await encodeRebased(ctx, 'appendTurn.rebased', input.sessionId, input.rebased ?? []);
  const moveHead = input.moveHead ?? true;
  try {
    return await inRunnerTransaction(ctx, async (run): Promise<AppendTurnResult> => {
      // Every statement below runs while this transaction holds the session (see lockSession), so the
      // idempotency lookup, head check, sibling numbering and seq are all decided by the database.
      const locked = await lockForAppend(
        run,
        input,
        key === null ? undefined : () => loadTurnBy(run, input.sessionId, { idempotencyKey: key }),
      );
      if (!('session' in locked)) return locked;
      const { session, parent } = locked;
      // A rebase goes first: the turn is then the first child of the chain's last turn.
      const end = await writeRebased(
        run,
        input.sessionId,
        { id: input.parentId, depth: parent.depth },
        session.turn_count,
        chain,
      );
      const row = turnRow(
        { id: turnId, session_id: input.sessionId, parent_id: end.parentId },
        {
          depth: end.depth + 1,
          sibling_index: chain.length > 0 || parent.last === null ? 0 : parent.last + 1,
          seq: end.seq,
        },
        content,
        key,
      );
      row.sibling_index = await writeTurn(run, row, content, {
        id: input.sessionId,
        turn_count: end.seq + 1,
        updated_at: Math.max(session.updated_at, content.created_at),
        head_turn_id: moveHead ? turnId : session.head_turn_id,
      });
      return { ok: true, turn: storedTurn(row, content.ledgerEvents), replayed: false };
    });
  } catch (error) {
    if (input.id !== undefined && isUniqueViolation(error)) {
      throw new StoreInputError('appendTurn.id', `${input.id} is already used by another turn`);
    }
    throw error;
  }
}

export async function locateTurns(
  ctx: StoreContext,
  principalId: string,
  turnIds: readonly string[],
): Promise<TurnMessage[]> {
  if (turnIds.length > MAX_LOCATED_TURNS)
    throw new StoreInputError(
      'locateTurns.turnIds',
      `has ${turnIds.length} ids, over the limit MAX_LOCATED_TURNS = ${MAX_LOCATED_TURNS}`,
    );
  const ids = [...new Set(turnIds)].filter((id) => typeof id === 'string' && id !== '');
  const out: TurnMessage[] = [];
  for (let i = 0; i < ids.length; i += LOCATED_PER_QUERY) {
    const rows = await ctx.db
      .selectFrom('turns as t')
      .innerJoin('sessions as s', 's.id', 't.session_id')
      .select(TURN_MESSAGE_COLUMNS.map((c) => `t.${c}` as const))
      .where('s.principal_id', '=', principalId)
      .where('t.id', 'in', ids.slice(i, i + LOCATED_PER_QUERY))
      .execute();
    out.push(...rows.map(toTurnMessage));
  }
  return out;
}

export function getTurn(ctx: StoreContext, sessionId: string, turnId: string): Promise<Turn | undefined> {
  return withRunner(ctx, (run) => loadTurnBy(run, sessionId, { id: turnId }));
}

export function findTurnByIdempotencyKey(
  ctx: StoreContext,
  sessionId: string,
  key: string,
): Promise<Turn | undefined> {
  return withRunner(ctx, (run) => loadTurnBy(run, sessionId, { idempotencyKey: key }));
}

export async function listChildren(
  ctx: StoreContext,
  sessionId: string,
  turnId: string,
): Promise<TurnMessage[]> {
  const rows = await ctx.db
    .selectFrom('turns')
    .select(TURN_MESSAGE_COLUMNS)
    .where('parent_id', '=', turnId)
    .where('session_id', '=', sessionId)
    .orderBy('sibling_index')
    .execute();
  return rows.map(toTurnMessage);
}

export async function listRebased(
  ctx: StoreContext,
  sessionId: string,
  originId: string,
): Promise<TurnNode[]> {
  const rows = await ctx.db
    .selectFrom('turns')
    .select(TURN_NODE_COLUMNS)
    .where('session_id', '=', sessionId)
    .where('origin_id', '=', originId)
    .orderBy('seq')
    .execute();
  return rows.map(toTurnNode);
}

export async function listTree(ctx: StoreContext, sessionId: string): Promise<TurnNode[]> {
  const rows = await ctx.db
    .selectFrom('turns')
    .select(TURN_NODE_COLUMNS)
    .where('session_id', '=', sessionId)
    .orderBy('seq')
    .execute();
  return rows.map(toTurnNode);
}

export async function setHead(
  ctx: StoreContext,
  sessionId: string,
  turnId: string,
  options: { expectedHeadId?: string; updatedAt?: number } = {},
): Promise<SetHeadResult> {
  const updatedAt = checkTimestamp('setHead.updatedAt', options.updatedAt ?? ctx.now());
  return inTransaction(ctx.db, ctx.dialect, async (trx): Promise<SetHeadResult> => {
    const session = await lockSession(trx, ctx.dialect, sessionId);
    if (session === undefined) return { ok: false, reason: 'session-not-found' };
    if (options.expectedHeadId !== undefined && session.head_turn_id !== options.expectedHeadId) {
      return { ok: false, reason: 'conflict', headTurnId: session.head_turn_id };
    }
    const turn = await trx
      .selectFrom('turns')
      .select('id')
      .where('id', '=', turnId)
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    if (turn === undefined) return { ok: false, reason: 'turn-not-found' };
    const next = { ...session, head_turn_id: turnId, updated_at: Math.max(session.updated_at, updatedAt) };
    await trx
      .updateTable('sessions')
      .set({ head_turn_id: next.head_turn_id, updated_at: next.updated_at })
      .where('id', '=', sessionId)
      .execute();
    return { ok: true, session: toSession(next) };
  });
}
