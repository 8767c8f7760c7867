// The first schema. Text UUID keys, integer-millisecond timestamps, JSON stored as text.
// `sessions.head_turn_id` has no foreign key on purpose: sessions and turns reference each other, and the
// repository checks the head inside the same transaction that moves it.

import type { Migration } from './migration.ts';

export const init: Migration = {
  version: 1,
  name: 'init',
  async up(db) {
    await db.schema
      .createTable('principals')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('principal_id', 'text', (c) => c.notNull().references('principals.id').onDelete('cascade'))
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema.createIndex('api_keys_principal').on('api_keys').column('principal_id').execute();

    await db.schema
      .createTable('cartridge_versions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('content_hash', 'text', (c) => c.notNull().unique())
      .addColumn('files', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('cartridge_versions_name')
      .on('cartridge_versions')
      .columns(['name', 'created_at'])
      .execute();

    await db.schema
      .createTable('personas')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('principal_id', 'text', (c) => c.notNull().references('principals.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('personas_principal').on('personas').column('principal_id').execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('principal_id', 'text', (c) => c.notNull().references('principals.id').onDelete('cascade'))
      // A version in use cannot be deleted: a session always plays the exact version it started with.
      .addColumn('cartridge_version_id', 'text', (c) =>
        c.notNull().references('cartridge_versions.id').onDelete('restrict'),
      )
      .addColumn('persona_id', 'text', (c) => c.references('personas.id').onDelete('set null'))
      .addColumn('seed', 'bigint', (c) => c.notNull())
      .addColumn('title', 'text')
      .addColumn('head_turn_id', 'text', (c) => c.notNull())
      .addColumn('turn_count', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('sessions_principal')
      .on('sessions')
      .columns(['principal_id', 'updated_at'])
      .execute();
    await db.schema.createIndex('sessions_persona').on('sessions').column('persona_id').execute();
    await db.schema.createIndex('sessions_cartridge').on('sessions').column('cartridge_version_id').execute();

    await db.schema
      .createTable('turns')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
      .addColumn('parent_id', 'text', (c) => c.references('turns.id').onDelete('cascade'))
      .addColumn('depth', 'integer', (c) => c.notNull())
      .addColumn('sibling_index', 'integer', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('seed', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('idempotency_key', 'text')
      // Variable-length text last: SQLite reads a row's columns in order through its overflow pages.
      .addColumn('input', 'text')
      .addColumn('narration', 'text', (c) => c.notNull())
      // Both constraints back up the session row lock: a bug there fails loudly instead of forking history.
      .addUniqueConstraint('turns_session_seq', ['session_id', 'seq'])
      .addUniqueConstraint('turns_session_idempotency', ['session_id', 'idempotency_key'])
      .execute();
    await db.schema
      .createIndex('turns_parent_sibling')
      .on('turns')
      .columns(['parent_id', 'sibling_index'])
      .unique()
      .execute();

    // Record and state live apart from the tree, so a branch walk never reads megabytes of state.
    await db.schema
      .createTable('turn_payloads')
      .addColumn('turn_id', 'text', (c) => c.primaryKey().references('turns.id').onDelete('cascade'))
      .addColumn('record', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('ledger_events')
      .addColumn('turn_id', 'text', (c) => c.notNull().references('turns.id').onDelete('cascade'))
      .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('event', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('ledger_events_pk', ['turn_id', 'position'])
      .execute();
    await db.schema.createIndex('ledger_events_session').on('ledger_events').column('session_id').execute();

    await db.schema
      .createTable('saves')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
      .addColumn('turn_id', 'text', (c) => c.notNull().references('turns.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('saves_session_name', ['session_id', 'name'])
      .execute();
    await db.schema.createIndex('saves_turn').on('saves').column('turn_id').execute();
  },
};
