// Which session and turn a front end's request is about, and what to play there (docs/sillytavern.md):
// - the session: a `session:<id>` model names it; otherwise the caller's session of the model's cartridge
//   whose tree holds the most of the transcript, else the newest session this endpoint opened that has no
//   turn yet, else a new one (one lock per principal and cartridge: concurrent first messages share it);
// - the turn: the deepest one whose player messages match the chat's (conversation.ts); a `session:<id>`
//   chat that matches nothing there resumes at the session's head;
// - a new player message plays after it; the same message again is a swipe (a new sibling), or a retry
//   (the stored turn sent back) when the client sent an Idempotency-Key or never received that answer;
// - where the chat and the tree disagree, one short line (`[MnesOS: …]`) says how it was resolved.

import { type Cartridge, DEFAULT_PERSONA, STORY_PLAYER } from '../../../core/cartridge/index.ts';
import { inputText } from '../../../engine/session/index.ts';
import type { Session, TurnMessage } from '../../../adapters/store/index.ts';
import type { AppDeps } from '../deps.ts';
import {
  CONTINUE_INPUT,
  childWithInput,
  DETAILS_MARKER,
  type Edit,
  unplayedContext,
  type WalkResult,
  walkExchanges,
} from './conversation.ts';
import { openAiError } from './errors.ts';
import type { ConversationMemory } from './memory.ts';
import { sessionIdOf } from './models.ts';
import { comparable, type Exchange, MAX_PLAYER_CONTEXT_CHARS, type Transcript } from './transcript.ts';

/** An identical request within this many milliseconds of an answer that never arrived is a retry. */
export const RETRY_WINDOW_MS = 5_000;
/** Sessions of one cartridge searched for the transcript (newest first). */
export const MAX_CANDIDATE_SESSIONS = 20;
/** Sessions looked at (newest first) to find those of the model's cartridge. */
export const MAX_SESSIONS_EXAMINED = 200;
/** Characters of a player message quoted in a note. */
const QUOTED_CHARS = 60;

/** The block that marks an answer given without playing a turn, so the walk knows it when it comes back. */
export const NO_TURN_MARK = `${DETAILS_MARKER}: no turn was played]`;

export function isNoTurnReply(reply: string): boolean {
  return comparable(reply).endsWith(comparable(NO_TURN_MARK));
}

export interface Conversation {
  readonly session: Session;
  readonly cartridge: Cartridge;
  readonly model: string;
  readonly parent: TurnMessage;
  readonly input: string;
  readonly context: string;
  readonly trigger: 'normal' | 'swipe' | 'continue';
  /** A turn to send back instead of playing (a retried request). */
  readonly replay?: TurnMessage;
  /** One short line for the reply when the chat and the tree disagreed ('' when they agree). */
  readonly note: string;
}

interface Found extends WalkResult {
  readonly session: Session;
  readonly genesis: TurnMessage;
}

function quoted(text: string): string {
  const flat = text.replace(/\s+/g, ' ').replace(/[[\]]/g, '').trim();
  return `“${flat.length > QUOTED_CHARS ? `${flat.slice(0, QUOTED_CHARS - 1)}…` : flat}”`;
}

/** `[MnesOS: …]`: one line the walk removes again when the reply comes back in the chat. */
export function noteBlock(text: string): string {
  return `${DETAILS_MARKER}: ${text
    .replace(/[[\]\r\n]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()}]`;
}

/**
 * Where the transcript sits in one session: walked from the first message, or — when the front end cut the
 * oldest messages to fit its context (SillyTavern does) — from the turn on the head's branch where the
 * transcript's first exchange was played; with `resume`, at the head when nothing matched.
 */
async function walkSession(
  deps: AppDeps,
  session: Session,
  exchanges: readonly Exchange[],
  resume: boolean,
): Promise<Found> {
  const lineage = (await deps.store.getLineage(session.id, session.headTurnId)) ?? [];
  const genesis = lineage.find((t) => t.parentId === null);
  if (genesis === undefined)
    throw openAiError(500, 'internal', `session ${session.id} has no first turn`, 'server_error');
  const options = { branch: new Set(lineage.map((t) => t.id)), isNoTurnReply };
  const fromStart = await walkExchanges(deps.store, session.id, genesis, exchanges, options);
  const first = exchanges[0];
  if (fromStart.matched > 0) return { session, genesis, ...fromStart };
  if (first !== undefined) {
    // The newest turn of the branch that played the first exchange: the transcript starts at its parent.
    const wanted = comparable(first.user);
    for (let i = lineage.length - 1; i > 0; i--) {
      const turn = lineage[i]!;
      if (comparable(inputText(turn.input) ?? '') !== wanted) continue;
      const parent = lineage[i - 1]!;
      const fromAnchor = await walkExchanges(deps.store, session.id, parent, exchanges, options);
      if (fromAnchor.matched > 0) return { session, genesis, ...fromAnchor };
    }
  }
  const head = lineage.at(-1) ?? genesis;
  return { session, genesis, ...fromStart, node: resume ? head : fromStart.node };
}

/** How much of the transcript a session holds (a swipe of the new message counts half an exchange). */
async function score(deps: AppDeps, found: Found, transcript: Transcript): Promise<number> {
  let points = found.matched;
  if (transcript.kind === 'reply' && found.edits.length === 0) {
    const answered = await childWithInput(deps.store, found.session.id, found.node, transcript.user);
    if (answered.length > 0) points += 0.5;
  }
  return points;
}

/** The title of the sessions this endpoint opens. */
function chatTitle(cartridgeName: string): string {
  return `Chat (${cartridgeName})`;
}

/** The session (existing or new) the transcript belongs to, and where its tree holds the transcript. */
async function findSession(
  deps: AppDeps,
  memory: ConversationMemory,
  principalId: string,
  model: string,
  transcript: Transcript,
): Promise<Found> {
  const { store, service } = deps;
  const exchanges = transcript.exchanges;
  const named = sessionIdOf(model);
  if (named !== undefined) {
    const session = await service.getSession(principalId, named);
    return walkSession(deps, session, exchanges, true);
  }
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
  return memory.serialized(`${principalId}\0${name}`, async () => {
    // Versions are immutable: their names come from the library's memory, not from a read of each row.
    const names = new Map<string, string | undefined>();
    const sessions = (await store.listSessions(principalId))
      .sort((a, b) => b.updatedAt - a.updatedAt)
      .slice(0, MAX_SESSIONS_EXAMINED);
    let best: { found: Found; points: number } | undefined;
    let unplayed: Session | undefined;
    let searched = 0;
    for (const session of sessions) {
      if (searched >= MAX_CANDIDATE_SESSIONS) break;
      if (!names.has(session.cartridgeVersionId))
        names.set(session.cartridgeVersionId, (await deps.library.version(session.cartridgeVersionId))?.name);
      if (names.get(session.cartridgeVersionId) !== name) continue;
      searched++;
      if (unplayed === undefined && session.turnCount === 1 && session.title === chatTitle(name))
        unplayed = session;
      const found = await walkSession(deps, session, exchanges, false);
      const points = await score(deps, found, transcript);
      if (points > 0 && (best === undefined || points > best.points)) best = { found, points };
    }
    if (best !== undefined) return best.found;
    // A chat whose messages the game never played (refused, stopped): the session it opened, not another.
    if (unplayed !== undefined) return walkSession(deps, unplayed, exchanges, false);
    const created = await service.createSession(principalId, {
      cartridgeVersion: versionId,
      title: chatTitle(name),
    });
    return walkSession(deps, created.session, exchanges, false);
  });
}

/**
 * Whether the chat's greeting is the game's, allowing for the player's name: SillyTavern writes its
 * persona's name where the game wrote its own ("Player"), so words that differ only there still agree.
 */
export function sameGreeting(chat: string, game: string, gameName: string | undefined): boolean {
  const a = comparable(chat);
  const b = comparable(game);
  if (a === b) return true;
  if (gameName === undefined || gameName.trim() === '') return false;
  const name = comparable(gameName);
  const index = b.indexOf(name);
  if (index < 0) return false;
  // Each occurrence of the game's name in its greeting may be one other name of up to three words.
  const parts = b.split(name);
  let at = 0;
  for (const [i, part] of parts.entries()) {
    if (!a.startsWith(part, at)) return false;
    at += part.length;
    if (i === parts.length - 1) return at === a.length;
    const nextPart = parts[i + 1]!;
    const end = nextPart === '' ? a.length : a.indexOf(nextPart, at);
    if (end < 0) return false;
    const other = a.slice(at, end);
    if (other === '' || other.length > 40 || other.split(' ').length > 3) return false;
    at = end;
  }
  return false;
}

/** The player context from its pieces, cut at MAX_PLAYER_CONTEXT_CHARS (the start is kept). */
function boundedContext(pieces: readonly string[]): string {
  const text = pieces.filter((t) => t !== '').join('\n\n');
  return text.length <= MAX_PLAYER_CONTEXT_CHARS ? text : `${text.slice(0, MAX_PLAYER_CONTEXT_CHARS - 1)}…`;
}

/** The line for the newest disagreement: only about the exchange just before this request, so it is said once. */
function disagreement(found: WalkResult, exchanges: readonly Exchange[]): string {
  const last = exchanges.length - 1;
  if (last < 0) return '';
  const skipped = found.skipped.find((s) => s.index === last);
  if (skipped?.reason === 'unstored')
    return noteBlock(
      `${quoted(skipped.user)} was not played (its reply did not finish), so the story goes on without it; send it again to play it.`,
    );
  if (found.differs.includes(last))
    return noteBlock(
      `the game goes on from its own reply to ${quoted(exchanges[last]!.user)}, not the one shown.`,
    );
  return '';
}

export interface ResolveInput {
  readonly principalId: string;
  readonly model: string;
  readonly transcript: Transcript;
  readonly hasIdempotencyKey: boolean;
  readonly now: number;
  /** Rebases the turns after edited messages; answers the new parent and a note ('' when all applied). */
  readonly rebase: (
    session: Session,
    cartridge: Cartridge,
    edits: readonly Edit[],
    node: TurnMessage,
  ) => Promise<{ readonly node: TurnMessage; readonly note: string }>;
}

export async function resolveConversation(
  deps: AppDeps,
  memory: ConversationMemory,
  input: ResolveInput,
): Promise<Conversation> {
  const { transcript } = input;
  const found = await findSession(deps, memory, input.principalId, input.model, transcript);
  const persona = await deps.service.persona(found.session.principalId, found.session.personaId);
  const { cartridge } = await deps.service.cartridgeOf(found.session, { persona });
  let parent = found.node;
  let note = disagreement(found, transcript.exchanges);
  if (found.edits.length > 0) {
    const rebased = await input.rebase(found.session, cartridge, found.edits, found.node);
    parent = rebased.node;
    note = [rebased.note, note].filter((n) => n !== '').join(' ');
  }
  // Exchanges after the last one the game holds that it never played: the Narrator sees them as the chat shows them.
  const skippedAt = new Set(found.skipped.map((s) => s.index));
  let lastHeld = -1;
  for (let i = 0; i < transcript.exchanges.length; i++) if (!skippedAt.has(i)) lastHeld = i;
  const unplayed = found.skipped
    .filter((s) => s.reason === 'unstored' && s.index > lastHeld)
    .map((s) => transcript.exchanges[s.index]!);
  // A front end may open with another greeting (SillyTavern offers a card's alternate greetings as swipes
  // of the first message): the Narrator is told which one the player sees.
  const greeting =
    transcript.greeting.trim() !== '' &&
    !sameGreeting(transcript.greeting, found.genesis.narration, persona?.name ?? STORY_PLAYER) &&
    // A game opened before the opening spoke of "the player" named them "Player".
    !(
      persona === undefined &&
      sameGreeting(transcript.greeting, found.genesis.narration, DEFAULT_PERSONA.name)
    )
      ? `The player's chat opened with this greeting (instead of the game's own):\n${transcript.greeting.trim()}`
      : '';
  const context = boundedContext([greeting, unplayedContext(unplayed), transcript.context]);
  const base = {
    session: found.session,
    cartridge,
    model: input.model || cartridge.name,
    parent,
    context,
    note,
  };
  if (transcript.kind === 'continue') return { ...base, input: CONTINUE_INPUT, trigger: 'continue' };
  const answered = await childWithInput(deps.store, found.session.id, parent, transcript.user);
  const newest = answered[0];
  if (newest === undefined) return { ...base, input: transcript.user, trigger: 'normal' };
  // The same history again after a completed answer is a swipe; a retry is one with an Idempotency-Key
  // (prepareTurn sends the stored turn back) or one for an answer that never reached the client.
  if (!input.hasIdempotencyKey && memory.undelivered(newest.id, input.now, RETRY_WINDOW_MS))
    return { ...base, input: transcript.user, trigger: 'swipe', replay: newest };
  return { ...base, input: transcript.user, trigger: 'swipe' };
}
