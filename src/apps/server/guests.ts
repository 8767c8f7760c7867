// Keyless local play with a friend: the server without API keys is one local user, so a second person on the
// same machine who opens an invitation link joins as a guest, a principal of their own with a key made for
// them and shown once. Their browser sends it as `Authorization: Bearer mnesos_guest_…`; every other request
// stays the local user's (auth.ts). Guests exist only for a usable invitation, so a page cannot make them
// at will, and only where the server answers loopback requests alone (local mode).

import { randomBytes, randomUUID } from 'node:crypto';
import { hashApiKey, type Principal, type Store } from '../../adapters/store/index.ts';
import { SessionError } from '../../engine/session/index.ts';

/** What every guest key starts with: the local server looks only such keys up. */
export const GUEST_KEY_PREFIX = 'mnesos_guest_';

export function isGuestKey(key: string): boolean {
  return key.startsWith(GUEST_KEY_PREFIX) && key.length > GUEST_KEY_PREFIX.length;
}

/** A new guest principal named `name`, and the key (shown once) that is it from now on. */
export async function createGuest(
  store: Store,
  name: string,
): Promise<{ principal: Principal; key: string }> {
  const principal = await store.createPrincipal({ id: `guest-${randomUUID()}`, name });
  const key = GUEST_KEY_PREFIX + randomBytes(32).toString('base64url');
  const added = await store.addApiKey({
    principalId: principal.id,
    keyHash: hashApiKey(key),
    label: 'guest',
  });
  if (!added.ok) throw new SessionError('invalid', `could not make a guest key (${added.reason})`);
  return { principal, key };
}
