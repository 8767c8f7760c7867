// The builder's drafts: a principal's cartridges in progress, kept on the server (never lost on reload).
// List, create (from a template, a stored version the caller owns, or files), read, save, delete; "save as
// version" through the same path as an upload (storeUpload: checked off the request thread, quota,
// reserved names); a download that is a zip the upload accepts. Another principal's draft is a 404.

import { z } from 'zod';
import { JsonText, MAX_DRAFTS_PER_PRINCIPAL } from '../../../adapters/store/index.ts';
import type { Draft, DraftSummary, Principal } from '../../../adapters/store/index.ts';
import { writeZip } from '../../../tools/authoring/index.ts';
import {
  builderTemplates,
  draftFilesOf,
  filesMap,
  templateFiles,
} from '../../../tools/authoring/builder/index.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import type { RouteRegistry } from '../openapi.ts';
import {
  type BuilderCheck,
  type DraftSummaryView,
  type DraftView,
  draftResponse,
  draftsResponse,
  savedDraftResponse,
  templatesResponse,
  uploadResponse,
} from '../../contract/index.ts';
import { errorSchema, id, name } from '../schemas.ts';
import { builderFiles } from './builder-schemas.ts';
import { accessTo, diagnosticView, storeUpload, versionView } from './cartridges.ts';
import { CartridgeCheckError } from '../cartridge-checker.ts';
import { type RouteDefinition, registerAll } from './route-list.ts';

const draftParams = z.object({ id });

const createDraftBody = z.strictObject({
  name,
  /** Start from a template (`empty`, or a `mnesos new` template such as `minimal`). */
  template: z.string().min(1).max(100).optional(),
  /** Start from a stored version the caller owns (its id or content hash). */
  fromVersion: id.optional(),
  files: builderFiles.optional(),
});

const updateDraftBody = z.strictObject({
  name: name.optional(),
  files: builderFiles.optional(),
  /** The `updatedAt` the caller last saw: the save is refused (409) if the draft was saved since. */
  baseUpdatedAt: z.number().int().min(0).optional(),
});
const updateDraftQuery = z.object({ check: z.enum(['true', 'false']).optional() });

/** `addTo`: the name of the caller's cartridge the draft may join (its bot_name names that cartridge). */
const saveVersionQuery = z.object({ addTo: name.optional() });

/** A draft's files through the checker of `mnesos validate`, off the request thread. */
export async function checkDraftFiles(
  deps: AppDeps,
  files: Record<string, string | undefined>,
  owner: string,
): Promise<BuilderCheck> {
  let result: Awaited<ReturnType<typeof deps.checker.check>>;
  try {
    result = await deps.checker.check(filesMap(files), 'draft', owner);
  } catch (error) {
    if (!(error instanceof CartridgeCheckError)) throw error;
    throw new ApiError(422, 'cartridge_check_failed', `the draft could not be checked: ${error.message}`);
  }
  return {
    ok: result.ok,
    errors: result.ok ? [] : result.errors.map(diagnosticView),
    warnings: result.warnings.map(diagnosticView),
  };
}

export function draftSummaryView(d: DraftSummary): DraftSummaryView {
  return { id: d.id, name: d.name, createdAt: d.createdAt, updatedAt: d.updatedAt };
}

export function draftView(d: Draft): DraftView {
  return { ...draftSummaryView(d), files: draftFilesOf(d.files), transcript: d.transcript };
}

function notFound(draftId: string): ApiError {
  return new ApiError(404, 'not_found', `no draft '${draftId}' of yours`);
}

/** Bytes a draft stores (its files as JSON text, and its transcript), as the storage figure counts them. */
function draftBytes(files: unknown, transcript: string | null | undefined): number {
  const text = files instanceof JsonText ? files.text : JSON.stringify(files ?? {});
  return Buffer.byteLength(text) + Buffer.byteLength(transcript ?? '');
}

/**
 * Refuses (413 `quota_exceeded`) a draft save that would take the key past its storage quota: drafts
 * count against it like cartridges and covers. `replacing` is what the saved draft stored before.
 */
async function refuseOverQuota(
  deps: AppDeps,
  owner: string,
  bytes: number,
  replacing: number,
): Promise<void> {
  const usage = await deps.store.cartridgeUsage(owner);
  const quota = deps.limits.cartridgeQuotaBytes;
  if (bytes > replacing && usage.bytes - replacing + bytes > quota)
    throw new ApiError(
      413,
      'quota_exceeded',
      `saving this draft (${bytes} bytes) would pass your storage quota of ${quota} bytes (${usage.bytes} used, drafts included); delete drafts or versions you no longer need`,
      { usedBytes: usage.bytes, bytes, quotaBytes: quota },
    );
}

/** Creates a draft for the principal, or the ApiError that says why not. */
export async function createDraftFor(
  deps: AppDeps,
  principal: Principal,
  input: {
    name: string;
    /** The files, or their JSON text already made (with the files: the draft answered carries them). */
    files: Record<string, string | undefined> | JsonText;
    transcript?: string | null;
  },
): Promise<Draft> {
  await refuseOverQuota(deps, principal.id, draftBytes(input.files, input.transcript), 0);
  const created = await deps.store.createDraft({
    principalId: principal.id,
    name: input.name,
    files: input.files,
    ...(input.transcript === undefined ? {} : { transcript: input.transcript }),
  });
  if (created.ok) return created.draft;
  if (created.reason === 'quota')
    throw new ApiError(
      409,
      'draft_quota',
      `you have ${created.limit} drafts, the most one key may keep (MAX_DRAFTS_PER_PRINCIPAL); delete one first`,
      { limit: created.limit },
    );
  throw new ApiError(404, 'not_found', 'the caller is not a stored principal');
}

async function startingFiles(
  deps: AppDeps,
  principal: Principal,
  body: z.infer<typeof createDraftBody>,
): Promise<Record<string, string | undefined>> {
  const sources = [body.template, body.fromVersion, body.files].filter((s) => s !== undefined).length;
  if (sources > 1)
    throw new ApiError(400, 'invalid_request', 'give at most one of template, fromVersion and files');
  if (body.files !== undefined) return body.files;
  if (body.fromVersion !== undefined) {
    const version = await deps.store.getCartridgeVersion(body.fromVersion);
    const access = version && (await accessTo(deps, principal, version.id));
    // Only an owner reads a version's rules: anyone else's version is not found here.
    if (version === undefined || access !== 'owner')
      throw new ApiError(404, 'not_found', `no cartridge version '${body.fromVersion}' of yours`);
    return draftFilesOf(version.files);
  }
  const template = body.template ?? 'empty';
  const files = templateFiles(template, body.name);
  if (files === undefined)
    throw new ApiError(
      404,
      'not_found',
      `there is no template '${template.slice(0, 100)}' (templates: ${builderTemplates().join(', ')})`,
    );
  return files;
}

const listTemplates: RouteDefinition = (api) => {
  api.add(
    {
      method: 'get',
      path: '/v1/builder/templates',
      tag: 'builder',
      summary: 'The templates a new draft may start from (`empty` first).',
      responses: { 200: { description: 'Template names', schema: templatesResponse } },
    },
    async ({ c }) => c.json({ templates: builderTemplates() }),
  );
};

const listDrafts: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'get',
      path: '/v1/builder/drafts',
      tag: 'builder',
      summary: `The caller’s drafts, most recently changed first, without their files (at most ${MAX_DRAFTS_PER_PRINCIPAL}).`,
      responses: { 200: { description: 'Drafts', schema: draftsResponse } },
    },
    async ({ c }) =>
      c.json({ drafts: (await store.listDrafts(c.get('principal').id)).map(draftSummaryView) }),
  );
};

const createDraft: RouteDefinition = (api, deps) => {
  api.add(
    {
      method: 'post',
      path: '/v1/builder/drafts',
      tag: 'builder',
      summary:
        'A new draft: from a template (`empty` by default), from a stored version the caller owns (`fromVersion`), or from `files`.',
      body: createDraftBody,
      responses: {
        201: { description: 'The draft with its files', schema: draftResponse },
        400: { description: 'A bad body (names the field)', schema: errorSchema },
        404: { description: 'No such template or version of the caller’s', schema: errorSchema },
        409: { description: 'The caller keeps the most drafts allowed (`draft_quota`)', schema: errorSchema },
        413: {
          description: 'The caller’s storage quota would be passed (`quota_exceeded`: drafts count)',
          schema: errorSchema,
        },
      },
    },
    async ({ c, body }) => {
      const principal = c.get('principal');
      const files = await startingFiles(deps, principal, body);
      const draft = await createDraftFor(deps, principal, { name: body.name, files });
      return c.json({ draft: draftView(draft) }, 201);
    },
  );
};

const getDraft: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'get',
      path: '/v1/builder/drafts/:id',
      tag: 'builder',
      summary: 'One of the caller’s drafts, with its files and the generator’s transcript (if any).',
      params: draftParams,
      responses: {
        200: { description: 'The draft', schema: draftResponse },
        404: { description: 'Not one of the caller’s drafts', schema: errorSchema },
      },
    },
    async ({ c, params }) => {
      const draft = await store.getDraft(params.id, c.get('principal').id);
      if (draft === undefined) throw notFound(params.id);
      return c.json({ draft: draftView(draft) });
    },
  );
};

const saveDraft: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'put',
      path: '/v1/builder/drafts/:id',
      tag: 'builder',
      summary:
        'Saves a draft: its name and/or its files (the files given replace all of them). A draft may be invalid; with `?check=true` the saved files are also checked as by `POST /v1/builder/check` (`check` in the answer), so the builder saves and checks in one request.',
      params: draftParams,
      query: updateDraftQuery,
      body: updateDraftBody,
      responses: {
        200: {
          description: 'The saved draft (without files), and `check` when asked',
          schema: savedDraftResponse,
        },
        400: { description: 'A bad body, or files over the draft limit', schema: errorSchema },
        404: { description: 'Not one of the caller’s drafts', schema: errorSchema },
        413: {
          description: 'The caller’s storage quota would be passed (`quota_exceeded`: drafts count)',
          schema: errorSchema,
        },
        409: {
          description: 'Saved elsewhere since `baseUpdatedAt` (`draft_changed`, with the new `updatedAt`)',
          schema: errorSchema,
        },
      },
    },
    async ({ c, params, query, body }) => {
      const principalId = c.get('principal').id;
      if (body.files !== undefined) {
        const old = await store.getDraft(params.id, principalId);
        if (old === undefined) throw notFound(params.id);
        await refuseOverQuota(
          deps,
          principalId,
          draftBytes(body.files, old.transcript),
          draftBytes(old.files, old.transcript),
        );
      }
      const draft = await store.updateDraft(params.id, principalId, {
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.files === undefined ? {} : { files: body.files }),
        ...(body.baseUpdatedAt === undefined ? {} : { expectedUpdatedAt: body.baseUpdatedAt }),
      });
      if (draft === undefined) {
        const current =
          body.baseUpdatedAt === undefined ? undefined : await store.getDraft(params.id, principalId);
        if (current === undefined) throw notFound(params.id);
        throw new ApiError(
          409,
          'draft_changed',
          'this draft was saved elsewhere (another tab or window) since you opened it',
          { updatedAt: current.updatedAt },
        );
      }
      if (query.check !== 'true') return c.json({ draft: draftSummaryView(draft) });
      const check = await checkDraftFiles(deps, draftFilesOf(draft.files), principalId);
      return c.json({ draft: draftSummaryView(draft), check });
    },
  );
};

const deleteDraft: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'delete',
      path: '/v1/builder/drafts/:id',
      tag: 'builder',
      summary: 'Deletes one of the caller’s drafts (versions saved from it stay).',
      params: draftParams,
      responses: {
        204: { description: 'Deleted' },
        404: { description: 'Not one of the caller’s drafts', schema: errorSchema },
      },
    },
    async ({ c, params }) => {
      if (!(await store.deleteDraft(params.id, c.get('principal').id))) throw notFound(params.id);
      return c.body(null, 204);
    },
  );
};

const saveDraftAsVersion: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'post',
      path: '/v1/builder/drafts/:id/versions',
      tag: 'builder',
      summary:
        'Save as version: the draft’s files become a cartridge version in the caller’s library, through the same check and quota as an upload. Invalid drafts are refused with every error as file:line:col. A draft never joins another cartridge unasked: when its bot_name is the name of a cartridge the caller already has, it is refused (409 `name_taken`) unless `addTo` names that cartridge.',
      params: draftParams,
      query: saveVersionQuery,
      responses: {
        200: { description: 'The same files were already stored: that version', schema: uploadResponse },
        201: { description: 'The new version, with warnings', schema: uploadResponse },
        404: { description: 'Not one of the caller’s drafts', schema: errorSchema },
        409: {
          description:
            'The name is one the server offers to everyone, or (`name_taken`) one of the caller’s cartridges that `addTo` does not name',
          schema: errorSchema,
        },
        413: { description: 'The caller’s storage quota would be passed', schema: errorSchema },
        422: { description: 'The draft is invalid (`errors`)', schema: errorSchema },
      },
    },
    async ({ c, params, query }) => {
      const principal = c.get('principal');
      const draft = await store.getDraft(params.id, principal.id);
      if (draft === undefined) throw notFound(params.id);
      const result = await storeUpload(deps, principal, filesMap(draftFilesOf(draft.files)), draft.name, {
        keepApart: { joins: query.addTo },
      });
      return c.json(
        {
          version: versionView(result.version),
          created: result.created,
          warnings: result.warnings.map(diagnosticView),
        },
        result.created ? 201 : 200,
      );
    },
  );
};

const getDraftArchive: RouteDefinition = (api, deps) => {
  const { store } = deps;
  api.add(
    {
      method: 'get',
      path: '/v1/builder/drafts/:id/archive',
      tag: 'builder',
      summary:
        'The draft as a .zip archive of its files, as `POST /v1/cartridges` and `mnesos validate` take it.',
      params: draftParams,
      responses: {
        200: { description: 'The zip archive', contentType: 'application/zip' },
        404: { description: 'Not one of the caller’s drafts', schema: errorSchema },
      },
    },
    async ({ c, params }) => {
      const draft = await store.getDraft(params.id, c.get('principal').id);
      if (draft === undefined) throw notFound(params.id);
      const encoder = new TextEncoder();
      const entries = [...filesMap(draftFilesOf(draft.files))].map(([file, text]) => ({
        name: file,
        data: encoder.encode(text),
      }));
      const bytes = writeZip(entries);
      // The file name is the draft's name reduced to safe characters (a header never carries a quote).
      const fileName = `${draft.name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'draft'}.zip`;
      return new Response(bytes as Uint8Array<ArrayBuffer>, {
        status: 200,
        headers: {
          'content-type': 'application/zip',
          'content-disposition': `attachment; filename="${fileName}"`,
        },
      });
    },
  );
};

/** Every route of this file, in the order they are registered. */
export const BUILDER_DRAFT_ROUTES: readonly RouteDefinition[] = [
  listTemplates,
  listDrafts,
  createDraft,
  getDraft,
  saveDraft,
  deleteDraft,
  saveDraftAsVersion,
  getDraftArchive,
];

export function registerBuilderDraftRoutes(api: RouteRegistry, deps: AppDeps): void {
  registerAll(api, deps, BUILDER_DRAFT_ROUTES);
}
