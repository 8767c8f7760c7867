// A turn's picture (migration 0010_turn_pictures; docs/voices.md): stored with the turn, for the session's
// principal only, replaced when the turn is pictured again, counted in a storage quota: the principal's, or
// the one the caller names (`quotaOwner`: the library's owner in single-user local mode).

import { checkOwner } from './cartridge-entries.ts';
import type { StoreContext } from './context.ts';
import { StoreInputError } from './errors.ts';
import { inTransaction } from './transaction.ts';
import type { TurnPicture, TurnPictures } from './turn-picture-records.ts';
import { checkId } from './validate.ts';

/** Bytes of one turn's picture at most. */
export const MAX_TURN_PICTURE_BYTES = 4 * 1024 * 1024;
/** Characters of the prompt kept with a picture at most (the engine's prompts are shorter). */
export const MAX_TURN_PICTURE_PROMPT_CHARS = 4_000;

const PICTURE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/webp']);

function checkPicture(picture: { mediaType: string; data: Uint8Array; prompt: string }): void {
  if (!PICTURE_TYPES.has(picture.mediaType))
    throw new StoreInputError('putTurnPicture.mediaType', `must be one of ${[...PICTURE_TYPES].join(', ')}`);
  if (picture.data.byteLength > MAX_TURN_PICTURE_BYTES)
    throw new StoreInputError(
      'putTurnPicture.data',
      `is ${picture.data.byteLength} bytes, over the limit MAX_TURN_PICTURE_BYTES = ${MAX_TURN_PICTURE_BYTES}`,
    );
  if (picture.prompt.length > MAX_TURN_PICTURE_PROMPT_CHARS)
    throw new StoreInputError(
      'putTurnPicture.prompt',
      `is ${picture.prompt.length} characters, over the limit MAX_TURN_PICTURE_PROMPT_CHARS = ${MAX_TURN_PICTURE_PROMPT_CHARS}`,
    );
}

export async function putTurnPicture(
  ctx: StoreContext,
  principalId: string,
  sessionId: string,
  turnId: string,
  picture: { mediaType: string; data: Uint8Array; prompt: string },
  quotaOwner: string = principalId,
): Promise<boolean> {
  const principal = checkId('putTurnPicture.principalId', principalId);
  const owner = checkOwner('putTurnPicture.quotaOwner', quotaOwner);
  const session = checkId('putTurnPicture.sessionId', sessionId);
  const turn = checkId('putTurnPicture.turnId', turnId);
  checkPicture(picture);
  return inTransaction(ctx.db, ctx.dialect, async (trx) => {
    const owned = await trx
      .selectFrom('turns as t')
      .innerJoin('sessions as s', 's.id', 't.session_id')
      .select('t.id')
      .where('t.id', '=', turn)
      .where('s.id', '=', session)
      .where('s.principal_id', '=', principal)
      .executeTakeFirst();
    if (owned === undefined) return false;
    await trx.deleteFrom('turn_pictures').where('turn_id', '=', turn).execute();
    await trx
      .insertInto('turn_pictures')
      .values({
        turn_id: turn,
        session_id: session,
        principal_id: principal,
        owner_id: owner,
        media_type: picture.mediaType,
        data: Buffer.from(picture.data).toString('base64'),
        bytes: picture.data.byteLength,
        prompt: picture.prompt,
        created_at: ctx.now(),
      })
      .execute();
    return true;
  });
}

export async function getTurnPicture(
  ctx: StoreContext,
  principalId: string,
  sessionId: string,
  turnId: string,
): Promise<TurnPicture | undefined> {
  const row = await ctx.db
    .selectFrom('turn_pictures')
    .select(['media_type', 'data', 'prompt', 'created_at'])
    .where('turn_id', '=', checkId('getTurnPicture.turnId', turnId))
    .where('session_id', '=', checkId('getTurnPicture.sessionId', sessionId))
    .where('principal_id', '=', checkId('getTurnPicture.principalId', principalId))
    .executeTakeFirst();
  return (
    row && {
      mediaType: row.media_type,
      data: new Uint8Array(Buffer.from(row.data, 'base64')),
      prompt: row.prompt,
      createdAt: Number(row.created_at),
    }
  );
}

export function turnPictures(ctx: StoreContext): TurnPictures {
  return {
    putTurnPicture: (principalId, sessionId, turnId, picture, quotaOwner) =>
      putTurnPicture(ctx, principalId, sessionId, turnId, picture, quotaOwner),
    getTurnPicture: (principalId, sessionId, turnId) => getTurnPicture(ctx, principalId, sessionId, turnId),
  };
}
