// Library management. A cartridge is an owner's name (the entries of 0003 group by
// owner and name); it now has a row of its own with metadata (title, description, genre, tags), a
// visibility (private to its owner, or public to every principal), an archive mark, and an optional cover
// image in a side table (kept out of the listing queries). Entries gain a version tag, notes and their own
// archive mark: an archived version stays loadable for the sessions that play it but is neither listed
// nor startable.
//
// Existing cartridges get a row each: the operator's (owner '') are public, as they were offered to
// everyone; a principal's uploads are private, as they were visible to their owner only. Ids are made
// here (UUIDs), in batches, so a large library migrates in bounded memory.

import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Migration } from './migration.ts';

/** Cartridges (owner and name pairs) read per batch while giving existing ones their row. */
export const LIBRARY_MIGRATION_BATCH = 200;

export const library: Migration = {
  version: 5,
  name: 'library',
  // biome-ignore lint/suspicious/noExplicitAny: migrations describe tables that the typed schema may not have yet.
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('cartridges')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('owner_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('genre', 'text', (c) => c.notNull())
      .addColumn('tags', 'text', (c) => c.notNull())
      .addColumn('visibility', 'text', (c) => c.notNull())
      .addColumn('archived_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('cartridges_owner_name', ['owner_id', 'name'])
      .execute();
    await db.schema.createIndex('cartridges_visibility').on('cartridges').column('visibility').execute();
    await db.schema
      .createTable('cartridge_covers')
      .addColumn('cartridge_id', 'text', (c) =>
        c.primaryKey().references('cartridges.id').onDelete('cascade'),
      )
      .addColumn('media_type', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('bytes', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.alterTable('cartridge_entries').addColumn('tag', 'text').execute();
    await db.schema.alterTable('cartridge_entries').addColumn('notes', 'text').execute();
    await db.schema.alterTable('cartridge_entries').addColumn('archived_at', 'bigint').execute();
    // A tag names one version of a cartridge; untagged entries (NULL) never collide on either database.
    await db.schema
      .createIndex('cartridge_entries_tag')
      .on('cartridge_entries')
      .columns(['owner_id', 'name', 'tag'])
      .unique()
      .execute();

    let after: { owner: string; name: string } | undefined;
    for (;;) {
      let query = db
        .selectFrom('cartridge_entries')
        .select(['owner_id', 'name'])
        .select((eb) => [eb.fn.min('created_at').as('first'), eb.fn.max('created_at').as('last')])
        .groupBy(['owner_id', 'name'])
        .orderBy('owner_id')
        .orderBy('name')
        .limit(LIBRARY_MIGRATION_BATCH);
      if (after !== undefined) {
        const { owner, name } = after;
        query = query.having((eb) =>
          eb.or([eb('owner_id', '>', owner), eb.and([eb('owner_id', '=', owner), eb('name', '>', name)])]),
        );
      }
      const rows: Array<{ owner_id: string; name: string; first: number | string; last: number | string }> =
        await query.execute();
      if (rows.length > 0) {
        await db
          .insertInto('cartridges')
          .values(
            rows.map((row) => ({
              id: randomUUID(),
              owner_id: row.owner_id,
              name: row.name,
              title: row.name,
              description: '',
              genre: '',
              tags: '[]',
              visibility: row.owner_id === '' ? 'public' : 'private',
              archived_at: null,
              created_at: Number(row.first),
              updated_at: Number(row.last),
            })),
          )
          .execute();
      }
      const last = rows.at(-1);
      if (last === undefined || rows.length < LIBRARY_MIGRATION_BATCH) break;
      after = { owner: last.owner_id, name: last.name };
    }
  },
};
