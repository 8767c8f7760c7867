// Principals (who owns sessions and personas) and their API keys, stored only as sha256 digests.

import type { StoreContext } from './context.ts';
import { isForeignKeyViolation, isUniqueViolation } from './errors.ts';
import type { AddApiKeyResult, ApiKey, Principal } from './account-records.ts';
import { toApiKey, toPrincipal } from './rows.ts';
import { checkId, checkKeyHash, checkName, checkTimestamp } from './validate.ts';

export async function createPrincipal(
  ctx: StoreContext,
  input: { id?: string; name: string; createdAt?: number },
): Promise<Principal> {
  const row = {
    id: input.id === undefined ? ctx.newId() : checkId('createPrincipal.id', input.id),
    name: checkName('createPrincipal.name', input.name),
    created_at: checkTimestamp('createPrincipal.createdAt', input.createdAt ?? ctx.now()),
  };
  await ctx.db.insertInto('principals').values(row).execute();
  return toPrincipal(row);
}

export async function getPrincipal(ctx: StoreContext, id: string): Promise<Principal | undefined> {
  const row = await ctx.db.selectFrom('principals').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toPrincipal(row);
}

export async function addApiKey(
  ctx: StoreContext,
  input: { principalId: string; keyHash: string; label: string; createdAt?: number },
): Promise<AddApiKeyResult> {
  const row = {
    id: ctx.newId(),
    principal_id: input.principalId,
    key_hash: checkKeyHash('addApiKey.keyHash', input.keyHash),
    label: checkName('addApiKey.label', input.label),
    created_at: checkTimestamp('addApiKey.createdAt', input.createdAt ?? ctx.now()),
    revoked_at: null,
  };
  if ((await getPrincipal(ctx, input.principalId)) === undefined)
    return { ok: false, reason: 'principal-not-found' };
  try {
    await ctx.db.insertInto('api_keys').values(row).execute();
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: 'key-taken' };
    if (isForeignKeyViolation(error)) return { ok: false, reason: 'principal-not-found' };
    throw error;
  }
  return { ok: true, apiKey: toApiKey(row) };
}

export async function listApiKeys(ctx: StoreContext, principalId: string): Promise<ApiKey[]> {
  const rows = await ctx.db
    .selectFrom('api_keys')
    .select(['id', 'principal_id', 'label', 'created_at', 'revoked_at'])
    .where('principal_id', '=', principalId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toApiKey);
}

export async function revokeApiKey(
  ctx: StoreContext,
  principalId: string,
  keyId: string,
  revokedAt?: number,
): Promise<boolean> {
  const at = checkTimestamp('revokeApiKey.revokedAt', revokedAt ?? ctx.now());
  const result = await ctx.db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('id', '=', keyId)
    .where('principal_id', '=', principalId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function findPrincipalByKeyHash(
  ctx: StoreContext,
  keyHash: string,
): Promise<Principal | undefined> {
  const row = await ctx.db
    .selectFrom('api_keys')
    .innerJoin('principals', 'principals.id', 'api_keys.principal_id')
    .select(['principals.id', 'principals.name', 'principals.created_at'])
    .where('api_keys.key_hash', '=', keyHash)
    .where('api_keys.revoked_at', 'is', null)
    .executeTakeFirst();
  return row && toPrincipal(row);
}
