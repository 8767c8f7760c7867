// API keys: the server hands a raw key to the user once and stores only its sha256 digest.

import { createHash, randomBytes } from 'node:crypto';

/** Prefix that makes a leaked key recognisable by secret scanners and by people. */
export const API_KEY_PREFIX = 'mnesos_';

/** sha256 of the raw key as 64 lowercase hex digits: what `addApiKey` and `findPrincipalByKeyHash` take. */
export function hashApiKey(raw: string): string {
  return createHash('sha256').update(raw, 'utf8').digest('hex');
}

/** A new raw key: the prefix and 32 random bytes (base64url). */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}
