// The storage contract used by the session and server layers. Two implementations share one Kysely query
// layer: SQLite (better-sqlite3, the default) and PostgreSQL (pg). Both pass test/store/repository-suite.ts.
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

import type { CreateDraftResult, Draft, DraftPatch, DraftSummary } from './draft-records.ts';
import type { JsonValue } from './json.ts';
import type { CartridgeVisibility } from './library-limits.ts';
import type { SqlDialect } from './schema.ts';
import type { SnapshotPieces } from './snapshot-pieces.ts';

export interface Principal {
  id: string;
  name: string;
  createdAt: number;
}

export interface ApiKey {
  id: string;
  principalId: string;
  label: string;
  createdAt: number;
  revokedAt: number | null;
}

export interface CartridgeVersionSummary {
  id: string;
  name: string;
  contentHash: string;
  createdAt: number;
}

export interface CartridgeVersion extends CartridgeVersionSummary {
  files: JsonValue;
}

export interface CartridgeSummary {
  name: string;
  latest: CartridgeVersionSummary;
  versionCount: number;
}

/** A cartridge a principal may start: the operator's (offered to everyone) or the principal's own upload. */
export interface OwnedCartridgeSummary extends CartridgeSummary {
  owner: 'operator' | 'self';
}

/**
 * How a principal may read a stored version: its `owner` (uploaded it) sees every file; a version the
 * `operator` offers, or one a session of theirs plays (`player`), is shown as the Narrator sees it.
 */
export type CartridgeAccess = 'owner' | 'operator' | 'public' | 'player';

/** A cartridge in the library (migration 0005): an owner's name, with metadata and visibility. */
export interface LibraryCartridge {
  id: string;
  /** '' for the operator's. */
  ownerId: string;
  name: string;
  title: string;
  description: string;
  genre: string;
  tags: string[];
  visibility: CartridgeVisibility;
  archivedAt: number | null;
  createdAt: number;
  updatedAt: number;
  cover: { mediaType: string; bytes: number; updatedAt: number } | null;
}

/** A version as its cartridge lists it: with its tag, notes and archive mark. */
export interface LibraryVersion extends CartridgeVersionSummary {
  tag: string | null;
  notes: string | null;
  archivedAt: number | null;
  /** Bytes its entry counts against the owner's quota. */
  bytes: number;
  /** When the version joined this cartridge (the entry's time; `createdAt` is when the files were first stored). */
  addedAt: number;
}

/** A cartridge with its newest listed version and how many versions it lists. */
export interface LibraryCartridgeSummary extends LibraryCartridge {
  versionCount: number;
  latest: LibraryVersion;
}

export interface LibraryCartridgePatch {
  title?: string;
  description?: string;
  genre?: string;
  tags?: readonly string[];
  visibility?: CartridgeVisibility;
  archived?: boolean;
}

export interface LibraryVersionPatch {
  tag?: string | null;
  notes?: string | null;
  archived?: boolean;
}

export type UpdateLibraryVersionResult =
  | { ok: true; version: LibraryVersion }
  | Failure<'not-found'>
  | { ok: false; reason: 'tag-taken'; tag: string; versionId: string };

export type DeleteLibraryCartridgeResult =
  | { ok: true; versionsDeleted: string[] }
  | Failure<'not-found'>
  | { ok: false; reason: 'in-use'; sessions: number; versions: number };

export type DeleteCartridgeResult =
  | { ok: true; versionDeleted: boolean }
  | Failure<'not-found'>
  | { ok: false; reason: 'in-use'; sessions: number };

/** A claim on an Idempotency-Key: won, or held by another request's turn. */
export type ClaimResult = { claimed: true } | { claimed: false; turnId: string; claimedAt: number };

export interface ClaimInput {
  sessionId: string;
  key: string;
  turnId: string;
  claimedAt: number;
  /** A claim made before this time is taken over whoever holds it. */
  staleBefore: number;
  /** The claiming process (registered with `registerClaimOwner` first). */
  ownerId?: string;
  /** A claim whose owner's last heartbeat is before this time, or whose owner is gone, is taken over. */
  leaseBefore?: number;
}

export interface Persona {
  id: string;
  principalId: string;
  name: string;
  data: JsonValue;
  createdAt: number;
  updatedAt: number;
}

export interface Session {
  id: string;
  principalId: string;
  cartridgeVersionId: string;
  personaId: string | null;
  seed: number;
  title: string | null;
  headTurnId: string;
  /** Turns ever stored in the session, genesis included (the next turn's `seq`). */
  turnCount: number;
  createdAt: number;
  updatedAt: number;
}

/** A turn's place in the tree. */
export interface TurnNode {
  id: string;
  sessionId: string;
  parentId: string | null;
  /** 0 for the genesis turn (the first message), parent's depth + 1 otherwise. */
  depth: number;
  /** Order among the parent's children (swipes): 0, 1, 2, … */
  siblingIndex: number;
  /** Order of creation within the session: 0, 1, 2, … */
  seq: number;
  createdAt: number;
}

/** What a turn contributes to the conversation: the player's input and the narration. */
export interface TurnMessage extends TurnNode {
  input: JsonValue | null;
  narration: string;
}

export interface Turn extends TurnMessage {
  seed: number;
  record: JsonValue;
  /** The full game state after the turn. */
  state: JsonValue;
  ledgerEvents: JsonValue[];
  idempotencyKey: string | null;
}

/** A turn with its state and record but not its ledger events: what a branch read returns. */
export type BranchTurn = Omit<Turn, 'ledgerEvents'>;

/** The newest turns of a branch, oldest first. */
export interface Branch {
  turns: BranchTurn[];
  /** True when `turns` starts at the genesis turn (nothing of the branch was left out). */
  complete: boolean;
}

export interface BranchOptions {
  /** Turns to return at most, counted from `turnId` back (1 to MAX_BRANCH_TURNS). */
  limit: number;
  /**
   * Characters of content (state, record, input and narration, as stored) to return at most, counted from
   * `turnId` back (1 to MAX_BRANCH_CHARS). The turn `turnId` itself is always returned.
   */
  maxChars: number;
}

/** A principal's model settings: JSON the store does not interpret (the server validates it). */
/** Bytes one owner stores; `bytes` (the sum) is what the storage quota counts. */
export interface StorageUsage {
  readonly bytes: number;
  /** Cartridge files of the owner's library entries. */
  readonly cartridgeBytes: number;
  readonly coverBytes: number;
  /** Builder drafts: files and generator transcripts. */
  readonly draftBytes: number;
  readonly versions: number;
}

export interface StoredModelSettings {
  principalId: string;
  settings: JsonValue;
  updatedAt: number;
}

export type PutModelSettingsResult =
  | { ok: true; stored: StoredModelSettings }
  | Failure<'principal-not-found'>;

/** What the caller produced for one turn. */
export interface TurnContent {
  /** Player text or an interaction object; null (or absent) for the genesis turn. */
  input?: unknown;
  narration: string;
  record: unknown;
  state: unknown;
  /** World-ledger events in the order they were applied; may be empty. */
  ledgerEvents?: readonly unknown[];
  /**
   * The world after this turn, kept whole as a snapshot (JSON the store does not interpret, stored in
   * pieces). Given on some turns only: the world at any turn is the nearest snapshot on its branch plus the
   * ledger events after it.
   */
  worldSnapshot?: unknown;
  /**
   * Pieces of a snapshot's JSON text, for a snapshot written a few pieces per turn (this turn's world, or
   * an ancestor's whose snapshot is not complete yet); not with `worldSnapshot`.
   */
  snapshotPieces?: SnapshotPieces;
  /** The story clock the ledger batch was stamped with (kept beside its events, for exact replays). */
  ledgerGameTime?: string;
  seed: number;
  createdAt: number;
}

export interface LedgerEntry {
  turnId: string;
  depth: number;
  position: number;
  event: JsonValue;
  /** The story clock the turn's batch was stamped with, when it had one. */
  gameTime?: string;
}

/** What the world at a turn is built from: the nearest snapshot on its branch and the events after it. */
export interface WorldBase {
  /** The nearest snapshot at or above the turn, or null when the walk reached the genesis turn without one. */
  snapshot: { turnId: string; depth: number; world: JsonValue; chars: number } | null;
  /** Ledger events of the turns after the snapshot (from genesis when there is none) up to the turn, in order. */
  entries: LedgerEntry[];
  /** Characters of the stored events in `entries` (JSON text), for snapshot scheduling. */
  eventChars: number;
  /** The turn's depth. */
  depth: number;
}

/** One page of a branch's ledger, newest turns first by page, events oldest first within it. */
export interface LedgerPage {
  /** Events of the page's turns, in order (turn depth, then position). */
  entries: LedgerEntry[];
  /** Turns the page covers (with or without events). */
  turns: number;
  /** The turn to ask for next (the parent of the page's oldest turn), or null when the page reached genesis. */
  nextTurnId: string | null;
}

export interface Hydrated {
  turn: Turn;
  state: JsonValue;
  /** The last `messageWindow` turns of the branch ending at `turn`, oldest first. */
  messages: TurnMessage[];
  /** Ledger events of the turns in `messages`, in order. The whole log is `getLedgerLog`. */
  ledgerEvents: LedgerEntry[];
  /** True when `messages` starts at the genesis turn (the window covers the whole branch). */
  messagesComplete: boolean;
}

export interface Save {
  id: string;
  sessionId: string;
  turnId: string;
  name: string;
  createdAt: number;
}

export interface CreateSessionInput {
  id?: string;
  principalId: string;
  cartridgeVersionId: string;
  personaId?: string | null;
  seed: number;
  title?: string | null;
  createdAt?: number;
  /** Turn 0: the first message and the initial state. */
  genesis: TurnContent & { id?: string };
  /**
   * Sessions the principal may keep at most: with that many stored, the create is refused with
   * `session-cap` (counted in the create's transaction, so concurrent creates cannot pass it).
   */
  maxSessions?: number;
}

/** Where a page of `listSessions` starts: after this session in the list's order. */
export interface SessionCursor {
  updatedAt: number;
  id: string;
}

export interface SessionPage {
  /** Sessions to return at most (1 to MAX_SESSION_PAGE). */
  limit: number;
  /** Start after this session (the last of the previous page); the first page when absent. */
  after?: SessionCursor;
}

export interface AppendTurnInput extends TurnContent {
  id?: string;
  sessionId: string;
  parentId: string;
  /** When set, the append fails with `conflict` unless the session head is still this turn. */
  expectedHeadId?: string;
  /** When set, a retry with the same key returns the first turn (`replayed: true`) instead of a new one. */
  idempotencyKey?: string;
  /** Move the session head to the new turn (default true). */
  moveHead?: boolean;
}

export type Failure<R extends string> = { ok: false; reason: R };

export type CreateSessionResult =
  | { ok: true; session: Session; turn: Turn }
  | Failure<'principal-not-found' | 'cartridge-version-not-found' | 'persona-not-found'>
  | { ok: false; reason: 'session-cap'; limit: number };

export type AppendTurnResult =
  | { ok: true; turn: Turn; replayed: boolean }
  | Failure<'session-not-found' | 'parent-not-found'>
  | { ok: false; reason: 'conflict'; headTurnId: string };

export type SetHeadResult =
  | { ok: true; session: Session }
  | Failure<'session-not-found' | 'turn-not-found'>
  | { ok: false; reason: 'conflict'; headTurnId: string };

export type SaveResult =
  | { ok: true; save: Save }
  | Failure<'session-not-found' | 'turn-not-found' | 'save-not-found' | 'name-taken'>;

export type PersonaResult = { ok: true; persona: Persona } | Failure<'principal-not-found'>;

export type AddApiKeyResult = { ok: true; apiKey: ApiKey } | Failure<'principal-not-found' | 'key-taken'>;

export interface HydrateOptions {
  /** Turns of history to return (default DEFAULT_MESSAGE_WINDOW, at most MAX_MESSAGE_WINDOW). */
  messageWindow?: number;
  /**
   * Read the window's ledger events (default true). False saves a query when the caller builds the world
   * elsewhere: `ledgerEvents` and `turn.ledgerEvents` are then empty.
   */
  ledgerEvents?: boolean;
}

export interface Store {
  readonly dialect: SqlDialect;
  close(): Promise<void>;
  /** Highest migration applied to the database. */
  schemaVersion(): Promise<number>;

  createPrincipal(input: { id?: string; name: string; createdAt?: number }): Promise<Principal>;
  getPrincipal(id: string): Promise<Principal | undefined>;
  /** `keyHash` is `hashApiKey(raw)`: the store never sees raw keys. */
  addApiKey(input: {
    principalId: string;
    keyHash: string;
    label: string;
    createdAt?: number;
  }): Promise<AddApiKeyResult>;
  listApiKeys(principalId: string): Promise<ApiKey[]>;
  revokeApiKey(principalId: string, keyId: string, revokedAt?: number): Promise<boolean>;
  /** The principal owning an unrevoked key with this hash. */
  findPrincipalByKeyHash(keyHash: string): Promise<Principal | undefined>;

  /** Idempotent by `contentHash`: storing the same content again returns the stored version. */
  putCartridgeVersion(input: {
    name: string;
    contentHash: string;
    files: unknown;
    createdAt?: number;
  }): Promise<CartridgeVersion>;
  /** By version id or by content hash. */
  getCartridgeVersion(idOrHash: string): Promise<CartridgeVersion | undefined>;
  listCartridges(): Promise<CartridgeSummary[]>;
  /** Adds (or re-stamps as newest) an owner's entry for a stored version; owner '' is the operator. */
  addCartridgeEntry(input: {
    ownerId: string;
    versionId: string;
    name: string;
    bytes: number;
    createdAt?: number;
  }): Promise<void>;
  /** The newest version of `name` the principal may start: the operator's name wins over their own. */
  resolveCartridgeName(principalId: string, name: string): Promise<string | undefined>;
  /** The operator's cartridges and the principal's own, each name with its newest version. */
  listOwnedCartridges(principalId: string): Promise<OwnedCartridgeSummary[]>;
  listOwnedCartridgeVersions(principalId: string, name: string): Promise<CartridgeVersionSummary[]>;
  cartridgeAccess(principalId: string, versionId: string): Promise<CartridgeAccess | undefined>;
  /** What the owner stores (the storage quota counts all of it) and their versions. */
  cartridgeUsage(ownerId: string): Promise<StorageUsage>;
  /** A session by id alone, for operator tools (`session verify`); request handlers use `getSession`. */
  findSessionForAudit(id: string): Promise<Session | undefined>;
  /**
   * Removes the owner's entry, and the version when nothing else refers to it. Refused (`in-use`) while a
   * session plays it, unless the entry is archived (the stored version then stays for those sessions).
   */
  deleteCartridgeEntry(ownerId: string, versionId: string): Promise<DeleteCartridgeResult>;

  /**
   * The cartridges `viewerId` may see (their own, and everyone's public ones; '' is the operator), each with
   * its newest listed version. Archived cartridges and versions are left out unless `includeArchived` and
   * the viewer owns them.
   */
  listLibrary(viewerId: string, options?: { includeArchived?: boolean }): Promise<LibraryCartridgeSummary[]>;
  /**
   * A cartridge by id, or by name (the operator's public one first, then the viewer's own), when the viewer
   * may see it; an archived one only for its owner.
   */
  findLibraryCartridge(viewerId: string, ref: string): Promise<LibraryCartridge | undefined>;
  /** The cartridge's versions, newest first; archived ones only with `includeArchived`. */
  listLibraryVersions(
    cartridgeId: string,
    options?: { includeArchived?: boolean },
  ): Promise<LibraryVersion[]>;
  /** One entry of a version in the owner's library. */
  getLibraryVersion(ownerId: string, versionId: string): Promise<LibraryVersion | undefined>;
  /** Whether the viewer may start a new session on the version: listed (not archived) and visible to them. */
  canStartVersion(viewerId: string, versionId: string): Promise<boolean>;
  updateLibraryCartridge(
    ownerId: string,
    cartridgeId: string,
    patch: LibraryCartridgePatch,
  ): Promise<LibraryCartridge | undefined>;
  updateLibraryVersion(
    ownerId: string,
    versionId: string,
    patch: LibraryVersionPatch,
  ): Promise<UpdateLibraryVersionResult>;
  /**
   * Removes the cartridge and its entries; refused while a session plays a version that is not archived
   * (archiving the cartridge archives them all). Played versions stay stored for their sessions.
   */
  deleteLibraryCartridge(ownerId: string, cartridgeId: string): Promise<DeleteLibraryCartridgeResult>;
  /** Replaces (data) or removes (null) the cover; false when the owner has no such cartridge. */
  setCartridgeCover(
    ownerId: string,
    cartridgeId: string,
    cover: { mediaType: string; data: Uint8Array } | null,
  ): Promise<boolean>;
  getCartridgeCover(
    cartridgeId: string,
  ): Promise<{ mediaType: string; data: Uint8Array; updatedAt: number } | undefined>;

  createPersona(input: {
    principalId: string;
    name: string;
    data: unknown;
    createdAt?: number;
  }): Promise<PersonaResult>;
  getPersona(id: string, principalId: string): Promise<Persona | undefined>;
  listPersonas(principalId: string): Promise<Persona[]>;
  updatePersona(
    id: string,
    principalId: string,
    patch: { name?: string; data?: unknown; updatedAt?: number },
  ): Promise<Persona | undefined>;
  /** Sessions that used the persona keep playing; their `personaId` becomes null. */
  deletePersona(id: string, principalId: string): Promise<boolean>;

  /** The session and its genesis turn, in one transaction. */
  createSession(input: CreateSessionInput): Promise<CreateSessionResult>;
  /** Another principal's session is not found. */
  getSession(id: string, principalId: string): Promise<Session | undefined>;
  /**
   * Most recently played first (then by id): all of them, or one page. The order is total, so pages that
   * follow each other's last session neither repeat nor skip a session that did not change meanwhile.
   */
  listSessions(principalId: string, page?: SessionPage): Promise<Session[]>;
  /** Sessions the principal keeps. */
  countSessions(principalId: string): Promise<number>;
  renameSession(
    id: string,
    principalId: string,
    title: string | null,
    updatedAt?: number,
  ): Promise<Session | undefined>;
  /** Who the player plays from the next turn on; `persona-not-found` unless the persona is the owner's. */
  setSessionPersona(
    id: string,
    principalId: string,
    personaId: string | null,
  ): Promise<Session | undefined | 'persona-not-found'>;
  /** Removes the session with its turns, ledger events and saves. */
  deleteSession(id: string, principalId: string): Promise<boolean>;

  /** Inserts the turn and its ledger events and moves the head, in one transaction. */
  appendTurn(input: AppendTurnInput): Promise<AppendTurnResult>;
  getTurn(sessionId: string, turnId: string): Promise<Turn | undefined>;
  findTurnByIdempotencyKey(sessionId: string, key: string): Promise<Turn | undefined>;
  /**
   * Claims the key for `turnId` before the turn runs; a claim older than `staleBefore`, or held by an owner
   * whose heartbeat is older than `leaseBefore` (or who is gone), may be taken over.
   */
  claimIdempotencyKey(input: ClaimInput): Promise<ClaimResult>;
  releaseIdempotencyKey(sessionId: string, key: string, turnId: string): Promise<void>;
  /** Registers (or refreshes) a process that claims keys; prunes owners silent since before `pruneBefore`. */
  registerClaimOwner(input: { ownerId: string; at: number; pruneBefore: number }): Promise<void>;
  /** Refreshes the owner's heartbeat; false when its row is gone (it must register again). */
  heartbeatClaimOwner(ownerId: string, at: number): Promise<boolean>;
  /** A clean shutdown: the owner's remaining claims may be taken over at once. */
  endClaimOwner(ownerId: string): Promise<void>;
  /** The turn's children (swipes), by sibling index. */
  listChildren(sessionId: string, turnId: string): Promise<TurnMessage[]>;
  /** The branch from the genesis turn to `turnId`, in one query. */
  getLineage(sessionId: string, turnId: string): Promise<TurnMessage[] | undefined>;
  /**
   * The newest turns of the branch ending at `turnId` with their state and record, oldest first, in one
   * query: at most `limit` turns and `maxChars` characters of content, so a deep branch stays cheap.
   */
  getBranch(sessionId: string, turnId: string, options: BranchOptions): Promise<Branch | undefined>;
  /** Every ledger event on the branch ending at `turnId`, in order, in one query. */
  getLedgerLog(sessionId: string, turnId: string): Promise<LedgerEntry[] | undefined>;
  /** What the world at `turnId` is built from, in one query: the nearest snapshot and the events after it. */
  getWorldBase(sessionId: string, turnId: string): Promise<WorldBase | undefined>;
  /** The ledger events of the `limit` turns ending at `turnId` (1 to MAX_LEDGER_PAGE_TURNS), in one query. */
  getLedgerPage(sessionId: string, turnId: string, limit: number): Promise<LedgerPage | undefined>;
  /** State, record and recent history of a turn in a constant number of queries, whatever its depth. */
  hydrate(sessionId: string, turnId: string, options?: HydrateOptions): Promise<Hydrated | undefined>;
  /** Undo / jump: point the head at any turn of the session. */
  setHead(
    sessionId: string,
    turnId: string,
    options?: { expectedHeadId?: string; updatedAt?: number },
  ): Promise<SetHeadResult>;
  /** Every turn of the session, by `seq`. */
  listTree(sessionId: string): Promise<TurnNode[]>;

  /** `name` is unique per session. */
  createSave(input: {
    sessionId: string;
    turnId: string;
    name: string;
    createdAt?: number;
  }): Promise<SaveResult>;
  getSave(sessionId: string, saveId: string): Promise<Save | undefined>;
  listSaves(sessionId: string): Promise<Save[]>;
  renameSave(sessionId: string, saveId: string, name: string): Promise<SaveResult>;
  deleteSave(sessionId: string, saveId: string): Promise<boolean>;

  /** A builder draft of the principal's (at most MAX_DRAFTS_PER_PRINCIPAL each; `quota` past it). */
  createDraft(input: {
    principalId: string;
    name: string;
    files: unknown;
    transcript?: string | null;
    createdAt?: number;
  }): Promise<CreateDraftResult>;
  /** Another principal's draft is not found. */
  getDraft(id: string, principalId: string): Promise<Draft | undefined>;
  /** Most recently changed first, without files. */
  listDrafts(principalId: string): Promise<DraftSummary[]>;
  /** With `expectedUpdatedAt`, made only if nobody saved since (else undefined, as when not found). */
  updateDraft(id: string, principalId: string, patch: DraftPatch): Promise<Draft | undefined>;
  deleteDraft(id: string, principalId: string): Promise<boolean>;

  getModelSettings(principalId: string): Promise<StoredModelSettings | undefined>;
  /** Replaces the principal's settings (at most MAX_SETTINGS_BYTES of JSON). */
  putModelSettings(input: {
    principalId: string;
    settings: unknown;
    updatedAt?: number;
  }): Promise<PutModelSettingsResult>;
}
