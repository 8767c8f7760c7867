// A turn's picture (docs/voices.md, "Pictures"): one image per turn, stored with the turn it illustrates and
// removed with it, the session's principal's, and counted in the storage quota of `owner_id` (`bytes`): the
// principal, or in single-user local mode the library's owner that every quota there is counted for. Stored as
// base64 text, as cartridge covers are (migration 0005), so both databases read it the same way.

import type { Migration } from './migration.ts';

export const turnPictures: Migration = {
  version: 10,
  name: 'turn_pictures',
  async up(db) {
    await db.schema
      .createTable('turn_pictures')
      .addColumn('turn_id', 'text', (c) => c.primaryKey().references('turns.id').onDelete('cascade'))
      .addColumn('session_id', 'text', (c) => c.notNull())
      .addColumn('principal_id', 'text', (c) => c.notNull())
      .addColumn('owner_id', 'text', (c) => c.notNull())
      .addColumn('media_type', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('bytes', 'bigint', (c) => c.notNull())
      .addColumn('prompt', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('turn_pictures_owner').on('turn_pictures').columns(['owner_id']).execute();
  },
};
