// World snapshots. Turn records used to carry the whole world after the turn
// (`record.ledger.worldAfter`), so a record grew with the world and a long game hit MAX_RECORD_BYTES.
// From here on a record carries only its batch (the `ledger_events` rows); the world at a turn is the
// nearest snapshot on its branch plus the batches after it. This migration creates the snapshot table and
// rewrites the records written before it: each loses its `worldAfter`, and the ones at a depth that is a
// multiple of MIGRATED_SNAPSHOT_INTERVAL keep it as their turn's snapshot, so an old branch is never
// more than that many batches from a snapshot. Ledger events gain `game_time`, the story clock their batch
// was stamped with (it was only in the record), so a replay gives back exactly the recorded world.

import { type Kysely, sql } from 'kysely';
import type { Migration } from './migration.ts';

/** Depth interval of the snapshots this migration keeps from old records. */
export const MIGRATED_SNAPSHOT_INTERVAL = 64;
/** Records rewritten per read, so a large database is migrated in bounded memory. */
const BATCH = 200;

interface OldPayload {
  turn_id: string;
  session_id: string;
  depth: number;
  record: string;
}

/** The record without `ledger.worldAfter`, and that world's JSON text; undefined when there is none. */
function splitWorldAfter(
  recordText: string,
): { record: string; world: string; gameTime: string | null } | undefined {
  let record: unknown;
  try {
    record = JSON.parse(recordText);
  } catch {
    return undefined;
  }
  const ledger = (record as { ledger?: unknown } | null)?.ledger;
  if (typeof ledger !== 'object' || ledger === null || !('worldAfter' in ledger)) return undefined;
  const { worldAfter, ...rest } = ledger as { worldAfter: unknown; gameTime?: unknown };
  return {
    record: JSON.stringify({ ...(record as object), ledger: rest }),
    world: JSON.stringify(worldAfter),
    gameTime: typeof rest.gameTime === 'string' ? rest.gameTime : null,
  };
}

export const worldSnapshots: Migration = {
  version: 4,
  name: 'world_snapshots',
  // biome-ignore lint/suspicious/noExplicitAny: migrations describe tables that the typed schema may not have yet.
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('world_snapshots')
      .addColumn('turn_id', 'text', (c) => c.primaryKey().references('turns.id').onDelete('cascade'))
      .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
      .addColumn('world', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('world_snapshots_session')
      .on('world_snapshots')
      .column('session_id')
      .execute();
    await db.schema.alterTable('ledger_events').addColumn('game_time', 'text').execute();

    let after = '';
    for (;;) {
      const rows: OldPayload[] = await db
        .selectFrom('turn_payloads as p')
        .innerJoin('turns as t', 't.id', 'p.turn_id')
        .select(['p.turn_id', 't.session_id', 't.depth', 'p.record'])
        .where('p.turn_id', '>', after)
        .where(sql<boolean>`p.record like ${'%"worldAfter"%'}`)
        .orderBy('p.turn_id')
        .limit(BATCH)
        .execute();
      for (const row of rows) {
        const split = splitWorldAfter(row.record);
        if (split === undefined) continue;
        await db
          .updateTable('turn_payloads')
          .set({ record: split.record })
          .where('turn_id', '=', row.turn_id)
          .execute();
        if (split.gameTime !== null) {
          await db
            .updateTable('ledger_events')
            .set({ game_time: split.gameTime })
            .where('turn_id', '=', row.turn_id)
            .execute();
        }
        if (row.depth % MIGRATED_SNAPSHOT_INTERVAL === 0) {
          await db
            .insertInto('world_snapshots')
            .values({ turn_id: row.turn_id, session_id: row.session_id, world: split.world })
            .execute();
        }
      }
      const last = rows.at(-1);
      if (last === undefined || rows.length < BATCH) break;
      after = last.turn_id;
    }
  },
};
