// Invitation codes: random, sent once to the owner, stored only as their sha256 (like API keys), so a copy
// of the database lets nobody join a table.

import { createHash, randomBytes } from 'node:crypto';

/** Characters of a code: 24 random bytes in base64url. */
export const INVITE_CODE_CHARS = 32;

export function newInviteCode(): string {
  return randomBytes(24).toString('base64url');
}

/** What the store keeps of a code. */
export function inviteCodeHash(code: string): string {
  return createHash('sha256').update(code, 'utf8').digest('hex');
}

/** Whether text could be a code (checked before any lookup). */
export function looksLikeInviteCode(code: string): boolean {
  return code.length === INVITE_CODE_CHARS && /^[A-Za-z0-9_-]+$/.test(code);
}
