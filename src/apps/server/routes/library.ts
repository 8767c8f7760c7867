// Library management: one cartridge with its versions, its metadata and visibility
// (PATCH), deleting it whole, its cover image, and single-file updates that create a version (a version's
// own routes, `/v1/cartridge-versions/:id`, are in cartridges.ts). Only a cartridge's owner changes it; a cartridge the caller may not see is a
// 404 on every route, and so is a change to a cartridge the caller sees but does not own (as deleting the
// server's own versions always was).

import type { Context } from 'hono';
import { z } from 'zod';
import { CARTRIDGE_FILES } from '../../../core/cartridge/index.ts';
import {
  COVER_MEDIA_TYPES,
  type CoverMediaType,
  type LibraryCartridge,
  MAX_COVER_BYTES,
} from '../../../adapters/store/index.ts';
import { readBodyBytes } from '../body.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import {
  cartridgePatchBody,
  libraryCartridgeView,
  libraryVersionView,
  versionNotes,
  versionTag,
} from '../library-views.ts';
import type { AppEnv, RouteRegistry } from '../openapi.ts';
import { type RouteDefinition, registerAll } from './route-list.ts';
import { cartridgeDetailResponse, libraryCartridgeResponse, uploadResponse } from '../../contract/index.ts';
import { errorSchema, id } from '../schemas.ts';
import { libraryOwner, requireContentType, storedVersionAnswer, storeUpload } from './cartridges.ts';

const cartridgeParams = z.object({ ref: id });
const RULES_FILES: ReadonlySet<string> = new Set(
  CARTRIDGE_FILES.filter((f) => f.kind === 'yare' || f.kind === 'yareJs' || f.kind === 'yareTs').map(
    (f) => f.name,
  ),
);
const FILE_NAMES = CARTRIDGE_FILES.map((f) => f.name);
const fileParams = z.object({ ref: id, file: z.string().min(1).max(64) });

/** Media types a single file may be sent as (its name says what it is; the type only has to be text). */
export const FILE_CONTENT_TYPES: readonly string[] = [
  'text/plain',
  'text/markdown',
  'text/yaml',
  'text/x-yaml',
  'application/yaml',
  'application/x-yaml',
  'application/json',
  'text/javascript',
  'application/javascript',
  'application/typescript',
  'text/typescript',
  'application/octet-stream',
];

const NOT_FOUND = {
  description: 'No such cartridge of the caller’s (or one the caller may not see)',
  schema: errorSchema,
};

/** The first bytes each cover type starts with: a body must be what its Content-Type says. */
function isCoverOf(type: CoverMediaType, bytes: Uint8Array): boolean {
  const starts = (...prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
  const ascii = (at: number, text: string) => [...text].every((ch, i) => bytes[at + i] === ch.charCodeAt(0));
  switch (type) {
    case 'image/png':
      return starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
    case 'image/jpeg':
      return starts(0xff, 0xd8, 0xff);
    case 'image/gif':
      return ascii(0, 'GIF87a') || ascii(0, 'GIF89a');
    case 'image/webp':
      return ascii(0, 'RIFF') && ascii(8, 'WEBP');
    default: {
      const unreachable: never = type;
      return unreachable;
    }
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The cartridge the caller may see, or 404. */
async function visible(deps: AppDeps, c: Context<AppEnv>, ref: string) {
  const viewer = libraryOwner(deps, c.get('principal'));
  const cartridge = await deps.store.findLibraryCartridge(viewer, ref);
  if (cartridge === undefined) throw new ApiError(404, 'not_found', `no cartridge '${ref}'`);
  return { viewer, cartridge };
}

/** The caller's own cartridge, or 404 (another's, public or not, is not the caller's to change). */
async function owned(
  deps: AppDeps,
  c: Context<AppEnv>,
  ref: string,
): Promise<{ owner: string; cartridge: LibraryCartridge }> {
  const { viewer, cartridge } = await visible(deps, c, ref);
  if (cartridge.ownerId !== viewer) throw new ApiError(404, 'not_found', `no cartridge '${ref}' of yours`);
  return { owner: viewer, cartridge };
}

/** The version a single-file update starts from: `from`, else the newest listed, else the newest. */
async function baseVersion(
  { store }: AppDeps,
  owner: string,
  cartridge: LibraryCartridge,
  from: string | undefined,
) {
  let baseId: string | undefined;
  if (from !== undefined) {
    const entry = await store.getLibraryVersion(owner, from);
    if (entry === undefined || entry.name !== cartridge.name)
      throw new ApiError(404, 'not_found', `no version '${from}' of cartridge '${cartridge.name}'`);
    baseId = entry.id;
  } else {
    const versions = await store.listLibraryVersions(cartridge.id, { includeArchived: true });
    baseId = (versions.find((v) => v.archivedAt === null) ?? versions[0])?.id;
  }
  const version = baseId === undefined ? undefined : await store.getCartridgeVersion(baseId);
  if (version === undefined)
    throw new ApiError(404, 'not_found', `cartridge '${cartridge.name}' has no version to update`);
  return version;
}

const getCartridge: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'get',
      path: '/v1/cartridges/:ref',
      tag: 'cartridges',
      summary:
        'One cartridge (by id, or by name: the server’s, else the caller’s own) with its metadata and its versions, newest first. Its owner may add `archived=true` to see archived versions.',
      params: cartridgeParams,
      query: z.object({ archived: z.enum(['true', 'false']).optional() }),
      responses: { 200: { description: 'The cartridge', schema: cartridgeDetailResponse }, 404: NOT_FOUND },
    },
    async ({ c, params, query }) => {
      const { viewer, cartridge } = await visible(deps, c, params.ref);
      const versions = await store.listLibraryVersions(cartridge.id, {
        includeArchived: query.archived === 'true' && cartridge.ownerId === viewer,
      });
      return c.json({
        cartridge: libraryCartridgeView(cartridge, viewer),
        versions: versions.map(libraryVersionView),
      });
    },
  );
};

const patchCartridge: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'patch',
      path: '/v1/cartridges/:ref',
      tag: 'cartridges',
      summary:
        'Change the caller’s cartridge: title, description, genre, tags, visibility (`private`: the caller only; `public`: every key) or `archived` (no longer listed or startable; sessions keep playing).',
      params: cartridgeParams,
      body: cartridgePatchBody,
      responses: { 200: { description: 'The cartridge', schema: libraryCartridgeResponse }, 404: NOT_FOUND },
    },
    async ({ c, params, body }) => {
      const { owner, cartridge } = await owned(deps, c, params.ref);
      const updated = await store.updateLibraryCartridge(owner, cartridge.id, {
        ...(body.title === undefined ? {} : { title: body.title }),
        ...(body.description === undefined ? {} : { description: body.description }),
        ...(body.genre === undefined ? {} : { genre: body.genre }),
        ...(body.tags === undefined ? {} : { tags: body.tags }),
        ...(body.visibility === undefined ? {} : { visibility: body.visibility }),
        ...(body.archived === undefined ? {} : { archived: body.archived }),
      });
      if (updated === undefined)
        throw new ApiError(404, 'not_found', `no cartridge '${params.ref}' of yours`);
      return c.json({ cartridge: libraryCartridgeView(updated, owner) });
    },
  );
};

const deleteCartridge: RouteDefinition = (api, deps) => {
  const { store, library } = deps;
  api.add(
    {
      method: 'delete',
      path: '/v1/cartridges/:ref',
      tag: 'cartridges',
      summary:
        'Delete the caller’s cartridge with every version, metadata and cover. Refused while a session plays one of its versions that is not archived; archived versions leave the library but stay stored for the sessions that play them.',
      params: cartridgeParams,
      responses: {
        204: { description: 'Deleted' },
        404: NOT_FOUND,
        409: {
          description: 'A session plays a version that is not archived (`in_use`)',
          schema: errorSchema,
        },
      },
    },
    async ({ c, params }) => {
      const { owner, cartridge } = await owned(deps, c, params.ref);
      const before = await store.listLibraryVersions(cartridge.id, { includeArchived: true });
      const deleted = await store.deleteLibraryCartridge(owner, cartridge.id);
      if (!deleted.ok && deleted.reason === 'not-found')
        throw new ApiError(404, 'not_found', `no cartridge '${params.ref}' of yours`);
      if (!deleted.ok) {
        throw new ApiError(
          409,
          'in_use',
          `${deleted.sessions} session(s) play ${deleted.versions} version(s) of '${cartridge.name}'; archive the cartridge or those versions first (no longer listed or startable, while those sessions keep playing), then delete it`,
          {
            sessions: deleted.sessions,
            versions: deleted.versions,
            archive: `PATCH /v1/cartridges/${cartridge.id} {"archived": true}`,
          },
        );
      }
      for (const v of before) if (deleted.versionsDeleted.includes(v.id)) library.forgetVersion(v);
      return c.body(null, 204);
    },
  );
};

const putCover: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'put',
      path: '/v1/cartridges/:ref/cover',
      tag: 'cartridges',
      summary: `Set the caller’s cartridge’s cover image: PNG, JPEG, WebP or GIF, at most ${MAX_COVER_BYTES} bytes (it counts against the storage quota). The bytes must be the type the Content-Type names.`,
      params: cartridgeParams,
      rawBody: { contentTypes: COVER_MEDIA_TYPES, description: 'The image bytes' },
      responses: {
        200: { description: 'The cartridge', schema: libraryCartridgeResponse },
        404: NOT_FOUND,
        413: { description: 'Over the size limit or the storage quota', schema: errorSchema },
        415: { description: 'Not an accepted image type', schema: errorSchema },
        422: { description: 'The bytes are not the image type named (`cover_invalid`)', schema: errorSchema },
      },
    },
    async ({ c, params }) => {
      const { owner, cartridge } = await owned(deps, c, params.ref);
      requireContentType(c.req.header('content-type'), COVER_MEDIA_TYPES, 'the cover');
      const mediaType = (c.req.header('content-type') ?? '')
        .split(';')[0]!
        .trim()
        .toLowerCase() as CoverMediaType;
      const bytes = await readBodyBytes(c.req.raw, MAX_COVER_BYTES);
      if (!isCoverOf(mediaType, bytes))
        throw new ApiError(
          422,
          'cover_invalid',
          `the body is not a ${mediaType} image (its first bytes do not match)`,
        );
      const usage = await store.cartridgeUsage(owner);
      const replaced = cartridge.cover?.bytes ?? 0;
      const quota = deps.limits.cartridgeQuotaBytes;
      if (usage.bytes - replaced + bytes.byteLength > quota) {
        throw new ApiError(
          413,
          'quota_exceeded',
          `storing this cover (${bytes.byteLength} bytes) would pass your cartridge storage quota of ${quota} bytes (${usage.bytes} used)`,
          { usedBytes: usage.bytes, bytes: bytes.byteLength, quotaBytes: quota },
        );
      }
      await store.setCartridgeCover(owner, cartridge.id, { mediaType, data: bytes });
      const updated = await store.findLibraryCartridge(owner, cartridge.id);
      return c.json({ cartridge: libraryCartridgeView(updated ?? cartridge, owner) });
    },
  );
};

const getCover: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'get',
      path: '/v1/cartridges/:ref/cover',
      tag: 'cartridges',
      summary:
        'A cartridge’s cover image, to whoever may see the cartridge; served with its stored type, `nosniff` and a sandboxing Content-Security-Policy.',
      params: cartridgeParams,
      responses: {
        200: { description: 'The image', contentType: 'image/*' },
        404: { description: 'No such cartridge, or no cover', schema: errorSchema },
      },
    },
    async ({ c, params }) => {
      const { cartridge } = await visible(deps, c, params.ref);
      const cover = await store.getCartridgeCover(cartridge.id);
      if (cover === undefined) throw new ApiError(404, 'not_found', `cartridge '${params.ref}' has no cover`);
      const extension = cover.mediaType.split('/')[1] ?? 'bin';
      return new Response(Buffer.from(cover.data), {
        status: 200,
        headers: {
          'content-type': cover.mediaType,
          'content-length': String(cover.data.byteLength),
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'; sandbox",
          'content-disposition': `inline; filename="cover.${extension}"`,
          'cross-origin-resource-policy': 'same-origin',
          'cache-control': 'private, no-cache',
        },
      });
    },
  );
};

const deleteCover: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'delete',
      path: '/v1/cartridges/:ref/cover',
      tag: 'cartridges',
      summary: 'Remove the caller’s cartridge’s cover image.',
      params: cartridgeParams,
      responses: { 204: { description: 'Removed (or there was none)' }, 404: NOT_FOUND },
    },
    async ({ c, params }) => {
      const { owner, cartridge } = await owned(deps, c, params.ref);
      await store.setCartridgeCover(owner, cartridge.id, null);
      return c.body(null, 204);
    },
  );
};

/** The request's body as the text of a cartridge file: a known file name, a text type, its size limit, UTF-8. */
async function fileText(c: Context<AppEnv>, file: string): Promise<string> {
  const spec = CARTRIDGE_FILES.find((f) => f.name === file);
  if (spec === undefined) {
    throw new ApiError(
      422,
      'unknown_file',
      `'${file}' is not a cartridge file (known: ${FILE_NAMES.join(', ')})`,
      {
        file,
      },
    );
  }
  requireContentType(c.req.header('content-type'), FILE_CONTENT_TYPES, 'the file');
  const bytes = await readBodyBytes(c.req.raw, spec.maxBytes);
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ApiError(422, 'not_utf8', `${file} is not UTF-8 text`, { file });
  }
}

/** A version's text files with one replaced (a cartridge has one rules file: a new one replaces whichever it had). */
function withFile(base: Record<string, unknown>, file: string, content: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const [name, text] of Object.entries(base)) {
    if (typeof text !== 'string') continue;
    if (RULES_FILES.has(file) && RULES_FILES.has(name)) continue;
    files.set(name, text);
  }
  files.set(file, content);
  return files;
}

const putFile: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'put',
      path: '/v1/cartridges/:ref/files/:file',
      tag: 'cartridges',
      summary: `Replace one file of the caller’s cartridge (${FILE_NAMES.join(', ')}) and store the result as a new version: the newest version (or \`from\`) with that file replaced (a rules file replaces the other rules files). Checked like an upload: an invalid cartridge is 422 with every error as file:line:col, and nothing is stored.`,
      params: fileParams,
      query: z.object({ from: id.optional(), tag: versionTag.optional(), notes: versionNotes.optional() }),
      rawBody: { contentTypes: FILE_CONTENT_TYPES, description: 'The file’s text (UTF-8)' },
      responses: {
        200: { description: 'The same files were already stored: that version', schema: uploadResponse },
        201: { description: 'The new version, with warnings', schema: uploadResponse },
        404: NOT_FOUND,
        409: { description: '`tag` names another version (`tag_taken`)', schema: errorSchema },
        413: {
          description: 'The file is over its size limit, or the quota would be passed',
          schema: errorSchema,
        },
        415: { description: 'Not a text content type', schema: errorSchema },
        422: {
          description:
            'Not a cartridge file (`unknown_file`), not UTF-8, an invalid cartridge (`errors` as file:line:col), or rules that rename the cartridge (`name_changed`)',
          schema: errorSchema,
        },
      },
    },
    async ({ c, params, query }) => {
      const principal = c.get('principal');
      const { owner, cartridge } = await owned(deps, c, params.ref);
      const content = await fileText(c, params.file);
      const base = await baseVersion(deps, owner, cartridge, query.from);
      const files = withFile(base.files as Record<string, unknown>, params.file, content);
      const result = await storeUpload(deps, principal, files, cartridge.name, {
        tag: query.tag,
        notes: query.notes,
        cartridgeName: cartridge.name,
      });
      const stored = await store.getLibraryVersion(owner, result.version.id);
      return storedVersionAnswer(c, result, stored ? libraryVersionView(stored) : undefined);
    },
  );
};

/** Every route of this file, in the order they are registered. */
export const LIBRARY_ROUTES: readonly RouteDefinition[] = [
  getCartridge,
  patchCartridge,
  deleteCartridge,
  putCover,
  getCover,
  deleteCover,
  putFile,
];

export function registerLibraryRoutes(api: RouteRegistry, deps: AppDeps): void {
  registerAll(api, deps, LIBRARY_ROUTES);
}
