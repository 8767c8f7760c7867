// Row types of every table, as Kysely sees them. Timestamps are integer milliseconds (`bigint` columns;
// the PostgreSQL pool parses INT8 to number). JSON columns are text (see json.ts).

export type SqlDialect = 'sqlite' | 'postgres';

export interface StoreMigrationsTable {
  version: number;
  name: string;
  applied_at: number;
}

export interface PrincipalsTable {
  id: string;
  name: string;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  principal_id: string;
  key_hash: string;
  label: string;
  created_at: number;
  revoked_at: number | null;
}

export interface CartridgeVersionsTable {
  id: string;
  name: string;
  content_hash: string;
  files: string;
  created_at: number;
}

export interface PersonasTable {
  id: string;
  principal_id: string;
  name: string;
  data: string;
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  id: string;
  principal_id: string;
  cartridge_version_id: string;
  persona_id: string | null;
  seed: number;
  title: string | null;
  head_turn_id: string;
  turn_count: number;
  created_at: number;
  updated_at: number;
}

/** The tree and the conversation: small rows, so walking a branch reads little. */
export interface TurnsTable {
  id: string;
  session_id: string;
  parent_id: string | null;
  depth: number;
  sibling_index: number;
  seq: number;
  seed: number;
  created_at: number;
  idempotency_key: string | null;
  input: string | null;
  narration: string;
}

/** The heavy part of a turn, read only for the turn being hydrated. */
export interface TurnPayloadsTable {
  turn_id: string;
  record: string;
  state: string;
}

/** A turn with its payload, as written and as read back. */
export type TurnRow = TurnsTable & Omit<TurnPayloadsTable, 'turn_id'>;

export interface LedgerEventsTable {
  turn_id: string;
  session_id: string;
  position: number;
  event: string;
  /** The story clock the turn's batch was stamped with (migration 0004); null when it had none. */
  game_time: string | null;
}

export interface SavesTable {
  id: string;
  session_id: string;
  turn_id: string;
  name: string;
  created_at: number;
}

/** A principal's model settings (JSON the store does not interpret). */
export interface ModelSettingsTable {
  principal_id: string;
  settings: string;
  updated_at: number;
}

/** A principal's library entry for a stored version (owner '' is the operator). */
export interface CartridgeEntriesTable {
  owner_id: string;
  version_id: string;
  name: string;
  bytes: number;
  created_at: number;
}

/** An Idempotency-Key claimed before its turn runs (see migration 0003). */
export interface TurnClaimsTable {
  session_id: string;
  idempotency_key: string;
  turn_id: string;
  claimed_at: number;
}

/** The world after a turn, kept for some turns of each branch (see migration 0004). */
export interface WorldSnapshotsTable {
  turn_id: string;
  session_id: string;
  world: string;
}

export interface Database {
  store_migrations: StoreMigrationsTable;
  principals: PrincipalsTable;
  api_keys: ApiKeysTable;
  cartridge_versions: CartridgeVersionsTable;
  personas: PersonasTable;
  sessions: SessionsTable;
  turns: TurnsTable;
  turn_payloads: TurnPayloadsTable;
  ledger_events: LedgerEventsTable;
  saves: SavesTable;
  model_settings: ModelSettingsTable;
  cartridge_entries: CartridgeEntriesTable;
  turn_claims: TurnClaimsTable;
  world_snapshots: WorldSnapshotsTable;
}
