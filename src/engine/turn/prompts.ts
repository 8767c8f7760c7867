// Prompt assembly. A prompt is a list of sections: static ones first (role, cartridge directives, tool
// schemas, persona), so provider prompt caches hit across turns, then volatile ones (state, time, notes,
// lore, recent messages). Each section has a cap and the prompt a budget; every section's token count and
// the reason it was included, cut or dropped go into the turn record.

import type { ChatMessage } from '../../adapters/llm/index.ts';
import { estimateTokens } from '../../core/tokens.ts';
import type {
  ItemReceipt,
  ItemStatus,
  SectionCarrier,
  SectionKind,
  SectionReport,
  StoryMessage,
  TurnPersona,
} from './types.ts';

export type { ItemReceipt, ItemStatus, SectionCarrier, SectionKind, SectionReport } from './types.ts';

export interface PromptSection {
  readonly id: string;
  readonly kind: SectionKind;
  readonly text: string;
  /** Required sections are never dropped for the budget (only cut to their cap). */
  readonly required: boolean;
  /** Cap in estimated tokens; longer text is cut (`keep: 'end'` keeps the newest part). */
  readonly maxTokens?: number;
  readonly keep?: 'start' | 'end';
  readonly carrier?: SectionCarrier;
  /** Why the section is in the prompt, for the record. */
  readonly why: string;
  /** Why the section's text was left out before assembly (its text is then empty), for the record. */
  readonly leftOut?: string;
  /**
   * The pieces the section is made of (lore sections, World Info entries, facts, threads, messages), each
   * with why it is there, and the pieces considered and left out before assembly (over a budget, a `when`
   * false): the receipts of the section, in the record.
   */
  readonly items?: readonly SectionItem[];
}

/** One piece of a section as the section builder gives it. */
export interface SectionItem {
  /** What it is, stable across turns: `lore:L12`, `wi:3`, `fact:bridge_burned`, `message:-2`. */
  readonly id: string;
  /** Why it is there (a key matched, a `when` held, recency, an open thread) or why it was left out. */
  readonly why: string;
  /** Its text as it appears in the section (absent for a piece left out before assembly). */
  readonly text?: string;
  /** Estimated tokens (of `text`, or what it would have cost). */
  readonly tokens: number;
  /** Set for a piece left out before assembly. */
  readonly status?: 'over_budget' | 'excluded';
}

export interface AssembledPrompt {
  /** The system prompt: included `system` sections in order, separated by blank lines. */
  readonly system: string;
  /** The static `system` sections alone: the prefix that stays byte-identical from turn to turn. */
  readonly stableSystem: string;
  /** The volatile `system` sections (state, time, world, notes, lore…), for the final message. */
  readonly context: string;
  readonly sections: readonly SectionReport[];
  /** Included sections' tokens, all carriers. */
  readonly tokens: number;
  readonly budget: number;
  /** Section text after cuts, by id (included sections only). */
  readonly texts: ReadonlyMap<string, string>;
}

const CHARS_PER_TOKEN = 4;

function cut(text: string, maxTokens: number, keep: 'start' | 'end'): string {
  const maxChars = Math.max(0, maxTokens * CHARS_PER_TOKEN - 1);
  if (text.length <= maxChars + 1) return text;
  return keep === 'end' ? `…${text.slice(text.length - maxChars)}` : `${text.slice(0, maxChars)}…`;
}

/**
 * Orders sections (static before volatile, stable), cuts each to its cap, then drops optional sections,
 * last first, until the whole fits the budget. Required sections stay even when the budget is exceeded;
 * the report says so.
 */
export function assemblePrompt(sections: readonly PromptSection[], budget: number): AssembledPrompt {
  const ordered = [
    ...sections.filter((s) => s.kind === 'static'),
    ...sections.filter((s) => s.kind === 'volatile'),
  ];
  const work = ordered.map(cappedSection);
  const total = fitToBudget(work, budget);
  const texts = new Map<string, string>();
  for (const w of work) if (w.included) texts.set(w.section.id, w.text);
  const systemText = (kind?: SectionKind): string =>
    work
      .filter((w) => w.included && w.carrier === 'system' && (kind === undefined || w.section.kind === kind))
      .map((w) => w.text)
      .join('\n\n');
  return {
    system: systemText(),
    stableSystem: systemText('static'),
    context: systemText('volatile'),
    sections: work.map(sectionReport),
    tokens: total,
    budget,
    texts,
  };
}

/** A section being fitted into a prompt: its text as cut, and whether (and why) it is in. */
interface SectionWork {
  readonly section: PromptSection;
  readonly carrier: SectionCarrier;
  readonly text: string;
  readonly tokens: number;
  included: boolean;
  reason: string;
}

/** The section cut to its own cap (an empty one left out). */
function cappedSection(section: PromptSection): SectionWork {
  const carrier = section.carrier ?? 'system';
  if (section.text.trim() === '') {
    const reason = section.leftOut === undefined ? 'empty' : `left out: ${section.leftOut}`;
    return { section, carrier, text: '', tokens: 0, included: false, reason };
  }
  let text = section.text;
  let reason = section.why;
  if (section.maxTokens !== undefined && estimateTokens(text) > section.maxTokens) {
    text = cut(text, section.maxTokens, section.keep ?? 'start');
    reason += `; cut from ${estimateTokens(section.text)} to its cap of ${section.maxTokens} tokens`;
  }
  return { section, carrier, text, tokens: estimateTokens(text), included: true, reason };
}

/** Drops optional sections, last first, until the prompt fits `budget`; returns its tokens. */
function fitToBudget(work: readonly SectionWork[], budget: number): number {
  let total = work.reduce((sum, w) => sum + w.tokens, 0);
  for (let i = work.length - 1; i >= 0 && total > budget; i--) {
    const w = work[i]!;
    if (!w.included || w.section.required) continue;
    w.included = false;
    w.reason = `dropped: the prompt was ${total} tokens, over its budget of ${budget}`;
    total -= w.tokens;
  }
  if (total > budget) {
    for (const w of work)
      if (w.included)
        w.reason += `; required, kept although the prompt is over budget (${total} > ${budget})`;
  }
  return total;
}

function sectionReport(w: SectionWork): SectionReport {
  const report: SectionReport = {
    id: w.section.id,
    kind: w.section.kind,
    carrier: w.carrier,
    tokens: w.tokens,
    included: w.included,
    reason: w.reason,
  };
  const items = w.section.items;
  return items === undefined ? report : { ...report, items: itemReceipts(items, w.included, w.text) };
}

/**
 * Receipts of one section kept in the record, at most: the pieces after them are counted in one receipt
 * per status (`more:<status>`), so a record stays bounded however big the world, the lore or the story is.
 */
export const MAX_SECTION_RECEIPTS = 24;

/** What became of each piece: left out before, dropped with its section, cut with it, or sent. */
function itemReceipts(items: readonly SectionItem[], included: boolean, sent: string): ItemReceipt[] {
  const receipts = items.map((item): ItemReceipt => {
    const base = { id: item.id, why: item.why, tokens: item.tokens };
    if (item.status !== undefined || item.text === undefined)
      return { ...base, status: item.status ?? 'excluded' };
    if (!included) return { ...base, status: 'dropped' };
    return { ...base, status: sent.includes(item.text) ? 'included' : 'cut' };
  });
  if (receipts.length <= MAX_SECTION_RECEIPTS) return receipts;
  const kept = receipts.slice(0, MAX_SECTION_RECEIPTS);
  const rest = new Map<ItemStatus, { count: number; tokens: number; first: string }>();
  for (const r of receipts.slice(MAX_SECTION_RECEIPTS)) {
    const group = rest.get(r.status);
    if (group === undefined) rest.set(r.status, { count: 1, tokens: r.tokens, first: r.id });
    else {
      group.count++;
      group.tokens += r.tokens;
    }
  }
  for (const [status, group] of rest)
    kept.push({
      id: `more:${status}`,
      why: `${group.count} more piece(s) ${status.replace('_', ' ')} from ${group.first} on (the record keeps ${MAX_SECTION_RECEIPTS} receipts a section)`,
      tokens: group.tokens,
      status,
    });
  return kept;
}

// ---------------------------------------------------------------------------------------------- helpers

/**
 * How far a history window's start moves at a time: half the window (at least one message). Both
 * `recentMessages` and `fitMessages` move in these steps, so between two steps the history a prompt shows is
 * the previous turn's plus the new messages (an append-only prefix a provider's cache keeps).
 */
export function historyStep(count: number): number {
  return Math.max(1, Math.floor(count / 2));
}

/**
 * At most the last `count` messages, oldest first. The window's start moves in steps of `historyStep(count)`
 * rather than one turn at a time, so from one turn to the next the history is usually the same messages
 * plus the new ones: an append-only prefix a provider's prompt cache keeps (the window holds more than
 * half of `count` messages whenever the story has that many).
 */
export function recentMessages(messages: readonly StoryMessage[], count: number): StoryMessage[] {
  if (count <= 0) return [];
  const over = messages.length - count;
  if (over <= 0) return messages.slice();
  const step = historyStep(count);
  return messages.slice(Math.ceil(over / step) * step);
}

/**
 * A cache-friendly call: the stable system prompt first, then the append-only history (its last message
 * marked as a cache breakpoint), then one final user message carrying the volatile context and `text`.
 * Providers cache by prefix, so everything before the final message is reused from the previous turn.
 */
export function cacheFriendly(
  prompt: Pick<AssembledPrompt, 'stableSystem' | 'context'>,
  history: readonly ChatMessage[],
  text: string,
): { system: string; messages: ChatMessage[] } {
  const messages: ChatMessage[] = history.map((m, i) =>
    i === history.length - 1 && m.role !== 'tool' ? { ...m, cacheBreakpoint: true } : m,
  );
  const content = prompt.context === '' ? text : `${prompt.context}\n\n--- THE PLAYER NOW ---\n${text}`;
  messages.push({ role: 'user', content });
  return { system: prompt.stableSystem, messages };
}

/**
 * The newest whole messages that fit `maxTokens`, oldest first. The start moves in steps of `step` messages
 * counted from the first of `messages` (a `recentMessages` window, whose own start moves in the same steps),
 * so when long messages overflow the cap the history loses a block of old messages now and then instead of
 * one message every turn, which would change the prompt from its history on and defeat prefix caching.
 * When the newest step alone does not fit, the newest messages that fit.
 */
export function fitMessages(messages: readonly StoryMessage[], maxTokens: number, step = 1): StoryMessage[] {
  let start = messages.length;
  let used = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const tokens = estimateTokens(messages[i]!.content) + 1;
    if (used + tokens > maxTokens) break;
    used += tokens;
    start = i;
  }
  const by = Math.max(1, step);
  const aligned = Math.ceil(start / by) * by;
  return messages.slice(aligned < messages.length ? aligned : start);
}

function messageLine(m: StoryMessage): string {
  return `${m.role === 'user' ? 'Player' : 'Narrator'}: ${m.content}`;
}

export function messagesText(messages: readonly StoryMessage[]): string {
  return messages.map(messageLine).join('\n');
}

/** 2nd, 3rd, 11th, 21st. */
function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** The receipts of a history section: each message, newest last, there for its recency. */
export function historyItems(
  messages: readonly StoryMessage[],
  older?: { readonly count: number; readonly tokens: number; readonly why: string },
): SectionItem[] {
  const n = messages.length;
  const items: SectionItem[] = messages.map((m, i) => {
    const text = messageLine(m);
    const back = n - i;
    return {
      id: `message:-${back}`,
      why: `recency: the ${back === 1 ? 'newest' : `${ordinal(back)} newest`} story message (${m.role === 'user' ? 'the player' : 'the Narrator'})`,
      text,
      tokens: estimateTokens(text),
    };
  });
  // What the window left out comes first: it is older than everything shown.
  if (older !== undefined && older.count > 0)
    items.unshift({ id: 'message:older', why: older.why, tokens: older.tokens, status: 'over_budget' });
  return items;
}

/**
 * The story messages older than the history a prompt shows (`shown`, the newest of `story`): how many and
 * what they would cost, with why they were left out.
 */
export function olderMessages(
  story: readonly StoryMessage[],
  shown: readonly StoryMessage[],
  limit: string,
): { count: number; tokens: number; why: string } {
  const count = Math.max(0, story.length - shown.length);
  let tokens = 0;
  for (let i = 0; i < count; i++) tokens += estimateTokens(messageLine(story[i]!));
  return {
    count,
    tokens,
    why: `${count} older story message(s) left out: the history keeps the newest ${limit}`,
  };
}

export function toChatMessages(messages: readonly StoryMessage[]): ChatMessage[] {
  return messages.map((m) => ({ role: m.role, content: m.content }));
}

export function personaText(persona: TurnPersona | undefined): string {
  if (persona === undefined) return '';
  const pronouns = [persona.pronoun_sub, persona.pronoun_obj, persona.pronoun_poss]
    .filter((p) => p?.trim())
    .join('/');
  const fields: [string, string | undefined][] = [
    ['Name', persona.name],
    ['Pronouns', pronouns],
    ['Appearance', persona.appearance],
    ['Background', persona.background],
    ['Personality', persona.personality],
  ];
  const lines = fields
    .filter(([, v]) => v !== undefined && v.trim() !== '')
    .map(([k, v]) => `- ${k}: ${v!.trim()}`);
  return lines.length === 0
    ? ''
    : `--- PLAYER CHARACTER (background only; never act for them) ---\n${lines.join('\n')}`;
}

/** The player character's section, the same in the Director's and the Narrator's prompts. */
export function personaSection(persona: TurnPersona | undefined): PromptSection {
  return {
    id: 'persona',
    kind: 'static',
    text: personaText(persona),
    required: false,
    maxTokens: 500,
    why: 'the player character',
  };
}

export function json(value: unknown): string {
  return JSON.stringify(value);
}

/** A header line and a body, or '' when the body is empty (so the section reports as empty). */
export function block(header: string, body: string): string {
  const text = body.trim();
  return text === '' ? '' : `--- ${header} ---\n${text}`;
}
