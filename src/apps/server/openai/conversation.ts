// Finding where a front end's transcript sits in a session's turn tree. From the genesis turn, each
// exchange (player message, reply) follows the child whose input and narration match; a reply that a
// "continue" extended follows the continuation turns under it. The walk stops at the first exchange the
// tree does not hold (an edited history): what is left is shown to the next turn as player context.

import { inputText } from '../../../engine/session/index.ts';
import type { Store, TurnMessage } from '../../../adapters/store/index.ts';
import { type Exchange, normalized } from './transcript.ts';

/** The input of a turn that continues the previous narration. */
export const CONTINUE_INPUT = 'Continue the scene from where the narration stopped.';
/** The details block starts with this (so a transcript that shows it still matches the stored narration). */
export const DETAILS_MARKER = '[MnesOS';
/** Continuation turns followed under one reply at most (each is a store read). */
export const MAX_CONTINUATIONS = 20;

export interface WalkResult {
  /** The deepest turn the transcript reached. */
  readonly node: TurnMessage;
  /** Exchanges matched (from the first). */
  readonly matched: number;
}

/** The text after a details block at the start of `rest`, or `rest` when it does not start with one. */
function afterDetails(rest: string): string {
  if (!rest.startsWith(DETAILS_MARKER)) return rest;
  const end = rest.indexOf(']');
  return end < 0 ? '' : rest.slice(end + 1).trim();
}

/** The deepest turn whose narration (with its continuations) is `text`; undefined when none is. */
async function matchReply(
  store: Store,
  sessionId: string,
  node: TurnMessage,
  text: string,
  depth = 0,
): Promise<TurnMessage | undefined> {
  const narration = normalized(node.narration);
  const wanted = normalized(text);
  if (!wanted.startsWith(narration)) return undefined;
  const rest = afterDetails(wanted.slice(narration.length).trim());
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

/** The child of `node` played with `input` (newest first), if any. */
export async function childWithInput(
  store: Store,
  sessionId: string,
  node: TurnMessage,
  input: string,
): Promise<TurnMessage[]> {
  const wanted = normalized(input);
  const children = await store.listChildren(sessionId, node.id);
  return children.filter((c) => normalized(inputText(c.input) ?? '') === wanted).reverse();
}

export async function walkExchanges(
  store: Store,
  sessionId: string,
  genesis: TurnMessage,
  exchanges: readonly Exchange[],
): Promise<WalkResult> {
  let node = genesis;
  let matched = 0;
  for (const exchange of exchanges) {
    let next: TurnMessage | undefined;
    for (const child of await childWithInput(store, sessionId, node, exchange.user)) {
      next = await matchReply(store, sessionId, child, exchange.assistant);
      if (next !== undefined) break;
    }
    if (next === undefined) break;
    node = next;
    matched++;
  }
  return { node, matched };
}

/** The unmatched part of an edited history, as the player's app showed it, for the turn's context. */
export function editedHistoryContext(exchanges: readonly Exchange[]): string {
  if (exchanges.length === 0) return '';
  const lines = exchanges.flatMap((e) => [`Player: ${e.user.trim()}`, `Story: ${e.assistant.trim()}`]);
  return `The player's chat shows this earlier exchange differently from the game's record (edited by the player):\n${lines.join('\n')}`;
}
