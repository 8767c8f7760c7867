// Reading a branch: the path from the genesis turn to a given turn. Each read is one recursive query
// (`WITH RECURSIVE`, the same SQL on SQLite and PostgreSQL), never one query per ancestor.
//
// Hydration cost must not grow with depth, so `hydrate` walks only the last `messageWindow` turns: the
// full game state is a snapshot on every turn (so deletions inside the state survive by construction),
// and the prompt only ever shows recent history. The whole branch is `getLineage` / `getLedgerLog`;
// `getBranch` reads the newest turns of a branch with their state and record (a client's story view),
// bounded by a turn count and by the characters it may read.

import { sql } from 'kysely';
import type { StoreContext } from './context.ts';
import { decodeJson } from './json.ts';
import { DEFAULT_MESSAGE_WINDOW } from './limits.ts';
import type { WorldBase } from './snapshot-records.ts';
import type {
  Branch,
  BranchOptions,
  BranchTurn,
  HydrateOptions,
  Hydrated,
  LedgerEntry,
  LedgerPage,
  TurnMessage,
  TurnNode,
} from './turn-log-records.ts';
import { type TurnMessageRow, type TurnNodeRow, toTurn, toTurnMessage, toTurnNode } from './rows.ts';
import { kyselyRunner } from './runner.ts';
import { resolveSharedPayloads } from './shared-payloads.ts';
import { storedTurn } from './turn-rows.ts';
import { checkBranchChars, checkBranchTurns, checkLedgerPageTurns, checkMessageWindow } from './validate.ts';

export async function getLineage(
  ctx: StoreContext,
  sessionId: string,
  turnId: string,
): Promise<TurnMessage[] | undefined> {
  const { rows } = await sql<TurnMessageRow>`
    with recursive lineage(id, session_id, parent_id, depth, sibling_index, seq, created_at, input, narration,
                           origin_id) as (
      select id, session_id, parent_id, depth, sibling_index, seq, created_at, input, narration, origin_id
        from turns where id = ${turnId} and session_id = ${sessionId}
      union all
      select t.id, t.session_id, t.parent_id, t.depth, t.sibling_index, t.seq, t.created_at, t.input, t.narration,
             t.origin_id
        from turns t join lineage l on t.id = l.parent_id
    )
    select * from lineage order by depth`.execute(ctx.db);
  return rows.length === 0 ? undefined : rows.map(toTurnMessage);
}

interface BranchRow extends TurnMessageRow {
  origin_id: string | null;
  seed: number;
  idempotency_key: string | null;
  record: string;
  state: string;
}

export async function getBranch(
  ctx: StoreContext,
  sessionId: string,
  turnId: string,
  options: BranchOptions,
): Promise<Branch | undefined> {
  const limit = checkBranchTurns('getBranch.limit', options.limit);
  const maxChars = checkBranchChars('getBranch.maxChars', options.maxChars);
  // The walk reads only the small tree rows; payloads are joined for the walked turns alone, and the
  // running total (newest first) drops the older turns past the character budget inside the database,
  // so a branch of megabyte states never reaches this process whole. The anchor turn always comes back.
  const { rows } = await sql<BranchRow>`
    with recursive lineage(id, parent_id, hops) as (
      select id, parent_id, 1 from turns where id = ${turnId} and session_id = ${sessionId}
      union all
      select t.id, t.parent_id, l.hops + 1 from turns t join lineage l on t.id = l.parent_id
        where l.hops < ${limit}
    ),
    sized as (
      select t.id, t.session_id, t.parent_id, t.depth, t.sibling_index, t.seq, t.created_at, t.input,
             t.narration, t.origin_id, t.seed, t.idempotency_key, p.record, p.state, l.hops,
             sum(length(p.record) + length(p.state) + length(t.narration) + coalesce(length(t.input), 0))
               over (order by l.hops rows between unbounded preceding and current row) as running
        from lineage l join turns t on t.id = l.id join turn_payloads p on p.turn_id = t.id
    )
    select id, session_id, parent_id, depth, sibling_index, seq, created_at, input, narration, origin_id, seed,
           idempotency_key, record, state
      from sized where hops = 1 or running <= ${maxChars}
      order by depth`.execute(ctx.db);
  await resolveSharedPayloads(kyselyRunner(ctx.db, ctx.dialect), rows);
  const first = rows[0];
  if (first === undefined) return undefined;
  const turns: BranchTurn[] = rows.map((row) => {
    const { ledgerEvents: _, ...turn } = toTurn(row, []);
    return turn;
  });
  return { turns, complete: first.depth === 0 };
}

interface LedgerLogRow {
  turn_id: string;
  depth: number;
  position: number | null;
  event: string | null;
  game_time: string | null;
}

function ledgerEntry(row: {
  turn_id: string;
  depth: number;
  position: number;
  event: string;
  game_time: string | null;
}): LedgerEntry {
  const entry: LedgerEntry = {
    turnId: row.turn_id,
    depth: row.depth,
    position: row.position,
    event: decodeJson(row.event),
  };
  if (row.game_time !== null) entry.gameTime = row.game_time;
  return entry;
}

export async function getLedgerLog(
  ctx: StoreContext,
  sessionId: string,
  turnId: string,
): Promise<LedgerEntry[] | undefined> {
  // LEFT JOIN keeps turns without events, so "no such turn" (no rows) differs from "no events".
  const { rows } = await sql<LedgerLogRow>`
    with recursive lineage(id, parent_id, depth) as (
      select id, parent_id, depth from turns where id = ${turnId} and session_id = ${sessionId}
      union all
      select t.id, t.parent_id, t.depth from turns t join lineage l on t.id = l.parent_id
    )
    select l.id as turn_id, l.depth as depth, e.position as position, e.event as event,
           e.game_time as game_time
      from lineage l left join ledger_events e on e.turn_id = l.id
      order by l.depth, e.position`.execute(ctx.db);
  if (rows.length === 0) return undefined;
  const log: LedgerEntry[] = [];
  for (const row of rows) {
    if (row.position === null || row.event === null) continue;
    log.push(ledgerEntry({ ...row, position: row.position, event: row.event }));
  }
  return log;
}

interface WindowRow extends TurnMessageRow {
  origin_id: string | null;
  hops: number;
  record: string | null;
  state: string | null;
  seed: number | null;
  idempotency_key: string | null;
}

/** Two queries whatever the depth: the window of the branch (with the turn's own state) and its ledger events. */
export async function hydrate(
  ctx: StoreContext,
  sessionId: string,
  turnId: string,
  options: HydrateOptions = {},
): Promise<Hydrated | undefined> {
  const window = checkMessageWindow('hydrate.messageWindow', options.messageWindow ?? DEFAULT_MESSAGE_WINDOW);
  const rows = await lineageWindow(ctx, sessionId, turnId, window);
  const self = rows[rows.length - 1];
  const first = rows[0];
  if (
    self === undefined ||
    first === undefined ||
    self.record === null ||
    self.state === null ||
    self.seed === null
  ) {
    return undefined;
  }
  // Only the turn's own payload is read: a rebased turn gets its origin's record and state merged in.
  await resolveSharedPayloads(kyselyRunner(ctx.db, ctx.dialect), [self]);
  const events = options.ledgerEvents === false ? [] : await windowEvents(ctx, rows);
  const ownEvents: string[] = events
    .filter((e) => e.turn_id === self.id)
    .sort((a, b) => a.position - b.position)
    .map((e) => e.event);
  // The record is decoded only if the caller reads it (a turn's own prompt needs the state, not the record).
  const turn = storedTurn(
    {
      ...self,
      record: self.record,
      state: self.state,
      seed: self.seed,
      idempotency_key: self.idempotency_key,
    },
    ownEvents,
  );
  return {
    turn,
    state: turn.state,
    messages: rows.map(toTurnMessage),
    ledgerEvents: windowLedger(rows, events),
    messagesComplete: first.depth === 0,
  };
}

/**
 * The turn and at most `window` - 1 of its ancestors, root-most first. The anchor row carries the turn's
 * record and state; ancestors carry only what a message needs.
 */
async function lineageWindow(
  ctx: StoreContext,
  sessionId: string,
  turnId: string,
  window: number,
): Promise<WindowRow[]> {
  const { rows } = await sql<WindowRow>`
    with recursive lineage(id, session_id, parent_id, depth, sibling_index, seq, created_at, input, narration,
                           origin_id, hops, record, state, seed, idempotency_key) as (
      select t.id, t.session_id, t.parent_id, t.depth, t.sibling_index, t.seq, t.created_at, t.input, t.narration,
             t.origin_id, 1, p.record, p.state, t.seed, t.idempotency_key
        from turns t join turn_payloads p on p.turn_id = t.id
        where t.id = ${turnId} and t.session_id = ${sessionId}
      union all
      select t.id, t.session_id, t.parent_id, t.depth, t.sibling_index, t.seq, t.created_at, t.input, t.narration,
             t.origin_id, l.hops + 1, cast(null as text), cast(null as text), cast(null as bigint), cast(null as text)
        from turns t join lineage l on t.id = l.parent_id
        where l.hops < ${window}
    )
    select * from lineage order by depth`.execute(ctx.db);
  return rows;
}

/** The stored ledger events of the window's turns, undecoded. */
function windowEvents(
  ctx: StoreContext,
  rows: readonly WindowRow[],
): Promise<{ turn_id: string; position: number; event: string }[]> {
  return ctx.db
    .selectFrom('ledger_events')
    .select(['turn_id', 'position', 'event'])
    .where(
      'turn_id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
}

/** The window's ledger events decoded, in turn order and then in each turn's order. */
function windowLedger(
  rows: readonly WindowRow[],
  events: readonly { turn_id: string; position: number; event: string }[],
): LedgerEntry[] {
  const depthOf = new Map(rows.map((r) => [r.id, r.depth]));
  return events
    .map((e) => ({
      turnId: e.turn_id,
      depth: depthOf.get(e.turn_id) ?? 0,
      position: e.position,
      event: decodeJson(e.event),
    }))
    .sort((a, b) => a.depth - b.depth || a.position - b.position);
}

interface WorldBaseRow {
  turn_id: string;
  depth: number;
  snap: number;
  piece_position: number | null;
  piece: string | null;
  total: number | null;
  position: number | null;
  event: string | null;
  game_time: string | null;
}

/**
 * One query: walk up from the turn while the current turn has no complete snapshot (one whose last piece,
 * the one with its total, is stored), then return that snapshot's pieces (if the walk found one) and the
 * events of every walked turn below it. Snapshots are written often enough (see the session's snapshot
 * rule) that the walk is bounded; on a branch with none it stops at genesis.
 */
export async function getWorldBase(
  ctx: StoreContext,
  sessionId: string,
  turnId: string,
): Promise<WorldBase | undefined> {
  const complete = (turn: string) =>
    sql`case when exists (select 1 from world_snapshot_pieces s
                           where s.turn_id = ${sql.ref(turn)} and s.total is not null) then 1 else 0 end`;
  const { rows } = await sql<WorldBaseRow>`
    with recursive chain(id, parent_id, depth, snap) as (
      select t.id, t.parent_id, t.depth, ${complete('t.id')}
        from turns t where t.id = ${turnId} and t.session_id = ${sessionId}
      union all
      select t.id, t.parent_id, t.depth, ${complete('t.id')}
        from turns t join chain c on t.id = c.parent_id
        where c.snap = 0
    )
    select c.id as turn_id, c.depth as depth, c.snap as snap, s.position as piece_position, s.text as piece,
           s.total as total, e.position as position, e.event as event, e.game_time as game_time
      from chain c
      left join world_snapshot_pieces s on s.turn_id = c.id and c.snap = 1
      left join ledger_events e on e.turn_id = c.id and c.snap = 0
      order by c.depth, s.position, e.position`.execute(ctx.db);
  if (rows.length === 0) return undefined;
  let snapshot: WorldBase['snapshot'] = null;
  const pieces: string[] = [];
  const entries: LedgerEntry[] = [];
  let eventChars = 0;
  for (const row of rows) {
    if (Number(row.snap) === 1) {
      if (row.piece === null) continue;
      if (Number(row.piece_position) !== pieces.length)
        throw new Error(`the world snapshot of turn ${row.turn_id} is missing piece ${pieces.length}`);
      pieces.push(row.piece);
      if (row.total === null) continue;
      if (Number(row.total) !== pieces.length)
        throw new Error(
          `the world snapshot of turn ${row.turn_id} has ${pieces.length} of ${row.total} pieces`,
        );
      const text = pieces.join('');
      snapshot = { turnId: row.turn_id, depth: row.depth, world: decodeJson(text), chars: text.length };
      continue;
    }
    if (row.position === null || row.event === null) continue;
    eventChars += row.event.length;
    entries.push(ledgerEntry({ ...row, position: row.position, event: row.event }));
  }
  return { snapshot, entries, eventChars, depth: rows[rows.length - 1]!.depth };
}

interface LedgerPageRow {
  turn_id: string;
  parent_id: string | null;
  depth: number;
  hops: number;
  position: number | null;
  event: string | null;
  game_time: string | null;
}

/** The events of the `limit` turns ending at `turnId`: a bounded walk, whatever the branch's depth. */
export async function getLedgerPage(
  ctx: StoreContext,
  sessionId: string,
  turnId: string,
  limit: number,
): Promise<LedgerPage | undefined> {
  const turns = checkLedgerPageTurns('getLedgerPage.limit', limit);
  const { rows } = await sql<LedgerPageRow>`
    with recursive lineage(id, parent_id, depth, hops) as (
      select id, parent_id, depth, 1 from turns where id = ${turnId} and session_id = ${sessionId}
      union all
      select t.id, t.parent_id, t.depth, l.hops + 1 from turns t join lineage l on t.id = l.parent_id
        where l.hops < ${turns}
    )
    select l.id as turn_id, l.parent_id as parent_id, l.depth as depth, l.hops as hops,
           e.position as position, e.event as event, e.game_time as game_time
      from lineage l left join ledger_events e on e.turn_id = l.id
      order by l.depth, e.position`.execute(ctx.db);
  const oldest = rows[0];
  if (oldest === undefined) return undefined;
  const entries: LedgerEntry[] = [];
  let covered = 0;
  for (const row of rows) covered = Math.max(covered, Number(row.hops));
  for (const row of rows) {
    if (row.position === null || row.event === null) continue;
    entries.push(ledgerEntry({ ...row, position: row.position, event: row.event }));
  }
  return { entries, turns: covered, nextTurnId: oldest.parent_id };
}

/**
 * The tree near a branch's end: the newest `limit` turns of the branch ending at `turnId` and every sibling
 * of each (the other versions of the same input), by `seq`; undefined when the turn is not the session's.
 * A client opens a long game from this instead of the whole tree (`listTree`): its size follows `limit`
 * and the swipes along the way, not the length of the game.
 */
export async function listTreeAround(
  ctx: StoreContext,
  sessionId: string,
  turnId: string,
  limit: number,
): Promise<TurnNode[] | undefined> {
  const hops = checkBranchTurns('listTreeAround.limit', limit);
  const { rows } = await sql<TurnNodeRow>`
    with recursive lineage(id, parent_id, hops) as (
      select id, parent_id, 1 from turns where id = ${turnId} and session_id = ${sessionId}
      union all
      select t.id, t.parent_id, l.hops + 1 from turns t join lineage l on t.id = l.parent_id
        where l.hops < ${hops}
    )
    select t.id, t.session_id, t.parent_id, t.depth, t.sibling_index, t.seq, t.created_at, t.origin_id
      from turns t
      where t.session_id = ${sessionId}
        and (t.id in (select id from lineage)
             or t.parent_id in (select parent_id from lineage where parent_id is not null))
      order by t.seq`.execute(ctx.db);
  return rows.length === 0 ? undefined : rows.map(toTurnNode);
}
