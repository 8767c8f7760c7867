// The library (migration 0005): cartridges as owners' names with metadata, visibility and covers, and the
// versions each lists with their tags, notes and archive marks. A viewer sees their own cartridges and
// everyone's public ones ('' is the operator, whose library the local user owns); the caller (the server)
// decides who the viewer is. Entries are created by cartridge-entries.ts (uploads and registration).

import { type Kysely, sql } from 'kysely';
import {
  checkOwner,
  listedEntries,
  OPERATOR_OWNER,
  removeEntry,
  sessionsPlaying,
} from './cartridge-entries.ts';
import type { StoreContext } from './context.ts';
import { isUniqueViolation, StoreInputError } from './errors.ts';
import {
  COVER_MEDIA_TYPES,
  MAX_COVER_BYTES,
  MAX_DESCRIPTION_CHARS,
  MAX_GENRE_CHARS,
  MAX_LISTED_CARTRIDGES,
  MAX_TAG_CHARS,
  MAX_TAGS,
  MAX_TITLE_CHARS,
  MAX_VERSION_NOTES_CHARS,
  MAX_VERSION_TAG_CHARS,
  VISIBILITIES,
} from './library-limits.ts';
import type {
  DeleteLibraryCartridgeResult,
  LibraryCartridge,
  LibraryCartridgePatch,
  LibraryCartridgeSummary,
  LibraryVersion,
  LibraryVersionPatch,
  UpdateLibraryVersionResult,
} from './library-records.ts';
import type { CartridgesTable, Database } from './schema.ts';
import { inTransaction } from './transaction.ts';
import { nameProblem, storableTextProblem } from '../../core/text-policy.ts';

// ---- argument checks -------------------------------------------------------------------------------

function checkText(place: string, value: unknown, max: number, line: boolean): string {
  if (typeof value !== 'string') throw new StoreInputError(place, 'must be a string');
  if (value.length > max)
    throw new StoreInputError(place, `is ${value.length} characters, over the limit ${max}`);
  const problem = line ? nameProblem(value) : storableTextProblem(value);
  if (problem !== undefined) throw new StoreInputError(place, problem);
  return value;
}

function checkTags(place: string, value: unknown): string[] {
  if (!Array.isArray(value)) throw new StoreInputError(place, 'must be an array of strings');
  if (value.length > MAX_TAGS)
    throw new StoreInputError(place, `has ${value.length} tags, over the limit MAX_TAGS = ${MAX_TAGS}`);
  const out: string[] = [];
  value.forEach((tag, i) => {
    const text = checkText(`${place}[${i}]`, tag, MAX_TAG_CHARS, true);
    if (text.trim() === '') throw new StoreInputError(`${place}[${i}]`, 'must not be empty');
    if (!out.includes(text)) out.push(text);
  });
  return out;
}

// ---- row mapping -----------------------------------------------------------------------------------

const CARTRIDGE_COLUMNS = [
  'c.id as id',
  'c.owner_id as owner_id',
  'c.name as name',
  'c.title as title',
  'c.description as description',
  'c.genre as genre',
  'c.tags as tags',
  'c.visibility as visibility',
  'c.archived_at as archived_at',
  'c.created_at as created_at',
  'c.updated_at as updated_at',
  'k.media_type as cover_type',
  'k.bytes as cover_bytes',
  'k.updated_at as cover_updated_at',
] as const;

type CartridgeRow = CartridgesTable & {
  cover_type: string | null;
  cover_bytes: number | string | null;
  cover_updated_at: number | string | null;
};

function decodeTags(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

function toLibraryCartridge(row: CartridgeRow): LibraryCartridge {
  return {
    id: row.id,
    ownerId: row.owner_id,
    name: row.name,
    title: row.title,
    description: row.description,
    genre: row.genre,
    tags: decodeTags(row.tags),
    visibility: row.visibility === 'public' ? 'public' : 'private',
    archivedAt: row.archived_at === null ? null : Number(row.archived_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    cover:
      row.cover_type === null
        ? null
        : {
            mediaType: row.cover_type,
            bytes: Number(row.cover_bytes),
            updatedAt: Number(row.cover_updated_at),
          },
  };
}

const VERSION_COLUMNS = [
  'v.id as id',
  'v.name as name',
  'v.content_hash as content_hash',
  'v.created_at as created_at',
  'e.created_at as added_at',
  'e.tag as tag',
  'e.notes as notes',
  'e.archived_at as archived_at',
  'e.bytes as bytes',
] as const;

interface VersionRow {
  id: string;
  name: string;
  content_hash: string;
  created_at: number | string;
  added_at: number | string;
  tag: string | null;
  notes: string | null;
  archived_at: number | string | null;
  bytes: number | string;
}

function toLibraryVersion(row: VersionRow): LibraryVersion {
  return {
    id: row.id,
    name: row.name,
    contentHash: row.content_hash,
    createdAt: Number(row.created_at),
    addedAt: Number(row.added_at),
    tag: row.tag,
    notes: row.notes,
    archivedAt: row.archived_at === null ? null : Number(row.archived_at),
    bytes: Number(row.bytes),
  };
}

function cartridgesQuery(db: Kysely<Database>) {
  return db
    .selectFrom('cartridges as c')
    .leftJoin('cartridge_covers as k', 'k.cartridge_id', 'c.id')
    .select(CARTRIDGE_COLUMNS);
}

function versionsQuery(db: Kysely<Database>) {
  return db
    .selectFrom('cartridges as c')
    .innerJoin('cartridge_entries as e', (join) =>
      join.onRef('e.owner_id', '=', 'c.owner_id').onRef('e.name', '=', 'c.name'),
    )
    .innerJoin('cartridge_versions as v', 'v.id', 'e.version_id')
    .select(VERSION_COLUMNS);
}

// ---- reads -----------------------------------------------------------------------------------------

export async function listLibrary(
  ctx: StoreContext,
  viewerId: string,
  options: { includeArchived?: boolean } = {},
): Promise<LibraryCartridgeSummary[]> {
  const viewer = checkOwner('listLibrary.viewerId', viewerId);
  const own = options.includeArchived === true;
  const rows = (await cartridgesQuery(ctx.db)
    .where((eb) => eb.or([eb('c.owner_id', '=', viewer), eb('c.visibility', '=', 'public')]))
    .where((eb) =>
      own
        ? eb.or([eb('c.archived_at', 'is', null), eb('c.owner_id', '=', viewer)])
        : eb('c.archived_at', 'is', null),
    )
    // The bound keeps the server's and the viewer's own cartridges; other principals' public ones fill the rest.
    .orderBy(sql`case when c.owner_id = ${OPERATOR_OWNER} or c.owner_id = ${viewer} then 0 else 1 end`)
    .orderBy('c.name')
    .orderBy('c.id')
    .limit(MAX_LISTED_CARTRIDGES)
    .execute()) as CartridgeRow[];
  if (rows.length === 0) return [];
  // Shown by name; for one name the operator's first, then the viewer's, then others'.
  const rank = (row: CartridgeRow) => (row.owner_id === OPERATOR_OWNER ? 0 : row.owner_id === viewer ? 1 : 2);
  rows.sort((a, b) =>
    a.name < b.name
      ? -1
      : a.name > b.name
        ? 1
        : rank(a) - rank(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  // Versions per cartridge: counted and the newest read in one grouped pass over the listed entries.
  const ids = rows.map((r) => r.id);
  const versions = (await versionsQuery(ctx.db)
    .select('c.id as cartridge_id')
    .where('c.id', 'in', ids)
    .where((eb) =>
      own
        ? eb.or([eb('e.archived_at', 'is', null), eb('c.owner_id', '=', viewer)])
        : eb('e.archived_at', 'is', null),
    )
    .orderBy('c.id')
    .orderBy('e.created_at', 'desc')
    .orderBy('v.id', 'desc')
    .execute()) as Array<VersionRow & { cartridge_id: string }>;
  const byCartridge = new Map<string, { latest: LibraryVersion; count: number }>();
  for (const row of versions) {
    const seen = byCartridge.get(row.cartridge_id);
    if (seen === undefined) byCartridge.set(row.cartridge_id, { latest: toLibraryVersion(row), count: 1 });
    else seen.count += 1;
  }
  const out: LibraryCartridgeSummary[] = [];
  for (const row of rows) {
    const listed = byCartridge.get(row.id);
    if (listed === undefined) continue; // every version archived: nothing to start
    out.push({ ...toLibraryCartridge(row), versionCount: listed.count, latest: listed.latest });
  }
  return out;
}

export async function findLibraryCartridge(
  ctx: StoreContext,
  viewerId: string,
  ref: string,
): Promise<LibraryCartridge | undefined> {
  const viewer = checkOwner('findLibraryCartridge.viewerId', viewerId);
  const visible = (row: CartridgeRow | undefined) =>
    row !== undefined &&
    (row.owner_id === viewer || (row.visibility === 'public' && row.archived_at === null));
  const byId = (await cartridgesQuery(ctx.db).where('c.id', '=', ref).executeTakeFirst()) as
    | CartridgeRow
    | undefined;
  if (byId !== undefined && visible(byId)) return toLibraryCartridge(byId);
  // A name means the operator's cartridge (which nobody can shadow), else the viewer's own.
  const byName = (await cartridgesQuery(ctx.db)
    .where('c.name', '=', ref)
    .where((eb) => eb.or([eb('c.owner_id', '=', OPERATOR_OWNER), eb('c.owner_id', '=', viewer)]))
    .orderBy(sql`case when c.owner_id = ${OPERATOR_OWNER} then 0 else 1 end`)
    .execute()) as CartridgeRow[];
  const found = byName.find(visible);
  return found && toLibraryCartridge(found);
}

export async function listLibraryVersions(
  ctx: StoreContext,
  cartridgeId: string,
  options: { includeArchived?: boolean } = {},
): Promise<LibraryVersion[]> {
  let query = versionsQuery(ctx.db).where('c.id', '=', cartridgeId);
  if (options.includeArchived !== true) query = query.where('e.archived_at', 'is', null);
  const rows = (await query
    .orderBy('e.created_at', 'desc')
    .orderBy('v.id', 'desc')
    .execute()) as VersionRow[];
  return rows.map(toLibraryVersion);
}

export async function getLibraryVersion(
  ctx: StoreContext,
  ownerId: string,
  versionId: string,
): Promise<LibraryVersion | undefined> {
  const owner = checkOwner('getLibraryVersion.ownerId', ownerId);
  const row = (await versionsQuery(ctx.db)
    .where('e.owner_id', '=', owner)
    .where('e.version_id', '=', versionId)
    .executeTakeFirst()) as VersionRow | undefined;
  return row && toLibraryVersion(row);
}

export async function canStartVersion(
  ctx: StoreContext,
  viewerId: string,
  versionId: string,
): Promise<boolean> {
  const viewer = checkOwner('canStartVersion.viewerId', viewerId);
  const row = await listedEntries(ctx.db)
    .select('e.version_id')
    .where('e.version_id', '=', versionId)
    .where((eb) => eb.or([eb('e.owner_id', '=', viewer), eb('c.visibility', '=', 'public')]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

// ---- writes ----------------------------------------------------------------------------------------

export async function updateLibraryCartridge(
  ctx: StoreContext,
  ownerId: string,
  cartridgeId: string,
  patch: LibraryCartridgePatch,
): Promise<LibraryCartridge | undefined> {
  const owner = checkOwner('updateLibraryCartridge.ownerId', ownerId);
  const now = ctx.now();
  const set: Partial<CartridgesTable> = { updated_at: now };
  if (patch.title !== undefined) {
    set.title = checkText('updateLibraryCartridge.title', patch.title, MAX_TITLE_CHARS, true);
    if (set.title.trim() === '')
      throw new StoreInputError('updateLibraryCartridge.title', 'must not be empty');
  }
  if (patch.description !== undefined)
    set.description = checkText(
      'updateLibraryCartridge.description',
      patch.description,
      MAX_DESCRIPTION_CHARS,
      false,
    );
  if (patch.genre !== undefined)
    set.genre = checkText('updateLibraryCartridge.genre', patch.genre, MAX_GENRE_CHARS, true);
  if (patch.tags !== undefined)
    set.tags = JSON.stringify(checkTags('updateLibraryCartridge.tags', patch.tags));
  if (patch.visibility !== undefined) {
    if (!VISIBILITIES.includes(patch.visibility))
      throw new StoreInputError(
        'updateLibraryCartridge.visibility',
        `must be one of ${VISIBILITIES.join(', ')}`,
      );
    set.visibility = patch.visibility;
  }
  if (patch.archived !== undefined) set.archived_at = patch.archived ? now : null;
  const result = await ctx.db
    .updateTable('cartridges')
    .set(set)
    .where('id', '=', cartridgeId)
    .where('owner_id', '=', owner)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return undefined;
  const row = (await cartridgesQuery(ctx.db).where('c.id', '=', cartridgeId).executeTakeFirst()) as
    | CartridgeRow
    | undefined;
  return row && toLibraryCartridge(row);
}

export async function updateLibraryVersion(
  ctx: StoreContext,
  ownerId: string,
  versionId: string,
  patch: LibraryVersionPatch,
): Promise<UpdateLibraryVersionResult> {
  const owner = checkOwner('updateLibraryVersion.ownerId', ownerId);
  const tag =
    patch.tag === undefined || patch.tag === null
      ? patch.tag
      : checkText('updateLibraryVersion.tag', patch.tag, MAX_VERSION_TAG_CHARS, true);
  if (typeof tag === 'string' && tag.trim() === '')
    throw new StoreInputError('updateLibraryVersion.tag', 'must not be empty (null removes it)');
  const notes =
    patch.notes === undefined || patch.notes === null
      ? patch.notes
      : checkText('updateLibraryVersion.notes', patch.notes, MAX_VERSION_NOTES_CHARS, false);
  try {
    return await writeVersionPatch(ctx, owner, versionId, { tag, notes, archived: patch.archived });
  } catch (error) {
    // Two requests tagging two versions alike at once: the unique index lets one through.
    if (typeof tag !== 'string' || !isUniqueViolation(error)) throw error;
    const holder = await ctx.db
      .selectFrom('cartridge_entries as e')
      .innerJoin('cartridge_entries as mine', (join) =>
        join.onRef('mine.owner_id', '=', 'e.owner_id').onRef('mine.name', '=', 'e.name'),
      )
      .select('e.version_id')
      .where('mine.owner_id', '=', owner)
      .where('mine.version_id', '=', versionId)
      .where('e.tag', '=', tag)
      .executeTakeFirst();
    return { ok: false, reason: 'tag-taken', tag, versionId: holder?.version_id ?? versionId };
  }
}

/** The checks and the write of a version patch, in one transaction. */
function writeVersionPatch(
  ctx: StoreContext,
  owner: string,
  versionId: string,
  patch: { tag: string | null | undefined; notes: string | null | undefined; archived: boolean | undefined },
): Promise<UpdateLibraryVersionResult> {
  const { tag, notes } = patch;
  return inTransaction(ctx.db, ctx.dialect, async (trx) => {
    const entry = await trx
      .selectFrom('cartridge_entries')
      .select(['name'])
      .where('owner_id', '=', owner)
      .where('version_id', '=', versionId)
      .executeTakeFirst();
    if (entry === undefined) return { ok: false, reason: 'not-found' };
    if (typeof tag === 'string') {
      // A tag names one version of its cartridge.
      const holder = await trx
        .selectFrom('cartridge_entries')
        .select('version_id')
        .where('owner_id', '=', owner)
        .where('name', '=', entry.name)
        .where('tag', '=', tag)
        .where('version_id', '!=', versionId)
        .executeTakeFirst();
      if (holder !== undefined) return { ok: false, reason: 'tag-taken', tag, versionId: holder.version_id };
    }
    const set: { tag?: string | null; notes?: string | null; archived_at?: number | null } = {};
    if (tag !== undefined) set.tag = tag;
    if (notes !== undefined) set.notes = notes;
    if (patch.archived !== undefined) set.archived_at = patch.archived ? ctx.now() : null;
    if (Object.keys(set).length > 0) {
      await trx
        .updateTable('cartridge_entries')
        .set(set)
        .where('owner_id', '=', owner)
        .where('version_id', '=', versionId)
        .execute();
    }
    const row = (await versionsQuery(trx)
      .where('e.owner_id', '=', owner)
      .where('e.version_id', '=', versionId)
      .executeTakeFirstOrThrow()) as VersionRow;
    return { ok: true, version: toLibraryVersion(row) };
  });
}

export async function deleteLibraryCartridge(
  ctx: StoreContext,
  ownerId: string,
  cartridgeId: string,
): Promise<DeleteLibraryCartridgeResult> {
  const owner = checkOwner('deleteLibraryCartridge.ownerId', ownerId);
  return inTransaction(ctx.db, ctx.dialect, async (trx) => {
    const cartridge = await trx
      .selectFrom('cartridges')
      .select(['name', 'archived_at'])
      .where('id', '=', cartridgeId)
      .where('owner_id', '=', owner)
      .executeTakeFirst();
    if (cartridge === undefined) return { ok: false, reason: 'not-found' };
    // An archived cartridge archives every version of it.
    const archived = cartridge.archived_at !== null;
    const entries = await trx
      .selectFrom('cartridge_entries')
      .select(['version_id', 'archived_at'])
      .where('owner_id', '=', owner)
      .where('name', '=', cartridge.name)
      .execute();
    let sessions = 0;
    let versions = 0;
    for (const entry of entries) {
      if (archived || entry.archived_at !== null) continue;
      const playing = await sessionsPlaying(trx, entry.version_id);
      if (playing > 0) {
        sessions += playing;
        versions += 1;
      }
    }
    if (versions > 0) return { ok: false, reason: 'in-use', sessions, versions };
    const versionsDeleted: string[] = [];
    for (const entry of entries) {
      if (await removeEntry(trx, owner, cartridge.name, entry.version_id))
        versionsDeleted.push(entry.version_id);
    }
    // A cartridge with no entries left (or none at all) goes with its cover.
    await trx.deleteFrom('cartridge_covers').where('cartridge_id', '=', cartridgeId).execute();
    await trx.deleteFrom('cartridges').where('id', '=', cartridgeId).execute();
    return { ok: true, versionsDeleted };
  });
}

export async function setCartridgeCover(
  ctx: StoreContext,
  ownerId: string,
  cartridgeId: string,
  cover: { mediaType: string; data: Uint8Array } | null,
): Promise<boolean> {
  const owner = checkOwner('setCartridgeCover.ownerId', ownerId);
  if (cover !== null) {
    if (!(COVER_MEDIA_TYPES as readonly string[]).includes(cover.mediaType))
      throw new StoreInputError(
        'setCartridgeCover.mediaType',
        `must be one of ${COVER_MEDIA_TYPES.join(', ')}`,
      );
    if (cover.data.byteLength > MAX_COVER_BYTES)
      throw new StoreInputError(
        'setCartridgeCover.data',
        `is ${cover.data.byteLength} bytes, over the limit MAX_COVER_BYTES = ${MAX_COVER_BYTES}`,
      );
  }
  return inTransaction(ctx.db, ctx.dialect, async (trx) => {
    const cartridge = await trx
      .selectFrom('cartridges')
      .select('id')
      .where('id', '=', cartridgeId)
      .where('owner_id', '=', owner)
      .executeTakeFirst();
    if (cartridge === undefined) return false;
    await trx.deleteFrom('cartridge_covers').where('cartridge_id', '=', cartridgeId).execute();
    const now = ctx.now();
    if (cover !== null) {
      await trx
        .insertInto('cartridge_covers')
        .values({
          cartridge_id: cartridgeId,
          media_type: cover.mediaType,
          data: Buffer.from(cover.data).toString('base64'),
          bytes: cover.data.byteLength,
          updated_at: now,
        })
        .execute();
    }
    await trx.updateTable('cartridges').set({ updated_at: now }).where('id', '=', cartridgeId).execute();
    return true;
  });
}

export async function getCartridgeCover(
  ctx: StoreContext,
  cartridgeId: string,
): Promise<{ mediaType: string; data: Uint8Array; updatedAt: number } | undefined> {
  const row = await ctx.db
    .selectFrom('cartridge_covers')
    .select(['media_type', 'data', 'updated_at'])
    .where('cartridge_id', '=', cartridgeId)
    .executeTakeFirst();
  return (
    row && {
      mediaType: row.media_type,
      data: new Uint8Array(Buffer.from(row.data, 'base64')),
      updatedAt: Number(row.updated_at),
    }
  );
}
