// Turns at a table: who plays, in what order, and who may steer. A session that is not a table plays as
// always (its owner only). At a table every member plays their own character through the session's one way
// into a turn, with the owner's models: in free order after the turns queued before theirs (queue.ts),
// in rounds by submitting an action, the round playing as one turn when everyone has acted or the owner (or
// a game master) closes it. Undo, swipe and branch are the owner's and the game masters'; everyone's live
// view follows them (a `head` or `turn` event).

import type { Member, RoundAction, Session, TableSettings, Turn } from '../../../adapters/store/index.ts';
import type { TurnActor, TurnTable } from '../../turn/index.ts';
import { notFound, SessionError } from '../errors.ts';
import { inputText, tableOfInput } from '../messages.ts';
import { storedTurnInput, type SessionService } from '../service.ts';
import type { PreparedTurn, TurnRequest } from '../turn-job/types.ts';
import type { HeadMove, TableEventBody } from './events.ts';
import { requireSteer, type TableAccess } from './members.ts';
import { type QueueDeps, waitForTurn } from './queue.ts';
import { TableTurn } from './table-turn.ts';

export interface TablePlayDeps extends QueueDeps {
  readonly sessions: SessionService;
  /** Keeps a committed turn for this process's live streams (TableService.recentTurn). */
  readonly remember: (turn: Turn) => void;
}

/** A round's action was kept; the round plays once everyone has acted (or it is closed). */
export interface SubmittedAction {
  readonly kind: 'submitted';
  readonly round: number;
  /** Characters who have acted this round, in order. */
  readonly submitted: readonly string[];
  /** Characters still to act. */
  readonly waiting: readonly string[];
}

export type TablePrepared = PreparedTurn | SubmittedAction;

export interface TableTurnOptions {
  /** The action is private to its player and the game master (free order). */
  readonly whisper?: boolean;
  /** The caller going away while its turn waits in the queue. */
  readonly signal?: AbortSignal;
}

function actorOf(member: Member): TurnActor {
  return { character: member.character, name: member.name };
}

/** Plays (or queues, or submits) a member's turn. */
export async function prepareTableTurn(
  deps: TablePlayDeps,
  access: TableAccess,
  request: TurnRequest,
  options: TableTurnOptions = {},
): Promise<TablePrepared> {
  const { session } = access;
  const table = await deps.store.getTable(session.id);
  if (table === undefined || access.member === null) {
    if (options.whisper === true)
      throw new SessionError('invalid', 'a whisper needs a shared table (invite someone first)');
    return deps.sessions.prepareTurn(session.principalId, session.id, request);
  }
  if (request.parentId !== undefined && request.parentId !== session.headTurnId)
    requireSteer(access, 'branch');
  const members = await deps.store.listMembers(session.id);
  switch (table.turnOrder) {
    case 'free':
      return playInTurn(deps, access, access.member, members, request, options);
    case 'rounds':
      return submitToRound(deps, access, { member: access.member, members }, table, request, options);
    default: {
      const unreachable: never = table.turnOrder;
      throw new Error(`unknown turn order ${String(unreachable)}`);
    }
  }
}

async function playInTurn(
  deps: TablePlayDeps,
  access: TableAccess,
  member: Member,
  members: readonly Member[],
  request: TurnRequest,
  options: TableTurnOptions,
): Promise<PreparedTurn> {
  const { session } = access;
  const whisper = options.whisper === true;
  const place = await waitForTurn(deps, session.id, member, options.signal);
  let prepared: PreparedTurn;
  try {
    prepared = await deps.sessions.prepareTurn(session.principalId, session.id, {
      ...request,
      table: {
        turn: { actors: [actorOf(member)], present: members.map(actorOf), ...(whisper ? { whisper } : {}) },
        persona: { principalId: member.principalId, personaId: member.personaId },
      },
    });
  } catch (error) {
    await place.leave();
    throw error;
  }
  if (prepared.kind === 'replayed') {
    await place.leave();
    return prepared;
  }
  return new TableTurn(prepared, {
    bus: deps.bus,
    sessionId: session.id,
    character: member.character,
    whisper,
    publish: deps.publish,
    remember: deps.remember,
    onEnd: () => place.leave(),
  });
}

async function submitToRound(
  deps: TablePlayDeps,
  access: TableAccess,
  seats: { readonly member: Member; readonly members: readonly Member[] },
  table: TableSettings,
  request: TurnRequest,
  options: TableTurnOptions,
): Promise<TablePrepared> {
  if (options.whisper === true)
    throw new SessionError('invalid', 'whispers are played in free order; a round is told to everyone');
  if (!('input' in request.turn))
    throw new SessionError('invalid', 'a round takes words; send a mini-game result in free order');
  const { member, members } = seats;
  const text = request.turn.input;
  const actions = await deps.store.listRoundActions(access.session.id, table.round);
  const others = actions.filter((a) => a.principalId !== member.principalId);
  const limit = deps.sessions.admission.maxInputChars;
  // The round's text as it will be played (names, not keys), against the operator's input limit.
  const combined = roundText(
    [...others, { character: member.character, input: { kind: 'text', text } }],
    members,
  );
  if (combined.length > limit)
    throw new SessionError(
      'input-too-long',
      `the round's actions together are ${combined.length} characters; the limit is ${limit}: say it in fewer words`,
      { limit },
    );
  const kept = await deps.store.submitRoundAction({
    sessionId: access.session.id,
    round: table.round,
    principalId: member.principalId,
    character: member.character,
    input: { kind: 'text', text },
    whisper: false,
    submittedAt: deps.clock(),
  });
  if (!kept.ok)
    throw new SessionError('conflict', 'the round was played meanwhile; send your action for the next one');
  return roundAfterSubmit(deps, access.session, table.round, request);
}

/** After an action: the round plays when every member has acted, else everyone is told who has. */
async function roundAfterSubmit(
  deps: TablePlayDeps,
  session: Session,
  round: number,
  request: TurnRequest,
): Promise<TablePrepared> {
  const [actions, members] = await Promise.all([
    deps.store.listRoundActions(session.id, round),
    deps.store.listMembers(session.id),
  ]);
  const acted = new Set(actions.map((a) => a.character));
  const waiting = members.filter((m) => !acted.has(m.character)).map((m) => m.character);
  if (waiting.length === 0) {
    const played = await playRound(deps, session, round, actions, members, request.idempotencyKey);
    if (played !== undefined) return played;
  }
  await deps.publish(session.id, { kind: 'round', round, submitted: roundSubmitted(actions), closed: false });
  return { kind: 'submitted', round, submitted: actions.map((a) => a.character), waiting };
}

function roundSubmitted(
  actions: readonly RoundAction[],
): Extract<TableEventBody, { kind: 'round' }>['submitted'] {
  return actions.map((a) => ({ character: a.character, whisper: a.whisper }));
}

/** "Mara: I search the chest.\nBob: I keep watch." — every action, in the order they resolve. */
function roundText(
  actions: readonly { readonly character: string; readonly input: unknown }[],
  members: readonly Member[],
): string {
  const names = new Map(members.map((m) => [m.character, m.name]));
  return actions
    .map((a) => `${names.get(a.character) ?? a.character}: ${inputText(a.input) ?? ''}`)
    .join('\n');
}

/** The owner or a game master plays the round with the actions submitted so far. */
export async function closeRound(deps: TablePlayDeps, access: TableAccess): Promise<PreparedTurn> {
  requireSteer(access, 'close a round');
  const table = await deps.store.getTable(access.session.id);
  if (table === undefined || table.turnOrder !== 'rounds')
    throw new SessionError('invalid', 'this table does not play in rounds');
  const [actions, members] = await Promise.all([
    deps.store.listRoundActions(access.session.id, table.round),
    deps.store.listMembers(access.session.id),
  ]);
  if (actions.length === 0) throw new SessionError('invalid', 'nobody has acted this round yet');
  const played = await playRound(deps, access.session, table.round, actions, members, undefined);
  if (played === undefined) throw new SessionError('conflict', 'the round was played meanwhile');
  return played;
}

/**
 * Closes round `round` (once: undefined when another request did) and prepares it as one turn resolving
 * every action in order. A round whose turn fails keeps its actions: they move to the next round.
 */
async function playRound(
  deps: TablePlayDeps,
  session: Session,
  round: number,
  actions: readonly RoundAction[],
  members: readonly Member[],
  idempotencyKey: string | undefined,
): Promise<PreparedTurn | undefined> {
  if ((await deps.store.closeRound(session.id, round, deps.clock())) === undefined) return undefined;
  await deps.publish(session.id, { kind: 'round', round, submitted: roundSubmitted(actions), closed: true });
  const seated = new Map(members.map((m) => [m.character, m]));
  const actors = actions.map((a) => seated.get(a.character)).filter((m): m is Member => m !== undefined);
  const restore = () => restoreActions(deps, round + 1, actions);
  let prepared: PreparedTurn;
  try {
    prepared = await deps.sessions.prepareTurn(session.principalId, session.id, {
      turn: { input: roundText(actions, members) },
      table: { turn: { actors: actors.map(actorOf), present: members.map(actorOf) }, persona: null },
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    });
  } catch (error) {
    await restore();
    throw error;
  }
  if (prepared.kind === 'replayed') return prepared;
  let committed = false;
  const turn = new TableTurn(prepared, {
    bus: deps.bus,
    sessionId: session.id,
    character: null,
    whisper: false,
    remember: deps.remember,
    publish: async (sessionId, body) => {
      if (body.kind === 'turn') committed = true;
      return deps.publish(sessionId, body);
    },
    onEnd: async () => {
      if (!committed) await restore();
    },
  });
  return turn;
}

async function restoreActions(
  deps: TablePlayDeps,
  round: number,
  actions: readonly RoundAction[],
): Promise<void> {
  for (const action of actions)
    await deps.store.submitRoundAction({ ...action, round, submittedAt: deps.clock() });
}

/** A sibling of a turn (swipe), its input and actors again with a new seed; the owner's or a game master's. */
export async function prepareTableRegenerate(
  deps: TablePlayDeps,
  access: TableAccess,
  options: { turnId?: string; idempotencyKey?: string },
): Promise<PreparedTurn> {
  requireSteer(access, 'swipe');
  const { session } = access;
  const target = await deps.store.getTurn(session.id, options.turnId ?? session.headTurnId);
  if (target === undefined) throw notFound(`turn ${String(options.turnId)}`);
  const played = tableOfInput(target.input);
  if (played === undefined) return deps.sessions.prepareRegenerate(session.principalId, session.id, options);
  if (target.parentId === null) throw new SessionError('invalid', 'the first message cannot be regenerated');
  const turn = storedTurnInput(target.input);
  if (turn === undefined) throw new SessionError('invalid', `turn ${target.id} has no input to play again`);
  const members = await deps.store.listMembers(session.id);
  const table: TurnTable = {
    actors: played.actors,
    present: members.map(actorOf),
    ...(played.whisper ? { whisper: true } : {}),
  };
  const single =
    played.actors.length === 1 ? members.find((m) => m.character === played.actors[0]!.character) : undefined;
  const prepared = await deps.sessions.prepareTurn(
    session.principalId,
    session.id,
    {
      parentId: target.parentId,
      turn,
      table: {
        turn: table,
        persona: single ? { principalId: single.principalId, personaId: single.personaId } : null,
      },
      ...(options.idempotencyKey === undefined ? {} : { idempotencyKey: options.idempotencyKey }),
    },
    new Set([target.seed]),
  );
  if (prepared.kind === 'replayed') return prepared;
  return new TableTurn(prepared, {
    bus: deps.bus,
    sessionId: session.id,
    character: single?.character ?? null,
    whisper: played.whisper,
    publish: deps.publish,
    remember: deps.remember,
    onEnd: async () => {},
  });
}

/** Undo or a head move by the owner or a game master; everyone's view follows. */
export async function moveTableHead(
  deps: TablePlayDeps,
  access: TableAccess,
  move: { kind: 'undo'; expectedHeadId?: string } | { kind: 'head'; turnId: string; expectedHeadId?: string },
): Promise<Session> {
  const { session } = access;
  if (access.member !== null) requireSteer(access, move.kind === 'undo' ? 'undo' : 'move the head');
  const moved =
    move.kind === 'undo'
      ? await deps.sessions.undo(session.principalId, session.id, move.expectedHeadId)
      : await deps.sessions.moveHead(session.principalId, session.id, move.turnId, move.expectedHeadId);
  const by: HeadMove = move.kind;
  await deps.publish(session.id, {
    kind: 'head',
    headTurnId: moved.headTurnId,
    move: by,
    character: access.member?.character ?? '',
  });
  return moved;
}
