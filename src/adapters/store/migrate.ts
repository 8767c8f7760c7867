// Versioned migrations, applied in order when a store opens, all pending ones in one transaction.
// Two processes opening the same PostgreSQL database at once are serialised by a transaction-scoped
// advisory lock; on SQLite `BEGIN IMMEDIATE` does the same.

import { type Kysely, sql } from 'kysely';
import { StoreMigrationError } from './errors.ts';
import type { Migration } from './migrations/migration.ts';
import type { Database, SqlDialect } from './schema.ts';
import { inTransaction } from './transaction.ts';

/** Key of the PostgreSQL advisory lock held while migrating ("mnes" in ASCII). */
export const MIGRATION_LOCK_KEY = 0x6d6e6573;

/** Refuses a list that is not versions 1, 2, 3, … in order with non-empty names. */
export function checkMigrationList(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new StoreMigrationError(
        `migration list: entry ${i} has version ${m.version}, expected ${i + 1} (versions start at 1 and increase by one)`,
      );
    }
    if (m.name.trim() === '')
      throw new StoreMigrationError(`migration list: version ${m.version} has no name`);
  });
}

export interface AppliedMigration {
  version: number;
  name: string;
}

/** Applies every pending migration; returns the ones it applied (empty when the schema was current). */
export async function migrate(
  db: Kysely<Database>,
  dialect: SqlDialect,
  migrations: readonly Migration[],
  now: number,
): Promise<AppliedMigration[]> {
  checkMigrationList(migrations);
  return inTransaction(db, dialect, async (trx) => {
    if (dialect === 'postgres')
      await sql`select pg_advisory_xact_lock(${sql.lit(MIGRATION_LOCK_KEY)})`.execute(trx);
    await trx.schema
      .createTable('store_migrations')
      .ifNotExists()
      .addColumn('version', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('applied_at', 'bigint', (c) => c.notNull())
      .execute();
    const applied = await trx
      .selectFrom('store_migrations')
      .select(['version', 'name'])
      .orderBy('version')
      .execute();
    for (const row of applied) {
      const known = migrations[row.version - 1];
      if (known === undefined) {
        throw new StoreMigrationError(
          `database schema version ${row.version} ('${row.name}') is newer than this build knows (latest ${migrations.length}); upgrade mnesos`,
        );
      }
      if (known.name !== row.name) {
        throw new StoreMigrationError(
          `database migration ${row.version} is '${row.name}' but this build calls it '${known.name}'`,
        );
      }
    }
    const done = new Set(applied.map((row) => row.version));
    const ran: AppliedMigration[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await migration.up(trx, dialect);
      await trx
        .insertInto('store_migrations')
        .values({ version: migration.version, name: migration.name, applied_at: now })
        .execute();
      ran.push({ version: migration.version, name: migration.name });
    }
    return ran;
  });
}
