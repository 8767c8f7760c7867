// Low-level turn reads and writes shared by session creation and appends.

import { type Kysely, sql } from 'kysely';
import { decodeJson } from './json.ts';
import type { SqlRunner } from './runner.ts';
import { Statement } from './statement.ts';
import type { AppendTurnResult, Turn } from './turn-log-records.ts';
import { TURN_MESSAGE_COLUMNS, toTurnMessage } from './rows.ts';
import type {
  Database,
  SessionsTable,
  SqlDialect,
  TurnPayloadsTable,
  TurnRow,
  TurnsTable,
} from './schema.ts';
import { resolveSharedPayloads } from './shared-payloads.ts';
import type { EncodedTurnContent } from './turn-content.ts';

/**
 * Reads the session row and, on PostgreSQL, locks it until the transaction ends (`FOR UPDATE`): every
 * write to a session's turn tree starts here, so concurrent writers from any number of server processes
 * queue on this row and each sees the others' committed head. On SQLite `BEGIN IMMEDIATE` already holds
 * the database write lock.
 */
export async function lockSession(
  trx: Kysely<Database>,
  dialect: SqlDialect,
  sessionId: string,
): Promise<SessionsTable | undefined> {
  const query = trx.selectFrom('sessions').selectAll().where('id', '=', sessionId);
  switch (dialect) {
    case 'postgres':
      return query.forUpdate().executeTakeFirst();
    case 'sqlite':
      return query.executeTakeFirst();
    default: {
      const unreachable: never = dialect;
      throw new Error(`unknown dialect ${String(unreachable)}`);
    }
  }
}

/** The session row, locked as `lockSession` says, with the parent turn's depth and last child index. */
export interface LockedAppend {
  readonly session: SessionsTable;
  /** Undefined when the parent is not a turn of this session. */
  readonly parent: { readonly depth: number; readonly last: number | null } | undefined;
}

type LockedRow = SessionsTable & { parent_depth: number | null; parent_last: number | null };

const LOCK_SESSION_WITH_PARENT = new Statement<{ sessionId: string; parentId: string }, LockedRow>(
  ['sessionId', 'parentId'],
  (_db, v, dialect) => sql<LockedRow>`
    select s.id, s.principal_id, s.cartridge_version_id, s.persona_id, s.seed, s.title, s.head_turn_id,
           s.turn_count, s.created_at, s.updated_at, p.depth as parent_depth,
           (select max(c.sibling_index) from turns c where c.parent_id = p.id) as parent_last
      from sessions s left join turns p on p.id = ${v.parentId} and p.session_id = s.id
     where s.id = ${v.sessionId}${dialect === 'postgres' ? sql` for update of s` : sql``}`,
);

/**
 * `lockSession` and the parent's place in one statement: the session row (locked until the transaction
 * ends on PostgreSQL, `FOR UPDATE OF s`), the parent's depth and its children's last sibling index.
 */
export async function lockSessionWithParent(
  run: SqlRunner,
  sessionId: string,
  parentId: string,
): Promise<LockedAppend | undefined> {
  const rows = await run.rows(
    LOCK_SESSION_WITH_PARENT.with(run.queries, run.dialect, { sessionId, parentId }),
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  const { parent_depth: depth, parent_last: last, ...session } = row;
  return {
    session,
    parent: depth === null ? undefined : { depth: Number(depth), last: last === null ? null : Number(last) },
  };
}

/** A session locked for an append, its parent found, or why the append is refused. */
export type LockedForAppend =
  | {
      readonly ok: true;
      readonly session: SessionsTable;
      readonly parent: { depth: number; last: number | null };
    }
  | AppendTurnResult;

/**
 * The checks every append makes, in order, inside its transaction: the session locked (`lockSessionWithParent`),
 * then a turn an Idempotency-Key already names (`replay`: answered as `replayed`), then the expected head, then
 * the parent.
 */
export async function lockForAppend(
  run: SqlRunner,
  input: {
    readonly sessionId: string;
    readonly parentId: string;
    readonly expectedHeadId?: string | undefined;
  },
  replay?: () => Promise<Turn | undefined>,
): Promise<LockedForAppend> {
  const locked = await lockSessionWithParent(run, input.sessionId, input.parentId);
  if (locked === undefined) return { ok: false, reason: 'session-not-found' };
  const { session, parent } = locked;
  const first = replay === undefined ? undefined : await replay();
  if (first !== undefined) return { ok: true, turn: first, replayed: true };
  if (input.expectedHeadId !== undefined && session.head_turn_id !== input.expectedHeadId)
    return { ok: false, reason: 'conflict', headTurnId: session.head_turn_id };
  if (parent === undefined) return { ok: false, reason: 'parent-not-found' };
  return { ok: true, session, parent };
}

const UPDATE_SESSION_HEAD = new Statement<
  Pick<SessionsTable, 'id' | 'turn_count' | 'updated_at' | 'head_turn_id'>
>(['id', 'turn_count', 'updated_at', 'head_turn_id'], (db, v) =>
  db
    .updateTable('sessions')
    .set({ turn_count: v.turn_count, updated_at: v.updated_at, head_turn_id: v.head_turn_id })
    .where('id', '=', v.id),
);

/**
 * Writes a new turn (its row, payload and ledger batch) and the session's count, time and head;
 * returns the sibling index stored (SQLite: the row's; PostgreSQL: counted by the write itself).
 * PostgreSQL: one statement (data-modifying CTEs), so an append is one round trip inside its transaction;
 * SQLite: the statements one by one (no round trips to save, and SQLite has no INSERT in a CTE).
 */
export async function writeTurn(
  run: SqlRunner,
  row: TurnRow,
  content: Pick<EncodedTurnContent, 'ledgerEvents' | 'ledgerGameTime'>,
  session: Pick<SessionsTable, 'id' | 'turn_count' | 'updated_at' | 'head_turn_id'>,
): Promise<number> {
  switch (run.dialect) {
    case 'sqlite':
      await insertTurn(run, row, content);
      await run.rows(UPDATE_SESSION_HEAD.with(run.queries, run.dialect, session));
      return row.sibling_index;
    case 'postgres': {
      const { ledgerEvents, ledgerGameTime: gameTime } = content;
      const parts = [
        // The sibling index is counted here, not taken from the locking read: that read's snapshot predates
        // the lock it waited for, so a swipe committed meanwhile would be missed (READ COMMITTED).
        sql`t as (insert into turns (id, session_id, parent_id, depth, sibling_index, seq, input, narration, seed,
                    idempotency_key, created_at)
                  values (${row.id}, ${row.session_id}, ${row.parent_id}, ${row.depth},
                          coalesce((select max(c.sibling_index) + 1 from turns c where c.parent_id = ${row.parent_id}), 0),
                          ${row.seq}, ${row.input}, ${row.narration}, ${row.seed}, ${row.idempotency_key},
                          ${row.created_at})
                  returning sibling_index)`,
        sql`p as (insert into turn_payloads (turn_id, record, state) values (${row.id}, ${row.record}, ${row.state}))`,
      ];
      if (ledgerEvents.length > 0) {
        const values = ledgerEvents.map((event, position) =>
          gameTime === null
            ? sql`(${row.id}, ${row.session_id}, ${position}, ${event})`
            : sql`(${row.id}, ${row.session_id}, ${position}, ${event}, ${gameTime})`,
        );
        parts.push(
          gameTime === null
            ? sql`e as (insert into ledger_events (turn_id, session_id, position, event) values ${sql.join(values)})`
            : sql`e as (insert into ledger_events (turn_id, session_id, position, event, game_time)
                        values ${sql.join(values)})`,
        );
      }
      parts.push(
        sql`u as (update sessions set turn_count = ${session.turn_count}, updated_at = ${session.updated_at},
                  head_turn_id = ${session.head_turn_id} where id = ${session.id})`,
      );
      const rows = await run.rows(
        sql<{ sibling_index: number }>`with ${sql.join(parts)} select sibling_index from t`.compile(
          run.queries,
        ),
      );
      return Number(rows[0]!.sibling_index);
    }
    default: {
      const unreachable: never = run.dialect;
      throw new Error(`unknown dialect ${String(unreachable)}`);
    }
  }
}

/**
 * A played turn's row. Without `origin_id`: only rebased turns carry one (written by rebased.ts), and the
 * column exists from migration 0011 on, so a store at an older schema (the migration tests) still appends.
 */
const INSERT_TURN = new Statement<TurnsTable>(
  [...TURN_MESSAGE_COLUMNS.filter((c) => c !== 'origin_id'), 'seed', 'idempotency_key'],
  (db, v) => db.insertInto('turns').values(v),
);

const INSERT_PAYLOAD = new Statement<TurnPayloadsTable>(['turn_id', 'record', 'state'], (db, v) =>
  db.insertInto('turn_payloads').values(v),
);

export async function insertTurn(
  run: SqlRunner,
  row: TurnRow,
  content: Pick<EncodedTurnContent, 'ledgerEvents' | 'ledgerGameTime'>,
): Promise<void> {
  const { ledgerEvents, ledgerGameTime: gameTime } = content;
  const { record, state, ...turn } = row;
  await run.rows(INSERT_TURN.with(run.queries, run.dialect, turn));
  await run.rows(INSERT_PAYLOAD.with(run.queries, run.dialect, { turn_id: row.id, record, state }));
  if (ledgerEvents.length > 0) {
    const insert = run.queries.insertInto('ledger_events').values(
      ledgerEvents.map((event, position) => ({
        turn_id: row.id,
        session_id: row.session_id,
        position,
        event,
        // Only when set: the column exists from migration 0004 on.
        ...(gameTime === null ? {} : { game_time: gameTime }),
      })),
    );
    await run.rows(insert.compile());
  }
}

export function turnRow(
  ids: { id: string; session_id: string; parent_id: string | null },
  place: { depth: number; sibling_index: number; seq: number },
  content: EncodedTurnContent,
  idempotencyKey: string | null,
  originId: string | null = null,
): TurnRow {
  return {
    ...ids,
    origin_id: originId,
    ...place,
    input: content.input,
    narration: content.narration,
    record: content.record,
    state: content.state,
    seed: content.seed,
    idempotency_key: idempotencyKey,
    created_at: content.created_at,
  };
}

/**
 * The turn as stored, decoded from the encoded text (so callers see exactly what a later read returns).
 * The heavy fields are decoded on first read: a caller that only needs the turn's place in the tree (most
 * writers) never parses the record it just wrote.
 */
export function storedTurn(row: TurnRow, ledgerEvents: readonly string[]): Turn {
  const turn = { ...toTurnMessage(row), seed: row.seed } as Turn;
  decodeOnRead(turn, 'record', () => decodeJson(row.record));
  decodeOnRead(turn, 'state', () => decodeJson(row.state));
  decodeOnRead(turn, 'ledgerEvents', () => ledgerEvents.map((event) => decodeJson(event)));
  turn.idempotencyKey = row.idempotency_key;
  return turn;
}

/** An enumerable property computed on first read, then a plain value (spread and JSON see it as one). */
function decodeOnRead<K extends 'record' | 'state' | 'ledgerEvents'>(
  turn: Turn,
  key: K,
  decode: () => Turn[K],
): void {
  Object.defineProperty(turn, key, {
    enumerable: true,
    configurable: true,
    get() {
      const value = decode();
      Object.defineProperty(turn, key, { value, enumerable: true, writable: true, configurable: true });
      return value;
    },
    set(value: Turn[K]) {
      Object.defineProperty(turn, key, { value, enumerable: true, writable: true, configurable: true });
    },
  });
}

const TURN_BY_ID = new Statement<{ sessionId: string; id: string }, TurnRow>(['sessionId', 'id'], (db, v) =>
  turnWithPayload(db).where('turns.session_id', '=', v.sessionId).where('turns.id', '=', v.id),
);

const TURN_BY_IDEMPOTENCY_KEY = new Statement<{ sessionId: string; key: string }, TurnRow>(
  ['sessionId', 'key'],
  (db, v) =>
    turnWithPayload(db)
      .where('turns.session_id', '=', v.sessionId)
      .where('turns.idempotency_key', '=', v.key),
);

const LEDGER_EVENTS_OF_TURN = new Statement<{ turnId: string }, { event: string }>(['turnId'], (db, v) =>
  db.selectFrom('ledger_events').select('event').where('turn_id', '=', v.turnId).orderBy('position'),
);

function turnWithPayload(db: Kysely<Database>) {
  return db
    .selectFrom('turns')
    .innerJoin('turn_payloads', 'turn_payloads.turn_id', 'turns.id')
    .selectAll('turns')
    .select(['turn_payloads.record', 'turn_payloads.state']);
}

export async function loadTurnBy(
  run: SqlRunner,
  sessionId: string,
  where: { id: string } | { idempotencyKey: string },
): Promise<Turn | undefined> {
  const query =
    'id' in where
      ? TURN_BY_ID.with(run.queries, run.dialect, { sessionId, id: where.id })
      : TURN_BY_IDEMPOTENCY_KEY.with(run.queries, run.dialect, { sessionId, key: where.idempotencyKey });
  const found = (await run.rows(query))[0];
  if (found === undefined) return undefined;
  // A rebased turn's payload is a patch over its origin's: read whole, as every reader does.
  const [row] = await resolveSharedPayloads(run, [found]);
  if (row === undefined) return undefined;
  const events = await run.rows(LEDGER_EVENTS_OF_TURN.with(run.queries, run.dialect, { turnId: row.id }));
  return storedTurn(
    row,
    events.map((e) => e.event),
  );
}
