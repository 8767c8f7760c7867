// Storing rebased turns (migration 0011): a chain of turns made from played ones onto another parent, each
// stored in the shared form (shared-payloads.ts), before a new turn (appendTurn's `rebased`) or alone with the
// head moved to the last of them (appendRebased) — always in one transaction with whatever goes with them.

import type { StoreContext } from './context.ts';
import { StoreInputError } from './errors.ts';
import { MAX_REBASED_PER_APPEND } from './limits.ts';
import type { SqlRunner } from './runner.ts';
import type { SessionsTable } from './schema.ts';
import { sharedPayload } from './shared-payloads.ts';
import { inRunnerTransaction } from './transaction.ts';
import { type EncodedTurnContent, encodeTurnContent } from './turn-content.ts';
import type { AppendRebasedInput, AppendTurnResult, RebasedTurnInput } from './turn-log-records.ts';
import { loadTurnBy, lockForAppend, turnRow } from './turn-rows.ts';
import { checkId } from './validate.ts';

/** Rebased turns encoded between two turns of the event loop. */
const TURNS_PER_SLICE = 1;
/**
 * Rows one INSERT of a rebase writes (12 bound values a turn row: well under either database's limit), and
 * origins one read fetches; the event loop is given back after each batch of them.
 */
export const REBASE_ROWS_PER_INSERT = 25;

function nextTurnOfTheLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A rebased turn checked and encoded, its payload already in the shared form. */
export interface EncodedRebased {
  readonly id: string;
  readonly originId: string;
  readonly content: EncodedTurnContent;
}

/** The origins' records and states (a 200-turn chain's are most of a megabyte), a batch between two turns of the loop. */
async function readOrigins(ctx: StoreContext, ids: readonly string[]) {
  const origins = new Map<
    string,
    { id: string; session_id: string; origin_id: string | null; record: string; state: string }
  >();
  for (let i = 0; i < ids.length; i += REBASE_ROWS_PER_INSERT) {
    if (i > 0) await nextTurnOfTheLoop();
    const rows = await ctx.db
      .selectFrom('turns as t')
      .innerJoin('turn_payloads as p', 'p.turn_id', 't.id')
      .select(['t.id', 't.session_id', 't.origin_id', 'p.record', 'p.state'])
      .where('t.id', 'in', ids.slice(i, i + REBASE_ROWS_PER_INSERT))
      .execute();
    for (const row of rows) origins.set(row.id, row);
  }
  return origins;
}

/**
 * Checks and encodes a chain before any transaction: each turn's content as any turn's, and its payload as
 * the patch over its origin's. Every origin must be a played turn of the session (not itself a rebase).
 */
export async function encodeRebased(
  ctx: StoreContext,
  place: string,
  sessionId: string,
  turns: readonly RebasedTurnInput[],
): Promise<EncodedRebased[]> {
  if (turns.length > MAX_REBASED_PER_APPEND)
    throw new StoreInputError(
      place,
      `has ${turns.length} turns, over the limit MAX_REBASED_PER_APPEND = ${MAX_REBASED_PER_APPEND}`,
    );
  if (turns.length === 0) return [];
  const originIds = [...new Set(turns.map((t, i) => checkId(`${place}[${i}].originId`, t.originId)))];
  const origins = await readOrigins(ctx, originIds);
  const encoded: EncodedRebased[] = [];
  for (const [i, turn] of turns.entries()) {
    // Diffing records is CPU work on the request thread: the event loop is given back between slices (and
    // after the origins' read).
    if (i % TURNS_PER_SLICE === 0) await nextTurnOfTheLoop();
    const at = `${place}[${i}]`;
    const origin = origins.get(turn.originId);
    if (origin === undefined || origin.session_id !== sessionId)
      throw new StoreInputError(`${at}.originId`, `${turn.originId} is not a turn of session ${sessionId}`);
    if (origin.origin_id !== null)
      throw new StoreInputError(
        `${at}.originId`,
        `${turn.originId} is itself a rebased turn: name its origin`,
      );
    const content = encodeTurnContent(at, turn);
    const shared = sharedPayload(at, origin, content);
    encoded.push({
      id: checkId(`${at}.id`, turn.id),
      originId: turn.originId,
      content: { ...content, ...shared },
    });
  }
  return encoded;
}

/** Where the next turn goes after a chain: its parent, the parent's depth, and the next free `seq`. */
export interface ChainEnd {
  readonly parentId: string;
  readonly depth: number;
  readonly seq: number;
}

/**
 * Inserts the chain under `parentId` inside the caller's transaction (which holds the session), many rows to
 * a statement — a 200-turn rebase is a few dozen statements, not six hundred — giving the event loop back
 * between batches. Nothing else sees or joins the open transaction meanwhile: on SQLite it holds the store's
 * one connection (no other query of the process runs until it settles: runner.ts, `exclusive`), on
 * PostgreSQL a pooled client of its own; so the chain and the turn after it still commit together or not at
 * all. The first turn's sibling index is counted by its own statement, after the lock, so a swipe another
 * process committed meanwhile is seen (PostgreSQL's READ COMMITTED takes a snapshot per statement). A row
 * may name a parent inserted by the same statement: both databases check the foreign key when the statement
 * ends.
 */
export async function writeRebased(
  run: SqlRunner,
  sessionId: string,
  parent: { readonly id: string; readonly depth: number },
  firstSeq: number,
  chain: readonly EncodedRebased[],
): Promise<ChainEnd> {
  if (chain.length === 0) return { parentId: parent.id, depth: parent.depth, seq: firstSeq };
  const [last] = await run.rows(
    run.queries
      .selectFrom('turns')
      .select((eb) => eb.fn.max('sibling_index').as('last'))
      .where('parent_id', '=', parent.id)
      .compile(),
  );
  const firstSibling = last?.last === null || last?.last === undefined ? 0 : Number(last.last) + 1;
  const rows = chain.map((turn, i) =>
    turnRow(
      { id: turn.id, session_id: sessionId, parent_id: i === 0 ? parent.id : chain[i - 1]!.id },
      { depth: parent.depth + i + 1, sibling_index: i === 0 ? firstSibling : 0, seq: firstSeq + i },
      turn.content,
      null,
      turn.originId,
    ),
  );
  for (let i = 0; i < rows.length; i += REBASE_ROWS_PER_INSERT) {
    if (i > 0) await nextTurnOfTheLoop();
    const part = rows.slice(i, i + REBASE_ROWS_PER_INSERT);
    await run.rows(
      run.queries
        .insertInto('turns')
        .values(part.map(({ record: _r, state: _s, ...turn }) => turn))
        .compile(),
    );
    await run.rows(
      run.queries
        .insertInto('turn_payloads')
        .values(part.map((row) => ({ turn_id: row.id, record: row.record, state: row.state })))
        .compile(),
    );
  }
  const events = chain.flatMap((turn) =>
    turn.content.ledgerEvents.map((event, position) => ({
      turn_id: turn.id,
      session_id: sessionId,
      position,
      event,
      ...(turn.content.ledgerGameTime === null ? {} : { game_time: turn.content.ledgerGameTime }),
    })),
  );
  for (let i = 0; i < events.length; i += REBASE_ROWS_PER_INSERT) {
    await nextTurnOfTheLoop();
    const part = events.slice(i, i + REBASE_ROWS_PER_INSERT);
    // Rows with and without a story clock do not share a column list: each kind in its own statement.
    const timed = part.filter((e) => 'game_time' in e);
    const plain = part.filter((e) => !('game_time' in e));
    if (timed.length > 0) await run.rows(run.queries.insertInto('ledger_events').values(timed).compile());
    if (plain.length > 0) await run.rows(run.queries.insertInto('ledger_events').values(plain).compile());
  }
  return { parentId: chain.at(-1)!.id, depth: parent.depth + chain.length, seq: firstSeq + chain.length };
}

/** The session row after a write that added `added` turns and moved the head to `headId`. */
export async function updateSession(
  run: SqlRunner,
  session: SessionsTable,
  added: number,
  headId: string,
  createdAt: number,
): Promise<void> {
  await run.rows(
    run.queries
      .updateTable('sessions')
      .set({
        turn_count: session.turn_count + added,
        updated_at: Math.max(session.updated_at, createdAt),
        head_turn_id: headId,
      })
      .where('id', '=', session.id)
      .compile(),
  );
}

export async function appendRebased(ctx: StoreContext, input: AppendRebasedInput): Promise<AppendTurnResult> {
  if (input.turns.length === 0) throw new StoreInputError('appendRebased.turns', 'must not be empty');
  const chain = await encodeRebased(ctx, 'appendRebased.turns', input.sessionId, input.turns);
  return inRunnerTransaction(ctx, async (run): Promise<AppendTurnResult> => {
    const locked = await lockForAppend(run, input);
    if (!('session' in locked)) return locked;
    const { session, parent } = locked;
    const end = await writeRebased(
      run,
      input.sessionId,
      { id: input.parentId, depth: parent.depth },
      session.turn_count,
      chain,
    );
    const last = chain.at(-1)!;
    await updateSession(run, session, chain.length, last.id, last.content.created_at);
    const turn = await loadTurnBy(run, input.sessionId, { id: last.id });
    if (turn === undefined || end.parentId !== last.id)
      throw new Error('a rebased turn just stored is missing');
    return { ok: true, turn, replayed: false };
  });
}
