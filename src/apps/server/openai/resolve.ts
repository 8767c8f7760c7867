// Which game a front end's request is about, and what to play there (docs/sillytavern.md, "How a chat finds
// its game"). Identity is carried, never inferred:
// - the session: the one holding the newest reply of the chat that names a turn (its anchor, anchor.ts) — only
//   among the caller's own sessions; a chat whose replies name no turn is a new chat: the session a
//   `session:<id>` model names (resumed at its head), else a new session (one per request: a request never
//   lands in a session another conversation opened);
// - the place: the chat's exchanges walked from where the chat starts (conversation.ts) — the game's opening
//   when the chat shows it, else (the front end cut its oldest messages) the turn before the oldest reply it
//   still shows, as the game's branch of the chat's newest reply has it;
// - a new player message plays after that; the same message again after the same history is a swipe (a new
//   sibling), or a retry (the stored turn sent back) when the client sent an Idempotency-Key or never
//   received that answer;
// - turns the chat shows elsewhere than the game holds them (an edited, deleted or hidden exchange) are rebase
//   steps the route plans and stores with the new turn (openai/rebase.ts).

import { createHash } from 'node:crypto';
import type { Cartridge } from '../../../core/cartridge/index.ts';
import type { RebaseStep } from '../../../engine/session/index.ts';
import {
  isUniqueViolation,
  MAX_LOCATED_TURNS,
  type Session,
  type TurnMessage,
} from '../../../adapters/store/index.ts';
import type { AppDeps } from '../deps.ts';
import {
  CONTINUE_INPUT,
  type ExchangeStatus,
  nextSpeakerInput,
  placeChat,
  sameInput,
  unplayedContext,
} from './conversation.ts';
import { openAiError } from './errors.ts';
import { greetingContext, isOpening } from './greeting.ts';
import type { ConversationMemory } from './memory.ts';
import { sessionIdOf } from './models.ts';
import { isNoTurnReply, lastExchangeNote } from './notes.ts';
import { CHAT_STEPS_PER_SLICE, nextTurnOfTheLoop } from './slices.ts';
import { MAX_PLAYER_CONTEXT_CHARS, type Transcript } from './transcript.ts';

/** An identical request within this many milliseconds of an answer that never arrived is a retry. */
export const RETRY_WINDOW_MS = 5_000;

export interface Conversation {
  readonly session: Session;
  /** This request opened the session: it is removed again when the request plays no turn. */
  readonly created: boolean;
  readonly cartridge: Cartridge;
  readonly model: string;
  /** The last stored turn of the chat's history: the new turn's parent, or where `steps` are carried to. */
  readonly base: TurnMessage;
  /** Turns to carry onto the chat's history before the new turn (none when the chat and the game agree). */
  readonly steps: readonly RebaseStep[];
  readonly input: string;
  readonly context: string;
  readonly trigger: 'normal' | 'swipe' | 'continue';
  /** What the request asks for: a reply to a new message, a continuation, a group's next member. */
  readonly kind: Transcript['kind'];
  /** A turn to send back instead of playing (a retried request). */
  readonly replay?: TurnMessage;
  /** One short line for the reply when the chat and the game disagreed ('' when they agree). */
  readonly note: string;
}

export interface ResolveInput {
  readonly principalId: string;
  readonly model: string;
  readonly transcript: Transcript;
  readonly idempotencyKey: string | undefined;
  readonly now: number;
}

/** The title of the sessions this endpoint opens. */
function chatTitle(cartridgeName: string): string {
  return `Chat (${cartridgeName})`;
}

/** The anchors to look up: the newest first, so a transcript past MAX_LOCATED_TURNS keeps its recent end. */
function anchorIds(transcript: Transcript): string[] {
  const ids = replyAnchors(transcript)
    .reverse()
    .flatMap((r) => [...r.after, ...r.at, ...r.anchors].reverse());
  return [...new Set(ids)].slice(0, MAX_LOCATED_TURNS);
}

/** The anchors of the chat's replies in order, the opening message first. */
function replyAnchors(
  transcript: Transcript,
): { anchors: readonly string[]; at: readonly string[]; after: readonly string[] }[] {
  const opening = {
    anchors: transcript.greetingAnchors,
    at: transcript.greetingAt,
    after: transcript.greetingAfter,
  };
  return [opening, ...transcript.exchanges];
}

/** A reply of the chat that names one of the caller's turns, and what it says of it. */
interface NamedPlace {
  /** `is`: the reply is this turn; `at`: answered without a turn at it, or never finished after it. */
  readonly kind: 'is' | 'at';
  readonly turn: TurnMessage;
  /** The reply opens the chat (the front end cut what came before it). */
  readonly opening: boolean;
}

/** The chat's replies that name one of the caller's turns, in the chat's order. */
function namedPlaces(transcript: Transcript, located: ReadonlyMap<string, TurnMessage>): NamedPlace[] {
  const places: NamedPlace[] = [];
  for (const [i, reply] of replyAnchors(transcript).entries()) {
    const turns = reply.anchors.map((id) => located.get(id)).filter((t) => t !== undefined);
    // A continued reply names its continuations after it: the chat is at the last of them.
    const last = turns.at(-1);
    if (last !== undefined) {
      places.push({ kind: 'is', turn: turns[0]!, opening: i === 0 });
      if (last !== turns[0]) places.push({ kind: 'at', turn: last, opening: i === 0 });
      continue;
    }
    // Answered without a turn at X, or never finished after X: either way the chat is at X after the reply.
    const at = [...reply.at, ...reply.after].map((id) => located.get(id)).find((t) => t !== undefined);
    if (at !== undefined) places.push({ kind: 'at', turn: at, opening: i === 0 });
  }
  return places;
}

/** A session id made from the caller and their Idempotency-Key: a retried first message finds its session. */
function keyedSessionId(principalId: string, key: string): string {
  const h = createHash('sha256').update(`openai-session\0${principalId}\0${key}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** A new chat's session: a new one for the model's cartridge (the same one for a retry with the same key). */
async function openSession(
  deps: AppDeps,
  principalId: string,
  model: string,
  key: string | undefined,
): Promise<{ session: Session; created: boolean }> {
  const { store, service } = deps;
  let name = model;
  if (name === '') {
    const offered = await store.listOwnedCartridges(principalId);
    if (offered.length !== 1)
      throw openAiError(
        404,
        'model_not_found',
        'choose a model: GET /openai/v1/models lists the cartridges and sessions',
      );
    name = offered[0]!.name;
  }
  const versionId = await store.resolveCartridgeName(principalId, name);
  if (versionId === undefined)
    throw openAiError(
      404,
      'model_not_found',
      `no cartridge or session "${model}" (GET /openai/v1/models lists them)`,
    );
  const id = key === undefined ? undefined : keyedSessionId(principalId, key);
  if (id !== undefined) {
    const earlier = await store.getSession(id, principalId);
    if (earlier !== undefined) return { session: earlier, created: false };
  }
  try {
    const made = await service.createSession(principalId, {
      cartridgeVersion: versionId,
      title: chatTitle(name),
      ...(id === undefined ? {} : { id }),
    });
    return { session: made.session, created: true };
  } catch (error) {
    // The same first message with the same key, at the same moment: the other request made it.
    const earlier =
      id !== undefined && isUniqueViolation(error) ? await store.getSession(id, principalId) : undefined;
    if (earlier === undefined) throw error;
    return { session: earlier, created: false };
  }
}

/** The turn on `lineage` that is `turn` or was carried from the same played turn. */
function counterpart(lineage: readonly TurnMessage[], turn: TurnMessage): TurnMessage | undefined {
  const root = turn.originId ?? turn.id;
  return lineage.find((t) => (t.originId ?? t.id) === root);
}

/**
 * The branch the chat's newest named turn is on (the session's current branch when it names none). A turn the
 * game carried onto another history (an edit or a deletion before it, rebased) has copies there; the chat's is
 * the one on the session's current branch, else the newest one — all the chat could tell them apart by is
 * older than what it sent (docs/sillytavern.md, "Context cuts").
 */
async function branchOf(
  deps: AppDeps,
  session: Session,
  turn: TurnMessage | undefined,
): Promise<TurnMessage[]> {
  const lineage = async (id: string) => (await deps.store.getLineage(session.id, id)) ?? [];
  if (turn === undefined) return lineage(session.headTurnId);
  const copies = await deps.store.listRebased(session.id, turn.originId ?? turn.id);
  if (copies.length === 0) return lineage(turn.id);
  const current = new Set((await lineage(session.headTurnId)).map((t) => t.id));
  const chosen = [turn, ...copies].find((t) => current.has(t.id)) ?? copies.at(-1)!;
  return lineage(chosen.id);
}

/** Where the chat starts in the session: see the file's comment. */
async function startOf(
  deps: AppDeps,
  session: Session,
  transcript: Transcript,
  located: ReadonlyMap<string, TurnMessage>,
  opening: (text: string) => boolean,
): Promise<{ start: TurnMessage; genesis: TurnMessage }> {
  const places = namedPlaces(transcript, located);
  const lineage = await branchOf(deps, session, places.at(-1)?.turn);
  const genesis = lineage[0];
  if (genesis === undefined)
    throw openAiError(500, 'internal', `session ${session.id} has no first turn`, 'server_error');
  if (places[0]?.opening !== true && opening(transcript.greeting)) return { start: genesis, genesis };
  // The oldest reply on the chat's branch places it: a turn's reply follows that turn's parent; an opening
  // reply (what came before it was cut) or an answer given at a turn leaves the chat at that turn. A reply
  // whose turn is not on the branch (the chat changed before it since) places nothing.
  for (const place of places) {
    const onBranch = counterpart(lineage, place.turn);
    if (onBranch === undefined) continue;
    if (place.kind === 'is' && !place.opening)
      return { start: lineage[lineage.indexOf(onBranch) - 1] ?? genesis, genesis };
    return { start: onBranch, genesis };
  }
  const oldest = places[0];
  if (oldest === undefined) return { start: lineage.at(-1) ?? genesis, genesis };
  if (oldest.kind === 'at' || oldest.opening) return { start: oldest.turn, genesis };
  const parentId = oldest.turn.parentId;
  const parent = parentId === null ? undefined : await deps.store.getTurn(session.id, parentId);
  return { start: parent ?? genesis, genesis };
}

/** The player context from its pieces, cut at MAX_PLAYER_CONTEXT_CHARS (the start is kept). */
function boundedContext(pieces: readonly string[]): string {
  const text = pieces.filter((t) => t !== '').join('\n\n');
  return text.length <= MAX_PLAYER_CONTEXT_CHARS ? text : `${text.slice(0, MAX_PLAYER_CONTEXT_CHARS - 1)}…`;
}

/** Exchanges after the last one the game holds that never finished: the Narrator sees them as the chat shows them. */
function unfinishedAfterLastHeld(transcript: Transcript, statuses: readonly ExchangeStatus[]) {
  let lastHeld = -1;
  statuses.forEach((s, i) => {
    if (s.kind === 'held' || s.kind === 'carried') lastHeld = i;
  });
  return transcript.exchanges.filter(
    (_e, i) => i > lastHeld && (statuses[i]?.kind === 'unfinished' || statuses[i]?.kind === 'not-the-games'),
  );
}

/** The session of the chat: named by its anchors, else by the model (`session:<id>`), else a new one. */
async function chatSession(deps: AppDeps, input: ResolveInput, located: ReadonlyMap<string, TurnMessage>) {
  const anchored = namedPlaces(input.transcript, located).at(-1)?.turn.sessionId;
  const named = anchored ?? sessionIdOf(input.model);
  if (named !== undefined)
    return { session: await deps.service.getSession(input.principalId, named), created: false };
  return openSession(deps, input.principalId, input.model, input.idempotencyKey);
}

export async function resolveConversation(
  deps: AppDeps,
  memory: ConversationMemory,
  input: ResolveInput,
): Promise<Conversation> {
  const { transcript } = input;
  const ids = anchorIds(transcript);
  const all = ids.length === 0 ? [] : await deps.store.locateTurns(input.principalId, ids);
  await nextTurnOfTheLoop();
  const { session, created } = await chatSession(deps, input, new Map(all.map((t) => [t.id, t])));
  const located = new Map(all.filter((t) => t.sessionId === session.id).map((t) => [t.id, t]));
  const persona = await deps.service.persona(session.principalId, session.personaId);
  const { cartridge } = await deps.service.cartridgeOf(session, { persona });
  const { start, genesis } = await startOf(deps, session, transcript, located, (text) =>
    isOpening(text, cartridge, persona),
  );
  let asked = 0;
  const placement = await placeChat(
    {
      children: async (turnId) => {
        if (++asked % CHAT_STEPS_PER_SLICE === 0) await nextTurnOfTheLoop();
        return deps.store.listChildren(session.id, turnId);
      },
      located,
      elsewhere: new Set(all.filter((t) => t.sessionId !== session.id).map((t) => t.id)),
      isNoTurnReply,
    },
    start,
    transcript.exchanges,
  );
  const context = boundedContext([
    transcript.greetingAnchors.length > 0
      ? ''
      : greetingContext(transcript.greeting, genesis.narration, persona),
    unplayedContext(unfinishedAfterLastHeld(transcript, placement.statuses)),
    transcript.context,
  ]);
  const base = {
    session,
    created,
    cartridge,
    model: input.model || cartridge.name,
    base: placement.base,
    steps: placement.steps,
    context,
    note: lastExchangeNote(transcript.exchanges, placement.statuses),
    kind: transcript.kind,
  };
  switch (transcript.kind) {
    case 'continue':
      return { ...base, input: CONTINUE_INPUT, trigger: 'continue' };
    case 'next-speaker':
      return { ...base, input: nextSpeakerInput(transcript.speaker), trigger: 'normal' };
    case 'reply':
      return { ...base, ...(await replyOrSwipe(deps, memory, input, placement, transcript.user)) };
    default: {
      const unreachable: never = transcript;
      throw new Error(`unknown transcript ${JSON.stringify(unreachable)}`);
    }
  }
}

/**
 * A new message after the chat's history: a normal turn; the same message again after the same history (a
 * stored turn already answered it there) is a swipe, or a retry when that answer never reached the client.
 */
async function replyOrSwipe(
  deps: AppDeps,
  memory: ConversationMemory,
  input: ResolveInput,
  placement: { readonly base: TurnMessage; readonly steps: readonly RebaseStep[] },
  user: string,
): Promise<{ input: string; trigger: 'normal' | 'swipe'; replay?: TurnMessage }> {
  if (placement.steps.length > 0) return { input: user, trigger: 'normal' };
  const children = await deps.store.listChildren(placement.base.sessionId, placement.base.id);
  const newest = children.filter((c) => sameInput(c, user)).at(-1);
  if (newest === undefined) return { input: user, trigger: 'normal' };
  if (input.idempotencyKey === undefined && memory.undelivered(newest.id, input.now, RETRY_WINDOW_MS))
    return { input: user, trigger: 'swipe', replay: newest };
  return { input: user, trigger: 'swipe' };
}
