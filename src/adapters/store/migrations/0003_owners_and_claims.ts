// Hardening: who owns each stored cartridge version, and idempotency keys claimed by the
// database before a turn runs.
//
// `cartridge_entries`: a principal's library. Versions stay content-addressed and shared (one row per
// content hash), but a name resolves only within its owner's entries, so nobody's upload changes what
// another principal's name means. Owner '' is the operator (cartridges the server registers at start);
// versions stored before this migration become the operator's. `bytes` counts against the owner's quota.
//
// `turn_claims`: the first request with an Idempotency-Key inserts the claim (primary key) before any model
// is called; a concurrent request with the same key, on any replica, finds the claim and waits for the
// winner's turn instead of running the turn a second time.

import { sql } from 'kysely';
import type { Migration } from './migration.ts';

export const ownersAndClaims: Migration = {
  version: 3,
  name: 'owners_and_claims',
  async up(db, dialect) {
    await db.schema
      .createTable('cartridge_entries')
      .addColumn('owner_id', 'text', (c) => c.notNull())
      .addColumn('version_id', 'text', (c) =>
        c.notNull().references('cartridge_versions.id').onDelete('cascade'),
      )
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('bytes', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('cartridge_entries_pk', ['owner_id', 'version_id'])
      .execute();
    await db.schema
      .createIndex('cartridge_entries_owner_name')
      .on('cartridge_entries')
      .columns(['owner_id', 'name', 'created_at'])
      .execute();
    await db.schema
      .createIndex('cartridge_entries_version')
      .on('cartridge_entries')
      .column('version_id')
      .execute();
    const bytes = dialect === 'postgres' ? sql`octet_length(files)` : sql`length(cast(files as blob))`;
    await sql`insert into cartridge_entries (owner_id, version_id, name, bytes, created_at)
      select '', id, name, ${bytes}, created_at from cartridge_versions`.execute(db);

    await db.schema
      .createTable('turn_claims')
      .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
      .addColumn('idempotency_key', 'text', (c) => c.notNull())
      .addColumn('turn_id', 'text', (c) => c.notNull())
      .addColumn('claimed_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('turn_claims_pk', ['session_id', 'idempotency_key'])
      .execute();
  },
};
