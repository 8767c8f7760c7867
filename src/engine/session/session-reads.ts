// The reads a session operation starts with: the session itself (owned by the principal, else "not found"),
// its owner's persona (when it still exists and is valid) and its pinned cartridge version with that persona
// applied.

import { type Persona, validatePersona } from '../../core/cartridge/index.ts';
import type { Personas, Session, TurnLog } from '../../adapters/store/index.ts';
import { notFound, SessionError } from './errors.ts';
import type { CartridgeLibrary, LoadedCartridge } from './library.ts';

/** The session when `principalId` owns it; another principal's session is "not found" too. */
export async function ownedSession(
  store: Pick<TurnLog, 'getSession'>,
  principalId: string,
  sessionId: string,
): Promise<Session> {
  const session = await store.getSession(sessionId, principalId);
  if (session === undefined) throw notFound(`session ${sessionId}`);
  return session;
}

/** The stored persona, or undefined when none is named, it is gone, or it no longer validates. */
export async function personaOf(
  store: Pick<Personas, 'getPersona'>,
  principalId: string,
  personaId: string | null | undefined,
): Promise<Persona | undefined> {
  if (personaId === null || personaId === undefined) return undefined;
  const stored = await store.getPersona(personaId, principalId);
  if (stored === undefined) return undefined;
  const data = stored.data;
  return validatePersona(data).length === 0 ? (data as unknown as Persona) : undefined;
}

/** The session's cartridge version with `persona` applied; a version the store lost is a `cartridge` error. */
export async function sessionCartridge(
  library: CartridgeLibrary,
  session: Session,
  persona: Persona | undefined,
): Promise<LoadedCartridge> {
  const loaded = await library.load(session.cartridgeVersionId, persona);
  if (loaded === undefined) {
    throw new SessionError(
      'cartridge',
      `cartridge version ${session.cartridgeVersionId} is not in the store`,
    );
  }
  return loaded;
}
