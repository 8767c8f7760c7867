import type { Kysely } from 'kysely';
import type { Database, SqlDialect } from './schema.ts';

/** What every repository module needs: the query layer, the dialect, and the shell's clock and id source. */
export interface StoreContext {
  readonly db: Kysely<Database>;
  readonly dialect: SqlDialect;
  /** Stamps bookkeeping rows (created/updated) when the caller gives no time. */
  now(): number;
  newId(): string;
}
