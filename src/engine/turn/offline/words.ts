// Words as the offline matcher compares them: normalised, stop words left out, a typo of one letter in a
// long word forgiven, and verbs compared by meaning: the English lexicon (WordNet's verbs,
// src/adapters/lexicon/) says "strike" is a kind of "attack" and "mend" is "heal" for any cartridge, and a
// few groups of adventure verbs it does not link ("punch", "swing" → attack) are kept here. So "I strike
// the wisp", "atack it" and "I attack" are the same evidence. Bounded by the text's length (each word is
// compared with each word of an event, and each comparison by the lexicon's fixed depths).

import { phraseKey as normalize } from '../../../core/cartridge/index.ts';
import { englishLexicon } from '../../../adapters/lexicon/index.ts';
import { rewriteIdioms } from '../../../core/lexicon/index.ts';

export { normalize };

export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be but by do for from has have i if in into is it its me my no not of on or our so ' +
    'that the their them then there this to up was we what when where which who will with you your player event ' +
    'trigger some can let lets want try would like please just now again also very really maybe ill im'
  ).split(' '),
);

/** Every word of the text, normalised (stop words kept: phrases are matched on them). */
export function allWords(text: string): string[] {
  const n = normalize(text);
  return n === '' ? [] : n.split(' ');
}

/**
 * The player's words as the matcher compares them: normalised, and each idiom the lexicon lacks rewritten
 * to its verb ("finish it off" → "kill it"; src/core/lexicon/idioms.ts).
 */
export function saidWords(text: string): string[] {
  return rewriteIdioms(allWords(text));
}

export function contentWords(text: string): string[] {
  return allWords(text).filter((w) => w.length > 1 && !STOP_WORDS.has(w));
}

/**
 * Groups of verbs that mean the same action in play. The first word of each group is its name; an event's
 * verb (the first word of its name, or of an intent phrase) joins every group it belongs to.
 */
const VERB_GROUPS: readonly (readonly string[])[] = [
  ['go', 'travel', 'walk', 'head', 'move', 'return', 'journey', 'leave', 'run', 'hurry', 'stroll', 'visit'],
  ['attack', 'hit', 'strike', 'fight', 'swing', 'stab', 'slash', 'punch', 'kill', 'smack', 'bash', 'whack'],
  ['buy', 'purchase', 'shop', 'acquire'],
  ['sell', 'pawn', 'trade', 'flog'],
  ['rest', 'sleep', 'nap', 'lodge', 'bed'],
  ['drink', 'quaff', 'sip', 'swig', 'gulp'],
  ['eat', 'dine', 'feast'],
  ['cast', 'conjure', 'spell', 'magic'],
  ['sneak', 'slip', 'creep', 'tiptoe', 'sidle'],
  ['pay', 'give', 'hand'],
  ['open', 'unlock', 'unseal'],
  ['pick', 'jimmy', 'lockpick'],
  ['say', 'recite', 'speak', 'utter', 'whisper'],
  ['explore', 'search', 'scout', 'wander', 'roam', 'forage', 'hunt', 'patrol'],
  ['look', 'glance', 'survey', 'observe'],
  ['examine', 'inspect', 'study', 'scrutinize', 'scrutinise'],
  ['wait', 'linger', 'idle', 'bide', 'loiter'],
  ['heal', 'mend', 'cure', 'patch'],
  ['flee', 'escape', 'retreat'],
  ['take', 'grab', 'collect', 'get', 'rent'],
  ['talk', 'chat', 'ask', 'greet'],
];

const GROUPS_OF = new Map<string, number[]>();
VERB_GROUPS.forEach((group, index) => {
  for (const word of group) GROUPS_OF.set(word, [...(GROUPS_OF.get(word) ?? []), index]);
});

type VerbRelation = 'plain' | 'same' | 'kind' | 'general';

/**
 * Comparisons remembered: the groups and the lexicon are fixed for the process, and a line compares each
 * of its words with every event's verbs, so the same pairs come back line after line. Cleared when full.
 */
export const MAX_REMEMBERED_VERB_PAIRS = 20_000;
const verbPairs = new Map<string, VerbRelation | null>();
const typoGroups = new Map<string, readonly number[] | null>();

/**
 * How the player's verb `said` names the action of an event's verb `verb`: `plain` when equal, close (a
 * typo) or in one of the groups above; `same` when the lexicon gives them a common sense ("mend" and
 * "heal"); `kind` when the lexicon says `said` is a kind of `verb` ("walk" → "travel"), `general` the other
 * way round ("get" for "rent"). The matcher trusts
 * the lexicon less than the words themselves (choose.ts).
 */
export function verbMatch(said: string, verb: string): VerbRelation | undefined {
  // Normalised words have no spaces (two-word verbs are joined by `_`), so the key is unambiguous.
  const key = `${said} ${verb}`;
  const known = verbPairs.get(key);
  if (known !== undefined) return known ?? undefined;
  const found = compareVerbs(said, verb);
  if (verbPairs.size >= MAX_REMEMBERED_VERB_PAIRS) verbPairs.clear();
  verbPairs.set(key, found ?? null);
  return found;
}

function compareVerbs(said: string, verb: string): VerbRelation | undefined {
  if (wordsMatch(said, verb)) return 'plain';
  const ga = GROUPS_OF.get(said) ?? groupsOfTypo(said);
  const gb = GROUPS_OF.get(verb);
  if (ga !== undefined && gb !== undefined && ga.some((g) => gb.includes(g))) return 'plain';
  if (said.length < 3 || verb.length < 3) return undefined;
  return englishLexicon().relation(said, verb);
}

/**
 * Whether the lexicon says `said` is a kind of `verb` or of a verb grouped with it above ("charge" is a
 * kind of "attack", grouped with "strike"): at most one group's verbs compared, each remembered.
 */
export function isKindOfVerb(said: string, verb: string): boolean {
  if (verbMatch(said, verb) === 'kind') return true;
  const mates = (GROUPS_OF.get(verb) ?? []).flatMap((g) => VERB_GROUPS[g]!);
  return mates.some((mate) => mate !== verb && verbMatch(said, mate) === 'kind');
}

/** The groups of the grouped verb one typo away from `word` ("atack" → attack's), if exactly one is. */
function groupsOfTypo(word: string): readonly number[] | undefined {
  if (word.length < 5) return undefined;
  const known = typoGroups.get(word);
  if (known !== undefined) return known ?? undefined;
  let found: readonly number[] | null = null;
  for (const [verb, groups] of GROUPS_OF) {
    if (!oneEditApart(word, verb)) continue;
    if (found !== null) {
      found = null;
      break;
    }
    found = groups;
  }
  if (typoGroups.size >= MAX_REMEMBERED_VERB_PAIRS) typoGroups.clear();
  typoGroups.set(word, found);
  return found ?? undefined;
}

/** Whether two verbs name the same action plainly or by a common sense (verbMatch's `plain` or `same`). */
export function sameVerb(said: string, verb: string): boolean {
  const match = verbMatch(said, verb);
  return match === 'plain' || match === 'same';
}

/** Whether a word is one of the adventure verbs grouped above (an author's phrase may start with one). */
export function isKnownVerb(word: string): boolean {
  return GROUPS_OF.has(word);
}

/** Whether a word of an event's name reads as its verb: mostly a verb in the lexicon ("strike", "heal"). */
export function isNameVerb(word: string): boolean {
  return GROUPS_OF.has(word) || englishLexicon().mostlyVerb(word);
}

/** Whether two words joined by `_` are one verb in the lexicon ("run_away", "patch_up"). */
export function isPhrasalVerb(pair: string): boolean {
  return pair.includes('_') && englishLexicon().verbLemmas(pair).length > 0;
}

/** Whether a word is a noun in the lexicon (the object of an act: "room", not "through"). */
export function isNoun(word: string): boolean {
  return englishLexicon().isNoun(word);
}

/** The word's base form as a verb ("strikes" → "strike", "stabbed" → "stab"), or the word. */
export function verbLemma(word: string): string {
  return englishLexicon().verbLemmas(word)[0] ?? word;
}

/** Longest word compared for typos; longer words must match exactly (bounds the comparison). */
const MAX_FUZZY_LENGTH = 24;

/**
 * At most one edit between two words (a letter added, dropped, changed, or two neighbours swapped), in
 * linear time. The first letter must agree: "night" is not a typo of "fight".
 */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length > MAX_FUZZY_LENGTH || b.length > MAX_FUZZY_LENGTH || a[0] !== b[0]) return false;
  if (Math.abs(a.length - b.length) > 1) return false;
  // A letter changed or swapped: five letters or more ("rest" and "test" stay apart).
  if (a.length === b.length && a.length < 5) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true; // one letter changed
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2); // swapped
  }
  // A letter left out: in a word of six letters or more, or a doubled letter ("lok" is "look"; "sing" is
  // not "swing").
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  if (long.slice(i + 1) !== short.slice(i)) return false;
  return long.length >= 6 || long[i] === long[i - 1] || long[i] === long[i + 1];
}

/** Endings of an inflected word ("attack" + s, ed, ing, er): "castle" is no form of "cast". */
const INFLECTIONS: ReadonlySet<string> = new Set(['s', 'es', 'd', 'ed', 'ing', 'er', 'ers', 'n', 'en']);

/**
 * Two words are the same word: equal, one typo apart, or one the other's inflection ("attacks",
 * "attacking" and "attack": a stem of four letters or more and an ending of INFLECTIONS).
 */
export function wordsMatch(a: string, b: string): boolean {
  if (a === b) return true;
  if (oneEditApart(a, b)) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length < 4 || !long.startsWith(short)) return false;
  const ending = long.slice(short.length);
  // A doubled last letter before the ending: "stab" → "stabbed", "travel" → "travelling".
  const undoubled = ending[0] === short.at(-1) ? ending.slice(1) : ending;
  return INFLECTIONS.has(ending) || INFLECTIONS.has(undoubled);
}

/** "a, b, c and d" (`joiner` "or" for choices). */
export function proseList(items: readonly string[], joiner: 'and' | 'or' = 'and'): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} ${joiner} ${items.at(-1)}`;
}

/** "an iron hook", "a tallow candle", "lamp oil" stays without one when it is a mass noun we know of. */
export function withArticle(item: string): string {
  const word = item.trim();
  if (word === '' || /^(a|an|the|some|\d+)\s/i.test(word) || /^[A-Z]/.test(word)) return word;
  if (/\b(oil|water|salt|bread|stew|gold|silver|copper|coin|coins)$/i.test(word)) return `some ${word}`;
  return /^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`;
}
