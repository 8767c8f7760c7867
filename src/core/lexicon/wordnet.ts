// English verbs as WordNet knows them (the `index.verb` and `data.verb` files of the WordNet 3.1 database,
// read by src/adapters/lexicon/): which words can be verbs, their base forms ("strikes" → "strike", by
// WordNet's own suffix rules, "morphy"), and whether two verbs name the same action — they share a
// sense, or one of the said word's commonest senses is a kind of one of the other's senses ("strike" is a
// kind of "attack", "walk" a kind of "travel"). The offline matcher (src/engine/turn/offline/) uses it so
// that a cartridge nobody wrote synonyms for still understands "I strike the goblin". Pure: text in,
// data out; every question is bounded by the words' lengths and the fixed depths below.

/** A verb's meaning for the matcher: its senses (synset offsets) in WordNet's order, commonest first. */
export interface Lexicon {
  /** The word's base forms that WordNet knows as verbs (the word itself first when it is one). */
  verbLemmas(word: string): readonly string[];
  /** Whether the word (or a base form of it) can be a verb. */
  isVerb(word: string): boolean;
  /**
   * Whether the word is mostly a verb: WordNet's sense-tagged corpus uses it as a verb at least as often as
   * a noun ("strike", "heal", "pray"; not "oil", "gate", "shrine").
   */
  mostlyVerb(word: string): boolean;
  /** Whether the word (or its singular) is a noun in WordNet ("room", "shrine"; not "through"). */
  isNoun(word: string): boolean;
  /**
   * How `said` (a player's verb) relates to `verb` (an event's verb): `same` when one of the commonest
   * senses of each is shared ("mend" and "heal"), `kind` when a common sense of `said` is a kind of a
   * sense of `verb` ("walk" → "travel"), `general` when a sense of `verb` is a kind of a common sense of
   * `said` ("rent" is a kind of "get"), undefined when none of these.
   */
  relation(said: string, verb: string): VerbRelation | undefined;
}

export type VerbRelation = 'same' | 'kind' | 'general';

/**
 * Senses compared for `same`: the player's word's commonest and the event verb's three commonest
 * (WordNet lists senses commonest first; a rarer shared sense — "steal" also means "sneak", "tell" also
 * "recite" — is not what a player means).
 */
export const SAID_SAME_SENSES = 1;
export const VERB_SAME_SENSES = 3;
/** Senses of the player's word followed up the "is a kind of" ladder for `kind`. */
export const KIND_SENSES = 4;
/** Steps up that ladder from the player's word ("head" → "go" → "travel"). */
export const KIND_DEPTH = 2;
/** Steps up from the event's verb for `general` ("rent" → "get"). */
export const GENERAL_DEPTH = 1;
/** Pairs remembered per lexicon (a bound on memory whatever the players type). */
const MAX_REMEMBERED_PAIRS = 20_000;
/** Longest word looked up (WordNet's longest verb entry is far shorter). */
const MAX_WORD_CHARS = 40;

/** WordNet's detachment rules for verbs (morphy): suffix → what replaces it. */
const VERB_SUFFIXES: readonly (readonly [string, string])[] = [
  ['s', ''],
  ['ies', 'y'],
  ['es', 'e'],
  ['es', ''],
  ['ed', 'e'],
  ['ed', ''],
  ['ing', 'e'],
  ['ing', ''],
];

/** One lemma of an index file: its synset offsets (commonest sense first) and how often the corpus uses it. */
export interface IndexEntry {
  readonly senses: readonly number[];
  /** `tagsense_cnt`: senses of it tagged in WordNet's corpus (how common the word is in this part of speech). */
  readonly tagged: number;
}

/** One line of an index file as an entry, or undefined for a line that is not one. */
export function parseIndexLine(line: string): IndexEntry | undefined {
  const parts = line.trim().split(' ');
  const senses = Number(parts[2]);
  const pointers = Number(parts[3]);
  const first = 4 + pointers + 2;
  if (!Number.isInteger(senses) || !Number.isInteger(pointers) || parts.length < first + senses)
    return undefined;
  return { senses: parts.slice(first, first + senses).map(Number), tagged: Number(parts[first - 1]) || 0 };
}

/**
 * An index file (`index.verb`, `index.noun`) looked up in place: its lines are sorted by lemma, so a lemma
 * is found by binary search over the text (no table built: reading the file is the whole start-up cost).
 */
export function sortedIndex(text: string): (lemma: string) => IndexEntry | undefined {
  const lineAt = (pos: number): [start: number, end: number] => {
    const start = text.lastIndexOf('\n', pos - 1) + 1;
    const end = text.indexOf('\n', pos);
    return [start, end < 0 ? text.length : end];
  };
  return (lemma) => {
    if (lemma === '' || lemma.includes(' ') || lemma.includes('\n')) return undefined;
    let lo = 0;
    let hi = text.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const [start, end] = lineAt(mid);
      const space = text.indexOf(' ', start);
      const key = text.slice(start, space < 0 || space > end ? end : space);
      // License lines start with a space and sort before every lemma.
      if (key === lemma && text[start] !== ' ') return parseIndexLine(text.slice(start, end));
      if (text[start] === ' ' || key < lemma) lo = end + 1;
      else hi = start;
    }
    return undefined;
  };
}

/** The hypernyms ("is a kind of") of the synset at a byte offset of `data.verb` (read as Latin-1 text). */
export function hypernymsAt(data: string, offset: number): readonly number[] {
  if (!Number.isSafeInteger(offset) || offset < 0 || offset >= data.length) return [];
  const end = data.indexOf('\n', offset);
  const line = data.slice(offset, end < 0 ? data.length : end);
  const bar = line.indexOf(' | ');
  const parts = (bar < 0 ? line : line.slice(0, bar)).split(' ');
  if (Number(parts[0]) !== offset) return [];
  const words = Number.parseInt(parts[3] ?? '', 16);
  if (!Number.isInteger(words)) return [];
  let k = 4 + words * 2;
  const pointers = Number(parts[k]);
  k++;
  const out: number[] = [];
  for (let i = 0; i < pointers && k + 2 < parts.length; i++, k += 4)
    if (parts[k] === '@' && parts[k + 2] === 'v') out.push(Number(parts[k + 1]));
  return out;
}

/** The text of the WordNet files the lexicon reads. */
export interface WordnetFiles {
  readonly indexVerb: string;
  readonly dataVerb: string;
  /** `index.noun`, for how often a word is a noun (its entries' `tagsense_cnt`). */
  readonly indexNoun: string;
}

/**
 * The lexicon of WordNet's verbs, from the text of its files (`data.verb` read as Latin-1, so a synset's
 * offset is its place in the text). Nothing is parsed up front: each question reads the lines it needs.
 */
export function wordnetLexicon(files: WordnetFiles): Lexicon {
  return lexiconOf(
    sortedIndex(files.indexVerb),
    (offset) => hypernymsAt(files.dataVerb, offset),
    sortedIndex(files.indexNoun),
  );
}

/** A lexicon that knows no word: the matcher's hand-kept verb groups still apply. */
export const EMPTY_LEXICON: Lexicon = {
  verbLemmas: () => [],
  isVerb: () => false,
  mostlyVerb: () => false,
  isNoun: () => false,
  relation: () => undefined,
};

type Lookup = (lemma: string) => IndexEntry | undefined;

/** A lookup that remembers its answers (at most MAX_REMEMBERED_PAIRS, then it starts again). */
function remembering(lookup: Lookup): Lookup {
  const known = new Map<string, IndexEntry | null>();
  return (lemma) => {
    let entry = known.get(lemma);
    if (entry === undefined) {
      entry = lookup(lemma) ?? null;
      if (known.size >= MAX_REMEMBERED_PAIRS) known.clear();
      known.set(lemma, entry);
    }
    return entry ?? undefined;
  };
}

/** The word's base forms the verb index knows, by WordNet's detachment rules, the commonest first. */
function baseForms(verbs: Lookup, word: string): string[] {
  if (word.length > MAX_WORD_CHARS) return [];
  if (verbs(word) !== undefined) return [word];
  const out: string[] = [];
  for (const [suffix, replacement] of VERB_SUFFIXES) {
    if (!word.endsWith(suffix) || word.length <= suffix.length + 1) continue;
    const base = word.slice(0, -suffix.length) + replacement;
    if (verbs(base) !== undefined && !out.includes(base)) out.push(base);
  }
  // A doubled last consonant before -ed/-ing ("stabbed", "swimming").
  const doubled = /^(.*([b-df-hj-np-tv-z]))\2(?:ed|ing)$/.exec(word);
  if (doubled !== null && verbs(doubled[1]!) !== undefined && !out.includes(doubled[1]!))
    out.push(doubled[1]!);
  // The commonest first ("swings" is "swing", not "swinge").
  return out.sort((a, b) => (verbs(b)?.tagged ?? 0) - (verbs(a)?.tagged ?? 0));
}

/** The senses reached from `senses` going up at most `depth` hypernym steps. */
function upward(hypernyms: (offset: number) => readonly number[], senses: readonly number[], depth: number) {
  const seen = new Set<number>(senses);
  let frontier = [...senses];
  for (let d = 0; d < depth; d++) {
    const next: number[] = [];
    for (const sense of frontier)
      for (const up of hypernyms(sense))
        if (!seen.has(up)) {
          seen.add(up);
          next.push(up);
        }
    frontier = next;
  }
  return seen;
}

function lexiconOf(
  verbIndex: Lookup,
  hypernyms: (offset: number) => readonly number[],
  nounIndex: Lookup,
): Lexicon {
  const remembered = new Map<string, VerbRelation | null>();
  const verbs = remembering(verbIndex);
  const verbLemmas = (word: string): string[] => baseForms(verbs, word);
  const sensesOf = (word: string, count: number): number[] =>
    verbLemmas(word).flatMap((lemma) => (verbs(lemma)?.senses ?? []).slice(0, count));

  const related = (said: string, verb: string): VerbRelation | null => {
    const verbSenses = sensesOf(verb, Number.MAX_SAFE_INTEGER);
    if (verbSenses.length === 0) return null;
    const verbCommon = new Set(sensesOf(verb, VERB_SAME_SENSES));
    if (sensesOf(said, SAID_SAME_SENSES).some((s) => verbCommon.has(s))) return 'same';
    const saidSenses = sensesOf(said, KIND_SENSES);
    const fromSaid = upward(hypernyms, saidSenses, KIND_DEPTH);
    if (verbSenses.some((s) => fromSaid.has(s))) return 'kind';
    const fromVerb = upward(hypernyms, verbSenses, GENERAL_DEPTH);
    return saidSenses.some((s) => fromVerb.has(s)) ? 'general' : null;
  };

  return {
    verbLemmas,
    isVerb: (word) => verbLemmas(word).length > 0,
    isNoun(word) {
      if (word.length > MAX_WORD_CHARS) return false;
      if (nounIndex(word) !== undefined) return true;
      return word.endsWith('s') && nounIndex(word.slice(0, word.endsWith('ies') ? -3 : -1)) !== undefined;
    },
    mostlyVerb(word) {
      const lemma = verbLemmas(word)[0];
      if (lemma === undefined) return false;
      return (verbs(lemma)?.tagged ?? 0) >= (nounIndex(word)?.tagged ?? nounIndex(lemma)?.tagged ?? 0);
    },
    relation(said, verb) {
      const key = `${said} ${verb}`;
      let answer = remembered.get(key);
      if (answer === undefined) {
        answer = related(said, verb);
        if (remembered.size >= MAX_REMEMBERED_PAIRS) remembered.clear();
        remembered.set(key, answer);
      }
      return answer ?? undefined;
    },
  };
}
