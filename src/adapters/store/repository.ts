// The storage contract used by the session and server layers. Two implementations share one Kysely query
// layer: SQLite (better-sqlite3, the default) and PostgreSQL (pg). Both pass test/adapters/store/repository-suite.ts.
//
// Conventions:
// - Ids are text. The store makes UUIDs (`crypto.randomUUID`) unless the caller passes `id`.
// - Timestamps are integer milliseconds. Turns carry the caller's `createdAt` (part of the record); other
//   rows default to the store's clock (`OpenStoreOptions.now`), which only stamps bookkeeping.
// - Turn content is JSON the store does not interpret (`record`, `state`, `input`, ledger events).
// - Expected outcomes (conflict, not found, name taken) are returned as `{ ok: false, reason }`; bad input
//   throws `StoreInputError`; database failures throw the driver's error.
// - Turn-level methods are scoped by session: a turn id from another session is "not found". The caller
//   checks that the principal owns the session (`getSession(id, principalId)`) before using them.
//
// The store is the composition of small parts, each an interface beside its records: the turn log
// (turn-log-records.ts), the snapshot store of the world projection (snapshot-records.ts), the claims
// (claim-records.ts), accounts, library, personas, saves, drafts, settings and shared tables. A caller that needs one part
// names that part's type; `Store` is all of them.

import type { Accounts } from './account-records.ts';
import type { TurnClaims } from './claim-records.ts';
import type { Drafts } from './draft-records.ts';
import type { Library } from './library-records.ts';
import type { Personas } from './persona-records.ts';
import type { Saves } from './save-records.ts';
import type { SqlDialect } from './schema.ts';
import type { SettingsStore } from './settings-records.ts';
import type { SnapshotStore } from './snapshot-records.ts';
import type { Tables } from './table-records.ts';
import type { TurnLog } from './turn-log-records.ts';
import type { TurnPictures } from './turn-picture-records.ts';

export type * from './account-records.ts';
export type * from './claim-records.ts';
export type * from './draft-records.ts';
export type * from './library-records.ts';
export type * from './persona-records.ts';
export type * from './results.ts';
export type * from './save-records.ts';
export type * from './settings-records.ts';
export type * from './snapshot-records.ts';
export type * from './table-records.ts';
export type * from './turn-log-records.ts';

export interface Store
  extends TurnLog,
    SnapshotStore,
    TurnClaims,
    Accounts,
    Library,
    Personas,
    Saves,
    Drafts,
    SettingsStore,
    Tables,
    TurnPictures {
  readonly dialect: SqlDialect;
  close(): Promise<void>;
  /** Highest migration applied to the database. */
  schemaVersion(): Promise<number>;
}
