// Builder drafts: a cartridge being written in the web client's builder, kept on the server so
// a reload never loses it. A draft belongs to one principal (their key), like personas; its files are JSON
// text (file name → text) and the generator's transcript, when it came from one, is kept beside them.

import type { Migration } from './migration.ts';

export const drafts: Migration = {
  version: 6,
  name: 'drafts',
  async up(db) {
    await db.schema
      .createTable('drafts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('principal_id', 'text', (c) => c.notNull().references('principals.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('files', 'text', (c) => c.notNull())
      .addColumn('transcript', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('drafts_principal')
      .on('drafts')
      .columns(['principal_id', 'updated_at'])
      .execute();
  },
};
