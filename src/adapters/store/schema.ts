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
  /** The played turn a rebased turn was made from (its payload holds only what differs); null otherwise. */
  origin_id: string | null;
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
  /** The version's tag and notes, and when it was archived (migration 0005). */
  tag: string | null;
  notes: string | null;
  archived_at: number | null;
}

/** A cartridge: an owner's name, with its metadata and visibility (migration 0005). */
export interface CartridgesTable {
  id: string;
  owner_id: string;
  name: string;
  title: string;
  description: string;
  genre: string;
  /** JSON array of strings. */
  tags: string;
  visibility: 'private' | 'public';
  archived_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A cartridge's cover image (base64 text, so both databases store it the same way). */
export interface CartridgeCoversTable {
  cartridge_id: string;
  media_type: string;
  data: string;
  bytes: number;
  updated_at: number;
}

/** A turn's picture (see migration 0010_turn_pictures): base64 image data, counted in the owner's quota. */
export interface TurnPicturesTable {
  turn_id: string;
  session_id: string;
  principal_id: string;
  /** Whose storage quota it counts in. */
  owner_id: string;
  media_type: string;
  data: string;
  bytes: number;
  prompt: string;
  created_at: number;
}

/** An Idempotency-Key claimed before its turn runs (see migration 0003). */
export interface TurnClaimsTable {
  session_id: string;
  idempotency_key: string;
  turn_id: string;
  claimed_at: number;
  /** The process holding the claim (migration 0008); null on older claims. */
  owner_id: string | null;
}

/** A process that claims Idempotency-Keys, with its heartbeat (migration 0008). */
export interface ClaimOwnersTable {
  owner_id: string;
  started_at: number;
  heartbeat_at: number;
}

/** The world after a turn, kept for some turns of each branch (see migration 0004). */
/** One piece of a world snapshot's JSON text (see migration 0007 and snapshot-pieces.ts). */
export interface WorldSnapshotPiecesTable {
  /** The turn whose world the snapshot holds. */
  turn_id: string;
  session_id: string;
  position: number;
  text: string;
  /** The number of pieces, on the snapshot's last piece only: a snapshot is read once it is stored. */
  total: number | null;
}

/** A principal's builder draft (see migration 0006): files as JSON text, the generator's transcript. */
export interface DraftsTable {
  id: string;
  principal_id: string;
  name: string;
  files: string;
  transcript: string | null;
  created_at: number;
  updated_at: number;
}

/** A session that is a shared table (migration 0009): its turn order, round and live-event counter. */
export interface SessionTablesTable {
  session_id: string;
  turn_order: 'free' | 'rounds';
  round: number;
  /** 1 when the owner closed invitations (no code joins any more). */
  invites_closed: number;
  event_seq: number;
  created_at: number;
  updated_at: number;
}

/** Who sits at a table (migration 0009): the owner too, each with one character of the session. */
export interface SessionMembersTable {
  session_id: string;
  principal_id: string;
  role: 'owner' | 'gm' | 'player';
  character: string;
  name: string;
  persona_id: string | null;
  joined_at: number;
}

/** An invitation to a table (migration 0009): the code's sha256 only. */
export interface SessionInvitesTable {
  id: string;
  code_hash: string;
  session_id: string;
  created_by: string;
  created_at: number;
  expires_at: number;
  max_uses: number | null;
  uses: number;
  closed_at: number | null;
}

/** One thing that happened at a table, numbered per session (migration 0009); `payload` is JSON text. */
export interface TableEventsTable {
  session_id: string;
  seq: number;
  kind: string;
  payload: string;
  created_at: number;
}

/** A turn request waiting its turn in free order (migration 0009), held by a claiming process. */
export interface TurnQueueTable {
  id: string;
  session_id: string;
  position: number;
  principal_id: string;
  character: string;
  owner_id: string;
  queued_at: number;
}

/** A member's action in the round being collected (migration 0009); `input` is JSON text. */
export interface RoundActionsTable {
  session_id: string;
  round: number;
  principal_id: string;
  character: string;
  input: string;
  whisper: number;
  submitted_at: number;
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
  cartridges: CartridgesTable;
  cartridge_covers: CartridgeCoversTable;
  turn_pictures: TurnPicturesTable;
  turn_claims: TurnClaimsTable;
  claim_owners: ClaimOwnersTable;
  world_snapshot_pieces: WorldSnapshotPiecesTable;
  drafts: DraftsTable;
  session_tables: SessionTablesTable;
  session_members: SessionMembersTable;
  session_invites: SessionInvitesTable;
  table_events: TableEventsTable;
  turn_queue: TurnQueueTable;
  round_actions: RoundActionsTable;
}
