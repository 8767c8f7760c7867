// Session-layer fixtures: a store (SQLite in a temporary folder unless a URL is given), the lanternmere
// cartridge registered, a principal, and a SessionService with counting seeds.

import { resolve } from 'node:path';
import type { ModelSet } from '../../../src/adapters/llm/types.ts';
import { CartridgeLibrary } from '../../../src/engine/session/library.ts';
import { countingSeeds } from '../../../src/engine/session/seeds.ts';
import {
  type SessionObserver,
  SessionService,
  type SessionServiceOptions,
} from '../../../src/engine/session/service.ts';
import type { CartridgeVersion, Principal, Store } from '../../../src/adapters/store/repository.ts';
import { ROOT } from '../turn/helpers.ts';

export const LANTERNMERE_DIR = resolve(ROOT, 'cartridges/lanternmere');

export interface Fixture {
  store: Store;
  library: CartridgeLibrary;
  service: SessionService;
  principal: Principal;
  version: CartridgeVersion;
}

export async function fixture(
  store: Store,
  options: {
    models?: () => ModelSet | null;
    observer?: SessionObserver;
    service?: Partial<SessionServiceOptions>;
  } = {},
): Promise<Fixture> {
  const library = new CartridgeLibrary(store);
  const registered = await library.registerFolder(LANTERNMERE_DIR);
  if (!registered.ok) throw new Error(registered.errors.map((e) => e.message).join('\n'));
  const service = new SessionService({
    store,
    library,
    models: options.models ?? (() => null),
    seeds: countingSeeds(100),
    ...(options.observer ? { observer: options.observer } : {}),
    ...options.service,
  });
  const principal = await store.createPrincipal({ name: 'player' });
  return { store, library, service, principal, version: registered.version };
}
