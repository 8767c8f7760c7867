// Stage 1 of a turn: everything that can refuse it before anything streams (admission, ownership, the
// idempotency claim, the in-flight lock, a missing parent) and everything it reads (the parent's state, history window
// and world, the cartridge with the persona, the models, a fresh seed). Ends early with `replayed` when the
// Idempotency-Key already names a stored turn.

import type { Persona } from '../../../core/cartridge/index.ts';
import type { ModelSet } from '../../../adapters/llm/index.ts';
import type { Session, Turn } from '../../../adapters/store/index.ts';
import type { GameState } from '../../turn/index.ts';
import { branchWorld } from '../branch-world.ts';
import { notFound } from '../errors.ts';
import { timeModels } from '../instrument.ts';
import { storyMessages } from '../messages.ts';
import { freshSeed } from '../seeds.ts';
import { ownedSession, personaOf, sessionCartridge } from '../session-reads.ts';
import { turnWindow } from '../window-cache.ts';
import { storedIdempotencyKey } from './admission.ts';
import { claimIdempotencyKey, TurnClaim } from './claim.ts';
import type { TurnContext, TurnEnvironment, TurnRequest } from './types.ts';

export type PrepareDeps = Pick<
  TurnEnvironment,
  | 'store'
  | 'library'
  | 'inFlight'
  | 'worlds'
  | 'windows'
  | 'seeds'
  | 'clock'
  | 'monotonic'
  | 'newId'
  | 'models'
  | 'observer'
  | 'idempotencyWaitMs'
  | 'claimStaleMs'
  | 'claimOwner'
  | 'admit'
>;

/** `ready` holds the claim: the caller must run the turn or release it. */
export type PrepareResult =
  | { readonly kind: 'replayed'; readonly turn: Turn }
  | { readonly kind: 'ready'; readonly context: TurnContext; readonly claim: TurnClaim };

/** Claims the turn and resolves its context; does not run anything. Throws SessionError when refused. */
export async function prepareTurn(
  deps: PrepareDeps,
  principalId: string,
  sessionId: string,
  asked: TurnRequest,
  avoidSeeds: ReadonlySet<number> = new Set(),
): Promise<PrepareResult> {
  const request = admitted(deps.admit(asked), sessionId);
  const session = await ownedSession(deps.store, principalId, sessionId);
  const turnId = deps.newId();
  const key = request.idempotencyKey;
  if (key !== undefined) {
    const claimed = await claimIdempotencyKey(deps, sessionId, key, turnId);
    if (claimed.kind === 'replayed') return claimed;
  }
  const claim = TurnClaim.acquire(deps, sessionId, key, turnId);
  try {
    const start = await startOf(deps, sessionId, request, request.parentId ?? session.headTurnId);
    const persona = await actingPersona(deps, principalId, session, request);
    const { cartridge } = await sessionCartridge(deps.library, session, persona);
    const models = await observedModels(deps, principalId);
    const rebased = request.rebased;
    const context: TurnContext = {
      sessionId,
      turnId,
      parentId: start.parentId,
      expectedHeadId: rebased?.expectedHeadId ?? session.headTurnId,
      request,
      cartridge,
      persona,
      state: start.state,
      messages: storyMessages(start.messages, request.table?.turn),
      ledgerTurn: start.depth + 1,
      before: start.before,
      models,
      seed: freshSeed(deps.seeds, avoidSeeds),
      ...(rebased === undefined || rebased.turns.length === 0
        ? {}
        : { rebased: { baseId: rebased.baseId, turns: rebased.turns } }),
    };
    return { kind: 'ready', context, claim };
  } catch (error) {
    claim.release();
    throw error;
  }
}

/** At a shared table the actor plays their own persona (table/turns.ts), not the owner's. */
async function actingPersona(
  deps: PrepareDeps,
  principalId: string,
  session: Session,
  request: TurnRequest,
): Promise<Persona | undefined> {
  if (request.table === undefined) return personaOf(deps.store, principalId, session.personaId);
  return personaOf(
    deps.store,
    request.table.persona?.principalId ?? principalId,
    request.table.persona?.personaId,
  );
}

/** The principal's models, each call timed for the observer when it listens. */
async function observedModels(deps: PrepareDeps, principalId: string): Promise<ModelSet | null> {
  const baseModels = await deps.models(principalId);
  const observer = deps.observer;
  return baseModels !== null && observer?.onModelCall
    ? timeModels(baseModels, (role, ms, ok) => observer.onModelCall?.(role, ms, ok), deps.monotonic)
    : baseModels;
}

/** Where the turn starts: its parent's state, story window and world, or those a planned rebase ends with. */
async function startOf(deps: PrepareDeps, sessionId: string, request: TurnRequest, parentId: string) {
  const rebased = request.rebased;
  if (rebased !== undefined)
    return {
      parentId: rebased.turns.at(-1)?.id ?? rebased.baseId,
      state: rebased.state,
      messages: rebased.messages,
      depth: rebased.depth,
      before: rebased.world,
    };
  // The state and story window from memory when this process played the parent, else from the store;
  // the world comes from the world cache or a snapshot, not from the window's events.
  const parent = await turnWindow(deps.store, deps.windows, sessionId, parentId);
  if (parent === undefined) throw notFound(`turn ${parentId}`);
  const before = await branchWorld(deps.store, deps.worlds, sessionId, parentId);
  return {
    parentId,
    state: parent.state as GameState,
    messages: parent.messages,
    depth: parent.depth,
    before,
  };
}

/** The admitted request as the turn uses it: its key as stored (scoped keys digested), no scope left. */
function admitted(request: TurnRequest, sessionId: string): TurnRequest {
  const { idempotencyScope: _scope, idempotencyKey: _key, ...rest } = request;
  const key = storedIdempotencyKey(request, sessionId);
  return key === undefined ? rest : { ...rest, idempotencyKey: key };
}
