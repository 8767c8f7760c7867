// Saves: named bookmarks into a session's turn tree. Names are unique per session (database constraint).

import type { StoreContext } from './context.ts';
import { isForeignKeyViolation, isUniqueViolation } from './errors.ts';
import type { Save, SaveResult } from './save-records.ts';
import { toSave } from './rows.ts';
import { checkName, checkTimestamp } from './validate.ts';

export async function createSave(
  ctx: StoreContext,
  input: { sessionId: string; turnId: string; name: string; createdAt?: number },
): Promise<SaveResult> {
  const row = {
    id: ctx.newId(),
    session_id: input.sessionId,
    turn_id: input.turnId,
    name: checkName('createSave.name', input.name),
    created_at: checkTimestamp('createSave.createdAt', input.createdAt ?? ctx.now()),
  };
  const turn = await ctx.db
    .selectFrom('turns')
    .select('id')
    .where('id', '=', input.turnId)
    .where('session_id', '=', input.sessionId)
    .executeTakeFirst();
  if (turn === undefined) {
    const session = await ctx.db
      .selectFrom('sessions')
      .select('id')
      .where('id', '=', input.sessionId)
      .executeTakeFirst();
    return { ok: false, reason: session === undefined ? 'session-not-found' : 'turn-not-found' };
  }
  try {
    await ctx.db.insertInto('saves').values(row).execute();
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: 'name-taken' };
    if (isForeignKeyViolation(error)) return { ok: false, reason: 'turn-not-found' };
    throw error;
  }
  return { ok: true, save: toSave(row) };
}

export async function getSave(
  ctx: StoreContext,
  sessionId: string,
  saveId: string,
): Promise<Save | undefined> {
  const row = await ctx.db
    .selectFrom('saves')
    .selectAll()
    .where('id', '=', saveId)
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  return row && toSave(row);
}

export async function listSaves(ctx: StoreContext, sessionId: string): Promise<Save[]> {
  const rows = await ctx.db
    .selectFrom('saves')
    .selectAll()
    .where('session_id', '=', sessionId)
    .orderBy('created_at', 'desc')
    .orderBy('name')
    .execute();
  return rows.map(toSave);
}

export async function renameSave(
  ctx: StoreContext,
  sessionId: string,
  saveId: string,
  name: string,
): Promise<SaveResult> {
  const checked = checkName('renameSave.name', name);
  try {
    const result = await ctx.db
      .updateTable('saves')
      .set({ name: checked })
      .where('id', '=', saveId)
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return { ok: false, reason: 'save-not-found' };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: 'name-taken' };
    throw error;
  }
  const save = await getSave(ctx, sessionId, saveId);
  return save === undefined ? { ok: false, reason: 'save-not-found' } : { ok: true, save };
}

export async function deleteSave(ctx: StoreContext, sessionId: string, saveId: string): Promise<boolean> {
  const result = await ctx.db
    .deleteFrom('saves')
    .where('id', '=', saveId)
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
