// The narration fidelity check: after the Narrator writes, what the prose states as fact is compared with
// the turn's facts, deterministically (no model), so narration cannot contradict the rules:
// - a number next to the name of a public number field (`12 gold`, `hp drops to 5`, `5 hit points`) must be
//   the field's value before or after the turn, the change, or a number of the engine notes;
// - a number next to `damage` must be one of the turn's changes or notes; one next to a roll (`rolled a 17`)
//   one of the turn's dice; a roll narrated on a turn without dice contradicts it;
// - a number of minutes or hours, on a turn whose clock moved, must be the time advanced (or in the notes);
// - an item of a public list field (an inventory) said gained by the player ("you pick up the lamp oil") must
//   be in it after the turn; one said lost must be gone from it;
// - someone whose public hit points are above zero after the turn cannot be said to die.
// Facts come from public state only, as the Narrator sees it. The check is linear in the narration (one
// tokenising pass, then a bounded look around each number and each verb) and is measured by
// bench/fidelity.ts. What to do about a finding (one repair round, else the engine's correction) is
// run-turn.ts's; the correction itself is here (`correctNarration`).

import {
  type CompiledRules,
  PyFloat,
  publicState,
  type RollRecord,
  type StateChange,
} from '../../core/yare/index.ts';
import type { Contradiction } from './types.ts';
import { isRecord } from '../../core/is-record.ts';

/** Most contradictions reported for one narration (the rest are still corrected). */
export const MAX_FIDELITY_FINDINGS = 20;
/** Longest sentence kept in a finding. */
export const MAX_FIDELITY_SENTENCE_CHARS = 300;

export interface FidelityFacts {
  readonly rules: Pick<CompiledRules, 'schema'>;
  readonly stateBefore: unknown;
  readonly stateAfter: unknown;
  readonly delta: readonly StateChange[];
  readonly rolls: readonly RollRecord[];
  readonly notes: readonly string[];
  readonly advancedSeconds: number;
}

interface NumberField {
  /** The field's name as words (`max_hp` → `max hp`). */
  readonly words: readonly string[];
  readonly path: string;
  readonly before: number | undefined;
  readonly after: number | undefined;
}

interface Creature {
  readonly name: string;
  readonly hp: number;
}

/** What the check compares with, computed once per turn. */
interface Truth {
  readonly fields: readonly NumberField[];
  readonly changes: ReadonlySet<number>;
  readonly noteNumbers: ReadonlySet<number>;
  readonly rolls: ReadonlySet<number>;
  readonly rolled: boolean;
  readonly minutes: number;
  readonly listBefore: ReadonlySet<string>;
  readonly listAfter: ReadonlySet<string>;
  readonly creatures: readonly Creature[];
}

function numeric(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (value instanceof PyFloat) return value.value;
  return undefined;
}

/** A JSON object of the state (a PyFloat is an object too, but a number of the rules). */
function isStateObject(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && !(value instanceof PyFloat);
}

const HP_KEYS = ['hp', 'health', 'hit_points'];
/** Field names a player reads as another spelling of the same thing. */
const SYNONYMS: Readonly<Record<string, readonly string[][]>> = {
  hp: [['hit', 'points'], ['health']],
};

/** Public number fields, list items and creatures, by walking public state (depth-bounded by the schema). */
function collect(
  state: unknown,
  out: { numbers: Map<string, number>; items: Set<string>; creatures: Creature[] },
  path: string,
  depth: number,
): void {
  if (depth > 8 || !isStateObject(state)) return;
  for (const key of Object.keys(state)) {
    const value = state[key];
    const here = path === '' ? key : `${path}.${key}`;
    const n = numeric(value);
    if (n !== undefined) out.numbers.set(here, n);
    else if (Array.isArray(value)) {
      for (const item of value.slice(0, 200))
        if (typeof item === 'string' && item.trim() !== '') out.items.add(item.toLowerCase());
    } else if (isStateObject(value)) {
      const name = typeof value.name === 'string' ? value.name : undefined;
      const hpKey = HP_KEYS.find((k) => numeric(value[k]) !== undefined);
      if (name !== undefined && name.trim() !== '' && hpKey !== undefined)
        out.creatures.push({ name: name.toLowerCase(), hp: numeric(value[hpKey])! });
      collect(value, out, here, depth + 1);
    }
  }
}

function numbersIn(text: string): number[] {
  return (text.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
}

function truthOf(facts: FidelityFacts): Truth {
  const before = {
    numbers: new Map<string, number>(),
    items: new Set<string>(),
    creatures: [] as Creature[],
  };
  const after = { numbers: new Map<string, number>(), items: new Set<string>(), creatures: [] as Creature[] };
  collect(publicState(facts.stateBefore, facts.rules.schema), before, '', 0);
  collect(publicState(facts.stateAfter, facts.rules.schema), after, '', 0);
  const fields: NumberField[] = [];
  for (const path of new Set([...before.numbers.keys(), ...after.numbers.keys()])) {
    const leaf = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
    const b = before.numbers.get(path);
    const a = after.numbers.get(path);
    fields.push({ words: leaf.split('_').filter((w) => w !== ''), path, before: b, after: a });
    for (const synonym of SYNONYMS[leaf] ?? []) fields.push({ words: synonym, path, before: b, after: a });
  }
  const changes = new Set<number>();
  for (const change of facts.delta) {
    if (change.op !== 'set') continue;
    const b = numeric(change.before);
    const a = numeric(change.after);
    if (a !== undefined) changes.add(Math.abs(a - (b ?? 0)));
  }
  const rolls = new Set<number>();
  for (const roll of facts.rolls) {
    rolls.add(roll.total);
    for (const face of roll.faces) rolls.add(face);
  }
  return {
    fields,
    changes,
    noteNumbers: new Set(facts.notes.flatMap(numbersIn)),
    rolls,
    rolled: facts.rolls.length > 0,
    minutes: facts.advancedSeconds / 60,
    listBefore: before.items,
    listAfter: after.items,
    creatures: after.creatures,
  };
}

// ------------------------------------------------------------------------------------------ tokens

interface Token {
  readonly word: string;
  readonly start: number;
  readonly end: number;
  readonly number: number | undefined;
}

interface Sentence {
  readonly start: number;
  readonly end: number;
  readonly tokens: readonly Token[];
}

function isWordChar(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x61 && c <= 0x7a) ||
    c === 0x27 ||
    c >= 0xc0
  );
}

/** Sentences and their words, in one pass. A sentence ends at `.`, `!`, `?` or a line break. */
function sentencesOf(text: string): Sentence[] {
  const sentences: Sentence[] = [];
  let tokens: Token[] = [];
  let sentenceStart = 0;
  let i = 0;
  const close = (end: number) => {
    if (tokens.length > 0) sentences.push({ start: sentenceStart, end, tokens });
    tokens = [];
    sentenceStart = end;
  };
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isWordChar(c)) {
      const start = i;
      while (
        i < text.length &&
        (isWordChar(text.charCodeAt(i)) ||
          (text[i] === '.' && /\d/.test(text[i - 1] ?? '') && /\d/.test(text[i + 1] ?? '')))
      )
        i += 1;
      const word = text.slice(start, i).toLowerCase();
      const number = /^\d+(\.\d+)?$/.test(word) ? Number(word) : undefined;
      tokens.push({ word, start, end: i, number });
      continue;
    }
    i += 1;
    if (c === 0x2e || c === 0x21 || c === 0x3f || c === 0x0a) {
      while (i < text.length && /[\s"'”’)]/.test(text[i]!) && text[i] !== '\n') i += 1;
      close(i);
    }
  }
  close(text.length);
  return sentences;
}

function wordsAt(tokens: readonly Token[], at: number, words: readonly string[]): boolean {
  if (at < 0 || at + words.length > tokens.length) return false;
  for (let k = 0; k < words.length; k++) {
    const token = tokens[at + k]!.word;
    const want = words[k]!;
    if (token !== want && !(k === words.length - 1 && (token === `${want}s` || token === `${want}es`)))
      return false;
  }
  return true;
}

const ROLL_WORDS = new Set(['roll', 'rolls', 'rolled', 'rolling']);
const DAMAGE_WORDS = new Set(['damage']);
const TIME_WORDS = new Map([
  ['minute', 1],
  ['minutes', 1],
  ['hour', 60],
  ['hours', 60],
]);
const GAIN_VERBS = new Set([
  'gain',
  'gains',
  'gained',
  'receive',
  'received',
  'obtain',
  'obtained',
  'find',
  'found',
  'pick',
  'picked',
  'take',
  'took',
  'get',
  'got',
  'buy',
  'bought',
  'earn',
  'earned',
  'pocket',
  'pocketed',
]);
const LOSS_VERBS = new Set(['lose', 'lost', 'drop', 'dropped', 'sell', 'sold', 'spend', 'spent']);
const CHANGE_WORDS = new Set([
  ...GAIN_VERBS,
  ...LOSS_VERBS,
  'pay',
  'paid',
  'deal',
  'deals',
  'dealt',
  'heal',
  'heals',
  'healed',
  'restore',
  'restores',
  'more',
  'fewer',
  'less',
  'loses',
  'gains',
  'takes',
]);
const DEATH_WORDS = new Set(['dies', 'died', 'dead', 'slain', 'killed', 'perishes', 'perished', 'lifeless']);

// ------------------------------------------------------------------------------------------ check

/** A finding with where its sentence is and what would correct it (replace the number, or drop the sentence). */
interface Finding {
  readonly contradiction: Contradiction;
  readonly sentence: Sentence;
  /** Replace the token at `token` with `value`; undefined: remove the sentence. */
  readonly fix?: { readonly token: Token; readonly value: number };
}

function cut(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > MAX_FIDELITY_SENTENCE_CHARS
    ? `${trimmed.slice(0, MAX_FIDELITY_SENTENCE_CHARS)}…`
    : trimmed;
}

function show(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100);
}

function findingsOf(narration: string, truth: Truth): Finding[] {
  const findings: Finding[] = [];
  for (const sentence of sentencesOf(narration)) {
    const text = cut(narration.slice(sentence.start, sentence.end));
    const tokens = sentence.tokens;
    const isChange = tokens.some((t) => CHANGE_WORDS.has(t.word));
    for (const [i, token] of tokens.entries()) {
      if (token.number !== undefined) {
        const finding = numberFinding(tokens, i, token.number, truth, isChange, text);
        if (finding !== undefined) findings.push({ ...finding, sentence });
      } else if (
        ROLL_WORDS.has(token.word) &&
        !truth.rolled &&
        tokens.slice(Math.max(0, i - 3), i + 4).some((t) => t.number !== undefined)
      ) {
        findings.push({
          contradiction: {
            kind: 'number',
            sentence: text,
            said: `a roll (${token.word})`,
            fact: 'no dice were rolled this turn',
          },
          sentence,
        });
      }
    }
    findings.push(...itemFindings(tokens, truth, text).map((contradiction) => ({ contradiction, sentence })));
    for (const creature of truth.creatures) {
      if (creature.hp <= 0 || !tokens.some((t) => DEATH_WORDS.has(t.word))) continue;
      if (!containsWords(tokens, creature.name.split(/\s+/))) continue;
      findings.push({
        contradiction: {
          kind: 'death',
          sentence: text,
          said: `${creature.name} dies`,
          fact: `${creature.name} has ${show(creature.hp)} hit points left`,
        },
        sentence,
      });
    }
  }
  return findings;
}

function containsWords(tokens: readonly Token[], words: readonly string[]): boolean {
  for (let i = 0; i + words.length <= tokens.length; i++) if (wordsAt(tokens, i, words)) return true;
  return false;
}

function numberFinding(
  tokens: readonly Token[],
  i: number,
  said: number,
  truth: Truth,
  isChange: boolean,
  text: string,
): Omit<Finding, 'sentence'> | undefined {
  if (truth.noteNumbers.has(said)) return undefined;
  const named = truth.fields.filter((field) => namedNear(tokens, i, field));
  if (named.length > 0) return fieldNumberFinding(named, tokens[i]!, said, isChange, text);
  return unnamedNumberFinding(tokens, i, said, truth, text);
}

/**
 * Whether the field is named right after the number at `i` (one word between allowed: "12 more gold"), or
 * else just before it (up to three words between: "gold: 12", "hp drops to 5").
 */
function namedNear(tokens: readonly Token[], i: number, field: NumberField): boolean {
  return (
    wordsAt(tokens, i + 1, field.words) ||
    wordsAt(tokens, i + 2, field.words) ||
    [1, 2, 3, 4].some((back) => wordsAt(tokens, i - back - field.words.length + 1, field.words))
  );
}

/** A number beside fields: it must be one's value before or after the turn, or its change. */
function fieldNumberFinding(
  named: readonly NumberField[],
  token: Token,
  said: number,
  isChange: boolean,
  text: string,
): Omit<Finding, 'sentence'> | undefined {
  const allowed = new Set<number>();
  for (const f of named) {
    if (f.before !== undefined) allowed.add(f.before);
    if (f.after !== undefined) allowed.add(f.after);
    if (f.before !== undefined && f.after !== undefined) allowed.add(Math.abs(f.after - f.before));
  }
  if (allowed.has(said)) return undefined;
  const field = named[0]!;
  const paths = new Set(named.map((f) => f.path));
  const fact =
    field.before === field.after
      ? `${field.path} is ${show(field.after ?? 0)}`
      : `${field.path} is ${show(field.after ?? 0)} (was ${show(field.before ?? 0)})`;
  const change =
    field.before !== undefined && field.after !== undefined ? Math.abs(field.after - field.before) : 0;
  const value = isChange && change !== 0 ? change : field.after;
  return {
    contradiction: { kind: 'number', sentence: text, said: `${token.word} ${field.words.join(' ')}`, fact },
    ...(paths.size === 1 && value !== undefined ? { fix: { token, value } } : {}),
  };
}

/** A number beside no field: checked as damage, a roll or a time span when words near it say it is one. */
function unnamedNumberFinding(
  tokens: readonly Token[],
  i: number,
  said: number,
  truth: Truth,
  text: string,
): Omit<Finding, 'sentence'> | undefined {
  const token = tokens[i]!;
  const window = tokens.slice(Math.max(0, i - 3), i + 3);
  const contradiction = (saidText: string, fact: string): Omit<Finding, 'sentence'> => ({
    contradiction: { kind: 'number', sentence: text, said: saidText, fact },
  });
  if (window.some((t) => DAMAGE_WORDS.has(t.word))) {
    if (truth.changes.has(said)) return undefined;
    const options = [...truth.changes].map(show).join(', ') || 'none';
    return contradiction(`${token.word} damage`, `the changes this turn were: ${options}`);
  }
  if (window.some((t) => ROLL_WORDS.has(t.word)) && truth.rolled) {
    if (truth.rolls.has(said)) return undefined;
    return contradiction(
      `a roll of ${token.word}`,
      `the dice this turn showed ${[...truth.rolls].map(show).join(', ')}`,
    );
  }
  const unit = TIME_WORDS.get(tokens[i + 1]?.word ?? '');
  if (unit !== undefined && truth.minutes > 0 && said * unit !== truth.minutes)
    return contradiction(
      `${token.word} ${tokens[i + 1]!.word}`,
      `${show(truth.minutes)} minutes passed this turn`,
    );
  return undefined;
}

function itemFindings(tokens: readonly Token[], truth: Truth, text: string): Contradiction[] {
  const out: Contradiction[] = [];
  const items = new Set([...truth.listBefore, ...truth.listAfter]);
  if (items.size === 0) return out;
  for (const [i, token] of tokens.entries()) {
    const gain = GAIN_VERBS.has(token.word);
    const loss = LOSS_VERBS.has(token.word);
    if (!gain && !loss) continue;
    // The player's own act: "you" within the three words before the verb.
    if (!tokens.slice(Math.max(0, i - 3), i).some((t) => t.word === 'you')) continue;
    const rest = tokens.slice(i + 1, i + 8);
    for (const item of items) {
      if (!containsWords(rest, item.split(/\s+/))) continue;
      if (gain && !truth.listAfter.has(item))
        out.push({
          kind: 'item',
          sentence: text,
          said: `the player gains ${item}`,
          fact: `${item} is not among the player's things after the turn`,
        });
      if (loss && truth.listAfter.has(item) && truth.listBefore.has(item))
        out.push({
          kind: 'item',
          sentence: text,
          said: `the player loses ${item}`,
          fact: `${item} is still among the player's things`,
        });
    }
  }
  return out;
}

export interface FidelityCheck {
  readonly found: readonly Contradiction[];
  /** The narration corrected by the engine: numbers replaced where one field is meant, other sentences dropped. */
  readonly corrected: string;
  /** Sentences changed by the correction. */
  readonly changedSentences: number;
}

/** The contradictions of `narration` with the turn's facts, and the engine's correction of them. */
export function checkNarration(narration: string, facts: FidelityFacts): FidelityCheck {
  const findings = findingsOf(narration, truthOf(facts));
  if (findings.length === 0) return { found: [], corrected: narration, changedSentences: 0 };
  return {
    found: findings.slice(0, MAX_FIDELITY_FINDINGS).map((f) => f.contradiction),
    ...correct(narration, findings),
  };
}

function correct(
  narration: string,
  findings: readonly Finding[],
): { corrected: string; changedSentences: number } {
  const bySentence = new Map<Sentence, Finding[]>();
  for (const f of findings) bySentence.set(f.sentence, [...(bySentence.get(f.sentence) ?? []), f]);
  let out = '';
  let at = 0;
  for (const [sentence, list] of [...bySentence].sort((a, b) => a[0].start - b[0].start)) {
    out += narration.slice(at, sentence.start);
    if (list.every((f) => f.fix !== undefined)) {
      let text = '';
      let from = sentence.start;
      for (const f of [...list].sort((a, b) => a.fix!.token.start - b.fix!.token.start)) {
        text += narration.slice(from, f.fix!.token.start) + show(f.fix!.value);
        from = f.fix!.token.end;
      }
      out += text + narration.slice(from, sentence.end);
    }
    at = sentence.end;
  }
  out += narration.slice(at);
  return { corrected: out.replace(/[ \t]{2,}/g, ' ').trim(), changedSentences: bySentence.size };
}

/** The correction a repair round asks the Narrator for, one line per finding. */
export function repairRequest(found: readonly Contradiction[]): string {
  const lines = found.map((c) => `- "${c.sentence}" says ${c.said}, but ${c.fact}.`);
  return `[engine] Your narration contradicts what happened this turn:\n${lines.join('\n')}\nWrite the narration again: the same scene and style, with these facts right. Only the prose.`;
}
