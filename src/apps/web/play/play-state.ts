// The play screen's state as one reducer: the session and its turn tree as last read, the turns seen so
// far (immutable, so kept by id), the turn being streamed, why the last action failed, the schema's
// fields, and whether an action runs. Pure: use-play.ts does the reading and streaming and dispatches.

import { safeParse } from 'zod/mini';
import {
  type NodeView,
  offlineReplyDetails,
  type SchemaFieldView,
  type SessionView,
  type TurnView,
} from '../../contract/index.ts';
import { ApiFailure } from '../lib/errors.ts';
import type { StreamEvent, TurnBody } from './play-api.ts';
import { lineage, type Tree } from './tree.ts';

export type PhaseLabel = 'thinking' | 'rolling' | 'narrating' | 'saving';

export interface LiveTurn {
  readonly kind: 'turn' | 'regenerate';
  /** The turn it is played after, when that is not the head (an edited message): the story is shown up
   * to there while it runs. */
  readonly after: string | null;
  /** What the player sent (shown at once, before the server answers). */
  readonly input: string | null;
  readonly narration: string;
  readonly phase: PhaseLabel;
  /** The tool (rule event) being run, when rolling. */
  readonly tool: string | null;
  /** The id the turn will have, once the server has said it (its `start` event): its narration can be read
   * aloud while it streams (turn-media-live.tsx). */
  readonly turnId?: string;
}

/** A turn as sent, to send again: its body and the words shown for it. */
export interface SentTurn {
  readonly body: TurnBody;
  readonly shown: string | null;
}

/**
 * Why the last action did not go through, shown next to the input:
 * - `reply`: offline, the engine answered instead of playing (a question, what can be done here);
 * - `model`: the model did not answer; nothing was saved, and the turn can be retried as it was;
 * - `other`: anything else (a conflict, a refused input).
 * `retry` is the turn to send again, and `input` the player's words to put back in the box.
 */
export interface PlayError {
  readonly kind: 'reply' | 'model' | 'other';
  readonly message: string;
  readonly retry: SentTurn | null;
  readonly input: string | null;
}

export interface PlayModel {
  readonly session: SessionView | null;
  readonly nodes: readonly NodeView[];
  /** Whether `nodes` is the whole tree; else the end of the head's branch with its swipes (play-api.ts
   * treeAround), read whole when the Tree panel opens or a swipe needs it. */
  readonly whole: boolean;
  readonly turns: ReadonlyMap<string, TurnView>;
  readonly live: LiveTurn | null;
  readonly error: PlayError | null;
  readonly fields: readonly SchemaFieldView[];
  readonly busy: boolean;
}

export type PlayAction =
  /** The session, its tree and the turns on its head's branch, as just read. */
  | {
      readonly type: 'read';
      readonly session: SessionView;
      readonly nodes: readonly NodeView[];
      readonly whole: boolean;
      readonly turns: ReadonlyMap<string, TurnView>;
    }
  /** More of the tree read (older turns of the branch, or the whole tree). */
  | { readonly type: 'tree'; readonly nodes: readonly NodeView[]; readonly whole: boolean }
  /** More turns read (older ones, as the player scrolls up). */
  | { readonly type: 'turns'; readonly turns: ReadonlyMap<string, TurnView> }
  | { readonly type: 'fields'; readonly fields: readonly SchemaFieldView[] }
  | { readonly type: 'started' }
  | { readonly type: 'finished' }
  | { readonly type: 'failed'; readonly error: PlayError }
  /** The story could not be re-read after a failure: said next to the first failure. */
  | { readonly type: 'reread-failed'; readonly message: string }
  | { readonly type: 'dismissed' }
  | { readonly type: 'live'; readonly live: LiveTurn | null };

export const initialPlay: PlayModel = {
  session: null,
  nodes: [],
  whole: false,
  turns: new Map(),
  live: null,
  error: null,
  fields: [],
  busy: false,
};

export function playReducer(model: PlayModel, action: PlayAction): PlayModel {
  switch (action.type) {
    case 'read':
      return {
        ...model,
        session: action.session,
        nodes: action.nodes,
        whole: action.whole,
        turns: action.turns,
      };
    case 'tree':
      return { ...model, nodes: action.nodes, whole: action.whole };
    case 'turns':
      return { ...model, turns: action.turns };
    case 'fields':
      return { ...model, fields: action.fields };
    case 'started':
      return { ...model, busy: true, error: null };
    case 'finished':
      return { ...model, busy: false };
    case 'failed':
      return { ...model, error: action.error };
    case 'reread-failed':
      return model.error === null
        ? model
        : {
            ...model,
            error: {
              ...model.error,
              message: `${model.error.message} (The story could not be re-read: ${action.message})`,
            },
          };
    case 'dismissed':
      return { ...model, error: null };
    case 'live':
      return { ...model, live: action.live };
    default: {
      const unreachable: never = action;
      return unreachable;
    }
  }
}

/**
 * The story shown: the newest turns of the head's branch that were read, oldest first, back to the first
 * one not read yet (older turns are read as the player scrolls up); while an edited message is replayed
 * (`after`), it stops where the new branch starts.
 */
export function storyOf(
  tree: Tree,
  session: SessionView | null,
  turns: ReadonlyMap<string, TurnView>,
  after: string | null,
): TurnView[] {
  if (!session) return [];
  const ids = lineage(tree, session.headTurnId);
  const cut = after ? ids.indexOf(after) : -1;
  const branch = cut >= 0 ? ids.slice(0, cut + 1) : ids;
  const story: TurnView[] = [];
  for (let i = branch.length - 1; i >= 0; i--) {
    const t = turns.get(branch[i] as string);
    if (!t) break;
    story.push(t);
  }
  return story.reverse();
}

export function phaseLabel(phase: string): PhaseLabel {
  switch (phase) {
    case 'director':
      return 'thinking';
    case 'narrator':
      return 'narrating';
    default:
      // cycle ticks, a mini-game's resolver and the clock all run rules.
      return 'rolling';
  }
}

/**
 * The live turn after one stream event: the phase and tool shown, the narration grown. `committed` says
 * the turn is being saved; `start` says the turn's id, and `tool_result` changes nothing shown. A `failed` event is not a step
 * (the caller throws its failure).
 */
export function liveStep(
  live: LiveTurn,
  event: Exclude<StreamEvent, { readonly event: 'failed' }>,
): LiveTurn {
  switch (event.event) {
    case 'start':
      return { ...live, turnId: event.data.turnId };
    case 'tool_result':
      return live;
    case 'phase':
      return { ...live, phase: phaseLabel(event.data.phase), tool: null };
    case 'tool_call':
      return { ...live, phase: 'rolling', tool: event.data.name };
    case 'narration':
      return { ...live, phase: 'narrating', narration: live.narration + event.data.text };
    case 'committed':
      return { ...live, phase: 'saving' };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/**
 * Replies that answer the player's words in full (the `reason` of a reply, docs/turn.md): offline ones, and
 * `round`, an action kept for a table's round (play-api.ts).
 */
const ANSWERED = new Set(['help', 'free', 'refused', 'round']);

/** The details of an offline reply, when the failure is one (the contract's offlineReplyDetails). */
function replyOf(error: unknown): { readonly reason?: string | undefined } | undefined {
  if (!(error instanceof ApiFailure)) return undefined;
  const reply = safeParse(offlineReplyDetails, error.details);
  return reply.success ? reply.data : undefined;
}

function kindOf(error: unknown): PlayError['kind'] {
  if (!(error instanceof ApiFailure)) return 'other';
  if (replyOf(error) !== undefined) return 'reply';
  return error.code === 'model_failed' || error.status === 502 ? 'model' : 'other';
}

export function messageOf(error: unknown): string {
  if (error instanceof ApiFailure) return error.message;
  // The player pressed Stop: the server abandons the turn and commits nothing.
  if (error instanceof Error && error.name === 'AbortError')
    return 'Stopped: the turn was cancelled and nothing was saved.';
  return error instanceof Error ? error.message : String(error);
}

/** A failure that is no turn's (a read of the story): shown, with nothing to retry or put back. */
export function readErrorOf(error: unknown): PlayError {
  return { kind: 'other', message: messageOf(error), retry: null, input: null };
}

/**
 * What a failed action shows: its kind and message, the turn to retry (none for an offline reply), and the
 * words to put back in the box — not when the engine answered them in full (/help, a look around, the
 * rules' refusal), but when it did not understand them, to be mended.
 */
export function playErrorOf(error: unknown, turn: SentTurn | null): PlayError {
  const kind = kindOf(error);
  const sent = turn !== null && 'input' in turn.body ? turn.body.input : null;
  const answered = ANSWERED.has(replyOf(error)?.reason ?? '');
  return {
    kind,
    message: messageOf(error),
    retry: kind === 'reply' ? null : turn,
    input: answered ? null : sent,
  };
}
