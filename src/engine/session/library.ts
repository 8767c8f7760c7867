// The cartridge library: every cartridge version a session can play, kept in the store by content hash, and
// loaded cartridges cached in memory. A session pins a version id, so it always plays exactly the files it
// started with, on every replica, whatever is uploaded later.

import { readCartridgeFolder } from '../../adapters/files/index.ts';
import { CARTRIDGE_FILES, type Cartridge, contentHash, type Persona } from '../../core/cartridge/index.ts';
import { loadCartridgeFromFiles } from '../../adapters/files/index.ts';
import type { Diagnostic } from '../../core/diagnostics.ts';
import { nameSkeleton } from '../../core/names.ts';
import {
  type CartridgeVersion,
  OPERATOR_OWNER,
  type Library,
  StoreInputError,
} from '../../adapters/store/index.ts';
import { canonicalJson } from './canonical.ts';
import { SessionError } from './errors.ts';
import { CARTRIDGE_CACHE_SIZE } from './limits.ts';

export type RegisterResult =
  | { ok: true; version: CartridgeVersion; cartridge: Cartridge; warnings: Diagnostic[]; created: boolean }
  | { ok: false; errors: Diagnostic[]; warnings: Diagnostic[] };

/** What an upload check found (the server runs it off the request thread): see server/cartridge-checker.ts. */
export type UploadCheck =
  | { ok: true; name: string; contentHash: string; warnings: Diagnostic[] }
  | { ok: false; errors: Diagnostic[]; warnings: Diagnostic[] };

export type UploadResult =
  | { ok: true; version: CartridgeVersion; warnings: Diagnostic[]; created: boolean }
  | { ok: false; reason: 'invalid'; errors: Diagnostic[]; warnings: Diagnostic[] }
  | { ok: false; reason: 'name-reserved'; name: string }
  /** The name looks like another in the uploader's library (same skeleton, src/core/names.ts). */
  | { ok: false; reason: 'name-confusable'; name: string; existing: string }
  | { ok: false; reason: 'quota'; usedBytes: number; bytes: number; quotaBytes: number };

export interface UploadOptions {
  /** The uploading principal: the version joins their library, and their name space. */
  readonly ownerId: string;
  /** Checks the files (loads the cartridge) and says its name and content hash. */
  readonly check: (files: ReadonlyMap<string, string | Uint8Array>, name: string) => Promise<UploadCheck>;
  /** Bytes of stored cartridge files the owner may hold in all. */
  readonly quotaBytes: number;
}

export interface LoadedCartridge {
  readonly version: CartridgeVersion;
  readonly cartridge: Cartridge;
}

const CARTRIDGE_FILE_NAMES: ReadonlySet<string> = new Set(CARTRIDGE_FILES.map((spec) => spec.name));
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The files the store keeps: the cartridge's own files as text. `ignoreBOM` keeps a byte-order mark as a
 * character, so re-encoding gives back the same bytes and the same content hash.
 */
function toStoredFiles(files: ReadonlyMap<string, string | Uint8Array>): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const [name, content] of files) {
    if (!CARTRIDGE_FILE_NAMES.has(name)) continue;
    out[name] = typeof content === 'string' ? content : utf8.decode(content);
  }
  return out;
}

function fromStoredFiles(version: CartridgeVersion): Map<string, string> {
  const files = new Map<string, string>();
  const stored = version.files;
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return files;
  for (const [name, content] of Object.entries(stored)) {
    if (CARTRIDGE_FILE_NAMES.has(name) && typeof content === 'string') files.set(name, content);
  }
  return files;
}

/** UTF-8 bytes of the files as stored (what counts against a quota). */
function storedBytes(files: ReadonlyMap<string, string | Uint8Array>): number {
  return Buffer.byteLength(JSON.stringify(toStoredFiles(files)));
}

/** A cartridge's name when its files give none: its folder's. */
function folderNameOf(dir: string): string {
  return dir.split(/[\\/]/).filter(Boolean).at(-1) ?? 'cartridge';
}

export class CartridgeLibrary {
  readonly #store: Library;
  readonly #cacheSize: number;
  /** Loaded cartridges by content hash and persona, most recently used last. */
  readonly #cache = new Map<string, Promise<Cartridge>>();
  /**
   * Stored versions by id and by content hash. A version's files never change, so a turn resolves its
   * session's pinned version from memory instead of reading (and decoding) its files from the store.
   */
  readonly #versions = new Map<string, CartridgeVersion>();

  constructor(store: Library, options: { cacheSize?: number } = {}) {
    this.#store = store;
    this.#cacheSize = options.cacheSize ?? CARTRIDGE_CACHE_SIZE;
  }

  /**
   * Validates the files and stores them as a version (idempotent: the same files give the same version), in
   * the operator's library (cartridges the server or the CLI offers), newest of its name.
   */
  async register(files: ReadonlyMap<string, string | Uint8Array>, name: string): Promise<RegisterResult> {
    const loaded = loadCartridgeFromFiles(files, name);
    if (!loaded.ok) return loaded;
    const { cartridge } = loaded;
    const stored = await this.#storeVersion(files, cartridge.name, cartridge.contentHash, loaded.warnings);
    await this.#store.addCartridgeEntry({
      ownerId: OPERATOR_OWNER,
      versionId: stored.version.id,
      name: cartridge.name,
      bytes: storedBytes(files),
    });
    return { ok: true, cartridge, ...stored };
  }

  /**
   * A principal's upload: checked by `options.check` (off the request thread in the server), refused when
   * its name is one the operator offers (nobody can shadow the demo), looks like another name of the
   * owner's library, or when it would take the owner past their quota, else stored in the owner's library.
   */
  async registerUpload(
    files: ReadonlyMap<string, string | Uint8Array>,
    uploadName: string,
    options: UploadOptions,
  ): Promise<UploadResult> {
    const checked = await options.check(files, uploadName);
    if (!checked.ok)
      return { ok: false, reason: 'invalid', errors: checked.errors, warnings: checked.warnings };
    if (options.ownerId !== OPERATOR_OWNER) {
      const offered = await this.#store.listOwnedCartridges(options.ownerId);
      if (offered.some((c) => c.owner === 'operator' && c.name === checked.name))
        return { ok: false, reason: 'name-reserved', name: checked.name };
      // A library may not list two names a reader cannot tell apart (`Lanternmеre` with a Cyrillic е).
      const skeleton = nameSkeleton(checked.name);
      const alike = offered.find((c) => c.name !== checked.name && nameSkeleton(c.name) === skeleton);
      if (alike !== undefined)
        return { ok: false, reason: 'name-confusable', name: checked.name, existing: alike.name };
    }
    const bytes = storedBytes(files);
    const existing = await this.#store.getCartridgeVersion(checked.contentHash);
    const alreadyOwned =
      existing !== undefined && (await this.#store.cartridgeAccess(options.ownerId, existing.id)) === 'owner';
    if (!alreadyOwned) {
      const usage = await this.#store.cartridgeUsage(options.ownerId);
      if (usage.bytes + bytes > options.quotaBytes)
        return { ok: false, reason: 'quota', usedBytes: usage.bytes, bytes, quotaBytes: options.quotaBytes };
    }
    const stored = await this.#storeVersion(files, checked.name, checked.contentHash, checked.warnings);
    if (!alreadyOwned) {
      await this.#store.addCartridgeEntry({
        ownerId: options.ownerId,
        versionId: stored.version.id,
        name: checked.name,
        bytes,
      });
    }
    return { ok: true, ...stored, created: stored.created || !alreadyOwned };
  }

  async #storeVersion(
    files: ReadonlyMap<string, string | Uint8Array>,
    cartridgeName: string,
    contentHash: string,
    loadWarnings: readonly Diagnostic[],
  ): Promise<{ version: CartridgeVersion; warnings: Diagnostic[]; created: boolean }> {
    const warnings = [...loadWarnings];
    for (const file of files.keys()) {
      if (!CARTRIDGE_FILE_NAMES.has(file)) {
        warnings.push({
          severity: 'warning',
          code: 'CART_EXTRA_FILE',
          message: `${file} is not a cartridge file and was not stored (known: ${[...CARTRIDGE_FILE_NAMES].join(', ')}).`,
          place: { file, line: 1, col: 1 },
        });
      }
    }
    const stored = await this.#store.getCartridgeVersion(contentHash);
    if (stored !== undefined) return { version: stored, warnings, created: false };
    let version: CartridgeVersion;
    let created = true;
    try {
      version = await this.#store.putCartridgeVersion({
        name: cartridgeName,
        contentHash,
        files: toStoredFiles(files),
      });
    } catch (error) {
      // The same files were stored before under another name (a different upload name, same bot_name-less
      // folder): the content is what a session pins, so that version is the answer.
      if (!(error instanceof StoreInputError)) throw error;
      const existing = await this.#store.getCartridgeVersion(contentHash);
      if (existing === undefined) throw error;
      version = existing;
      created = false;
      warnings.push({
        severity: 'warning',
        code: 'CART_ALREADY_STORED',
        message: `These files are already stored as cartridge '${existing.name}'; that version is used.`,
      });
    }
    return { version, warnings, created };
  }

  /**
   * A folder the server offers at start: registered as `registerFolder` does, except when the operator's
   * library already holds exactly these files (every start after the first). Then nothing is parsed: the
   * files were validated when they were stored, and the first game on them loads them (`loadVersion`), as it
   * does any stored version. This keeps `serve` start-up free of the YAML parse and rules compile.
   */
  async offerFolder(
    dir: string,
  ): Promise<{ ok: true; version: CartridgeVersion } | { ok: false; errors: Diagnostic[] }> {
    const read = await readCartridgeFolder(dir);
    if (!read.ok) return { ok: false, errors: read.errors };
    const known = await this.#store.getCartridgeVersion(contentHash(read.files));
    if (known !== undefined && (await this.#store.cartridgeAccess(OPERATOR_OWNER, known.id)) === 'owner') {
      this.#versions.set(known.id, known);
      this.#versions.set(known.contentHash, known);
      return { ok: true, version: known };
    }
    const registered = await this.register(read.files, folderNameOf(dir));
    return registered.ok ? { ok: true, version: registered.version } : registered;
  }

  /** Reads a cartridge folder and registers it. */
  async registerFolder(dir: string, name?: string): Promise<RegisterResult> {
    const read = await readCartridgeFolder(dir);
    if (!read.ok) return { ok: false, errors: read.errors, warnings: [] };
    return this.register(read.files, name ?? folderNameOf(dir));
  }

  /** A stored version, loaded with the persona's macros; undefined when no such version exists. */
  async load(versionIdOrHash: string, persona?: Persona): Promise<LoadedCartridge | undefined> {
    const version = await this.version(versionIdOrHash);
    if (version === undefined) return undefined;
    return { version, cartridge: await this.loadVersion(version, persona) };
  }

  /** A stored version by id or content hash, from memory after its first read. */
  async version(idOrHash: string): Promise<CartridgeVersion | undefined> {
    const known = this.#versions.get(idOrHash);
    if (known !== undefined) return known;
    const version = await this.#store.getCartridgeVersion(idOrHash);
    if (version === undefined) return undefined;
    this.#versions.set(version.id, version);
    this.#versions.set(version.contentHash, version);
    while (this.#versions.size > 2 * this.#cacheSize) {
      const oldest = this.#versions.keys().next().value;
      if (oldest === undefined) break;
      this.#versions.delete(oldest);
    }
    return version;
  }

  /** Drops a version from memory (it was deleted from the store). */
  forgetVersion(version: { readonly id: string; readonly contentHash: string }): void {
    this.#versions.delete(version.id);
    this.#versions.delete(version.contentHash);
  }

  /** Loads a version's files, or takes them from the cache. */
  loadVersion(version: CartridgeVersion, persona?: Persona): Promise<Cartridge> {
    const key = `${version.contentHash}\0${persona === undefined ? '' : canonicalJson(persona)}`;
    const cached = this.#cache.get(key);
    if (cached !== undefined) {
      this.#cache.delete(key);
      this.#cache.set(key, cached);
      return cached;
    }
    const loading = Promise.resolve().then(() => {
      const result = loadCartridgeFromFiles(
        fromStoredFiles(version),
        version.name,
        persona ? { persona } : {},
      );
      if (!result.ok) {
        throw new SessionError(
          'cartridge',
          `cartridge '${version.name}' (${version.contentHash}) no longer loads: ${result.errors
            .slice(0, 3)
            .map((d) => d.message)
            .join('; ')}`,
        );
      }
      return result.cartridge;
    });
    // A failure is not cached: the next call tries again (and reports the same errors).
    loading.catch(() => this.#cache.delete(key));
    this.#cache.set(key, loading);
    while (this.#cache.size > this.#cacheSize) {
      const oldest = this.#cache.keys().next().value;
      if (oldest === undefined) break;
      this.#cache.delete(oldest);
    }
    return loading;
  }

  /** Cartridges held in memory (for metrics and tests). */
  get cachedCount(): number {
    return this.#cache.size;
  }
}
