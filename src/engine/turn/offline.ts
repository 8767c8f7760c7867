// Offline play (no model configured). The Director is replaced by a deterministic matcher: a slash
// command (`/travel destination="brine market"`, `/cast_spell flare`) names an event directly; otherwise
// the player's words are scored against each public event's `intents:` phrases (and the phrases of the
// cartridge's `intents.yaml`), name, description and input values. A matched event gets its inputs from
// the words, from the phrase said (`intents.yaml`), or from defaults; when one is still missing the player
// is asked one question. Words that match nothing get the list of what can be done here. A question, the
// list and /help spend no turn. The Narrator is replaced by offline-narration.ts. Same words, same state ⇒
// same choice.

import { type ImpliedIntent, type IntentInputs, phraseKey as normalize } from '../../core/cartridge/index.ts';
import {
  type CompiledRules,
  type Dict,
  type EventDef,
  type InputSpec,
  publicEvents,
  toStateValue,
} from '../../core/yare/index.ts';
import { type AvailableAction, availableActions } from './offline-actions.ts';
import { ADVANCE_GAME_TIME, type DirectorToolSet, ENGINE_TOOL_NAMES } from './tools.ts';

export type OfflineChoice =
  /** Run this tool (a rule event or `advance_game_time`) with these arguments. */
  | {
      readonly kind: 'call';
      readonly name: string;
      readonly args: Record<string, unknown>;
      readonly how: 'command' | 'match';
    }
  /**
   * Nothing to run; tell the player this and spend no turn: the command list (`help`), one question about a
   * missing input (`question`), what can be done here (`unmatched`), or an unknown command (`unknown`).
   */
  | { readonly kind: 'reply'; readonly reason: OfflineReplyReason; readonly text: string };

export type OfflineReplyReason = 'help' | 'question' | 'unmatched' | 'unknown';

/** What the matcher knows beyond the rules: the state (for what can be done here) and `intents.yaml`. */
export interface OfflineContext {
  readonly state?: Dict;
  readonly intentInputs?: IntentInputs;
}

/** Score an event must reach to be chosen from free text (one intent phrase, or a word of its name). */
export const MIN_MATCH_SCORE = 3;
const PHRASE_BONUS = 10;
const NAME_WORD_SCORE = 3;
const INTENT_WORD_SCORE = 1;
const DESCRIPTION_WORD_SCORE = 1;
const MAX_WORD_SCORE = 3;
/** An input value named in full ("reedmaze") counts like a word of the event's name. */
const OPTION_SCORE = 3;

const STOP_WORDS = new Set(
  (
    'a an and are as at be but by do for from has have i if in into is it its me my no not of on or our so ' +
    'that the their them then there this to up was we what when where which who will with you your player event ' +
    'trigger some can let lets want try'
  ).split(' '),
);

function contentWords(text: string): string[] {
  return normalize(text)
    .split(' ')
    .filter((w) => w.length > 1 && !STOP_WORDS.has(w));
}

// "attacks" and "attacking" match "attack": words of 4+ letters match on a shared 4-letter-plus prefix.
function wordMatches(word: string, said: ReadonlySet<string>, saidList: readonly string[]): boolean {
  if (said.has(word)) return true;
  if (word.length < 4) return false;
  return saidList.some((s) => s.length >= 4 && (s.startsWith(word) || word.startsWith(s)));
}

function countMatches(
  words: readonly string[],
  said: ReadonlySet<string>,
  saidList: readonly string[],
): number {
  return new Set(words.filter((w) => wordMatches(w, said, saidList))).size;
}

/** The absent `intents.yaml` entry: one array, so the per-event cache below has one key for it. */
const NO_IMPLIED: readonly ImpliedIntent[] = [];

function impliedOf(context: OfflineContext | undefined, event: string): readonly ImpliedIntent[] {
  const all = context?.intentInputs;
  return all !== undefined && Object.hasOwn(all, event) ? (all[event] ?? NO_IMPLIED) : NO_IMPLIED;
}

function enumOptions(spec: InputSpec): string[] {
  return (spec.enum ?? []).map((v) => toStateValue(v)).filter((v): v is string => typeof v === 'string');
}

/** What an event is matched on, normalised: the same for every turn, so worked out once per event. */
interface EventWords {
  /** Its intent phrases (and `intents.yaml`'s), normalised, empty ones left out. */
  readonly phrases: readonly string[];
  readonly nameWords: readonly string[];
  readonly intentWords: readonly string[];
  readonly descriptionWords: readonly string[];
  /** Its inputs' enum options, normalised, empty ones left out. */
  readonly options: readonly string[];
}

const wordsOfEvents = new WeakMap<EventDef, WeakMap<readonly ImpliedIntent[], EventWords>>();

function eventWords(event: EventDef, implied: readonly ImpliedIntent[]): EventWords {
  let byImplied = wordsOfEvents.get(event);
  if (byImplied === undefined) {
    byImplied = new WeakMap();
    wordsOfEvents.set(event, byImplied);
  }
  let words = byImplied.get(implied);
  if (words === undefined) {
    const phrases = [...event.intents, ...implied.map((i) => i.phrase)];
    words = {
      phrases: phrases.map(normalize).filter((p) => p !== ''),
      nameWords: event.name.split('_').filter((w) => w.length > 1 && !STOP_WORDS.has(w)),
      intentWords: [...new Set(phrases.flatMap(contentWords))],
      descriptionWords: contentWords(event.description).filter((w) => w.length >= 4),
      options: event.inputList.flatMap((spec) => enumOptions(spec).map(normalize)).filter((o) => o !== ''),
    };
    byImplied.set(implied, words);
  }
  return words;
}

/** The player's words, normalised once for every event scored against them. */
interface SaidText {
  readonly padded: string;
  readonly said: ReadonlySet<string>;
  readonly saidList: readonly string[];
}

function saidText(text: string): SaidText {
  const saidList = contentWords(text);
  return { padded: ` ${normalize(text)} `, said: new Set(saidList), saidList };
}

export function scoreEvent(event: EventDef, text: string, context?: OfflineContext): number {
  return scoreSaid(event, saidText(text), context);
}

function scoreSaid(event: EventDef, text: SaidText, context: OfflineContext | undefined): number {
  const { padded, said, saidList } = text;
  const words = eventWords(event, impliedOf(context, event.name));
  let phrase = 0;
  for (const p of words.phrases)
    if (padded.includes(` ${p} `)) phrase = Math.max(phrase, PHRASE_BONUS + p.split(' ').length);
  const option = words.options.some((o) => padded.includes(` ${o} `)) ? OPTION_SCORE : 0;
  return (
    phrase +
    option +
    NAME_WORD_SCORE * countMatches(words.nameWords, said, saidList) +
    Math.min(MAX_WORD_SCORE, INTENT_WORD_SCORE * countMatches(words.intentWords, said, saidList)) +
    Math.min(MAX_WORD_SCORE, DESCRIPTION_WORD_SCORE * countMatches(words.descriptionWords, said, saidList))
  );
}

/** The best-scoring public event for free text, or undefined below MIN_MATCH_SCORE (ties: first declared). */
export function matchEvent(
  rules: CompiledRules,
  text: string,
  context?: OfflineContext,
): EventDef | undefined {
  let best: EventDef | undefined;
  let bestScore = MIN_MATCH_SCORE - 1;
  const said = saidText(text);
  for (const event of publicEvents(rules)) {
    if (ENGINE_TOOL_NAMES.has(event.name)) continue;
    const score = scoreSaid(event, said, context);
    if (score > bestScore) {
      best = event;
      bestScore = score;
    }
  }
  return best;
}

/**
 * The enum option the text names: the longest option written out in full, else the one option sharing
 * the most words with the text ("the market" → "brine market"), when that one is unambiguous.
 */
function namedOption(options: readonly string[], text: string): string | undefined {
  const padded = ` ${normalize(text)} `;
  const full = options
    .filter((o) => padded.includes(` ${normalize(o)} `))
    .sort((a, b) => b.length - a.length)[0];
  if (full !== undefined) return full;
  const said = new Set(contentWords(text));
  const overlap = options.map((o) => contentWords(o).filter((w) => said.has(w)).length);
  const best = Math.max(0, ...overlap);
  return best > 0 && overlap.filter((n) => n === best).length === 1
    ? options[overlap.indexOf(best)]
    : undefined;
}

/** The longest implied phrase said in full, if any. */
function saidPhrase(implied: readonly ImpliedIntent[], text: string): ImpliedIntent | undefined {
  const padded = ` ${normalize(text)} `;
  let best: ImpliedIntent | undefined;
  for (const intent of implied) {
    const p = normalize(intent.phrase);
    if (
      p !== '' &&
      padded.includes(` ${p} `) &&
      (best === undefined || p.length > normalize(best.phrase).length)
    )
      best = intent;
  }
  return best;
}

/**
 * Inputs for a matched event: enum values named in the text, else what the phrase said implies
 * (`intents.yaml`), else defaults.
 */
function inputsFromText(
  event: EventDef,
  text: string,
  context: OfflineContext | undefined,
): { args: Record<string, unknown> } | { missing: InputSpec } {
  const args: Record<string, unknown> = Object.create(null);
  const implied = saidPhrase(impliedOf(context, event.name), text);
  for (const spec of event.inputList) {
    const named = namedOption(enumOptions(spec), text);
    if (named !== undefined) args[spec.name] = named;
    else if (implied !== undefined && Object.hasOwn(implied.inputs, spec.name))
      args[spec.name] = implied.inputs[spec.name];
    else if (!spec.hasDefault && spec.type !== undefined) return { missing: spec };
  }
  return { args };
}

/** "a, b, c or d" */
function orList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** One question about the one missing input, with its values and the command that answers it. */
export function questionFor(event: EventDef, spec: InputSpec): string {
  const options = (spec.enum ?? []).map((v) => String(toStateValue(v)));
  const what = spec.name.replaceAll('_', ' ');
  const ask = options.length > 0 ? `Which ${what}: ${orList(options)}?` : `What ${what}?`;
  const example = options.length > 0 ? `${spec.name}=${options[0]}` : `${spec.name}=…`;
  return `${ask} (Say it with the action, or type /${event.name} ${example}.)`;
}

function describeAction(action: AvailableAction): string {
  const name = action.event.replaceAll('_', ' ');
  return action.values.length === 0 ? `- ${name}` : `- ${name}: ${orList(action.values)}`;
}

/** The reply to words that match nothing: what can be done here, when the state is known. */
export function unmatchedReply(rules: CompiledRules, text: string, state: Dict | undefined): string {
  const shown = text.length > 60 ? `${text.slice(0, 57)}…` : text;
  const lines = [`“${shown.trim()}” is not something the rules can do here.`];
  const actions = state === undefined ? [] : availableActions(rules, state);
  if (actions.length > 0) lines.push('What you can do here:', ...actions.map(describeAction));
  lines.push('Say one in your own words, or type /help for every command.');
  return lines.join('\n');
}

const COMMAND = /^\/([A-Za-z_][A-Za-z0-9_]*)(?:\s+([\s\S]*))?$/;
const PAIR = /([A-Za-z_][A-Za-z0-9_]*)=(?:"([^"]*)"|'([^']*)'|(\S+))/g;

/**
 * A typed word as an input's type wants it (`3` → 3 for an int, `true` → true for a bool, JSON for lists,
 * dicts and untyped inputs, else the text). The rules check the value again; this only spares quoting.
 */
export function coerceTypedWord(raw: string, type: string | undefined): unknown {
  switch (type) {
    case 'int':
    case 'float':
      return /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
    case 'bool':
      return raw === 'true' ? true : raw === 'false' ? false : raw;
    case 'list':
    case 'dict':
    case undefined:
      return jsonOrText(raw);
    default:
      return raw;
  }
}

/** The value of a JSON text, or the text itself when it is not JSON. */
export function jsonOrText(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function parseCommand(
  rules: CompiledRules,
  tools: DirectorToolSet,
  name: string,
  rest: string,
): OfflineChoice {
  if (name === 'help') return { kind: 'reply', reason: 'help', text: helpText(rules, tools) };
  const target = name === 'wait' ? ADVANCE_GAME_TIME : name;
  const tool = tools.byName.get(target);
  if (tool === undefined || (tool.kind !== 'event' && tool.kind !== 'advance_game_time')) {
    return {
      kind: 'reply',
      reason: 'unknown',
      text: `There is no command /${name}. Type /help for the list.`,
    };
  }
  const event = tool.kind === 'event' ? rules.events.get(target) : undefined;
  const types = new Map<string, string | undefined>(
    event ? [...event.inputs.values()].map((s) => [s.name, s.type]) : [['duration', 'string']],
  );
  const args: Record<string, unknown> = Object.create(null);
  const pairs = [...rest.matchAll(PAIR)];
  if (pairs.length === 0 && rest.trim() !== '' && types.size === 1) {
    // `/cast_spell flare`, `/wait 15m`: a bare value for the only input.
    const [only] = [...types.entries()];
    args[only![0]] = coerceTypedWord(rest.trim().replace(/^["']|["']$/g, ''), only![1]);
  } else {
    for (const m of pairs) args[m[1]!] = coerceTypedWord(m[2] ?? m[3] ?? m[4] ?? '', types.get(m[1]!));
  }
  return { kind: 'call', name: target, args, how: 'command' };
}

export function chooseOffline(
  rules: CompiledRules,
  tools: DirectorToolSet,
  text: string,
  context?: OfflineContext,
): OfflineChoice {
  const command = COMMAND.exec(text.trim());
  if (command) return parseCommand(rules, tools, command[1]!, command[2] ?? '');
  const event = matchEvent(rules, text, context);
  if (event === undefined) {
    return { kind: 'reply', reason: 'unmatched', text: unmatchedReply(rules, text, context?.state) };
  }
  const inputs = inputsFromText(event, text, context);
  if ('missing' in inputs) {
    return { kind: 'reply', reason: 'question', text: questionFor(event, inputs.missing) };
  }
  return { kind: 'call', name: event.name, args: inputs.args, how: 'match' };
}

export function helpText(rules: CompiledRules, tools: DirectorToolSet): string {
  const lines = ['Commands (offline mode):'];
  for (const tool of tools.byName.values()) {
    if (tool.kind !== 'event') continue;
    const event = rules.events.get(tool.spec.name);
    if (event === undefined) continue;
    const inputs = [...event.inputs.values()]
      .map((s) =>
        s.enum ? `${s.name}=${s.enum.map((v) => String(toStateValue(v))).join('|')}` : `${s.name}=…`,
      )
      .join(' ');
    lines.push(`/${event.name}${inputs ? ` ${inputs}` : ''} — ${event.description}`);
  }
  if (tools.byName.has(ADVANCE_GAME_TIME))
    lines.push('/wait <duration> — let time pass (15m, 2h, 1d, PT30M)');
  lines.push('Or describe what you do; words are matched to the events above.');
  return lines.join('\n');
}
