// Where a compiled query runs. Through Kysely (PostgreSQL; SQLite for the queries nobody made direct), or, on
// SQLite, straight on the better-sqlite3 connection: Kysely's own path around a statement (its executor, the
// connection provider, the driver's promises) costs several times what SQLite takes for a turn's small
// statements (bench/server.ts). Direct statements still take Kysely's lock on the connection first
// (`exclusive`), so they never run inside another caller's open transaction, nor it inside theirs.

import type Sqlite from 'better-sqlite3';
import { type CompiledQuery, type Kysely, sql } from 'kysely';
import { STATEMENT_CACHE_SIZE, remember } from './prepared.ts';
import type { Database, SqlDialect } from './schema.ts';

/** Runs compiled queries; `queries` builds them (its own executor is never used through a runner). */
export interface SqlRunner {
  readonly dialect: SqlDialect;
  readonly queries: Kysely<Database>;
  rows<R>(query: CompiledQuery<R>): Promise<R[]>;
}

/** A runner over a Kysely instance or transaction. */
export function kyselyRunner(db: Kysely<Database>, dialect: SqlDialect): SqlRunner {
  return {
    dialect,
    queries: db,
    rows: async <R>(query: CompiledQuery<R>) => (await db.executeQuery(query)).rows,
  };
}

/** The SQLite connection for direct statements, beside the Kysely instance that owns it. */
export class DirectSqlite {
  readonly #database: Sqlite.Database;
  readonly #db: Kysely<Database>;
  readonly #onQuery: ((sql: string) => void) | undefined;
  readonly #statements = new Map<string, Sqlite.Statement>();
  readonly #runner: SqlRunner;
  readonly #control: Readonly<Record<'begin' | 'commit' | 'rollback', CompiledQuery>>;

  constructor(database: Sqlite.Database, db: Kysely<Database>, onQuery?: (sql: string) => void) {
    this.#database = database;
    this.#db = db;
    this.#onQuery = onQuery;
    this.#runner = { dialect: 'sqlite', queries: db, rows: async (query) => this.#rows(query) };
    this.#control = {
      begin: sql`begin immediate`.compile(db),
      commit: sql`commit`.compile(db),
      rollback: sql`rollback`.compile(db),
    };
  }

  /** Runs `work` holding the connection: no other query of this process runs until it settles. */
  exclusive<T>(work: (run: SqlRunner) => Promise<T>): Promise<T> {
    return this.#db.connection().execute(() => work(this.#runner));
  }

  /**
   * `work` in one transaction, holding the connection. `BEGIN IMMEDIATE` as transaction.ts says why; a failed
   * ROLLBACK is ignored so the first error is the one reported.
   */
  transaction<T>(work: (run: SqlRunner) => Promise<T>): Promise<T> {
    return this.exclusive(async (run) => {
      this.#execute(this.#control.begin);
      let result: T;
      try {
        result = await work(run);
      } catch (error) {
        try {
          this.#execute(this.#control.rollback);
        } catch {
          // SQLite may have rolled back already (SQLITE_FULL, say).
        }
        throw error;
      }
      this.#execute(this.#control.commit);
      return result;
    });
  }

  #rows<R>(query: CompiledQuery<R>): R[] {
    return this.#execute(query) as R[];
  }

  #execute(query: CompiledQuery): unknown[] {
    const statement = remember(
      this.#statements,
      query.sql,
      () => this.#database.prepare(query.sql),
      STATEMENT_CACHE_SIZE,
    );
    try {
      if (statement.reader) return statement.all(query.parameters as unknown[]);
      statement.run(query.parameters as unknown[]);
      return [];
    } finally {
      this.#onQuery?.(query.sql);
    }
  }
}
