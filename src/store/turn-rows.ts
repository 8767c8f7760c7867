// Low-level turn reads and writes shared by session creation and appends.

import type { Kysely } from 'kysely';
import { decodeJson } from './json.ts';
import type { Turn } from './repository.ts';
import { toTurnMessage } from './rows.ts';
import type { Database, SessionsTable, SqlDialect, TurnRow } from './schema.ts';
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

export async function insertTurn(
  trx: Kysely<Database>,
  row: TurnRow,
  content: Pick<EncodedTurnContent, 'ledgerEvents' | 'worldSnapshot' | 'ledgerGameTime'>,
): Promise<void> {
  const { ledgerEvents, worldSnapshot, ledgerGameTime: gameTime } = content;
  const { record, state, ...turn } = row;
  await trx.insertInto('turns').values(turn).execute();
  await trx.insertInto('turn_payloads').values({ turn_id: row.id, record, state }).execute();
  if (ledgerEvents.length > 0) {
    await trx
      .insertInto('ledger_events')
      .values(
        ledgerEvents.map((event, position) => ({
          turn_id: row.id,
          session_id: row.session_id,
          position,
          event,
          // Only when set: the column exists from migration 0004 on.
          ...(gameTime === null ? {} : { game_time: gameTime }),
        })),
      )
      .execute();
  }
  if (worldSnapshot !== null) {
    await trx
      .insertInto('world_snapshots')
      .values({ turn_id: row.id, session_id: row.session_id, world: worldSnapshot })
      .execute();
  }
}

export function turnRow(
  ids: { id: string; session_id: string; parent_id: string | null },
  place: { depth: number; sibling_index: number; seq: number },
  content: EncodedTurnContent,
  idempotencyKey: string | null,
): TurnRow {
  return {
    ...ids,
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

export async function loadTurnBy(
  db: Kysely<Database>,
  sessionId: string,
  where: { id: string } | { idempotencyKey: string },
): Promise<Turn | undefined> {
  let query = db
    .selectFrom('turns')
    .innerJoin('turn_payloads', 'turn_payloads.turn_id', 'turns.id')
    .selectAll('turns')
    .select(['turn_payloads.record', 'turn_payloads.state'])
    .where('turns.session_id', '=', sessionId);
  query =
    'id' in where
      ? query.where('turns.id', '=', where.id)
      : query.where('turns.idempotency_key', '=', where.idempotencyKey);
  const row = await query.executeTakeFirst();
  if (row === undefined) return undefined;
  const events = await db
    .selectFrom('ledger_events')
    .select('event')
    .where('turn_id', '=', row.id)
    .orderBy('position')
    .execute();
  return storedTurn(
    row,
    events.map((e) => e.event),
  );
}
