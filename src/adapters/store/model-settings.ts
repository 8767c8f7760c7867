// A principal's model settings: one JSON row per principal, replaced as a whole. The store bounds the
// size; what the settings may say is the server's business (src/engine/session/model-settings.ts).

import type { StoreContext } from './context.ts';
import { isForeignKeyViolation } from './errors.ts';
import { decodeJson, encodeJson } from './json.ts';
import { MAX_SETTINGS_BYTES } from './limits.ts';
import { getPrincipal } from './principals.ts';
import type { ModelSettingsTable } from './schema.ts';
import type { PutModelSettingsResult, StoredModelSettings } from './settings-records.ts';
import { Statement } from './statement.ts';
import { withRunner } from './transaction.ts';
import { checkTimestamp } from './validate.ts';

const SETTINGS_OF_PRINCIPAL = new Statement<{ principalId: string }, ModelSettingsTable>(
  ['principalId'],
  (db, v) => db.selectFrom('model_settings').selectAll().where('principal_id', '=', v.principalId),
);

export async function getModelSettings(
  ctx: StoreContext,
  principalId: string,
): Promise<StoredModelSettings | undefined> {
  const rows = await withRunner(ctx, (run) =>
    run.rows(SETTINGS_OF_PRINCIPAL.with(run.queries, run.dialect, { principalId })),
  );
  const row = rows[0];
  return (
    row && { principalId: row.principal_id, settings: decodeJson(row.settings), updatedAt: row.updated_at }
  );
}

export async function putModelSettings(
  ctx: StoreContext,
  input: { principalId: string; settings: unknown; updatedAt?: number },
): Promise<PutModelSettingsResult> {
  const row = {
    principal_id: input.principalId,
    settings: encodeJson(
      'putModelSettings.settings',
      input.settings,
      MAX_SETTINGS_BYTES,
      'MAX_SETTINGS_BYTES',
    ),
    updated_at: checkTimestamp('putModelSettings.updatedAt', input.updatedAt ?? ctx.now()),
  };
  if ((await getPrincipal(ctx, input.principalId)) === undefined)
    return { ok: false, reason: 'principal-not-found' };
  try {
    await ctx.db
      .insertInto('model_settings')
      .values(row)
      .onConflict((oc) =>
        oc.column('principal_id').doUpdateSet({ settings: row.settings, updated_at: row.updated_at }),
      )
      .execute();
  } catch (error) {
    if (isForeignKeyViolation(error)) return { ok: false, reason: 'principal-not-found' };
    throw error;
  }
  return {
    ok: true,
    stored: { principalId: row.principal_id, settings: decodeJson(row.settings), updatedAt: row.updated_at },
  };
}
