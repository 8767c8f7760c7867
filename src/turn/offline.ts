// Offline play (no model configured). The Director is replaced by a deterministic matcher: a slash
// command (`/travel destination="brine market"`, `/cast_spell flare`) names an event directly; otherwise
// the player's words are scored against each public event's `intents:` phrases, name and description.
// The Narrator is replaced by a renderer of the turn's notes (without `[SYSTEM LOG: …]` wrappers) and the
// scene. Same words, same state ⇒ same choice.

import type { EventDef, InputSpec } from '../yare/program.ts';
import { publicState } from '../yare/schema.ts';
import { publicEvents } from '../yare/tools.ts';
import type { CompiledRules } from '../yare/program.ts';
import { toStateValue } from '../yare/python.ts';
import type { Dict } from '../yare/values.ts';
import { ADVANCE_GAME_TIME, type DirectorToolSet, ENGINE_TOOL_NAMES } from './tools.ts';

export type OfflineChoice =
  /** Run this tool (a rule event or `advance_game_time`) with these arguments. */
  | {
      readonly kind: 'call';
      readonly name: string;
      readonly args: Record<string, unknown>;
      readonly how: 'command' | 'match';
    }
  /** Nothing to run; tell the player this. */
  | { readonly kind: 'reply'; readonly text: string };

/** Score an event must reach to be chosen from free text (one intent phrase, or a word of its name). */
export const MIN_MATCH_SCORE = 3;
const PHRASE_BONUS = 10;
const NAME_WORD_SCORE = 3;
const INTENT_WORD_SCORE = 1;
const DESCRIPTION_WORD_SCORE = 1;
const MAX_WORD_SCORE = 3;

const STOP_WORDS = new Set(
  (
    'a an and are as at be but by do for from has have i if in into is it its me my no not of on or our so ' +
    'that the their them then there this to up was we what when where which who will with you your player event ' +
    'trigger some can let lets want try'
  ).split(' '),
);

export function normalize(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

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

export function scoreEvent(event: EventDef, text: string): number {
  const padded = ` ${normalize(text)} `;
  const saidList = contentWords(text);
  const said = new Set(saidList);
  let phrase = 0;
  for (const intent of event.intents) {
    const p = normalize(intent);
    if (p !== '' && padded.includes(` ${p} `)) phrase = Math.max(phrase, PHRASE_BONUS + p.split(' ').length);
  }
  const nameWords = event.name.split('_').filter((w) => w.length > 1 && !STOP_WORDS.has(w));
  const intentWords = [...new Set(event.intents.flatMap(contentWords))];
  const descriptionWords = contentWords(event.description).filter((w) => w.length >= 4);
  return (
    phrase +
    NAME_WORD_SCORE * countMatches(nameWords, said, saidList) +
    Math.min(MAX_WORD_SCORE, INTENT_WORD_SCORE * countMatches(intentWords, said, saidList)) +
    Math.min(MAX_WORD_SCORE, DESCRIPTION_WORD_SCORE * countMatches(descriptionWords, said, saidList))
  );
}

/** The best-scoring public event for free text, or undefined below MIN_MATCH_SCORE (ties: first declared). */
export function matchEvent(rules: CompiledRules, text: string): EventDef | undefined {
  let best: EventDef | undefined;
  let bestScore = MIN_MATCH_SCORE - 1;
  for (const event of publicEvents(rules)) {
    if (ENGINE_TOOL_NAMES.has(event.name)) continue;
    const score = scoreEvent(event, text);
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

/** Inputs for a matched event: enum values named in the text, else defaults. */
function inputsFromText(
  event: EventDef,
  text: string,
): { args: Record<string, unknown> } | { missing: InputSpec } {
  const args: Record<string, unknown> = Object.create(null);
  for (const spec of event.inputs.values()) {
    const options = (spec.enum ?? [])
      .map((v) => toStateValue(v))
      .filter((v): v is string => typeof v === 'string');
    const named = namedOption(options, text);
    if (named !== undefined) args[spec.name] = named;
    else if (!spec.hasDefault && spec.type !== undefined) return { missing: spec };
  }
  return { args };
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
  if (name === 'help') return { kind: 'reply', text: helpText(rules, tools) };
  const target = name === 'wait' ? ADVANCE_GAME_TIME : name;
  const tool = tools.byName.get(target);
  if (tool === undefined || (tool.kind !== 'event' && tool.kind !== 'advance_game_time')) {
    return { kind: 'reply', text: `There is no command /${name}. Type /help for the list.` };
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

export function chooseOffline(rules: CompiledRules, tools: DirectorToolSet, text: string): OfflineChoice {
  const command = COMMAND.exec(text.trim());
  if (command) return parseCommand(rules, tools, command[1]!, command[2] ?? '');
  const event = matchEvent(rules, text);
  if (event === undefined) {
    return { kind: 'reply', text: 'Nothing in the rules matches that. Type /help for the commands.' };
  }
  const inputs = inputsFromText(event, text);
  if ('missing' in inputs) {
    const spec = inputs.missing;
    const options = spec.enum ? ` (one of: ${spec.enum.map((v) => String(toStateValue(v))).join(', ')})` : '';
    return {
      kind: 'reply',
      text: `That sounds like ${event.name}, which needs ${spec.name}${options}. Try /${event.name} ${spec.name}=…`,
    };
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

// -------------------------------------------------------------------------------------------- narration

export const OFFLINE_LABEL = '[offline: no model is configured; this is the rules engine speaking]';
const SYSTEM_LOG = /^\s*\[SYSTEM LOG:\s*([\s\S]*?)\]\s*$/;
/** Scene fields shown under an offline narration. */
export const MAX_SCENE_FIELDS = 12;

/**
 * Sentences that instruct the Narrator ("Describe the arrival.") rather than state what happened; authors
 * write notes as stage directions (the seed's combat-mechanics notes), which a player should not read.
 */
const STAGE_DIRECTION =
  /^(describe|narrate|convey|depict|render|show|hint|mention|emphasi[sz]e|let the player)\b/i;

/** A note as a player may read it: without its `[SYSTEM LOG: …]` wrapper and without stage directions. */
export function stripNote(note: string): string {
  const m = SYSTEM_LOG.exec(note);
  const text = (m ? m[1]! : note).trim();
  const sentences = text.split(/(?<=[.!?])\s+/);
  const facts = sentences.filter((sentence) => !STAGE_DIRECTION.test(sentence));
  // A note that is only a direction is kept whole: it is all the offline player would learn.
  return facts.length === 0 || facts.length === sentences.length ? text : facts.join(' ');
}

function flatten(value: unknown, path: string, out: string[]): void {
  if (out.length >= MAX_SCENE_FIELDS) return;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const key of Object.keys(value)) flatten((value as Dict)[key], path ? `${path}.${key}` : key, out);
  } else if (Array.isArray(value)) {
    out.push(
      `${path}: ${value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ') || '(none)'}`,
    );
  } else {
    out.push(`${path}: ${String(value)}`);
  }
}

/** The scene as public state, one `path: value` per line (at most MAX_SCENE_FIELDS). */
export function renderScene(rules: CompiledRules, state: Dict): string {
  const lines: string[] = [];
  flatten(publicState(state, rules.schema), '', lines);
  return lines.length === 0 ? '' : `Scene:\n${lines.map((l) => `  ${l}`).join('\n')}`;
}

export function renderOffline(
  rules: CompiledRules,
  state: Dict,
  notes: readonly string[],
  reply: string | undefined,
): string {
  const body = [reply ?? '', ...notes.map(stripNote)].filter((l) => l !== '').join('\n');
  return [OFFLINE_LABEL, body === '' ? 'Nothing happens.' : body, renderScene(rules, state)]
    .filter((p) => p !== '')
    .join('\n\n');
}
