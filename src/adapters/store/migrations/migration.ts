import type { Kysely } from 'kysely';
import type { SqlDialect } from '../schema.ts';

/**
 * One schema step. `version` numbers start at 1 and increase by one; a migration is never edited once
 * released (a fix is a new migration). `up` runs inside the migration transaction.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  // biome-ignore lint/suspicious/noExplicitAny: migrations describe tables that the typed schema may not have yet.
  up(db: Kysely<any>, dialect: SqlDialect): Promise<void>;
}
