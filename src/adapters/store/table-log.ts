// What moves at a table (migration 0009): its live events, numbered per session in commit order (the table's
// row is the counter, so two replicas never give one number twice and a later number is never seen before an
// earlier one); free order's queue of waiting turns; the actions of the round being collected.

import type { StoreContext } from './context.ts';
import { StoreInputError } from './errors.ts';
import { decodeJson, encodeJson } from './json.ts';
import type { RoundActionsTable, TableEventsTable, TurnQueueTable } from './schema.ts';
import type {
  EnqueueResult,
  QueueTicket,
  RoundAction,
  SubmitActionResult,
  TableEvent,
  TableSettings,
} from './table-records.ts';
import { lockedTable, toTable } from './tables.ts';
import { inTransaction } from './transaction.ts';
import { checkId, checkTimestamp } from './validate.ts';

/** UTF-8 bytes of one live event's payload (JSON text): events name what changed, they do not carry it. */
export const MAX_TABLE_EVENT_BYTES = 16 * 1024;
/** UTF-8 bytes of one round action's input (JSON text). */
export const MAX_ROUND_INPUT_BYTES = 64 * 1024;

function toEvent(row: TableEventsTable): TableEvent {
  return {
    sessionId: row.session_id,
    seq: Number(row.seq),
    kind: row.kind,
    payload: decodeJson(row.payload),
    createdAt: row.created_at,
  };
}

function toTicket(row: TurnQueueTable): QueueTicket {
  return {
    id: row.id,
    sessionId: row.session_id,
    position: Number(row.position),
    principalId: row.principal_id,
    character: row.character,
    ownerId: row.owner_id,
    queuedAt: row.queued_at,
  };
}

function toAction(row: RoundActionsTable): RoundAction {
  return {
    sessionId: row.session_id,
    round: Number(row.round),
    principalId: row.principal_id,
    character: row.character,
    input: decodeJson(row.input),
    whisper: Number(row.whisper) === 1,
    submittedAt: row.submitted_at,
  };
}

export async function appendTableEvent(
  ctx: StoreContext,
  sessionId: string,
  event: { kind: string; payload: unknown; createdAt: number },
  retain: number,
): Promise<TableEvent | undefined> {
  const payload = encodeJson(
    'appendTableEvent.payload',
    event.payload,
    MAX_TABLE_EVENT_BYTES,
    'MAX_TABLE_EVENT_BYTES',
  );
  const at = checkTimestamp('appendTableEvent.createdAt', event.createdAt);
  if (!Number.isSafeInteger(retain) || retain < 1)
    throw new StoreInputError('retain', 'must be a positive integer');
  return inTransaction(ctx.db, ctx.dialect, async (trx) => {
    const table = await lockedTable(trx, ctx, sessionId);
    if (table === undefined) return undefined;
    const seq = Number(table.event_seq) + 1;
    await trx
      .updateTable('session_tables')
      .set({ event_seq: seq })
      .where('session_id', '=', sessionId)
      .execute();
    const row: TableEventsTable = { session_id: sessionId, seq, kind: event.kind, payload, created_at: at };
    await trx.insertInto('table_events').values(row).execute();
    if (seq > retain)
      await trx
        .deleteFrom('table_events')
        .where('session_id', '=', sessionId)
        .where('seq', '<=', seq - retain)
        .execute();
    return toEvent(row);
  });
}

export async function listTableEvents(
  ctx: StoreContext,
  sessionId: string,
  afterSeq: number,
  limit: number,
): Promise<TableEvent[]> {
  const rows = await ctx.db
    .selectFrom('table_events')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map(toEvent);
}

export async function oldestTableEvent(ctx: StoreContext, sessionId: string): Promise<number> {
  const row = await ctx.db
    .selectFrom('table_events')
    .select((eb) => eb.fn.min<number | string | null>('seq').as('seq'))
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}

export async function enqueueTurn(
  ctx: StoreContext,
  input: Omit<QueueTicket, 'position'>,
  maxQueued: number,
): Promise<EnqueueResult> {
  const base = {
    id: checkId('enqueueTurn.id', input.id),
    session_id: input.sessionId,
    principal_id: checkId('enqueueTurn.principalId', input.principalId),
    character: input.character,
    owner_id: checkId('enqueueTurn.ownerId', input.ownerId),
    queued_at: checkTimestamp('enqueueTurn.queuedAt', input.queuedAt),
  };
  return inTransaction(ctx.db, ctx.dialect, async (trx): Promise<EnqueueResult> => {
    await lockedTable(trx, ctx, input.sessionId);
    const rows = await trx
      .selectFrom('turn_queue')
      .select('position')
      .where('session_id', '=', input.sessionId)
      .orderBy('position', 'desc')
      .execute();
    if (rows.length >= maxQueued) return { ok: false, reason: 'queue-full', limit: maxQueued };
    const row: TurnQueueTable = { ...base, position: Number(rows[0]?.position ?? 0) + 1 };
    await trx.insertInto('turn_queue').values(row).execute();
    return { ok: true, ticket: toTicket(row) };
  });
}

export async function listQueue(ctx: StoreContext, sessionId: string): Promise<QueueTicket[]> {
  const rows = await ctx.db
    .selectFrom('turn_queue')
    .selectAll()
    .where('session_id', '=', sessionId)
    .orderBy('position')
    .execute();
  return rows.map(toTicket);
}

export async function removeTicket(ctx: StoreContext, sessionId: string, ticketId: string): Promise<boolean> {
  const result = await ctx.db
    .deleteFrom('turn_queue')
    .where('session_id', '=', sessionId)
    .where('id', '=', ticketId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function dropStaleTickets(
  ctx: StoreContext,
  sessionId: string,
  leaseBefore: number,
): Promise<number> {
  const live = ctx.db
    .selectFrom('claim_owners')
    .select('owner_id')
    .where('heartbeat_at', '>=', checkTimestamp('dropStaleTickets.leaseBefore', leaseBefore));
  const result = await ctx.db
    .deleteFrom('turn_queue')
    .where('session_id', '=', sessionId)
    .where('owner_id', 'not in', live)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function submitRoundAction(ctx: StoreContext, action: RoundAction): Promise<SubmitActionResult> {
  const row: RoundActionsTable = {
    session_id: action.sessionId,
    round: action.round,
    principal_id: checkId('submitRoundAction.principalId', action.principalId),
    character: action.character,
    input: encodeJson(
      'submitRoundAction.input',
      action.input,
      MAX_ROUND_INPUT_BYTES,
      'MAX_ROUND_INPUT_BYTES',
    ),
    whisper: action.whisper ? 1 : 0,
    submitted_at: checkTimestamp('submitRoundAction.submittedAt', action.submittedAt),
  };
  return inTransaction(ctx.db, ctx.dialect, async (trx): Promise<SubmitActionResult> => {
    const table = await lockedTable(trx, ctx, action.sessionId);
    if (table === undefined) return { ok: false, reason: 'table-not-found' };
    if (Number(table.round) !== action.round) return { ok: false, reason: 'round-moved' };
    const removed = await trx
      .deleteFrom('round_actions')
      .where('session_id', '=', row.session_id)
      .where('round', '=', row.round)
      .where('principal_id', '=', row.principal_id)
      .executeTakeFirst();
    await trx.insertInto('round_actions').values(row).execute();
    return { ok: true, action: toAction(row), replaced: removed.numDeletedRows > 0n };
  });
}

export async function listRoundActions(
  ctx: StoreContext,
  sessionId: string,
  round: number,
): Promise<RoundAction[]> {
  const rows = await ctx.db
    .selectFrom('round_actions')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('round', '=', round)
    .orderBy('submitted_at')
    .orderBy('character')
    .execute();
  return rows.map(toAction);
}

export async function closeRound(
  ctx: StoreContext,
  sessionId: string,
  round: number,
  at: number,
): Promise<TableSettings | undefined> {
  const when = checkTimestamp('closeRound.at', at);
  return inTransaction(ctx.db, ctx.dialect, async (trx) => {
    const table = await lockedTable(trx, ctx, sessionId);
    if (table === undefined || Number(table.round) !== round) return undefined;
    await trx
      .updateTable('session_tables')
      .set({ round: round + 1, updated_at: when })
      .where('session_id', '=', sessionId)
      .execute();
    await trx
      .deleteFrom('round_actions')
      .where('session_id', '=', sessionId)
      .where('round', '=', round)
      .execute();
    return toTable({ ...table, round: round + 1, updated_at: when });
  });
}
