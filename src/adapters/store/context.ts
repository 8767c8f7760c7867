import type { Kysely } from 'kysely';
import type { DirectSqlite } from './runner.ts';
import type { Database, SqlDialect } from './schema.ts';

/** What every repository module needs: the query layer, the dialect, and the shell's clock and id source. */
export interface StoreContext {
  readonly db: Kysely<Database>;
  readonly dialect: SqlDialect;
  /** SQLite's connection for the statements every turn runs (runner.ts); absent on PostgreSQL. */
  readonly direct?: DirectSqlite;
  /** Stamps bookkeeping rows (created/updated) when the caller gives no time. */
  now(): number;
  newId(): string;
}
