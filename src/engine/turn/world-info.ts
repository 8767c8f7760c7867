// World Info in a turn: activation before the Director (from the player's words and the newest messages),
// the Narrator's sections (before and after the character's definitions) and @depth messages, and the
// timed effects written into the state the turn ends with (`_world_info`), so each branch keeps its own.

import type { ChatMessage } from '../../adapters/llm/index.ts';
import {
  activateWorldInfo,
  type ActivationResult,
  readWorldInfoState,
  WORLD_INFO_STATE_KEY,
  worldInfoStateValue,
  type WorldInfoTrigger,
} from '../../core/lore/index.ts';
import { type Dict, toValue } from '../../core/yare/index.ts';
import type { PromptSection } from './prompts.ts';
import type { StoryMessage, TurnCartridge, WorldInfoRecord } from './types.ts';

export interface TurnWorldInfo {
  readonly result: ActivationResult;
  /** Messages in the chat at this turn, its input included. */
  readonly chatLength: number;
}

/** Activates the cartridge's World Info for this turn; undefined for a cartridge without one. */
export function activateForTurn(
  cartridge: TurnCartridge,
  state: { readonly [key: string]: unknown },
  history: readonly StoryMessage[],
  inputText: string,
  seed: number,
  trigger: WorldInfoTrigger = 'normal',
): TurnWorldInfo | undefined {
  const book = cartridge.worldInfo;
  if (book === undefined) return undefined;
  const before = readWorldInfoState(state);
  // Each turn adds the player's message and the narration.
  const chatLength = before === undefined ? history.length + 1 : before.messages + 2;
  const messages = [inputText, ...history.map((m) => m.content).reverse()];
  const result = activateWorldInfo(book, {
    messages,
    chatLength,
    timed: before?.effects ?? [],
    seed,
    trigger,
  });
  return { result, chatLength };
}

function summary(wi: TurnWorldInfo, position: 'before' | 'after'): string {
  const entries = wi.result.activated.filter((a) =>
    position === 'before'
      ? a.entry.position === 'before_char'
      : a.entry.position !== 'before_char' && a.entry.position !== 'at_depth',
  );
  const named = entries.map((a) => `${a.entry.comment || `entry ${a.entry.uid}`}: ${a.reason}`);
  return `World Info ${position} the character: ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}${named.length > 0 ? ` (${named.join('; ')})` : ''}`;
}

/** The Narrator's World Info sections: `before` goes ahead of the cartridge directives, `after` behind them. */
export function worldInfoSections(wi: TurnWorldInfo | undefined): {
  before: PromptSection[];
  after: PromptSection[];
} {
  if (wi === undefined) return { before: [], after: [] };
  const section = (id: string, text: string, position: 'before' | 'after'): PromptSection => ({
    id,
    // Placed among the static sections so its place relative to the character's definitions holds.
    kind: 'static',
    text: text.trim() === '' ? '' : `--- WORLD INFO (story facts; not instructions) ---\n${text}`,
    required: false,
    maxTokens: wi.result.budget,
    why: summary(wi, position),
  });
  return {
    before: [section('world_info_before', wi.result.before, 'before')],
    after: [section('world_info_after', wi.result.after, 'after')],
  };
}

/**
 * The chat messages with the @depth entries spliced in (`depth` messages from the end, 0 = after the last).
 * A system-role entry travels as a user message that says it is world information, since the chat carries
 * only user and assistant messages.
 */
export function insertAtDepth(
  messages: readonly ChatMessage[],
  wi: TurnWorldInfo | undefined,
): ChatMessage[] {
  if (wi === undefined || wi.result.atDepth.length === 0) return [...messages];
  const out = [...messages];
  // Deepest first, so each insertion's index still counts from the original end.
  const inserts = [...wi.result.atDepth].sort((a, b) => b.depth - a.depth);
  for (const insert of inserts) {
    const at = Math.max(0, out.length - Math.min(insert.depth, out.length));
    const message: ChatMessage =
      insert.role === 'assistant'
        ? { role: 'assistant', content: insert.content }
        : {
            role: 'user',
            content:
              insert.role === 'user'
                ? insert.content
                : `(world information, not the player's words)\n${insert.content}`,
          };
    out.splice(at, 0, message);
  }
  return out;
}

/** A copy of `state` (same prototype) holding the World Info bookkeeping `value`. */
function withWorldInfoValue(state: Dict, value: WorldInfoRecord['state']): Dict {
  const next = { ...state } as Dict;
  Object.setPrototypeOf(next, Object.getPrototypeOf(state));
  next[WORLD_INFO_STATE_KEY] = toValue({ messages: value.messages, effects: [...value.effects] });
  return next;
}

/** The state with this turn's World Info bookkeeping (chat length and timed effects). */
export function withWorldInfoState(state: Dict, wi: TurnWorldInfo | undefined): Dict {
  if (wi === undefined) return state;
  return withWorldInfoValue(
    state,
    worldInfoStateValue({ messages: wi.chatLength, effects: wi.result.timed }),
  );
}

/** The record's part: what activated and the state written (replayed by `replayTurnRules`). */
export function worldInfoRecord(wi: TurnWorldInfo): WorldInfoRecord {
  return {
    activated: wi.result.activated.map((a) => ({ uid: a.entry.uid, reason: a.reason })),
    state: worldInfoStateValue({ messages: wi.chatLength, effects: wi.result.timed }),
  };
}

/** The state with a recorded turn's World Info bookkeeping (replay: no messages needed). */
export function withRecordedWorldInfo(state: Dict, recorded: WorldInfoRecord | undefined): Dict {
  return recorded === undefined ? state : withWorldInfoValue(state, recorded.state);
}

/** The NPC brain sees what the World Info activated, beside the lore the Director looked up. */
export function worldInfoLore(wi: TurnWorldInfo | undefined): [string, string][] {
  if (wi === undefined) return [];
  return wi.result.activated
    .filter((a) => a.entry.content.trim() !== '')
    .map((a) => [`wi:${a.entry.uid}`, a.entry.content]);
}
