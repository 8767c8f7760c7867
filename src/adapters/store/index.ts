// Public surface of the storage layer.
export { isUniqueViolation, StoreInputError, StoreMigrationError } from './errors.ts';
export { JsonText, type JsonValue } from './json.ts';
export { API_KEY_PREFIX, generateApiKey, hashApiKey } from './keys.ts';
export * from './limits.ts';
export { checkMigrationList, MIGRATION_LOCK_KEY, migrate } from './migrate.ts';
export { MIGRATIONS } from './migrations/index.ts';
export type { Migration } from './migrations/migration.ts';
export {
  DEFAULT_PG_POOL_SIZE,
  DEFAULT_SQLITE_PATH,
  type DatabaseTarget,
  type OpenStoreOptions,
  openStore,
  parseDatabaseUrl,
  SQLITE_BUSY_TIMEOUT_MS,
} from './open.ts';
export type * from './repository.ts';
export type { SqlDialect } from './schema.ts';
export { pieceEnd, SNAPSHOT_PIECE_CHARS, type SnapshotPieces, splitSnapshotText } from './snapshot-pieces.ts';
export {
  type CreateDraftResult,
  type Draft,
  type DraftPatch,
  type DraftSummary,
  MAX_DRAFT_BYTES,
  MAX_DRAFT_TRANSCRIPT_BYTES,
  MAX_DRAFTS_PER_PRINCIPAL,
} from './drafts.ts';
export { OPERATOR_OWNER } from './cartridge-entries.ts';
export {
  COVER_MEDIA_TYPES,
  type CoverMediaType,
  MAX_COVER_BYTES,
  MAX_DESCRIPTION_CHARS,
  MAX_GENRE_CHARS,
  MAX_LISTED_DESCRIPTION_CHARS,
  MAX_TAG_CHARS,
  MAX_TAGS,
  MAX_TITLE_CHARS,
  MAX_VERSION_NOTES_CHARS,
  MAX_VERSION_TAG_CHARS,
  VISIBILITIES,
} from './library-limits.ts';
export type { TurnPicture, TurnPictures } from './turn-picture-records.ts';
export { MAX_TURN_PICTURE_BYTES, MAX_TURN_PICTURE_PROMPT_CHARS } from './turn-pictures.ts';
