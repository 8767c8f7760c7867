// Fixtures for the turn stages one at a time: a TurnEnvironment over a real store, and a TurnContext built
// by hand from store reads (what prepare would resolve), so run and commit are tested without prepare.

import { ClaimOwner } from '../../../../src/engine/session/claim-owner.ts';
import { InFlight } from '../../../../src/engine/session/in-flight.ts';
import { admission, DEFAULT_ADMISSION } from '../../../../src/engine/session/turn-job/admission.ts';
import type { CartridgeLibrary } from '../../../../src/engine/session/library.ts';
import {
  CLAIM_STALE_MS,
  IDEMPOTENCY_WAIT_MS,
  TURN_HISTORY_WINDOW,
} from '../../../../src/engine/session/limits.ts';
import { storyMessages } from '../../../../src/engine/session/messages.ts';
import { countingSeeds } from '../../../../src/engine/session/seeds.ts';
import type {
  TurnContext,
  TurnEnvironment,
  TurnRequest,
} from '../../../../src/engine/session/turn-job/types.ts';
import { WindowCache } from '../../../../src/engine/session/window-cache.ts';
import { DEFAULT_SNAPSHOT_RULE, WorldCache } from '../../../../src/engine/session/world-cache.ts';
import type { Store } from '../../../../src/adapters/store/repository.ts';
import { initialWorld } from '../../../../src/engine/turn/index.ts';
import type { GameState } from '../../../../src/engine/turn/types.ts';

let owners = 0;

export function stageEnv(
  store: Store,
  library: CartridgeLibrary,
  overrides: Partial<TurnEnvironment> = {},
): TurnEnvironment {
  let ids = 0;
  return {
    store,
    library,
    inFlight: new InFlight(),
    worlds: new WorldCache(),
    windows: new WindowCache(TURN_HISTORY_WINDOW),
    seeds: countingSeeds(100),
    clock: Date.now,
    monotonic: () => performance.now(),
    newId: () => `stage-turn-${++ids}`,
    models: () => null,
    observer: undefined,
    turnLimits: undefined,
    snapshotRule: DEFAULT_SNAPSHOT_RULE,
    idempotencyWaitMs: IDEMPOTENCY_WAIT_MS,
    claimStaleMs: CLAIM_STALE_MS,
    claimOwner: new ClaimOwner(store, { id: `stage-owner-${++owners}`, clock: overrides.clock ?? Date.now }),
    admission: DEFAULT_ADMISSION,
    admit: admission(DEFAULT_ADMISSION),
    ...overrides,
  };
}

/** The context of a turn after the session head, read from the store directly (no prepare stage). */
export async function contextAtHead(
  store: Store,
  library: CartridgeLibrary,
  principalId: string,
  sessionId: string,
  request: TurnRequest,
  fields: Partial<TurnContext> = {},
): Promise<TurnContext> {
  const session = await store.getSession(sessionId, principalId);
  if (session === undefined) throw new Error('no session');
  const hydrated = await store.hydrate(sessionId, session.headTurnId, {
    messageWindow: TURN_HISTORY_WINDOW,
    ledgerEvents: false,
  });
  if (hydrated === undefined) throw new Error('no head');
  const loaded = await library.load(session.cartridgeVersionId, undefined);
  if (loaded === undefined) throw new Error('no cartridge');
  return {
    sessionId,
    turnId: `hand-made-${hydrated.turn.depth + 1}`,
    parentId: session.headTurnId,
    expectedHeadId: session.headTurnId,
    request,
    cartridge: loaded.cartridge,
    persona: undefined,
    state: hydrated.state as GameState,
    messages: storyMessages(hydrated.messages),
    ledgerTurn: hydrated.turn.depth + 1,
    before: {
      world: initialWorld(loaded.cartridge),
      sinceSnapshotChars: 0,
      snapshotChars: 0,
      sinceSnapshotTurns: 0,
    },
    models: null,
    seed: 7,
    ...fields,
  };
}
