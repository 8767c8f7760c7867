// Builder drafts: a principal's cartridges in progress (files as JSON text, and the generator's transcript
// when a draft came from it). Every method is scoped to the owner: another principal's draft is not found.
// Bounded: each draft's files and transcript by bytes, and the drafts of one principal by count.

import { sql } from 'kysely';
import type { StoreContext } from './context.ts';
import { isForeignKeyViolation, StoreInputError } from './errors.ts';
import { checkBytes, decodeJson, encodeJson, JsonText } from './json.ts';
import { getPrincipal } from './principals.ts';
import type { CreateDraftResult, Draft, DraftPatch, DraftSummary } from './draft-records.ts';
import type { DraftsTable } from './schema.ts';
import { checkName, checkTimestamp } from './validate.ts';

/** UTF-8 bytes of a draft's files (JSON text): room for the largest lore and rules files together. */
export const MAX_DRAFT_BYTES = 4 * 1024 * 1024;
/** UTF-8 bytes of a draft's generator transcript. */
export const MAX_DRAFT_TRANSCRIPT_BYTES = 1024 * 1024;
/** Drafts one principal may keep (a create past it is refused with `quota`). */
export const MAX_DRAFTS_PER_PRINCIPAL = 100;

export type { CreateDraftResult, Draft, DraftPatch, DraftSummary } from './draft-records.ts';

/** A draft from its row; `files` given when the caller has them already (else its JSON text is parsed). */
function toDraft(row: Omit<DraftsTable, 'files'> & { files?: string }, files?: StoredFiles): Draft {
  return {
    id: row.id,
    principalId: row.principal_id,
    name: row.name,
    files: files === undefined ? decodeJson(row.files ?? 'null') : files.value,
    transcript: row.transcript,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Files the caller gave that the store can answer with unparsed: a JsonText that carries its value. */
type StoredFiles = { readonly value: unknown };
const givenFiles = (files: unknown): StoredFiles | undefined =>
  files instanceof JsonText && files.value !== undefined ? { value: files.value } : undefined;

function checkTranscript(place: string, value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new StoreInputError(place, 'must be a string');
  checkBytes(place, value, MAX_DRAFT_TRANSCRIPT_BYTES, 'MAX_DRAFT_TRANSCRIPT_BYTES');
  return value;
}

export async function createDraft(
  ctx: StoreContext,
  input: {
    principalId: string;
    name: string;
    files: unknown;
    transcript?: string | null;
    createdAt?: number;
  },
): Promise<CreateDraftResult> {
  const at = checkTimestamp('createDraft.createdAt', input.createdAt ?? ctx.now());
  const row: DraftsTable = {
    id: ctx.newId(),
    principal_id: input.principalId,
    name: checkName('createDraft.name', input.name),
    files: encodeJson('createDraft.files', input.files, MAX_DRAFT_BYTES, 'MAX_DRAFT_BYTES'),
    transcript: checkTranscript('createDraft.transcript', input.transcript),
    created_at: at,
    updated_at: at,
  };
  if ((await getPrincipal(ctx, input.principalId)) === undefined)
    return { ok: false, reason: 'principal-not-found' };
  const count = await ctx.db
    .selectFrom('drafts')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .where('principal_id', '=', input.principalId)
    .executeTakeFirst();
  if (Number(count?.n ?? 0) >= MAX_DRAFTS_PER_PRINCIPAL)
    return { ok: false, reason: 'quota', limit: MAX_DRAFTS_PER_PRINCIPAL };
  try {
    await ctx.db.insertInto('drafts').values(row).execute();
  } catch (error) {
    if (isForeignKeyViolation(error)) return { ok: false, reason: 'principal-not-found' };
    throw error;
  }
  return { ok: true, draft: toDraft(row, givenFiles(input.files)) };
}

export async function getDraft(
  ctx: StoreContext,
  id: string,
  principalId: string,
): Promise<Draft | undefined> {
  const row = await ctx.db
    .selectFrom('drafts')
    .selectAll()
    .where('id', '=', id)
    .where('principal_id', '=', principalId)
    .executeTakeFirst();
  return row && toDraft(row);
}

/** The principal's drafts without their files, most recently changed first. */
export async function listDrafts(ctx: StoreContext, principalId: string): Promise<DraftSummary[]> {
  const rows = await ctx.db
    .selectFrom('drafts')
    .select(['id', 'principal_id', 'name', 'created_at', 'updated_at'])
    .where('principal_id', '=', principalId)
    .orderBy('updated_at', 'desc')
    .orderBy('id')
    .limit(MAX_DRAFTS_PER_PRINCIPAL)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    principalId: row.principal_id,
    name: row.name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }));
}

/**
 * Changes a draft. `updated_at` always moves forward (at least one past the last save, even within one
 * millisecond), so with `expectedUpdatedAt` — the `updatedAt` the caller last saw — a save made meanwhile
 * elsewhere (another tab) is never overwritten: the update is not made and undefined comes back, as for
 * a draft that is not found (the caller tells the two apart with getDraft).
 */
export async function updateDraft(
  ctx: StoreContext,
  id: string,
  principalId: string,
  patch: DraftPatch,
): Promise<Draft | undefined> {
  const at = checkTimestamp('updateDraft.updatedAt', patch.updatedAt ?? ctx.now());
  const set: {
    name?: string;
    files?: string;
    transcript?: string | null;
    updated_at: ReturnType<typeof sql<number>>;
  } = {
    updated_at: sql<number>`case when updated_at >= ${at} then updated_at + 1 else ${at} end`,
  };
  if (patch.name !== undefined) set.name = checkName('updateDraft.name', patch.name);
  if (patch.files !== undefined)
    set.files = encodeJson('updateDraft.files', patch.files, MAX_DRAFT_BYTES, 'MAX_DRAFT_BYTES');
  if (patch.transcript !== undefined)
    set.transcript = checkTranscript('updateDraft.transcript', patch.transcript);
  let query = ctx.db
    .updateTable('drafts')
    .set(set)
    .where('id', '=', id)
    .where('principal_id', '=', principalId);
  if (patch.expectedUpdatedAt !== undefined)
    query = query.where(
      'updated_at',
      '=',
      checkTimestamp('updateDraft.expectedUpdatedAt', patch.expectedUpdatedAt),
    );
  // The saved row comes back from the update itself; its files are read back only when the patch kept them.
  const given = patch.files === undefined ? undefined : givenFiles(patch.files);
  const row = await query
    .returning(['id', 'principal_id', 'name', 'transcript', 'created_at', 'updated_at'])
    .$if(given === undefined, (q) => q.returning('files'))
    .executeTakeFirst();
  return row && toDraft(row, given);
}

export async function deleteDraft(ctx: StoreContext, id: string, principalId: string): Promise<boolean> {
  const result = await ctx.db
    .deleteFrom('drafts')
    .where('id', '=', id)
    .where('principal_id', '=', principalId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
