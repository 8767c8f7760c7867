// Where a front end's chat sits in its game's turn tree (docs/sillytavern.md, "The chat is the truth"). Each
// reply of the chat names the turn it is (its anchors, anchor.ts); the walk goes through the chat's exchanges
// from the start turn and, for each reply the game played, finds that turn:
// - on the chat's branch, with the player's message the chat shows: the chat and the game agree (`held`);
// - else its rebased copy already under the walk's turn (an edit or a deletion carried over by an earlier
//   request: copies name their origin, so this too is exact);
// - else it has to be carried onto the chat's history: a rebase step (engine/session/rebase.ts), and every
//   later played exchange is carried after it.
// A reply continued (or answered by a second group member) names its continuation turns after it; they are
// followed the same way. An exchange whose reply names no turn of this game was not played (`unplayed`
// statuses): the game answered without a turn, its reply never finished, the game never sent it, or it is
// another game's.

import { inputText, type RebaseStep } from '../../../engine/session/index.ts';
import type { TurnMessage } from '../../../adapters/store/index.ts';
import { comparable, type Exchange, withoutPrefix } from './transcript.ts';

/** The input of a turn that continues the previous narration. */
export const CONTINUE_INPUT = 'Continue the scene from where the narration stopped.';
/** The details block and the game's notes start with this (so a transcript that shows them still matches). */
export const DETAILS_MARKER = '[MnesOS';

/** The input of a turn in which a group chat's next member answers the player's last message. */
export function nextSpeakerInput(speaker: string): string {
  return `${speaker.replace(/\s+/g, ' ').trim()} answers the player's last message next.`;
}

export type ExchangeStatus =
  /** The reply is this turn, on the chat's branch (`node` is the turn the exchange ends at). */
  | { readonly kind: 'held'; readonly turn: TurnMessage; readonly node: TurnMessage }
  /** The reply is this turn, carried onto the chat's history by this request. */
  | { readonly kind: 'carried'; readonly turn: TurnMessage }
  /** The game answered without playing a turn (its no-turn mark). */
  | { readonly kind: 'no-turn' }
  /** The game began this reply and never finished it (stopped, a failure): nothing was stored. */
  | { readonly kind: 'unfinished' }
  /** The reply names no turn: the game never sent it (SillyTavern's "…" after a failure, a typed reply). */
  | { readonly kind: 'not-the-games' }
  /** The reply is a turn of another of the player's games. */
  | { readonly kind: 'other-game' };

export interface Placement {
  /** The last stored turn the walk reached: the new turn's parent, or where the rebase `steps` go. */
  readonly base: TurnMessage;
  /** Turns to carry onto the chat's history, in order, under `base` (none when the chat and the game agree). */
  readonly steps: readonly RebaseStep[];
  /** One per exchange, in order. */
  readonly statuses: readonly ExchangeStatus[];
}

/** What the walk reads from the tree and knows of the chat's anchors. */
export interface WalkContext {
  /** Children of a turn of the session (swipes and rebased copies), by sibling index. */
  readonly children: (turnId: string) => Promise<readonly TurnMessage[]>;
  /** The chat's anchored turns of this session, by id. */
  readonly located: ReadonlyMap<string, TurnMessage>;
  /** Anchored turns of the player's other sessions. */
  readonly elsewhere: ReadonlySet<string>;
  /** Whether a reply ends with the game's no-turn mark. */
  readonly isNoTurnReply: (reply: string) => boolean;
}

/** Whether a stored input is the chat's message (as written, or without a name the front end wrote before it). */
export function sameInput(turn: TurnMessage, chatLine: string): boolean {
  const stored = comparable(inputText(turn.input) ?? '');
  return stored === comparable(chatLine) || stored === comparable(withoutPrefix(chatLine));
}

/** The played turn a turn is, or was carried from. */
function rootOf(turn: TurnMessage): string {
  return turn.originId ?? turn.id;
}

/** Where the walk is: on a stored turn, or past the first step to carry (everything after is carried too). */
type Cursor = { readonly kind: 'stored'; readonly node: TurnMessage } | { readonly kind: 'carrying' };

interface Walk {
  cursor: Cursor;
  base: TurnMessage;
  readonly steps: RebaseStep[];
}

/** Follows (or carries) one anchored turn with the input the chat shows for it. */
async function follow(ctx: WalkContext, walk: Walk, turn: TurnMessage, input: string): Promise<void> {
  const at = walk.cursor;
  if (at.kind === 'stored') {
    if (turn.parentId === at.node.id && sameInput(turn, input)) {
      walk.cursor = { kind: 'stored', node: turn };
      walk.base = turn;
      return;
    }
    const copy = (await ctx.children(at.node.id)).find(
      (c) => rootOf(c) === rootOf(turn) && sameInput(c, input),
    );
    if (copy !== undefined) {
      walk.cursor = { kind: 'stored', node: copy };
      walk.base = copy;
      return;
    }
  }
  walk.steps.push({ turnId: turn.id, input });
  walk.cursor = { kind: 'carrying' };
}

/** Why an exchange whose reply names no turn of this game has no turn. */
function unplayed(ctx: WalkContext, exchange: Exchange): ExchangeStatus {
  if (exchange.at.length > 0 || ctx.isNoTurnReply(exchange.assistant)) return { kind: 'no-turn' };
  if (exchange.anchors.length === 0) return { kind: 'not-the-games' };
  return exchange.anchors.some((id) => ctx.elsewhere.has(id))
    ? { kind: 'other-game' }
    : { kind: 'unfinished' };
}

/** Places the chat's exchanges from `start` (docs above). */
export async function placeChat(
  ctx: WalkContext,
  start: TurnMessage,
  exchanges: readonly Exchange[],
): Promise<Placement> {
  const walk: Walk = { cursor: { kind: 'stored', node: start }, base: start, steps: [] };
  const statuses: ExchangeStatus[] = [];
  for (const exchange of exchanges) {
    const turns = exchange.anchors.flatMap((id) => {
      const turn = ctx.located.get(id);
      return turn === undefined ? [] : [turn];
    });
    const [first, ...continuations] = turns;
    if (first === undefined) {
      statuses.push(unplayed(ctx, exchange));
      continue;
    }
    await follow(ctx, walk, first, exchange.user);
    for (const next of continuations) await follow(ctx, walk, next, inputText(next.input) ?? CONTINUE_INPUT);
    const at = walk.cursor;
    statuses.push(
      at.kind === 'stored' ? { kind: 'held', turn: first, node: at.node } : { kind: 'carried', turn: first },
    );
  }
  return { base: walk.base, steps: walk.steps, statuses };
}

/** Exchanges the chat shows that the game did not play, as the player's app showed them, for the turn's context. */
export function unplayedContext(exchanges: readonly Exchange[]): string {
  if (exchanges.length === 0) return '';
  const lines = exchanges.flatMap((e) => [`Player: ${e.user.trim()}`, `Story: ${e.assistant.trim()}`]);
  return `The player's chat also shows this exchange, which the game did not play (its reply did not finish):\n${lines.join('\n')}`;
}
