// A new session's opening: the checks on the seed and the chosen greeting, the genesis record, and what a
// refused create means to the caller. SessionService.createSession (service.ts) stores it.

import type { Cartridge, Persona } from '../../core/cartridge/index.ts';
import type { CreateSessionResult } from '../../adapters/store/index.ts';
import { notFound, SessionError } from './errors.ts';
import { MAX_DRAWN_SEED } from './limits.ts';
import type { GenesisRecord } from './records.ts';

/** The seed, when it is an integer from 0 to MAX_DRAWN_SEED; else an `invalid` error. */
export function checkedSeed(seed: number): number {
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > MAX_DRAWN_SEED) {
    throw new SessionError('invalid', `seed must be an integer from 0 to ${MAX_DRAWN_SEED} (MAX_DRAWN_SEED)`);
  }
  return seed;
}

/** The opening message: greeting 0 is `first-message.md`, n the cartridge's alternate greeting n. */
export function chosenGreeting(cartridge: Cartridge, greeting: number): string {
  const greetings = [cartridge.firstMessage ?? '', ...cartridge.alternateGreetings];
  if (!Number.isSafeInteger(greeting) || greeting < 0 || greeting >= greetings.length) {
    throw new SessionError(
      'invalid',
      `greeting ${greeting} does not exist: this cartridge has greetings 0 (first-message.md)${greetings.length > 1 ? ` to ${greetings.length - 1} (alternate_greetings.json)` : ''}`,
    );
  }
  return greetings[greeting] ?? '';
}

export function genesisRecord(
  cartridge: Cartridge,
  versionId: string,
  persona: Persona | undefined,
  seed: number,
): GenesisRecord {
  return {
    kind: 'genesis',
    version: 1,
    cartridge: { name: cartridge.name, contentHash: cartridge.contentHash, versionId },
    persona: persona ?? null,
    seed,
  };
}

/** The error a refused create is to the caller. */
export function createRefusal(
  refused: Exclude<CreateSessionResult, { ok: true }>,
  principalId: string,
  request: { readonly cartridgeVersion: string; readonly personaId?: string | null },
): Error {
  switch (refused.reason) {
    case 'principal-not-found':
      return notFound(`principal ${principalId}`);
    case 'cartridge-version-not-found':
      return notFound(`cartridge version ${request.cartridgeVersion}`);
    case 'persona-not-found':
      return notFound(`persona ${String(request.personaId)}`);
    case 'session-cap':
      return new SessionError(
        'session-cap',
        `you keep ${refused.limit} sessions, the session cap of one key (MNESOS_MAX_SESSIONS on a server); delete a session you no longer play first`,
        { limit: refused.limit },
      );
    default: {
      const unreachable: never = refused;
      return new Error(`unexpected createSession result ${JSON.stringify(unreachable)}`);
    }
  }
}
