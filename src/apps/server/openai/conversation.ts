// Finding where a front end's transcript sits in a session's turn tree (docs/sillytavern.md, "The chat is
// the truth"). From a start turn, each exchange (player message, reply) follows the child played with that
// player message; among swipes, the one whose narration the chat shows (a reply a "continue" extended
// follows the continuation turns under it), else the one on the session's current branch, else the newest.
//
// An exchange the tree does not hold is not the end of the walk:
// - no turn was played with that message and the reply is one the game gave without spending a turn (an
//   offline refusal, a question, the help): it is skipped, as the game skipped it;
// - the reply is one the game never finished (Stop mid-stream, a model failure, SillyTavern's "..."): it is
//   skipped too, and the next reply says so in one line;
// - the message was edited: a child of the turn reached has the chat's reply (or the next exchange's
//   message) under another message. The walk follows that turn and records the edit; the caller rebases
//   the turns after it onto the edited message.

import { inputText } from '../../../engine/session/index.ts';
import type { Store, TurnMessage } from '../../../adapters/store/index.ts';
import { comparable, type Exchange } from './transcript.ts';

/** The input of a turn that continues the previous narration. */
export const CONTINUE_INPUT = 'Continue the scene from where the narration stopped.';
/** The details block and the game's notes start with this (so a transcript that shows them still matches). */
export const DETAILS_MARKER = '[MnesOS';
/** Continuation turns followed under one reply at most (each is a store read). */
export const MAX_CONTINUATIONS = 20;
/** Children of one turn looked at for an edited message (newest first). */
export const MAX_EDIT_CANDIDATES = 20;
/** MnesOS blocks removed from the end of one reply at most. */
const MAX_BLOCKS = 8;

const MARKER = comparable(DETAILS_MARKER);

/** Why an exchange of the chat has no turn behind it. */
export type SkipReason =
  /** The game answered without playing (an offline refusal, a question, the help). */
  | 'no-turn'
  /** The reply never finished (stopped, failed) or was never the game's. */
  | 'unstored';

export interface Skipped {
  readonly index: number;
  readonly user: string;
  readonly reason: SkipReason;
}

export interface Edit {
  readonly index: number;
  /** The turn played with the message before it was edited. */
  readonly original: TurnMessage;
  /** The message as the chat shows it now. */
  readonly input: string;
}

export interface WalkResult {
  /** The deepest turn the transcript reached. */
  readonly node: TurnMessage;
  /** Exchanges matched to a stored turn (edited ones included). */
  readonly matched: number;
  readonly skipped: readonly Skipped[];
  readonly edits: readonly Edit[];
  /** The exchange whose shown reply is not the stored turn's narration (the game's own is followed). */
  readonly differs: readonly number[];
}

export interface WalkOptions {
  /** Turns of the session's current branch: preferred among swipes the chat's reply does not tell apart. */
  readonly branch?: ReadonlySet<string>;
  /** Whether a reply is one the game gave without spending a turn. */
  readonly isNoTurnReply?: (reply: string) => boolean;
}

/** `rest` without the MnesOS blocks (details, notes) at its start: each ends at its first `]`. */
function afterBlocks(rest: string): string {
  let text = rest;
  for (let i = 0; i < MAX_BLOCKS && text.startsWith(MARKER); i++) {
    const end = text.indexOf(']');
    text = end < 0 ? '' : text.slice(end + 1).trim();
  }
  return text;
}

/** The deepest turn whose narration (with its continuations) is `text`; undefined when none is. */
async function matchReply(
  store: Store,
  sessionId: string,
  node: TurnMessage,
  text: string,
  depth = 0,
): Promise<TurnMessage | undefined> {
  const narration = comparable(node.narration);
  const wanted = comparable(text);
  if (!wanted.startsWith(narration)) return undefined;
  const rest = afterBlocks(wanted.slice(narration.length).trim());
  if (rest === '') return node;
  if (depth >= MAX_CONTINUATIONS) return undefined;
  const children = await store.listChildren(sessionId, node.id);
  for (const child of [...children].reverse()) {
    if (inputText(child.input) !== CONTINUE_INPUT) continue;
    const found = await matchReply(store, sessionId, child, rest, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Whether `input` is `wanted` in comparable form. */
function sameInput(turn: TurnMessage, wanted: string): boolean {
  return comparable(inputText(turn.input) ?? '') === wanted;
}

/** The children of `node` played with `input` (newest first). */
export async function childWithInput(
  store: Store,
  sessionId: string,
  node: TurnMessage,
  input: string,
): Promise<TurnMessage[]> {
  const wanted = comparable(input);
  const children = await store.listChildren(sessionId, node.id);
  return children.filter((c) => sameInput(c, wanted)).reverse();
}

/** The child a chat's exchange follows among the swipes played with its message. */
async function followSwipe(
  store: Store,
  sessionId: string,
  swipes: readonly TurnMessage[],
  reply: string,
  branch: ReadonlySet<string> | undefined,
): Promise<{ node: TurnMessage; shown: boolean }> {
  for (const swipe of swipes) {
    const found = await matchReply(store, sessionId, swipe, reply);
    if (found !== undefined) return { node: found, shown: true };
  }
  const onBranch = branch === undefined ? undefined : swipes.find((s) => branch.has(s.id));
  return { node: onBranch ?? swipes[0]!, shown: false };
}

/**
 * The child of `node` that the chat shows under an edited message: its narration is the exchange's reply,
 * or the next exchange's message was played after it.
 */
async function editedChild(
  store: Store,
  sessionId: string,
  node: TurnMessage,
  exchange: Exchange,
  next: Exchange | undefined,
): Promise<TurnMessage | undefined> {
  const children = (await store.listChildren(sessionId, node.id))
    .filter((c) => inputText(c.input) !== CONTINUE_INPUT)
    .reverse()
    .slice(0, MAX_EDIT_CANDIDATES);
  for (const child of children) {
    if ((await matchReply(store, sessionId, child, exchange.assistant)) !== undefined) return child;
  }
  if (next === undefined) return undefined;
  for (const child of children) {
    if ((await childWithInput(store, sessionId, child, next.user)).length > 0) return child;
  }
  return undefined;
}

export async function walkExchanges(
  store: Store,
  sessionId: string,
  start: TurnMessage,
  exchanges: readonly Exchange[],
  options: WalkOptions = {},
): Promise<WalkResult> {
  let node = start;
  let matched = 0;
  const skipped: Skipped[] = [];
  const edits: Edit[] = [];
  const differs: number[] = [];
  for (const [index, exchange] of exchanges.entries()) {
    const swipes = await childWithInput(store, sessionId, node, exchange.user);
    if (swipes.length > 0) {
      const followed = await followSwipe(store, sessionId, swipes, exchange.assistant, options.branch);
      if (!followed.shown) differs.push(index);
      node = followed.node;
      matched++;
      continue;
    }
    if (options.isNoTurnReply?.(exchange.assistant) === true) {
      skipped.push({ index, user: exchange.user, reason: 'no-turn' });
      continue;
    }
    const original = await editedChild(store, sessionId, node, exchange, exchanges[index + 1]);
    if (original !== undefined) {
      edits.push({ index, original, input: exchange.user });
      const followed = await followSwipe(store, sessionId, [original], exchange.assistant, undefined);
      node = followed.node;
      matched++;
      continue;
    }
    skipped.push({ index, user: exchange.user, reason: 'unstored' });
  }
  return { node, matched, skipped, edits, differs };
}

/** Exchanges the chat shows that the game did not play, as the player's app showed them, for the turn's context. */
export function unplayedContext(exchanges: readonly Exchange[]): string {
  if (exchanges.length === 0) return '';
  const lines = exchanges.flatMap((e) => [`Player: ${e.user.trim()}`, `Story: ${e.assistant.trim()}`]);
  return `The player's chat also shows this exchange, which the game did not play (its reply did not finish):\n${lines.join('\n')}`;
}
