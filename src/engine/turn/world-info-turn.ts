// World Info in a turn: activation before the Director (from the player's words and the newest messages),
// the Narrator's sections (before and after the character's definitions) and @depth messages, and the
// timed effects written into the state the turn ends with (`_world_info`), so each branch keeps its own.

import {
  type ConditionVerdicts,
  worldInfoReason,
  worldInfoUnderVerdicts,
} from '../../core/cartridge/index.ts';
import type { ChatMessage } from '../../adapters/llm/index.ts';
import {
  activateWorldInfo,
  type ActivationInput,
  type ActivationResult,
  activationSteps,
  MAX_WI_SCAN_DEPTH,
  readWorldInfoState,
  WORLD_INFO_STATE_KEY,
  type WorldInfoBook,
  type WorldInfoEntry,
  worldInfoStateValue,
  type WorldInfoTrigger,
} from '../../core/lore/index.ts';
import { type Dict, toValue } from '../../core/yare/index.ts';
import { estimateTokens } from '../../core/tokens.ts';
import { runSliced, type TurnBudget } from '../../core/turn-budget.ts';
import type { PromptSection, SectionItem } from './prompts.ts';
import type { StoryMessage, TurnCartridge, WorldInfoRecord } from './types.ts';

export interface TurnWorldInfo {
  readonly result: ActivationResult;
  /** The book's entries by uid (for receipts). */
  readonly entries: ReadonlyMap<number, WorldInfoEntry>;
  /** Messages in the chat at this turn, its input included. */
  readonly chatLength: number;
}

const entryTables = new WeakMap<WorldInfoBook, ReadonlyMap<number, WorldInfoEntry>>();

function entriesOf(book: WorldInfoBook): ReadonlyMap<number, WorldInfoEntry> {
  let table = entryTables.get(book);
  if (table === undefined) {
    table = new Map(book.entries.map((e) => [e.uid, e]));
    entryTables.set(book, table);
  }
  return table;
}

interface PreparedActivation {
  readonly book: WorldInfoBook;
  readonly written: WorldInfoBook;
  readonly input: ActivationInput;
  readonly chatLength: number;
  readonly verdicts: ConditionVerdicts | undefined;
}

function prepareActivation(
  cartridge: TurnCartridge,
  state: { readonly [key: string]: unknown },
  history: readonly StoryMessage[],
  inputText: string,
  seed: number,
  trigger: WorldInfoTrigger,
  verdicts: ConditionVerdicts | undefined,
): PreparedActivation | undefined {
  const written = cartridge.worldInfo;
  if (written === undefined) return undefined;
  // Entries with a `when` are in play exactly while it holds (docs/cartridges.md).
  const book = verdicts === undefined ? written : worldInfoUnderVerdicts(written, verdicts);
  const before = readWorldInfoState(state);
  // Each turn adds the player's message and the narration.
  const chatLength = before === undefined ? history.length + 1 : before.messages + 2;
  // Newest first, and no more than an entry may scan: the cost of a turn does not grow with the history.
  const messages = [inputText];
  for (let i = history.length - 1; i >= 0 && messages.length <= MAX_WI_SCAN_DEPTH; i--)
    messages.push(history[i]!.content);
  const input = { messages, chatLength, timed: before?.effects ?? [], seed, trigger };
  return { book, written, input, chatLength, verdicts };
}

function finishActivation(prepared: PreparedActivation, activation: ActivationResult): TurnWorldInfo {
  const { verdicts } = prepared;
  const result =
    verdicts === undefined || verdicts.worldInfo.size === 0
      ? activation
      : {
          ...activation,
          activated: activation.activated.map((a) => ({
            ...a,
            reason: worldInfoReason(verdicts, a.entry.uid, a.reason),
          })),
          decisions: activation.decisions.map((d) => ({
            ...d,
            reason: worldInfoReason(verdicts, d.uid, d.reason),
          })),
        };
  return { result, chatLength: prepared.chatLength, entries: entriesOf(prepared.written) };
}

/** Activates the cartridge's World Info for this turn; undefined for a cartridge without one. */
export function activateForTurn(
  cartridge: TurnCartridge,
  state: { readonly [key: string]: unknown },
  history: readonly StoryMessage[],
  inputText: string,
  seed: number,
  trigger: WorldInfoTrigger = 'normal',
  verdicts?: ConditionVerdicts,
): TurnWorldInfo | undefined {
  const prepared = prepareActivation(cartridge, state, history, inputText, seed, trigger, verdicts);
  if (prepared === undefined) return undefined;
  return finishActivation(prepared, activateWorldInfo(prepared.book, prepared.input));
}

/**
 * `activateForTurn` in a turn: every entry charges the turn's budget, and the activation gives the event
 * loop back whenever its slice is due (a book at the limits is several slices, never one long stall).
 */
export async function activateForTurnSliced(
  budget: TurnBudget,
  cartridge: TurnCartridge,
  state: { readonly [key: string]: unknown },
  history: readonly StoryMessage[],
  inputText: string,
  seed: number,
  trigger: WorldInfoTrigger = 'normal',
  verdicts?: ConditionVerdicts,
): Promise<TurnWorldInfo | undefined> {
  const prepared = prepareActivation(cartridge, state, history, inputText, seed, trigger, verdicts);
  if (prepared === undefined) return undefined;
  const part = { kind: 'world-info' } as const;
  const activation = await budget.measureAsync(part, () =>
    runSliced(activationSteps(prepared.book, prepared.input, budget), () => budget.breathe()),
  );
  return finishActivation(prepared, activation);
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

function placedBefore(position: string): boolean {
  return position === 'before_char';
}

/**
 * The receipts of a World Info section: each entry placed there (why it activated), and the entries of that
 * place left out by the budget or by a false `when` (entries whose keys simply did not match are not listed:
 * `mnesos lore` shows every decision).
 */
function worldInfoItems(wi: TurnWorldInfo, position: 'before' | 'after'): SectionItem[] {
  const here = (p: string) => p !== 'at_depth' && placedBefore(p) === (position === 'before');
  const name = (uid: number, comment: string) => `World Info ${comment || `entry ${uid}`}`;
  const items: SectionItem[] = wi.result.activated
    .filter((a) => here(a.entry.position) && a.entry.content.trim() !== '')
    .map((a) => ({
      id: `wi:${a.entry.uid}`,
      why: `${name(a.entry.uid, a.entry.comment)}: ${a.reason}`,
      text: a.entry.content,
      tokens: estimateTokens(a.entry.content),
    }));
  const entries = wi.entries;
  for (const d of wi.result.decisions) {
    if (d.status !== 'skipped') continue;
    const entry = entries.get(d.uid);
    if (entry === undefined || !here(entry.position)) continue;
    const over = d.reason.startsWith('token budget');
    const excluded = d.reason.startsWith('when false') || d.reason.startsWith('when failed');
    if (!over && !excluded) continue;
    items.push({
      id: `wi:${d.uid}`,
      why: `${name(d.uid, d.comment)}: ${d.reason}`,
      tokens: estimateTokens(entry.content),
      status: over ? 'over_budget' : 'excluded',
    });
  }
  return items;
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
    items: worldInfoItems(wi, position),
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
  /** The entry's text as the reader may read it; undefined leaves the entry out (engine/turn/director-text.ts). */
  scope: (text: string) => string | undefined = (text) => text,
): ChatMessage[] {
  if (wi === undefined || wi.result.atDepth.length === 0) return [...messages];
  const out = [...messages];
  // Deepest first, so each insertion's index still counts from the original end.
  const inserts = [...wi.result.atDepth].sort((a, b) => b.depth - a.depth);
  for (const entry of inserts) {
    const content = scope(entry.content);
    if (content === undefined) continue;
    const insert = { ...entry, content };
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
export function worldInfoLore(
  wi: TurnWorldInfo | undefined,
): [string, { text: string; why: string; byWords: boolean }][] {
  if (wi === undefined) return [];
  return wi.result.activated
    .filter((a) => a.entry.content.trim() !== '')
    .map((a) => [
      `wi:${a.entry.uid}`,
      {
        text: a.entry.content,
        why: `World Info ${a.entry.comment || `entry ${a.entry.uid}`}: ${a.reason}`,
        // A key (or a sticky effect a key started) is the story's words; a constant or a condition is not.
        byWords: !(a.reason === 'constant' || a.reason === '@@activate' || a.reason.startsWith('when held')),
      },
    ]);
}
