// Stored cartridge versions, owners' entries and the library's cartridges: the library part of the store
// (cartridges.ts, cartridge-entries.ts, library.ts store them). Types only.

import type { JsonValue } from './json.ts';
import type { CartridgeVisibility } from './library-limits.ts';
import type { Failure } from './results.ts';

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

/** Bytes one owner stores; `bytes` (the sum) is what the storage quota counts. */
export interface StorageUsage {
  readonly bytes: number;
  /** Cartridge files of the owner's library entries. */
  readonly cartridgeBytes: number;
  readonly coverBytes: number;
  /** Builder drafts: files and generator transcripts. */
  readonly draftBytes: number;
  /** Turns' pictures (docs/voices.md). */
  readonly pictureBytes: number;
  readonly versions: number;
}

/** Cartridge versions (content-addressed), who owns which, and the library that lists them. */
export interface Library {
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
}
