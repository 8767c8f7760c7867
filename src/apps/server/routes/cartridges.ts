// Cartridges: list, upload a folder as a .zip or .tar.gz (validated off the request thread; errors come
// back as file:line:col), a cartridge's versions, one version, and deleting one. Versions are
// content-addressed and immutable; names are namespaced: a principal sees and starts the operator's
// cartridges (the ones the server registers at start, which nobody can shadow) and their own uploads.
// Only an owner reads a version's files; everyone else sees what the Narrator may see.

import type { Context } from 'hono';
import { z } from 'zod';
import type { Diagnostic } from '../../../core/diagnostics.ts';
import { plainJson, type UploadResult } from '../../../engine/session/index.ts';
import {
  type CartridgeAccess,
  type CartridgeVersion,
  type CartridgeVersionSummary,
  OPERATOR_OWNER,
  type Principal,
} from '../../../adapters/store/index.ts';
import { publicState } from '../../../core/yare/index.ts';
import { ArchiveError, readArchive } from '../../../adapters/files/index.ts';
import { readBodyBytes } from '../body.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import type { AppEnv, JsonOf, RouteRegistry } from '../openapi.ts';
import { type RouteDefinition, registerAll } from './route-list.ts';
import {
  type CartridgeVersionView,
  cartridgeVersionFilesResponse,
  cartridgesResponse,
  type DiagnosticView,
  libraryVersionResponse,
  uploadResponse,
  versionsResponse,
} from '../../contract/index.ts';
import { errorSchema, id, name, uploadQuery } from '../schemas.ts';
import {
  libraryCartridgeView,
  libraryVersionView,
  versionNotes,
  versionPatchBody,
  versionTag,
} from '../library-views.ts';
import { guarded } from './guard.ts';
import { CartridgeCheckError } from '../cartridge-checker.ts';

export const ARCHIVE_CONTENT_TYPES: readonly string[] = [
  'application/zip',
  'application/gzip',
  'application/x-gzip',
  'application/x-tar',
  'application/octet-stream',
];

export function versionView(v: CartridgeVersionSummary): CartridgeVersionView {
  return { id: v.id, name: v.name, contentHash: v.contentHash, createdAt: v.createdAt };
}

/** `work` run by the checker's worker; its failure (a crash, a time limit) as a 422 that starts with `failure`. */
export async function checkedOffThread<T>(work: Promise<T>, failure: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof CartridgeCheckError)) throw error;
    throw new ApiError(422, 'cartridge_check_failed', `${failure}: ${error.message}`);
  }
}

export function diagnosticView(d: Diagnostic): DiagnosticView {
  return {
    file: d.place?.file ?? null,
    line: d.place?.line ?? null,
    col: d.place?.col ?? null,
    code: d.code,
    message: d.message,
    severity: d.severity,
    where: d.place ? `${d.place.file}:${d.place.line}:${d.place.col}` : null,
  };
}

/**
 * Whose library a principal's uploads join: their own in keys mode; the operator's in local mode, where the
 * one local user is the operator.
 */
export function libraryOwner(deps: AppDeps, principal: Principal): string {
  return deps.auth.kind === 'local' ? OPERATOR_OWNER : principal.id;
}

/** How the principal may read the version (the local user owns the operator's cartridges). */
export async function accessTo(deps: AppDeps, principal: Principal, versionId: string) {
  const access = await deps.store.cartridgeAccess(principal.id, versionId);
  if (deps.auth.kind === 'local' && access === 'operator') return 'owner';
  return access;
}

/**
 * A version as a player sees it: what the Narrator may see (lore, first message, directives, the public
 * part of the initial state), never the rules file with its private defaults.
 */
async function versionFilesView(deps: AppDeps, version: CartridgeVersion, access: CartridgeAccess) {
  // A stored version's files are an object of file name to text (store/cartridges).
  if (access === 'owner') return { files: version.files as Record<string, unknown>, view: 'full' as const };
  const files = version.files as Record<string, unknown>;
  const shown: Record<string, unknown> = Object.create(null);
  for (const file of [
    'bot_lore.md',
    'first-message.md',
    'alternate_greetings.json',
    'prompt_directives.yaml',
  ]) {
    if (typeof files[file] === 'string') shown[file] = files[file];
  }
  const cartridge = await deps.library.loadVersion(version);
  return {
    files: shown,
    view: 'public' as const,
    initialState: plainJson(publicState(cartridge.rules.initialState, cartridge.rules.schema)),
  };
}

function uploadFailure(result: Exclude<UploadResult, { ok: true }>): ApiError {
  switch (result.reason) {
    case 'invalid':
      return new ApiError(422, 'cartridge_invalid', `the cartridge has ${result.errors.length} error(s)`, {
        errors: result.errors.map(diagnosticView),
        warnings: result.warnings.map(diagnosticView),
      });
    case 'name-reserved':
      return new ApiError(
        409,
        'name_reserved',
        `'${result.name}' is a cartridge this server offers to everyone; upload yours under another bot_name`,
        { name: result.name },
      );
    case 'name-confusable':
      return new ApiError(
        409,
        'name_confusable',
        `'${result.name}' looks like '${result.existing}', already in your library (letters of another script, or forms that read alike); upload it under that exact name or another bot_name`,
        { name: result.name, existing: result.existing },
      );
    case 'quota':
      return new ApiError(
        413,
        'quota_exceeded',
        `storing this cartridge (${result.bytes} bytes) would pass your cartridge storage quota of ${result.quotaBytes} bytes (${result.usedBytes} used); delete versions you no longer need`,
        { usedBytes: result.usedBytes, bytes: result.bytes, quotaBytes: result.quotaBytes },
      );
    default: {
      const unreachable: never = result;
      return new ApiError(500, 'internal', String(unreachable));
    }
  }
}

/** 415 unless the request's media type (parameters aside) is one of `accepted`. */
export function requireContentType(
  header: string | undefined,
  accepted: readonly string[],
  what: string,
): void {
  const type = (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!accepted.includes(type)) {
    throw new ApiError(415, 'unsupported_media_type', `send ${what} as one of ${accepted.join(', ')}`);
  }
}

/** What a new version carries besides its files, and what it must keep. */
export interface NewVersionOptions {
  /** The version's tag (unique within its cartridge: 409 `tag_taken` otherwise, and nothing is stored). */
  readonly tag?: string | undefined;
  readonly notes?: string | undefined;
  /**
   * The cartridge the version must join: when the files name another (`bot_name`), the upload is refused
   * (422 `name_changed`) and nothing is stored. Single-file updates and the builder's "save as version" set it.
   */
  readonly cartridgeName?: string | undefined;
  /**
   * Files that may start a cartridge of their own (a builder draft): when the caller already owns a
   * cartridge of the name the files give (`bot_name`), the version joins it only when `joins` is that name;
   * otherwise 409 `name_taken` (with the cartridge's name and id) and nothing is stored. Absent: an upload
   * joins the cartridge of its name, as uploads always have.
   */
  readonly keepApart?: { readonly joins: string | undefined } | undefined;
}

/**
 * Stores cartridge files as a version in the caller's library (checked off the request thread): the stored
 * version, or the ApiError that says why not (invalid, reserved name, quota, tag taken, renamed, the check
 * itself failed). Uploads, SillyTavern imports, single-file updates and the builder all store through it.
 */
export async function storeUpload(
  deps: AppDeps,
  principal: Principal,
  files: ReadonlyMap<string, string | Uint8Array>,
  name: string,
  options: NewVersionOptions = {},
): Promise<Extract<UploadResult, { ok: true }>> {
  const owner = libraryOwner(deps, principal);
  const result = await checkedOffThread(
    deps.library.registerUpload(files, name, {
      ownerId: owner,
      check: async (f, n) => {
        const checked = await deps.checker.check(f, n, owner);
        // Refusals that depend on what the files are, made before anything is stored.
        if (checked.ok) await refuseBeforeStoring(deps, owner, checked, options);
        return checked;
      },
      quotaBytes: deps.limits.cartridgeQuotaBytes,
    }),
    'the cartridge could not be checked',
  );
  if (!result.ok) throw uploadFailure(result);
  if (options.tag !== undefined || options.notes !== undefined) {
    const tagged = await deps.store.updateLibraryVersion(owner, result.version.id, {
      ...(options.tag === undefined ? {} : { tag: options.tag }),
      ...(options.notes === undefined ? {} : { notes: options.notes }),
    });
    if (!tagged.ok && tagged.reason === 'tag-taken') throw tagTaken(tagged.tag, tagged.versionId);
  }
  return result;
}

/** The answer for stored files: 201 with the new version, 200 when those files were stored already. */
export function storedVersionAnswer(
  c: Context<AppEnv>,
  result: Extract<UploadResult, { ok: true }>,
  version: CartridgeVersionView = versionView(result.version),
): JsonOf<typeof uploadResponse, 200 | 201> {
  return c.json(
    { version, created: result.created, warnings: result.warnings.map(diagnosticView) },
    result.created ? 201 : 200,
  );
}

export function tagTaken(tag: string, versionId: string): ApiError {
  return new ApiError(409, 'tag_taken', `another version of this cartridge is tagged '${tag}'`, {
    tag,
    versionId,
  });
}

async function refuseBeforeStoring(
  deps: AppDeps,
  owner: string,
  checked: { name: string; contentHash: string },
  options: NewVersionOptions,
): Promise<void> {
  if (options.cartridgeName !== undefined && checked.name !== options.cartridgeName) {
    throw new ApiError(
      422,
      'name_changed',
      `these files name the cartridge '${checked.name}' (bot_name in the rules), not '${options.cartridgeName}'; keep its name to add a version to it, or upload it as a new cartridge`,
      { name: checked.name, expected: options.cartridgeName },
    );
  }
  if (options.keepApart !== undefined && options.keepApart.joins !== checked.name) {
    const same = await deps.store.findLibraryCartridge(owner, checked.name);
    // The very files already stored there are that version again, not a new one joining it.
    const stored =
      same !== undefined &&
      same.ownerId === owner &&
      (await deps.store.listLibraryVersions(same.id, { includeArchived: true })).some(
        (v) => v.contentHash === checked.contentHash,
      );
    if (same !== undefined && same.ownerId === owner && !stored)
      throw new ApiError(
        409,
        'name_taken',
        `you already have a cartridge named '${checked.name}' (the draft's bot_name): add this draft to it as a new version (addTo=${JSON.stringify(checked.name)}), or change bot_name in yare.yaml to keep it apart`,
        { name: checked.name, cartridgeId: same.id },
      );
  }
  if (options.tag === undefined) return;
  const cartridge = await deps.store.findLibraryCartridge(owner, checked.name);
  if (cartridge === undefined || cartridge.ownerId !== owner) return;
  const versions = await deps.store.listLibraryVersions(cartridge.id, { includeArchived: true });
  const holder = versions.find((v) => v.tag === options.tag && v.contentHash !== checked.contentHash);
  if (holder !== undefined) throw tagTaken(options.tag, holder.id);
}

/** `archived=true`: include the caller's own archived cartridges and versions. */
const listQuery = z.object({ archived: z.enum(['true', 'false']).optional() });

const archiveUploadQuery = uploadQuery.extend({
  /** The new version's tag and notes. */
  tag: versionTag.optional(),
  notes: versionNotes.optional(),
});

function archiveStatus(error: ArchiveError): 413 | 422 {
  return error.code === 'archive_too_large' ? 413 : 422;
}

const listCartridges: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'get',
      path: '/v1/cartridges',
      tag: 'cartridges',
      summary:
        'The cartridges the caller may start: the server’s own, the caller’s, and every other principal’s public ones, each with its metadata, visibility, cover and newest version, and the caller’s storage use. `archived=true` adds the caller’s own archived cartridges and versions.',
      query: listQuery,
      responses: { 200: { description: 'Cartridges', schema: cartridgesResponse } },
    },
    async ({ c, query }) => {
      const principal = c.get('principal');
      const viewer = libraryOwner(deps, principal);
      const list = await store.listLibrary(viewer, { includeArchived: query.archived === 'true' });
      const usage = await store.cartridgeUsage(viewer);
      return c.json({
        cartridges: list.map((s) => ({
          ...libraryCartridgeView(s, viewer, true),
          versionCount: s.versionCount,
          latest: libraryVersionView(s.latest),
        })),
        // Everything the key stores counts: cartridges, covers, builder drafts and turns' pictures.
        storage: {
          usedBytes: usage.bytes,
          quotaBytes: deps.limits.cartridgeQuotaBytes,
          cartridgeBytes: usage.cartridgeBytes,
          coverBytes: usage.coverBytes,
          draftBytes: usage.draftBytes,
          pictureBytes: usage.pictureBytes,
        },
      });
    },
  );
};

/** An archive's files; a bad archive (paths, links, format, size) as its status, naming the entry. */
function archiveFiles(bytes: Uint8Array): Map<string, Uint8Array> {
  try {
    return readArchive(bytes);
  } catch (error) {
    if (!(error instanceof ArchiveError)) throw error;
    throw new ApiError(
      archiveStatus(error),
      error.code,
      error.message,
      error.entry === undefined ? {} : { entry: error.entry },
    );
  }
}

const uploadCartridge: RouteDefinition = (api, deps) => {
  api.add(
    {
      method: 'post',
      path: '/v1/cartridges',
      tag: 'cartridges',
      summary:
        'Upload a cartridge folder as a .zip or .tar.gz archive (one top-level folder is stripped). Invalid cartridges are refused with every error as file:line:col.',
      query: archiveUploadQuery,
      rawBody: { contentTypes: ARCHIVE_CONTENT_TYPES, description: 'The archive bytes' },
      responses: {
        200: { description: 'The same files were already stored: that version', schema: uploadResponse },
        201: { description: 'The new version, with warnings', schema: uploadResponse },
        409: {
          description:
            'The name is one the server offers to everyone (`name_reserved`) or looks like another in your library (`name_confusable`), or `tag` names another version (`tag_taken`)',
          schema: errorSchema,
        },
        413: {
          description:
            'The archive, a file or the total is too large (or inflates too far), or the caller’s storage quota would be passed (`quota_exceeded`)',
          schema: errorSchema,
        },
        415: { description: 'Not an archive content type', schema: errorSchema },
        422: {
          description: 'A bad archive (paths, links, format) or an invalid cartridge (`errors`)',
          schema: errorSchema,
        },
      },
    },
    async ({ c, query }) => {
      requireContentType(c.req.header('content-type'), ARCHIVE_CONTENT_TYPES, 'the archive');
      const bytes = await readBodyBytes(c.req.raw, deps.limits.maxUploadBytes);
      const files = archiveFiles(bytes);
      const result = await storeUpload(deps, c.get('principal'), files, query.name ?? 'cartridge', {
        tag: query.tag,
        notes: query.notes,
      });
      return storedVersionAnswer(c, result);
    },
  );
};

const listVersions: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'get',
      path: '/v1/cartridges/:name/versions',
      tag: 'cartridges',
      summary:
        'A cartridge’s versions the caller may start, newest first, with their tags and notes. The cartridge is its id, or a name (the server’s cartridge of that name, else the caller’s own). Its owner may add `archived=true` to see archived versions too.',
      params: z.object({ name }),
      query: listQuery,
      responses: {
        200: { description: 'Versions', schema: versionsResponse },
        404: { description: 'No such cartridge (or one the caller may not see)', schema: errorSchema },
      },
    },
    async ({ c, params, query }) => {
      const viewer = libraryOwner(deps, c.get('principal'));
      const cartridge = await store.findLibraryCartridge(viewer, params.name);
      const versions =
        cartridge &&
        (await store.listLibraryVersions(cartridge.id, {
          includeArchived: query.archived === 'true' && cartridge.ownerId === viewer,
        }));
      if (cartridge === undefined || versions === undefined || versions.length === 0)
        throw new ApiError(404, 'not_found', `no cartridge '${params.name}'`);
      return c.json({
        name: cartridge.name,
        cartridgeId: cartridge.id,
        versions: versions.map(libraryVersionView),
      });
    },
  );
};

const getVersion: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'get',
      path: '/v1/cartridge-versions/:id',
      tag: 'cartridges',
      summary:
        'One cartridge version (by id or content hash). Its owner gets every file (`view: "full"`); anyone else who may play it gets what the Narrator sees (`view: "public"`: lore, first message, directives and the public initial state, no rules file).',
      params: z.object({ id }),
      responses: {
        200: { description: 'The version', schema: cartridgeVersionFilesResponse },
        404: { description: 'No such version (or one the caller may not see)', schema: errorSchema },
      },
    },
    async ({ c, params }) =>
      guarded(async () => {
        const version = await store.getCartridgeVersion(params.id);
        const access = version && (await accessTo(deps, c.get('principal'), version.id));
        if (version === undefined || access === undefined)
          throw new ApiError(404, 'not_found', `no cartridge version '${params.id}'`);
        return c.json({
          version: { ...versionView(version), ...(await versionFilesView(deps, version, access)) },
        });
      }),
  );
};

const deleteVersion: RouteDefinition = (api, deps) => {
  const { store, library } = deps;
  api.add(
    {
      method: 'delete',
      path: '/v1/cartridge-versions/:id',
      tag: 'cartridges',
      summary:
        'Delete one of the caller’s versions (its bytes leave the caller’s quota). Refused while a session plays it unless it is archived first (`PATCH` with `archived: true`): the sessions then keep their exact version.',
      params: z.object({ id }),
      responses: {
        204: { description: 'Deleted' },
        404: { description: 'Not one of the caller’s versions', schema: errorSchema },
        409: { description: 'A session plays it and it is not archived (`in_use`)', schema: errorSchema },
      },
    },
    async ({ c, params }) => {
      const version = await store.getCartridgeVersion(params.id);
      const owner = libraryOwner(deps, c.get('principal'));
      const deleted = version && (await store.deleteCartridgeEntry(owner, version.id));
      if (deleted === undefined || (!deleted.ok && deleted.reason === 'not-found'))
        throw new ApiError(404, 'not_found', `no cartridge version '${params.id}' of yours`);
      if (!deleted.ok) {
        throw new ApiError(
          409,
          'in_use',
          `${deleted.sessions} session(s) play this version; archive it first (no longer listed or startable, while those sessions keep playing it), then delete it`,
          {
            sessions: deleted.sessions,
            archive: `PATCH /v1/cartridge-versions/${params.id} {"archived": true}`,
          },
        );
      }
      // The library keeps versions in memory (never re-read per turn); a deleted row must leave it too.
      if (deleted.versionDeleted && version !== undefined) library.forgetVersion(version);
      return c.body(null, 204);
    },
  );
};

const patchVersion: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'patch',
      path: '/v1/cartridge-versions/:id',
      tag: 'cartridges',
      summary:
        'Change one of the caller’s versions: its `tag` (unique within the cartridge; null removes it), `notes`, or `archived` (an archived version is not listed or startable; the sessions that play it keep it).',
      params: z.object({ id }),
      body: versionPatchBody,
      responses: {
        200: { description: 'The version', schema: libraryVersionResponse },
        404: { description: 'Not one of the caller’s versions', schema: errorSchema },
        409: {
          description: 'Another version of the cartridge has the tag (`tag_taken`)',
          schema: errorSchema,
        },
      },
    },
    async ({ c, params, body }) => {
      const owner = libraryOwner(deps, c.get('principal'));
      const version = await store.getCartridgeVersion(params.id);
      const updated =
        version &&
        (await store.updateLibraryVersion(owner, version.id, {
          ...(body.tag === undefined ? {} : { tag: body.tag }),
          ...(body.notes === undefined ? {} : { notes: body.notes }),
          ...(body.archived === undefined ? {} : { archived: body.archived }),
        }));
      if (updated === undefined || (!updated.ok && updated.reason === 'not-found'))
        throw new ApiError(404, 'not_found', `no cartridge version '${params.id}' of yours`);
      if (!updated.ok) throw tagTaken(updated.tag, updated.versionId);
      return c.json({ version: libraryVersionView(updated.version) });
    },
  );
};

/** Every route of this file, in the order they are registered. */
export const CARTRIDGE_ROUTES: readonly RouteDefinition[] = [
  listCartridges,
  uploadCartridge,
  listVersions,
  getVersion,
  deleteVersion,
  patchVersion,
];

export function registerCartridgeRoutes(api: RouteRegistry, deps: AppDeps): void {
  registerAll(api, deps, CARTRIDGE_ROUTES);
}
