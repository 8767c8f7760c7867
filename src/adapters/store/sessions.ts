// Sessions: one play-through of one pinned cartridge version, owned by one principal.

import type { Kysely } from 'kysely';
import type { StoreContext } from './context.ts';
import { MAX_SESSION_PAGE } from './limits.ts';
import type { CreateSessionInput, CreateSessionResult, Session, SessionPage } from './turn-log-records.ts';
import { toSession } from './rows.ts';
import type { Database, SessionsTable, SqlDialect } from './schema.ts';
import { StoreInputError } from './errors.ts';
import { kyselyRunner } from './runner.ts';
import { Statement } from './statement.ts';
import { inTransaction, withRunner } from './transaction.ts';
import { encodeTurnContent } from './turn-content.ts';
import { insertTurn, storedTurn, turnRow } from './turn-rows.ts';
import { checkId, checkOptionalName, checkSeed, checkTimestamp } from './validate.ts';

export async function createSession(
  ctx: StoreContext,
  input: CreateSessionInput,
): Promise<CreateSessionResult> {
  const content = encodeTurnContent('createSession.genesis', input.genesis);
  const sessionId = input.id === undefined ? ctx.newId() : checkId('createSession.id', input.id);
  const turnId =
    input.genesis.id === undefined ? ctx.newId() : checkId('createSession.genesis.id', input.genesis.id);
  const at = checkTimestamp('createSession.createdAt', input.createdAt ?? content.created_at);
  const maxSessions =
    input.maxSessions === undefined ? undefined : checkCount('createSession.maxSessions', input.maxSessions);
  const session: SessionsTable = {
    id: sessionId,
    principal_id: input.principalId,
    cartridge_version_id: input.cartridgeVersionId,
    persona_id: input.personaId ?? null,
    seed: checkSeed('createSession.seed', input.seed),
    title: checkOptionalName('createSession.title', input.title),
    head_turn_id: turnId,
    turn_count: 1,
    created_at: at,
    updated_at: at,
  };
  const turn = turnRow(
    { id: turnId, session_id: sessionId, parent_id: null },
    { depth: 0, sibling_index: 0, seq: 0 },
    content,
    null,
  );
  return inTransaction(ctx.db, ctx.dialect, async (trx): Promise<CreateSessionResult> => {
    const refused = await createRefusal(trx, ctx.dialect, session, maxSessions);
    if (refused !== undefined) return refused;
    await trx.insertInto('sessions').values(session).execute();
    await insertTurn(kyselyRunner(trx, ctx.dialect), turn, content);
    return { ok: true, session: toSession(session), turn: storedTurn(turn, content.ledgerEvents) };
  });
}

/** Why the session may not be created (its principal, version or persona missing, or the cap reached), or undefined. */
async function createRefusal(
  trx: Kysely<Database>,
  dialect: SqlDialect,
  session: SessionsTable,
  maxSessions: number | undefined,
): Promise<Exclude<CreateSessionResult, { ok: true }> | undefined> {
  // On PostgreSQL the principal's row is locked when a cap is counted, so two creates cannot both see
  // room for one (SQLite's BEGIN IMMEDIATE serialises every write already).
  const principalQuery = trx.selectFrom('principals').select('id').where('id', '=', session.principal_id);
  const principal = await (maxSessions !== undefined && dialect === 'postgres'
    ? principalQuery.forUpdate()
    : principalQuery
  ).executeTakeFirst();
  if (principal === undefined) return { ok: false, reason: 'principal-not-found' };
  if (maxSessions !== undefined) {
    const count = await trx
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where('principal_id', '=', session.principal_id)
      .executeTakeFirst();
    if (Number(count?.n ?? 0) >= maxSessions) return { ok: false, reason: 'session-cap', limit: maxSessions };
  }
  const version = await trx
    .selectFrom('cartridge_versions')
    .select('id')
    .where('id', '=', session.cartridge_version_id)
    .executeTakeFirst();
  if (version === undefined) return { ok: false, reason: 'cartridge-version-not-found' };
  if (session.persona_id === null) return undefined;
  const persona = await trx
    .selectFrom('personas')
    .select('id')
    .where('id', '=', session.persona_id)
    .where('principal_id', '=', session.principal_id)
    .executeTakeFirst();
  return persona === undefined ? { ok: false, reason: 'persona-not-found' } : undefined;
}

const SESSION_OF_PRINCIPAL = new Statement<{ id: string; principalId: string }, SessionsTable>(
  ['id', 'principalId'],
  (db, v) =>
    db.selectFrom('sessions').selectAll().where('id', '=', v.id).where('principal_id', '=', v.principalId),
);

export async function getSession(
  ctx: StoreContext,
  id: string,
  principalId: string,
): Promise<Session | undefined> {
  const rows = await withRunner(ctx, (run) =>
    run.rows(SESSION_OF_PRINCIPAL.with(run.queries, run.dialect, { id, principalId })),
  );
  const row = rows[0];
  return row && toSession(row);
}

export async function listSessions(
  ctx: StoreContext,
  principalId: string,
  page?: SessionPage,
): Promise<Session[]> {
  // The principal's own sessions and the tables they sit at (migration 0009).
  let query = ctx.db
    .selectFrom('sessions')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('principal_id', '=', principalId),
        eb(
          'id',
          'in',
          eb.selectFrom('session_members').select('session_id').where('principal_id', '=', principalId),
        ),
      ]),
    )
    .orderBy('updated_at', 'desc')
    .orderBy('id');
  if (page !== undefined) {
    const limit = checkPageLimit('listSessions.limit', page.limit);
    const after = page.after;
    if (after !== undefined) {
      const updatedAt = checkTimestamp('listSessions.after.updatedAt', after.updatedAt);
      const id = checkId('listSessions.after.id', after.id);
      query = query.where((eb) =>
        eb.or([
          eb('updated_at', '<', updatedAt),
          eb.and([eb('updated_at', '=', updatedAt), eb('id', '>', id)]),
        ]),
      );
    }
    query = query.limit(limit);
  }
  return (await query.execute()).map(toSession);
}

export async function countSessions(ctx: StoreContext, principalId: string): Promise<number> {
  const row = await ctx.db
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .where('principal_id', '=', principalId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

function checkPageLimit(place: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > MAX_SESSION_PAGE)
    throw new StoreInputError(place, `must be an integer from 1 to MAX_SESSION_PAGE = ${MAX_SESSION_PAGE}`);
  return value;
}

function checkCount(place: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new StoreInputError(place, 'must be a whole number');
  return value;
}

export async function renameSession(
  ctx: StoreContext,
  id: string,
  principalId: string,
  title: string | null,
  updatedAt?: number,
): Promise<Session | undefined> {
  const set = {
    title: checkOptionalName('renameSession.title', title),
    updated_at: checkTimestamp('renameSession.updatedAt', updatedAt ?? ctx.now()),
  };
  const result = await ctx.db
    .updateTable('sessions')
    .set(set)
    .where('id', '=', id)
    .where('principal_id', '=', principalId)
    .executeTakeFirst();
  return result.numUpdatedRows === 0n ? undefined : getSession(ctx, id, principalId);
}

/**
 * Who the player plays in a session from the next turn on (null: nobody in particular). The persona must be
 * the session owner's; undefined when the session is not theirs, `persona-not-found` when the persona is not.
 */
export async function setSessionPersona(
  ctx: StoreContext,
  id: string,
  principalId: string,
  personaId: string | null,
): Promise<Session | undefined | 'persona-not-found'> {
  return inTransaction(
    ctx.db,
    ctx.dialect,
    async (trx): Promise<Session | undefined | 'persona-not-found'> => {
      if (personaId !== null) {
        const persona = await trx
          .selectFrom('personas')
          .select('id')
          .where('id', '=', checkId('setSessionPersona.personaId', personaId))
          .where('principal_id', '=', principalId)
          .executeTakeFirst();
        if (persona === undefined) return 'persona-not-found' as const;
      }
      const result = await trx
        .updateTable('sessions')
        .set({ persona_id: personaId, updated_at: checkTimestamp('setSessionPersona.updatedAt', ctx.now()) })
        .where('id', '=', id)
        .where('principal_id', '=', principalId)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return undefined;
      const row = await trx.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return toSession(row);
    },
  );
}

export async function deleteSession(ctx: StoreContext, id: string, principalId: string): Promise<boolean> {
  // Turns, ledger events and saves go with the session through ON DELETE CASCADE, in this one statement.
  const result = await ctx.db
    .deleteFrom('sessions')
    .where('id', '=', id)
    .where('principal_id', '=', principalId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
