// Personas: a principal's player characters. The data is JSON the store does not interpret.

import type { StoreContext } from './context.ts';
import { isForeignKeyViolation } from './errors.ts';
import { encodeJson } from './json.ts';
import { MAX_PERSONA_BYTES } from './limits.ts';
import type { Persona, PersonaResult } from './persona-records.ts';
import { toPersona } from './rows.ts';
import { checkName, checkTimestamp } from './validate.ts';
import { getPrincipal } from './principals.ts';

export async function createPersona(
  ctx: StoreContext,
  input: { principalId: string; name: string; data: unknown; createdAt?: number },
): Promise<PersonaResult> {
  const at = checkTimestamp('createPersona.createdAt', input.createdAt ?? ctx.now());
  const row = {
    id: ctx.newId(),
    principal_id: input.principalId,
    name: checkName('createPersona.name', input.name),
    data: encodeJson('createPersona.data', input.data, MAX_PERSONA_BYTES, 'MAX_PERSONA_BYTES'),
    created_at: at,
    updated_at: at,
  };
  if ((await getPrincipal(ctx, input.principalId)) === undefined)
    return { ok: false, reason: 'principal-not-found' };
  try {
    await ctx.db.insertInto('personas').values(row).execute();
  } catch (error) {
    if (isForeignKeyViolation(error)) return { ok: false, reason: 'principal-not-found' };
    throw error;
  }
  return { ok: true, persona: toPersona(row) };
}

export async function getPersona(
  ctx: StoreContext,
  id: string,
  principalId: string,
): Promise<Persona | undefined> {
  const row = await ctx.db
    .selectFrom('personas')
    .selectAll()
    .where('id', '=', id)
    .where('principal_id', '=', principalId)
    .executeTakeFirst();
  return row && toPersona(row);
}

export async function listPersonas(ctx: StoreContext, principalId: string): Promise<Persona[]> {
  const rows = await ctx.db
    .selectFrom('personas')
    .selectAll()
    .where('principal_id', '=', principalId)
    .orderBy('name')
    .orderBy('id')
    .execute();
  return rows.map(toPersona);
}

export async function updatePersona(
  ctx: StoreContext,
  id: string,
  principalId: string,
  patch: { name?: string; data?: unknown; updatedAt?: number },
): Promise<Persona | undefined> {
  const set: { name?: string; data?: string; updated_at: number } = {
    updated_at: checkTimestamp('updatePersona.updatedAt', patch.updatedAt ?? ctx.now()),
  };
  if (patch.name !== undefined) set.name = checkName('updatePersona.name', patch.name);
  if (patch.data !== undefined) {
    set.data = encodeJson('updatePersona.data', patch.data, MAX_PERSONA_BYTES, 'MAX_PERSONA_BYTES');
  }
  const result = await ctx.db
    .updateTable('personas')
    .set(set)
    .where('id', '=', id)
    .where('principal_id', '=', principalId)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return undefined;
  return getPersona(ctx, id, principalId);
}

export async function deletePersona(ctx: StoreContext, id: string, principalId: string): Promise<boolean> {
  const result = await ctx.db
    .deleteFrom('personas')
    .where('id', '=', id)
    .where('principal_id', '=', principalId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
