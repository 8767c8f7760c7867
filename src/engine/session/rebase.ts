// Rebasing: played turns carried onto another parent from their records — the same narration, rule calls
// and seeds, no model call — as a chat front end's edited or shortened history asks (apps/server/openai,
// docs/sillytavern.md). Each carried turn keeps its narration (what the chat shows), takes the input the chat
// shows, and its state is its rules replayed on the new parent's state; a rule call that no longer gives the
// recorded result is named in `problems`.
//
// Planning stores nothing: the chain it returns is stored with the turn that follows it (TurnRequest.rebased,
// in the turn's own transaction) or alone when the request plays no turn (SessionService.settleChat), so a
// request that fails leaves the session as it was. Planning is a bounded job: at most `maxTurns` turns, read
// and replayed a few at a time with the event loop given back between slices (docs/deploy.md).

import type { Cartridge } from '../../core/cartridge/index.ts';
import { diffStates, type Dict } from '../../core/yare/index.ts';
import type { RebasedTurnInput, Store, TurnMessage } from '../../adapters/store/index.ts';
import { type GameState, replayTurnRules } from '../turn/index.ts';
import { branchWorld } from './branch-world.ts';
import { notFound, SessionError } from './errors.ts';
import { classifyRecord, type StoredTurnRecord } from './records.ts';
import { turnWindow, type WindowCache } from './window-cache.ts';
import type { BranchWorld, WorldCache } from './world-cache.ts';

/** Turns replayed between two turns of the event loop. */
export const REBASE_TURNS_PER_SLICE = 1;

/** One turn to carry over: a played turn (or a rebase of one), with the player's message as the chat shows it. */
export interface RebaseStep {
  readonly turnId: string;
  readonly input: string;
}

/** A planned rebase: what to store under `baseId`, and where the chain ends. */
export interface RebasedChain {
  /** The stored turn the first carried turn goes under. */
  readonly baseId: string;
  /** The session head when the chain was planned: storing it is refused if the head moved meanwhile. */
  readonly expectedHeadId: string;
  readonly turns: readonly RebasedTurnInput[];
  /** The turns as messages of the story (the next turn's history window). */
  readonly messages: readonly TurnMessage[];
  /** The state and world after the last carried turn (the base's when nothing was carried). */
  readonly state: GameState;
  readonly world: BranchWorld;
  readonly depth: number;
  /** What no longer applies, one line each ("rule call 1 (buy) failed on replay"), with the input it belongs to. */
  readonly problems: readonly { readonly input: string; readonly problem: string }[];
  /** Steps that could not be carried (not a played turn): the chain stops before the first of them. */
  readonly stoppedAt?: number;
}

export interface RebaseDeps {
  readonly store: Store;
  readonly worlds: WorldCache;
  readonly windows: WindowCache;
  readonly newId: () => string;
  readonly clock: () => number;
  /** How planning gives the event loop back between slices. */
  readonly yieldNow: () => Promise<void>;
}

/** The carried record of `played` on a parent whose state is `before`, with the chat's `input`. */
function carriedRecord(
  played: StoredTurnRecord,
  input: string,
  before: GameState,
  after: GameState,
  ledgerOk: boolean,
) {
  return {
    ...played,
    input: { ...played.input, text: input },
    stateAfter: after,
    delta: diffStates(before as unknown as Dict, after as unknown as Dict),
    messages: [
      { role: 'user' as const, content: input },
      { role: 'assistant' as const, content: played.narration },
    ],
    ...(ledgerOk ? {} : { ledgerEvents: [] }),
  };
}

/**
 * Plans the rebase of `steps` (in order) under `baseId`. The chain stops at the first step that is not a
 * played turn (`stoppedAt`); `steps` must already be cut to the caller's limit.
 */
export async function planRebase(
  deps: RebaseDeps,
  session: { readonly id: string; readonly headTurnId: string },
  cartridge: Cartridge,
  baseId: string,
  steps: readonly RebaseStep[],
): Promise<RebasedChain> {
  const base = await turnWindow(deps.store, deps.windows, session.id, baseId);
  if (base === undefined) throw notFound(`turn ${baseId}`);
  let at: Carrying = {
    state: base.state as unknown as GameState,
    world: await branchWorld(deps.store, deps.worlds, session.id, baseId),
    parentId: baseId,
    depth: base.depth,
  };
  const turns: RebasedTurnInput[] = [];
  const messages: TurnMessage[] = [];
  const problems: { input: string; problem: string }[] = [];
  let stoppedAt: number | undefined;
  for (const [index, step] of steps.entries()) {
    // The first slice too: the request's reading and placing of the chat ran just before.
    if (index % REBASE_TURNS_PER_SLICE === 0) await deps.yieldNow();
    const carried = await carryTurn(deps, session.id, cartridge, at, step);
    if (carried === undefined) {
      stoppedAt = index;
      break;
    }
    turns.push(carried.turn);
    messages.push(carried.message);
    problems.push(...carried.problems.map((problem) => ({ input: step.input, problem })));
    at = carried.next;
  }
  // A snapshot still being written belongs to the old branch: the new one starts its own.
  const { pending: _pending, ...progress } = at.world;
  return {
    baseId,
    expectedHeadId: session.headTurnId,
    turns,
    messages: [...base.messages, ...messages].slice(-deps.windows.window),
    state: at.state,
    world: progress,
    depth: at.depth,
    problems,
    ...(stoppedAt === undefined ? {} : { stoppedAt }),
  };
}

/** Where a rebase has got to: the state, world, turn and depth the next carried turn goes after. */
interface Carrying {
  readonly state: GameState;
  readonly world: BranchWorld;
  readonly parentId: string;
  readonly depth: number;
}

/** One step carried onto `at`; undefined when the step is not a played turn (it cannot be carried). */
async function carryTurn(
  deps: RebaseDeps,
  sessionId: string,
  cartridge: Cartridge,
  at: Carrying,
  step: RebaseStep,
): Promise<
  { turn: RebasedTurnInput; message: TurnMessage; problems: readonly string[]; next: Carrying } | undefined
> {
  const turn = await deps.store.getTurn(sessionId, step.turnId);
  const record = turn === undefined ? undefined : classifyRecord(turn.record);
  if (turn === undefined || record?.kind !== 'turn') return undefined;
  const played = record as StoredTurnRecord;
  const replay = replayTurnRules(cartridge, at.state, played, { world: at.world.world });
  const ledgerOk = replay.world !== undefined && !replay.divergences.some((d) => d.includes('ledger'));
  const after = replay.state as GameState;
  const next = carriedRecord(played, step.input, at.state, after, ledgerOk);
  const id = deps.newId();
  const createdAt = deps.clock();
  const carried: RebasedTurnInput = {
    id,
    originId: turn.originId ?? turn.id,
    input: next.input,
    narration: turn.narration,
    record: next,
    state: after,
    ledgerEvents: ledgerOk ? turn.ledgerEvents : [],
    ...(played.ledger.gameTime === undefined ? {} : { ledgerGameTime: played.ledger.gameTime }),
    seed: turn.seed,
    createdAt,
  };
  const message = carriedMessage(carried, sessionId, at);
  const world: BranchWorld = {
    ...at.world,
    world: ledgerOk && replay.world !== undefined ? replay.world : at.world.world,
    sinceSnapshotTurns: at.world.sinceSnapshotTurns + 1,
  };
  return {
    turn: carried,
    message,
    problems: replay.divergences,
    next: { state: after, world, parentId: id, depth: at.depth + 1 },
  };
}

/** The carried turn as the story window's message after `at`. */
function carriedMessage(carried: RebasedTurnInput, sessionId: string, at: Carrying): TurnMessage {
  return {
    id: carried.id,
    sessionId,
    parentId: at.parentId,
    depth: at.depth + 1,
    siblingIndex: 0,
    seq: 0,
    createdAt: carried.createdAt,
    input: carried.input as unknown as TurnMessage['input'],
    narration: carried.narration,
  };
}

/**
 * Stores a planned chain alone and moves the head to its end — or, with no turns in it, moves the head to
 * `headId` — for a request answered without a turn: the session then shows what the chat shows. Refused
 * (nothing stored) when the head moved since the chain was planned.
 */
export async function settleChain(
  store: Store,
  sessionId: string,
  chain: Pick<RebasedChain, 'baseId' | 'expectedHeadId' | 'turns'>,
  headId: string,
  now: number,
): Promise<void> {
  if (chain.turns.length > 0) {
    const stored = await store.appendRebased({
      sessionId,
      parentId: chain.baseId,
      expectedHeadId: chain.expectedHeadId,
      turns: chain.turns,
    });
    if (!stored.ok) throw settleRefused(stored.reason, sessionId, chain.baseId);
    return;
  }
  if (headId === chain.expectedHeadId) return;
  const moved = await store.setHead(sessionId, headId, {
    expectedHeadId: chain.expectedHeadId,
    updatedAt: now,
  });
  if (!moved.ok) throw settleRefused(moved.reason, sessionId, headId);
}

function settleRefused(
  reason: 'conflict' | 'session-not-found' | 'parent-not-found' | 'turn-not-found',
  sessionId: string,
  turnId: string,
): SessionError {
  switch (reason) {
    case 'conflict':
      return new SessionError(
        'conflict',
        'the session moved on meanwhile (another turn was committed); nothing was saved',
      );
    case 'session-not-found':
      return notFound(`session ${sessionId}`);
    case 'parent-not-found':
    case 'turn-not-found':
      return notFound(`turn ${turnId}`);
    default: {
      const unreachable: never = reason;
      return new SessionError('invalid', String(unreachable));
    }
  }
}
