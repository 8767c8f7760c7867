// The offline narrator: with no model, the story of a turn is told from its notes. Each note is rendered
// through the public view of the state (notes.ts), its `[SYSTEM LOG: …]` wrapper and its
// narrator-only text are removed — `((…))` marked by the author, and unmarked sentences that give the
// Narrator an order ("Describe the arrival.", "Remind the player …", "List them plainly.") — and "the
// player" becomes the persona's name. No banner, no field dump: the interface shows that play is offline,
// and what changed is shown from the turn record beside the prose.

import { type Persona, secondPerson, thirdPerson } from '../../../core/cartridge/index.ts';
import type { CompiledRules, StateChange } from '../../../core/yare/index.ts';
import { clampedChanges, fieldNames, withRecordNumbers } from './numbers.ts';
import { arrivalSentence, nothingHappens } from './variety.ts';
import { publicNoteOf } from './notes.ts';
import { spelledAsLore } from './place.ts';
import { proseList } from './words.ts';

/** Removes text the author marked for the Narrator model only: `((` to the next `))` (no nesting). */
function withoutNarratorOnly(text: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = text.indexOf('((', from);
    const close = open < 0 ? -1 : text.indexOf('))', open + 2);
    if (close < 0) return out + text.slice(from);
    out += `${text.slice(from, open)} `;
    from = close + 2;
  }
}
const WRAPPER_START = /^\s*\[SYSTEM LOG:\s*/i;
const WRAPPER_END = /\s*\]\s*$/;

/**
 * Sentences that instruct the Narrator rather than state what happened; authors write notes as stage
 * directions (the seed's combat-mechanics notes), which a player should not read.
 */
const STAGE_DIRECTION =
  /^(describe|narrate|convey|depict|render|show|hint|mention|emphasi[sz]e|remind|suggest|list|tell|make sure|be sure|keep|focus|let the player|do not|don't|never|always|note that|remember)\b/i;

const SENTENCE = /(?<=[.!?])\s+/;

/** A note as a player may read it: no wrapper, no narrator-only text, no stage directions. */
export function stripNote(note: string): string {
  let text = withoutNarratorOnly(note);
  const wrapped = WRAPPER_START.test(text);
  text = text.replace(WRAPPER_START, '');
  if (wrapped) text = text.replace(WRAPPER_END, '');
  const sentences = text
    .trim()
    .split(SENTENCE)
    .filter((s) => s !== '');
  return sentences
    .filter((sentence) => !STAGE_DIRECTION.test(sentence))
    .join(' ')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

function capitalised(word: string, like: string): string {
  return /^[A-Z]/.test(like) ? word[0]!.toUpperCase() + word.slice(1) : word;
}

const SENTENCES = /(?<=[.!?])\s+/;

/**
 * "the player" as the persona: their name (or "you"), and in the same sentence after it the player's
 * pronouns ("they arrive" → "she arrives", "their pack" → "his pack"). Names the shipped notes use for the
 * player character; "they" before the player is named is someone else's and stays.
 */
function withPersona(text: string, persona: Persona | undefined): string {
  const name = persona?.name.trim();
  if (name === undefined || name === '' || name.toLowerCase() === 'player') return text;
  const second = name.toLowerCase() === 'you';
  const plural = !second && persona!.pronoun_sub.toLowerCase() === 'they';
  return text
    .split(SENTENCES)
    .map((sentence) => {
      if (!/\b[Tt]he player\b/.test(sentence)) return sentence;
      let seen = false;
      const words = sentence.split(/(\s+)/);
      for (let i = 0; i < words.length; i++) {
        const w = words[i]!;
        if (/^[Tt]he$/.test(w) && /^player('s)?\b/.test(words[i + 2] ?? '')) {
          const poss = (words[i + 2] ?? '').startsWith("player's");
          const rest = (words[i + 2] ?? '').slice(poss ? 8 : 6);
          const who = second ? (poss ? 'your' : 'you') : poss ? `${name}'s` : name;
          words[i] = capitalised(who, second ? w : 'X');
          words[i + 1] = '';
          words[i + 2] = rest;
          if (second && !poss && words[i + 4] !== undefined) words[i + 4] = secondPerson(words[i + 4]!);
          seen = true;
          continue;
        }
        if (!seen || plural) continue;
        const bare = w.replace(/[^A-Za-z]/g, '');
        const tail = w.slice(bare.length);
        if (!/^[A-Za-z]+/.test(w)) continue;
        const lower = bare.toLowerCase();
        const map: Record<string, string> = second
          ? {
              they: 'you',
              them: 'you',
              their: 'your',
              theirs: 'yours',
              themselves: 'yourself',
              themself: 'yourself',
            }
          : {
              they: persona!.pronoun_sub,
              them: persona!.pronoun_obj,
              their: persona!.pronoun_poss,
              theirs: persona!.pronoun_poss_obj,
              themselves: `${persona!.pronoun_obj}self`,
              themself: `${persona!.pronoun_obj}self`,
            };
        const to = Object.hasOwn(map, lower) ? map[lower] : undefined;
        if (to === undefined || w.slice(0, bare.length) !== bare) continue;
        words[i] = capitalised(to, bare) + tail;
        if (lower === 'they' && words[i + 2] !== undefined) {
          const next = words[i + 2]!;
          const verb = /^[A-Za-z]+/.exec(next)?.[0];
          if (verb !== undefined)
            words[i + 2] = (second ? verb : thirdPerson(verb)) + next.slice(verb.length);
        }
      }
      return words.join('');
    })
    .join(' ');
}

/** Names the rules use (input values, text defaults, characters), spelled as the lore spells them. */
function spelledNames(rules: CompiledRules, lore: string): readonly (readonly [string, string])[] {
  const cached = namesByRules.get(rules)?.get(lore);
  if (cached !== undefined) return cached;
  const names = new Set<string>();
  for (const event of rules.events.values())
    for (const spec of event.inputList)
      for (const v of spec.enum ?? []) if (typeof v === 'string' && names.size < 200) names.add(v);
  for (const template of rules.npcTemplates.values()) names.add(template.key.replaceAll('_', ' '));
  const out: [string, string][] = [];
  for (const name of names) {
    if (name.trim().length < 3) continue;
    const spelled = spelledAsLore(lore, name);
    if (spelled !== name) out.push([name, spelled]);
  }
  out.sort((a, b) => b[0].length - a[0].length);
  let byLore = namesByRules.get(rules);
  if (byLore === undefined) {
    byLore = new Map();
    namesByRules.set(rules, byLore);
  }
  if (byLore.size > 8) byLore.clear();
  byLore.set(lore, out);
  return out;
}

const namesByRules = new WeakMap<CompiledRules, Map<string, readonly (readonly [string, string])[]>>();

/** Each name the lore capitalises, written as the lore writes it ("the brine market" → "the Brine Market"). */
function withSpelledNames(text: string, rules: CompiledRules, lore: string | undefined): string {
  if (lore === undefined || lore === '') return text;
  let out = text;
  for (const [name, spelled] of spelledNames(rules, lore)) {
    const lower = out.toLowerCase();
    let result = '';
    let from = 0;
    for (
      let at = lower.indexOf(name.toLowerCase());
      at >= 0;
      at = lower.indexOf(name.toLowerCase(), at + name.length)
    ) {
      const before = at === 0 ? ' ' : out[at - 1]!;
      const after = out[at + name.length] ?? ' ';
      if (/[A-Za-z]/.test(before) || /[A-Za-z]/.test(after)) continue;
      result += out.slice(from, at) + spelled;
      from = at + name.length;
    }
    out = result + out.slice(from);
  }
  return out;
}

export interface OfflineNarrationInput {
  readonly notes: readonly string[];
  /** Where notes show private values, by note index (`RunResult.privateNotes`); their sentences are left out. */
  readonly privateSpans?: ReadonlyMap<number, readonly number[]> | undefined;
  /** Engine text for the player (`/wait`: "Time passes."), shown before the notes. */
  readonly reply?: string | undefined;
  readonly persona?: Persona | undefined;
  /** The cartridge's lore: names are written as it spells them. */
  readonly lore?: string | undefined;
  /** What the turn changed: an amount a field's bound cut short is shown with the record's change. */
  readonly changes?: readonly StateChange[] | undefined;
  /** The turn's seed: picks among the ways of telling an outcome told before (variety.ts). */
  readonly seed?: number | undefined;
}

/** The turn told as prose: one paragraph of what happened, or "Nothing happens." */
export function narrateOffline(rules: CompiledRules, input: OfflineNarrationInput): string {
  const told: string[] = [];
  if (input.reply !== undefined && input.reply !== '') told.push(input.reply);
  const clamped = clampedChanges(rules, input.changes ?? []);
  const fields = fieldNames(rules.schema);
  const shown = new Set<(typeof clamped)[number]>();
  for (const text of listsAsProse(visibleNotes(rules, input.notes, input.privateSpans))) {
    const numbered = withRecordNumbers(text, clamped, fields, shown);
    told.push(withSpelledNames(withPersona(numbered, input.persona), rules, input.lore));
  }
  const arrival =
    input.seed === undefined
      ? undefined
      : arrivalSentence(rules, input.lore, input.changes ?? [], input.seed);
  if (arrival !== undefined) told.push(arrival);
  return told.length === 0 ? nothingHappens(input.seed) : told.join(' ');
}

function visibleNotes(
  rules: CompiledRules,
  notes: readonly string[],
  privateSpans: ReadonlyMap<number, readonly number[]> | undefined,
): { text: string; template: number }[] {
  const out: { text: string; template: number }[] = [];
  for (let i = 0; i < notes.length; i++) {
    const visible = publicNoteOf(rules, notes[i]!, privateSpans?.get(i));
    if (visible === undefined) continue;
    const text = stripNote(visible.text);
    if (text !== '') out.push({ text, template: visible.template });
  }
  return out;
}

/**
 * Runs of notes from one template in a loop ("Pack item 1: iron hook." "Pack item 2: tallow candle.") as
 * one sentence: the shared words once, then the varying parts as a list ("Pack item: iron hook and
 * tallow candle.").
 */
function listsAsProse(notes: readonly { text: string; template: number }[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < notes.length; ) {
    let j = i + 1;
    while (j < notes.length && notes[j]!.template === notes[i]!.template && notes[i]!.template >= 0) j++;
    if (j - i < 2) {
      out.push(notes[i]!.text);
      i = j;
      continue;
    }
    const run = notes.slice(i, j).map((n) => n.text);
    const colon = run.map((t) => t.indexOf(': '));
    if (colon.every((c) => c > 0)) {
      const lead = run[0]!.slice(0, colon[0]).replace(/\s*\d+$/, '');
      if (run.every((t, k) => t.slice(0, colon[k]).replace(/\s*\d+$/, '') === lead)) {
        const items = run.map((t, k) => t.slice(colon[k]! + 2).replace(/[.!]$/, ''));
        out.push(`${lead}: ${proseList(items)}.`);
        i = j;
        continue;
      }
    }
    out.push(...run);
    i = j;
  }
  return out;
}
