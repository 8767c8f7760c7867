// Free text a character's prompt takes, as that character may read it (docs/ledger.md, "Free text a character
// reads"). The Director sees the whole state and every fact, and writes free text others read: the scene
// context and guidance of `query_npc_intent` (the NPC brain) and the scene directives (the Narrator). The
// lore, World Info, story history and world summary an NPC call or the Narrator is shown are free text too.
// Before any of it reaches a reader's prompt, what the reader does not know is hidden (`(hidden)`), by the
// phrase rule of secret-phrases.ts:
// - the words of every current fact the reader does not know (its predicate, its value, however short);
// - in the Director's text also the values of fields the reader may not see (a private field for the
//   Narrator, one without `npc_visibility` for the NPC brain), from MIN_SECRET_CHARS characters or
//   MIN_SECRET_NUMBER up (smaller ones are words and counts any story uses).
// There is no count after which facts stop being protected: every current fact is looked at, and when there
// are more than MAX_SECRET_FACTS_SCANNED, or a reader's phrases pass MAX_SECRET_PHRASES, the free text is
// left out of that reader's prompt instead. It catches what is copied, not what is paraphrased: the guard is
// the Director's instructions and the readers' own views (public state, known facts), this is the second line.

import { factsSplitFor, type FactRecord, type World } from '../../core/ledger/index.ts';
import type { DomainSchema, FieldSchema } from '../../core/yare/index.ts';
import type { TurnContext } from './context.ts';
import type { PromptSection } from './prompts.ts';
import { phrasesOf, SecretPhrases } from './secret-phrases.ts';

/** Shortest field value worth hiding: shorter values ("rain", "1d4", "yes") are words any story uses. */
export const MIN_SECRET_CHARS = 5;
/** Smallest field number worth hiding (a combination, a sum); smaller ones are counts any story uses. */
export const MIN_SECRET_NUMBER = 1_000;
/** Current facts looked through for a reader's secrets; with more, its free text is left out. */
export const MAX_SECRET_FACTS_SCANNED = 5_000;
/** Phrases (secret and known) in one reader's index; past it, its free text is left out. */
export const MAX_SECRET_PHRASES = 60_000;

/** What stands in a prompt for the Director's words when they cannot be checked. */
export const LEFT_OUT_TEXT =
  "(The Director's words are left out: the world holds more facts than the engine can check for this reader.)";

/** Who reads the text: the Narrator (the player character's view) or an NPC (its entity, if the ledger has it). */
export type Reader =
  | { readonly kind: 'narrator' }
  | { readonly kind: 'npc'; readonly entity: string | undefined };

function hiddenFrom(reader: Reader, field: FieldSchema): boolean {
  return reader.kind === 'narrator' ? field.visibility === 'private' : !field.npcVisible;
}

/** Each string and number of a field's value worth hiding, entered into `into`. */
function addFieldValues(value: unknown, into: SecretPhrases, known: boolean, budget: { left: number }): void {
  if (budget.left-- <= 0) return;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text.length >= MIN_SECRET_CHARS) into.add(text, known);
  } else if (typeof value === 'number') {
    if (Number.isFinite(value) && Math.abs(value) >= MIN_SECRET_NUMBER) into.add(String(value), known);
  } else if (Array.isArray(value)) {
    for (const item of value) addFieldValues(item, into, known, budget);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) addFieldValues(item, into, known, budget);
  }
}

/** The state's field values: hidden ones as secrets, the ones the reader sees as known. */
function fieldPhrases(ctx: TurnContext, reader: Reader): SecretPhrases {
  const phrases = new SecretPhrases(MAX_SECRET_PHRASES);
  // Values walked at most: past it the index is marked over (the state is bounded; this is the guard).
  const budget = { left: MAX_SECRET_PHRASES };
  const walk = (schema: DomainSchema, state: unknown): void => {
    for (const [name, child] of schema.children) {
      const value =
        typeof state === 'object' && state !== null && Object.hasOwn(state, name)
          ? (state as Record<string, unknown>)[name]
          : undefined;
      if (child.kind === 'domain') walk(child, value);
      else addFieldValues(value, phrases, !hiddenFrom(reader, child), budget);
    }
  };
  walk(ctx.rules.schema, ctx.state);
  if (budget.left < 0) phrases.markOver();
  return phrases;
}

/**
 * A fact's phrases (its predicate's and its value's), made once per fact record: a record is shared by every
 * world after the turn that added it, so each turn's index costs set insertions, not reading every fact again.
 */
const factPhraseCache = new WeakMap<FactRecord, readonly string[]>();

function phrasesOfFact(fact: FactRecord): readonly string[] {
  let phrases = factPhraseCache.get(fact);
  if (phrases === undefined) {
    const value = typeof fact.value === 'string' || typeof fact.value === 'number' ? String(fact.value) : '';
    phrases = [...phrasesOf(fact.predicate), ...phrasesOf(value)];
    factPhraseCache.set(fact, phrases);
  }
  return phrases;
}

function addFact(fact: FactRecord, into: SecretPhrases, known: boolean): void {
  into.addPhrases(phrasesOfFact(fact), known);
}

/** One index per world and viewer: a turn's world does not change until it ends, so it is built once. */
const factIndexes = new WeakMap<World, Map<string, SecretPhrases>>();

/** The phrases of every current fact, secret when `viewer` does not know it (undefined: only public facts). */
function factPhrases(world: World, viewer: string | undefined): SecretPhrases {
  const key = viewer ?? '';
  let byViewer = factIndexes.get(world);
  const cached = byViewer?.get(key);
  if (cached !== undefined) return cached;
  const phrases = readerFactPhrases(world, viewer);
  if (byViewer === undefined) {
    byViewer = new Map();
    factIndexes.set(world, byViewer);
  }
  byViewer.set(key, phrases);
  return phrases;
}

/** The index of every current fact's phrases for `viewer` (built anew; factPhrases keeps one per turn). */
export function readerFactPhrases(world: World, viewer: string | undefined): SecretPhrases {
  const split = factsSplitFor(world, viewer, MAX_SECRET_FACTS_SCANNED);
  const phrases = new SecretPhrases(MAX_SECRET_PHRASES);
  if (!split.complete) phrases.markOver();
  else {
    for (const fact of split.unknown) addFact(fact, phrases, false);
    for (const fact of split.known) addFact(fact, phrases, true);
  }
  return phrases;
}

/**
 * The facts `reader` may not be told, as an index; undefined when no fact is withheld from it (the Narrator
 * with no player entity in the ledger tells every fact: docs/ledger.md).
 */
function readerFacts(ctx: TurnContext, reader: Reader): SecretPhrases | undefined {
  if (reader.kind === 'narrator') {
    const viewer = ctx.playerEntity;
    return viewer === undefined ? undefined : factPhrases(ctx.ledger.world, viewer);
  }
  return factPhrases(ctx.ledger.world, reader.entity);
}

/**
 * Free text from the story (lore, World Info, history, a summary) as `reader` may read it: the facts it does
 * not know hidden; undefined when the facts cannot all be checked (the caller leaves the text out).
 */
export function scopedTextFor(ctx: TurnContext, reader: Reader, text: string): string | undefined {
  if (text.trim() === '') return text;
  const facts = readerFacts(ctx, reader);
  if (facts === undefined) return text;
  return facts.over ? undefined : facts.hide(text);
}

/** The Director's text as `reader` may read it (LEFT_OUT_TEXT when it cannot be checked). */
export function directorTextFor(ctx: TurnContext, reader: Reader, text: string): string {
  if (text.trim() === '') return text;
  const fields = fieldPhrases(ctx, reader);
  const scoped = scopedTextFor(ctx, reader, text);
  if (scoped === undefined || fields.over) return LEFT_OUT_TEXT;
  return fields.hide(scoped);
}

/**
 * A section of `reader`'s prompt holding story text (lore, World Info, history, the world summary), scoped
 * by scopedTextFor; left out, saying why, when the facts cannot all be checked.
 */
export function scopedSection(ctx: TurnContext, reader: Reader, section: PromptSection): PromptSection {
  const text = scopedTextFor(ctx, reader, section.text);
  if (text === section.text) return section;
  if (text !== undefined) return { ...section, text };
  return {
    ...section,
    text: '',
    leftOut: `the world holds more current facts than ${MAX_SECRET_FACTS_SCANNED} (MAX_SECRET_FACTS_SCANNED) or more phrases than ${MAX_SECRET_PHRASES} (MAX_SECRET_PHRASES), so what this reader does not know could not all be checked`,
  };
}
