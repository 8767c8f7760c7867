// The cursor of `GET /v1/sessions`: where the next page starts (after the last session of this one), as an
// opaque base64url text the client hands back. A cursor this server did not make is a 400 naming `cursor`.

import type { SessionCursor } from '../../adapters/store/index.ts';
import { MAX_NAME_LENGTH } from '../../adapters/store/limits.ts';
import { ApiError } from './errors.ts';

/** Characters of a session cursor: a time and an id (at most MAX_NAME_LENGTH characters), base64url-encoded. */
export const MAX_SESSION_CURSOR_CHARS = 2_000;

export function encodeSessionCursor(after: SessionCursor): string {
  return Buffer.from(JSON.stringify([after.updatedAt, after.id]), 'utf8').toString('base64url');
}

export function decodeSessionCursor(text: string): SessionCursor {
  const refuse = (): never => {
    throw new ApiError(
      400,
      'invalid_request',
      'cursor: not a cursor this server gave (use nextCursor as sent)',
      {
        field: 'cursor',
      },
    );
  };
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return refuse();
  }
  if (!Array.isArray(value) || value.length !== 2) return refuse();
  const [updatedAt, id] = value as [unknown, unknown];
  if (typeof updatedAt !== 'number' || !Number.isSafeInteger(updatedAt) || updatedAt < 0) return refuse();
  if (typeof id !== 'string' || id === '' || id.length > MAX_NAME_LENGTH) return refuse();
  return { updatedAt, id };
}
