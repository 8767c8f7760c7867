// World snapshots in pieces. A snapshot was one row holding the whole world's JSON text, so late
// in a long game one row was megabytes and the turn that wrote it stored a thousand turns' worth of bytes at
// once. From here on a snapshot is the pieces of that text (at most SNAPSHOT_PIECE_CHARS characters each,
// never splitting a surrogate pair), written a few per turn by the session; the piece that ends a snapshot
// carries the number of pieces (`total`), and only a snapshot with that piece stored is read. This
// migration moves every existing snapshot into pieces and drops the old table.

import type { Kysely } from 'kysely';
import { splitSnapshotText } from '../snapshot-pieces.ts';
import type { Migration } from './migration.ts';

/** Snapshots moved per read, so a large database is migrated in bounded memory. */
const BATCH = 50;
/** Pieces per INSERT statement (well under either database's bound-parameter limit). */
const PIECES_PER_INSERT = 200;

interface OldSnapshot {
  turn_id: string;
  session_id: string;
  world: string;
}

export const snapshotPieces: Migration = {
  version: 7,
  name: 'snapshot_pieces',
  // biome-ignore lint/suspicious/noExplicitAny: migrations describe tables that the typed schema may not have yet.
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('world_snapshot_pieces')
      .addColumn('turn_id', 'text', (c) => c.notNull().references('turns.id').onDelete('cascade'))
      .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      // Null but on a snapshot's last piece, where it is the number of pieces.
      .addColumn('total', 'integer')
      .addPrimaryKeyConstraint('world_snapshot_pieces_pkey', ['turn_id', 'position'])
      .execute();
    await db.schema
      .createIndex('world_snapshot_pieces_session')
      .on('world_snapshot_pieces')
      .column('session_id')
      .execute();

    let after = '';
    for (;;) {
      const rows: OldSnapshot[] = await db
        .selectFrom('world_snapshots')
        .select(['turn_id', 'session_id', 'world'])
        .where('turn_id', '>', after)
        .orderBy('turn_id')
        .limit(BATCH)
        .execute();
      for (const row of rows) {
        const pieces = splitSnapshotText(row.world);
        for (let start = 0; start < pieces.length; start += PIECES_PER_INSERT) {
          await db
            .insertInto('world_snapshot_pieces')
            .values(
              pieces.slice(start, start + PIECES_PER_INSERT).map((text, i) => ({
                turn_id: row.turn_id,
                session_id: row.session_id,
                position: start + i,
                text,
                total: start + i === pieces.length - 1 ? pieces.length : null,
              })),
            )
            .execute();
        }
      }
      const last = rows.at(-1);
      if (last === undefined || rows.length < BATCH) break;
      after = last.turn_id;
    }
    await db.schema.dropTable('world_snapshots').execute();
  },
};
