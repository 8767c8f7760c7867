// One transaction helper for both databases.
// SQLite: `BEGIN IMMEDIATE` takes the write lock up front, so a transaction that reads then writes can
// never fail half-way with SQLITE_BUSY_SNAPSHOT when another process wrote in between (Kysely's own
// SQLite transactions use a deferred `BEGIN`). PostgreSQL: Kysely's transaction (READ COMMITTED); the
// repository serialises per session with a row lock taken by its first statement.

import { type Kysely, sql } from 'kysely';
import type { StoreContext } from './context.ts';
import { kyselyRunner, type SqlRunner } from './runner.ts';
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

/** `work` with a runner: SQLite's direct one when the store has it (holding the connection), else Kysely. */
export function withRunner<T>(ctx: StoreContext, work: (run: SqlRunner) => Promise<T>): Promise<T> {
  return ctx.direct === undefined ? work(kyselyRunner(ctx.db, ctx.dialect)) : ctx.direct.exclusive(work);
}

/** `inTransaction` with a runner (`withRunner`'s choice of runner). */
export function inRunnerTransaction<T>(ctx: StoreContext, work: (run: SqlRunner) => Promise<T>): Promise<T> {
  return ctx.direct === undefined
    ? inTransaction(ctx.db, ctx.dialect, (trx) => work(kyselyRunner(trx, ctx.dialect)))
    : ctx.direct.transaction(work);
}
