// What the offline game knows of the place and the things in it without any rule written for it: the lore's
// sections (a `## Heading` and its text) and how the lore spells a name ("brine market" → "Brine Market"),
// the public state's location, carried items and money, the foe in front of the player, the hour, and the
// ledger's entities. Used by the free actions (free.ts) and the offline narrator. Pure.

import type { World } from '../../../core/ledger/index.ts';
import {
  type CompiledRules,
  type Dict,
  type DomainSchema,
  type FieldSchema,
  publicEvents,
  type Step,
} from '../../../core/yare/index.ts';
import { contentWords, isNoun, normalize } from './words.ts';

export interface LoreSection {
  /** The heading as written, without a leading "The " ("Tallow Rest"). */
  readonly name: string;
  /** The heading's words, normalised, with "the" left out. */
  readonly key: string;
  readonly text: string;
}

/** Sections read from one lore text; a longer lore keeps its first sections. */
export const MAX_LORE_SECTIONS = 500;
/** Characters of lore read for names and sections. */
export const MAX_LORE_CHARS = 200_000;

const sectionsByLore = new Map<string, readonly LoreSection[]>();
const MAX_CACHED_LORES = 32;

function withoutThe(text: string): string {
  return text.replace(/^the\s+/i, '');
}

/** A Markdown heading's text (`### The Tallow Rest ##` → "The Tallow Rest"), or undefined. */
function headingText(line: string): string | undefined {
  let level = 0;
  while (level < line.length && line[level] === '#') level++;
  if (level === 0 || level > 6 || (line[level] !== ' ' && line[level] !== '\t')) return undefined;
  let end = line.length;
  while (end > level && (line[end - 1] === '#' || line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  const text = line.slice(level, end).trim();
  return text === '' ? undefined : text;
}

/** The lore's sections (every Markdown heading with the paragraphs under it), in order. */
export function loreSections(lore: string): readonly LoreSection[] {
  const cached = sectionsByLore.get(lore);
  if (cached !== undefined) return cached;
  const out: LoreSection[] = [];
  let current: { name: string; lines: string[] } | undefined;
  const flush = () => {
    if (current === undefined || out.length >= MAX_LORE_SECTIONS) return;
    const text = current.lines.join(' ').replace(/\s+/g, ' ').trim();
    const key = normalize(current.name);
    if (key !== '') out.push({ name: current.name, key, text });
  };
  for (const line of lore.slice(0, MAX_LORE_CHARS).split('\n')) {
    const heading = headingText(line);
    if (heading !== undefined) {
      flush();
      current = { name: withoutThe(heading), lines: [] };
    } else if (current !== undefined && line.trim() !== '') current.lines.push(line.trim());
  }
  flush();
  if (sectionsByLore.size >= MAX_CACHED_LORES) sectionsByLore.clear();
  sectionsByLore.set(lore, out);
  return out;
}

/** The lore's section about a name ("brine market", "the Brine Market"), if it has one. */
export function sectionAbout(lore: string, name: string): LoreSection | undefined {
  const key = normalize(withoutThe(name.trim()));
  if (key === '') return undefined;
  return loreSections(lore).find((s) => s.key === key || s.key === `the ${key}`);
}

/** Words read from the start of a section for what the thing is ("The inn at the centre …" → inn). */
export const MAX_KIND_WORDS = 3;
/** Words that end what a thing is and start where it is (the lexicon also knows some as nouns). */
const PLACE_WORDS = new Set(
  'above across after against along among around before behind below beneath beside between beyond down near off outside inside over past round through under upon within without'.split(
    ' ',
  ),
);

/**
 * What the lore says a named thing is: the nouns its section opens with, up to the first other word
 * ("The inn at the centre of town" → inn; "A stone chapel half sunk…" → stone, chapel, half), so "go to
 * the inn" can name the Tallow Rest. Empty without a section.
 */
export function loreKindWords(lore: string, name: string): readonly string[] {
  const section = sectionAbout(lore, name);
  if (section === undefined) return [];
  const clause = section.text.split(/[.,;:!?]/, 1)[0] ?? '';
  const words = clause.trim().split(/\s+/, MAX_KIND_WORDS + 1);
  const start = /^(the|a|an)$/i.test(words[0] ?? '') ? 1 : 0;
  const out: string[] = [];
  for (const word of words.slice(start, start + MAX_KIND_WORDS)) {
    const [content] = contentWords(word);
    if (content === undefined || content !== normalize(word) || PLACE_WORDS.has(content) || !isNoun(content))
      break;
    out.push(content);
  }
  return out;
}

/** The first `count` sentences of a text, persona macros (`{{user}}`) left out with their sentence. */
export function firstSentences(text: string, count: number): string {
  const sentences = text.split(/(?<=[.!?])\s+/).filter((s) => s !== '' && !s.includes('{{'));
  return sentences.slice(0, count).join(' ');
}

/**
 * The name as the lore spells it: a heading's spelling, else the first place the lore writes it with a
 * capital letter; the name unchanged when the lore never capitalises it.
 */
export function spelledAsLore(lore: string, name: string): string {
  const section = sectionAbout(lore, name);
  if (section !== undefined) return section.name;
  const needle = name.trim().toLowerCase();
  if (needle.length < 3) return name;
  const text = lore.slice(0, MAX_LORE_CHARS);
  const lower = text.toLowerCase();
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) {
    const found = text.slice(at, at + needle.length);
    const before = at === 0 ? ' ' : text[at - 1]!;
    const after = text[at + needle.length] ?? ' ';
    if (/[A-Za-z]/.test(before) || /[A-Za-z]/.test(after)) continue;
    if (/^[A-Z]/.test(found)) return found;
  }
  return name;
}

/** The public fields of the state's schema, depth first. */
function publicFields(schema: DomainSchema): FieldSchema[] {
  const out: FieldSchema[] = [];
  const walk = (node: DomainSchema) => {
    for (const child of node.children.values()) {
      if (child.kind === 'domain') walk(child);
      else if (child.visibility === 'public' && !child.name.startsWith('_')) out.push(child);
    }
  };
  walk(schema);
  return out;
}

/** The value at a path of the state, or undefined when it is not there. */
export function valueAt(state: Dict, path: readonly string[]): unknown {
  let node: unknown = state;
  for (const segment of path) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

const LOCATION_NAMES = ['location', 'place', 'room', 'area', 'position', 'region', 'zone'];
export const PLAYER_DOMAINS: readonly string[] = ['player', 'pc', 'hero', 'character', 'party', 'you'];
const ITEM_NAMES = [
  'inventory',
  'items',
  'pack',
  'bag',
  'backpack',
  'possessions',
  'equipment',
  'gear',
  'belongings',
];
export const MONEY_NAMES: readonly string[] = [
  'gold',
  'coins',
  'coin',
  'money',
  'silver',
  'copper',
  'credits',
  'cash',
  'funds',
];
const FOE_DOMAINS = ['foe', 'enemy', 'monster', 'opponent', 'target', 'combatant'];

function playerFirst(a: FieldSchema, b: FieldSchema): number {
  const rank = (f: FieldSchema) => (f.path.length === 1 ? 1 : PLAYER_DOMAINS.includes(f.path[0]!) ? 0 : 2);
  return rank(a) - rank(b);
}

const locationFieldOf = new WeakMap<CompiledRules, FieldSchema | null>();

/** The public text field that says where the player is (`player.location`), if the rules keep one. */
export function locationField(rules: CompiledRules): FieldSchema | undefined {
  let field = locationFieldOf.get(rules);
  if (field === undefined) {
    field =
      publicFields(rules.schema)
        .filter((f) => f.type === 'string' && LOCATION_NAMES.includes(f.name))
        .sort(playerFirst)[0] ?? null;
    locationFieldOf.set(rules, field);
  }
  return field ?? undefined;
}

export function currentPlace(rules: CompiledRules, state: Dict): string | undefined {
  const field = locationField(rules);
  if (field === undefined) return undefined;
  const value = valueAt(state, field.path);
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function writesPath(steps: readonly Step[], path: readonly string[]): boolean {
  return steps.some((step) => {
    switch (step.kind) {
      case 'set':
        return (
          step.target.kind === 'static' &&
          step.target.root === 'state' &&
          step.target.path.join('.') === path.join('.')
        );
      case 'branch':
        return step.arms.some((arm) => writesPath(arm.steps, path));
      case 'foreach':
        return writesPath(step.steps, path);
      default:
        return false;
    }
  });
}

/** The public event that moves the player (one that sets the location field), if any. */
export function travelEvent(rules: CompiledRules): string | undefined {
  const field = locationField(rules);
  if (field === undefined) return undefined;
  return publicEvents(rules).find((e) => writesPath(e.steps, field.path))?.name;
}

export interface Carried {
  readonly items: readonly string[];
  /** Money as the rules count it: [amount, the field's name] ("20 gold", "6 coins"). */
  readonly money: readonly (readonly [number, string])[];
}

/** What the player carries and what money they have, from the public state. */
export function carried(rules: CompiledRules, state: Dict): Carried {
  const fields = publicFields(rules.schema).sort(playerFirst);
  const items: string[] = [];
  const money: [number, string][] = [];
  for (const field of fields) {
    const value = valueAt(state, field.path);
    if (field.type === 'list' && ITEM_NAMES.includes(field.name) && Array.isArray(value)) {
      for (const item of value) if (typeof item === 'string' && items.length < 100) items.push(item);
    } else if ((field.type === 'int' || field.type === 'float') && MONEY_NAMES.includes(field.name)) {
      if (typeof value === 'number') money.push([value, field.name.replaceAll('_', ' ')]);
    }
  }
  return { items, money };
}

export interface Foe {
  readonly name: string;
  readonly hp: number | undefined;
}

/** The creature in front of the player: a public `foe` (or `enemy`, …) group whose name is set and HP left. */
export function currentFoe(rules: CompiledRules, state: Dict): Foe | undefined {
  for (const domain of FOE_DOMAINS) {
    const node = rules.schema.children.get(domain);
    if (node?.kind !== 'domain') continue;
    const nameField = node.children.get('name');
    if (nameField?.kind !== 'field' || nameField.visibility !== 'public') continue;
    const name = valueAt(state, [domain, 'name']);
    const hpField = node.children.get('hp');
    const hp =
      hpField?.kind === 'field' && hpField.visibility === 'public'
        ? valueAt(state, [domain, 'hp'])
        : undefined;
    if (typeof name !== 'string' || name === '' || name === 'none') continue;
    if (typeof hp === 'number' && hp <= 0) continue;
    return { name, hp: typeof hp === 'number' ? hp : undefined };
  }
  return undefined;
}

/** Words of a lore heading that say its section lists foes ("Enemies & Bestiary", "Monsters"). */
const FOE_HEADING_WORDS = ['enemies', 'enemy', 'foes', 'bestiary', 'monsters', 'creatures', 'beasts'];
/** Bold names read from one lore's foe sections ("**Goblin Scavengers**"). */
export const MAX_LORE_FOES = 100;
const loreFoesByLore = new Map<string, readonly string[]>();

/**
 * The content words naming the foes a lore lists: each bold name (`**Dire Wolves**`) in a section whose
 * heading says it lists enemies, monsters or a bestiary. Read once per lore, at most MAX_LORE_FOES names.
 */
export function loreFoeWords(lore: string): readonly string[] {
  const cached = loreFoesByLore.get(lore);
  if (cached !== undefined) return cached;
  const out = new Set<string>();
  let names = 0;
  for (const section of loreSections(lore)) {
    if (!section.key.split(' ').some((w) => FOE_HEADING_WORDS.includes(w))) continue;
    for (const bold of section.text.split('**').filter((_, i) => i % 2 === 1)) {
      if (names++ >= MAX_LORE_FOES) break;
      for (const word of contentWords(bold)) out.add(word);
    }
  }
  const found = [...out];
  if (loreFoesByLore.size >= MAX_CACHED_LORES) loreFoesByLore.clear();
  loreFoesByLore.set(lore, found);
  return found;
}

/** The words that name a foe here: the creature in front of the player, and those the lore lists as foes. */
export function foeWords(rules: CompiledRules, state: Dict | undefined, lore: string | undefined): string[] {
  const foe = state === undefined ? undefined : currentFoe(rules, state);
  return [
    ...(foe === undefined ? [] : contentWords(foe.name)),
    ...(lore === undefined ? [] : loreFoeWords(lore)),
  ];
}

/** "morning", "evening", … from an ISO game time (the same cuts as the demo's `time_of_day`). */
export function partOfDay(gameTime: unknown): string | undefined {
  if (typeof gameTime !== 'string') return undefined;
  const m = /T(\d{2}):/.exec(gameTime);
  if (!m) return undefined;
  const hour = Number(m[1]);
  return hour < 6
    ? 'night'
    : hour < 12
      ? 'morning'
      : hour < 17
        ? 'afternoon'
        : hour < 21
          ? 'evening'
          : 'night';
}

/** `mother_hesk` → "Mother Hesk" (the lore's spelling when it has one). */
export function displayName(lore: string, key: string): string {
  const words = key.replaceAll('_', ' ').trim();
  const spelled = spelledAsLore(lore, words);
  return spelled !== words ? spelled : words.replace(/\b[a-z]/g, (c) => c.toUpperCase());
}

/** The people the rules and the lore place here: named NPC templates whose description names the place. */
export function peopleAt(rules: CompiledRules, lore: string, place: string): string[] {
  const needle = place.toLowerCase();
  const out: string[] = [];
  for (const template of rules.npcTemplates.values()) {
    if (template.type !== 'name') continue;
    if (template.description.toLowerCase().includes(needle)) out.push(displayName(lore, template.key));
  }
  return out;
}

/** Entities of the ledger at this place (by name or key), and the ones the current scene lists as present. */
export function entitiesAt(world: World | undefined, place: string | undefined): string[] {
  if (world === undefined) return [];
  const out = new Set<string>();
  const here = place === undefined ? undefined : normalize(place);
  for (const entity of Object.values(world.entities)) {
    if (out.size >= 12) break;
    if (entity.status === 'dead' || entity.status === 'gone') continue;
    if (here !== undefined && entity.location !== undefined) {
      const at = world.entities[entity.location];
      const where = normalize(at?.name ?? entity.location);
      if (where === here) out.add(entity.name);
    }
  }
  for (const key of world.scene?.present ?? []) {
    const entity = world.entities[key];
    if (entity !== undefined && out.size < 12) out.add(entity.name);
  }
  return [...out];
}
