// One transaction helper for both databases.
// SQLite: `BEGIN IMMEDIATE` takes the write lock up front, so a transaction that reads then writes can
// never fail half-way with SQLITE_BUSY_SNAPSHOT when another process wrote in between (Kysely's own
// SQLite transactions use a deferred `BEGIN`). PostgreSQL: Kysely's transaction (READ COMMITTED); the
// repository serialises per session with a row lock taken by its first statement.

import { type Kysely, sql } from 'kysely';
import type { Database, SqlDialect } from './schema.ts';

export async function inTransaction<T>(
  db: Kysely<Database>,
  dialect: SqlDialect,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  switch (dialect) {
    case 'postgres':
      return db.transaction().execute(work);
    case 'sqlite':
      return db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        let result: T;
        try {
          result = await work(conn);
        } catch (error) {
          // SQLite may already have rolled back (for example after SQLITE_FULL); the first error is the one
          // worth reporting, so a failing ROLLBACK is ignored.
          await sql`rollback`.execute(conn).catch(() => undefined);
          throw error;
        }
        await sql`commit`.execute(conn);
        return result;
      });
    default: {
      const unreachable: never = dialect;
      throw new Error(`unknown dialect ${String(unreachable)}`);
    }
  }
}
