// The rule that keeps what a reader does not know out of free text (docs/ledger.md, "Free text a character
// reads"). Text is read as words (maximal runs of letters and digits, compared lower-cased); the words that
// carry meaning are the content words (not a stop word like "the", "is", "under", not a single letter or
// digit). A secret is entered as phrases:
// - two content words that follow each other in it (stop words between them skipped): "the vault key lies
//   beneath the cracked third stair" gives "vault key", "key lies", …, "third stair";
// - a secret with a single content word, that word ("Q7Z", "42", "traitor").
// A text shows a secret's phrase where two content words that follow each other in it (stop words between
// skipped) are such a pair, or where a content word is such a single word: those words, and the stop words
// between two of them, are replaced by one HIDDEN_VALUE. So a secret copied whole, in part (any two
// consecutive content words of it: "the cracked third stair"), or as a short value is hidden; a single
// common word of a longer secret is not. Phrases the reader knows (its facts, the values it sees) are never
// hidden. Building is linear in the secrets' words and matching in the text's, with one Set lookup a word.

import { HIDDEN_VALUE } from './private-notes.ts';

/** Words any story uses; between two content words they are skipped, and they never make a phrase. */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the of to in on at by for with from into onto upon over under below beneath above near behind ' +
    'beside between through across about after before and or but nor so yet if then than as is are was ' +
    'were be been being am do does did has have had it its this that these those there here what who whom ' +
    'which where when why how not no yes he she they we you i me him her them us my your his their our ' +
    'mine yours theirs ours will would can could shall should may might must up down out off all any some'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}]+/gu;

function isContent(word: string): boolean {
  return word.length > 1 && !STOP_WORDS.has(word);
}

/** The content words of `text`, lower-cased, in order (one native match, no object a word). */
function contentWords(text: string): string[] {
  const words = text.toLowerCase().match(WORD);
  if (words === null) return [];
  const out: string[] = [];
  for (const word of words) if (isContent(word)) out.push(word);
  return out;
}

/** The phrases of one text: its consecutive content-word pairs, or its one content word. */
export function phrasesOf(text: string): string[] {
  const content = contentWords(text);
  if (content.length === 1) return [content[0]!];
  const out: string[] = [];
  for (let i = 0; i + 1 < content.length; i++) out.push(`${content[i]} ${content[i + 1]}`);
  return out;
}

/** The content words of `text` with where each stands in it ([start, end) offsets). */
function placedContentWords(text: string): { words: string[]; starts: number[]; ends: number[] } {
  // Lower-casing can change a text's length (rare letters): then each word is lower-cased on its own.
  const lower = text.toLowerCase();
  const same = lower.length === text.length;
  const words: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const pattern = new RegExp(WORD.source, 'gu');
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const end = m.index + m[0].length;
    const word = same ? lower.slice(m.index, end) : m[0].toLowerCase();
    if (!isContent(word)) continue;
    words.push(word);
    starts.push(m.index);
    ends.push(end);
  }
  return { words, starts, ends };
}

/** A reader's secret phrases, less the ones it knows; bounded in entries (`over` when the bound is passed). */
export class SecretPhrases {
  readonly #secret = new Set<string>();
  readonly #known = new Set<string>();
  readonly #limit: number;
  #over = false;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** More phrases were offered than the bound allows: the index is incomplete and must not be relied on. */
  get over(): boolean {
    return this.#over;
  }

  /** Marks the index incomplete (a bound passed while gathering what goes in it). */
  markOver(): void {
    this.#over = true;
  }

  get size(): number {
    return this.#secret.size + this.#known.size;
  }

  /** Enters `text`'s phrases as secret (known: as the reader's own, never hidden). */
  add(text: string, known = false): void {
    this.addPhrases(phrasesOf(text), known);
  }

  /** Enters phrases already made by phrasesOf (a fact's are made once and kept: director-text.ts). */
  addPhrases(phrases: readonly string[], known = false): void {
    if (this.#over) return;
    const into = known ? this.#known : this.#secret;
    for (const phrase of phrases) {
      if (into.has(phrase)) continue;
      if (this.size >= this.#limit) {
        this.#over = true;
        return;
      }
      into.add(phrase);
    }
  }

  #isSecret(phrase: string): boolean {
    return this.#secret.has(phrase) && !this.#known.has(phrase);
  }

  /**
   * `text` with every secret phrase replaced by HIDDEN_VALUE: a secret pair's two words and what lies between
   * them as one, a chain of secret pairs as one, a secret single word on its own.
   */
  hide(text: string): string {
    if (this.#secret.size === 0) return text;
    const { words, starts, ends } = placedContentWords(text);
    const hidden = new Uint8Array(words.length);
    /** linked[i]: words i and i + 1 are a secret pair, hidden together with what lies between them. */
    const linked = new Uint8Array(words.length);
    for (let i = 0; i < words.length; i++) {
      if (this.#isSecret(words[i]!)) hidden[i] = 1;
      if (i + 1 < words.length && this.#isSecret(`${words[i]} ${words[i + 1]}`))
        hidden[i] = hidden[i + 1] = linked[i] = 1;
    }
    let out = '';
    let from = 0;
    let any = false;
    for (let i = 0; i < words.length; i++) {
      if (hidden[i] === 0) continue;
      let j = i;
      while (linked[j] === 1) j++;
      out += text.slice(from, starts[i]) + HIDDEN_VALUE;
      from = ends[j]!;
      any = true;
      i = j;
    }
    return any ? out + text.slice(from) : text;
  }
}
