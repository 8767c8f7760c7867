// What the game knows in words, for looking and talking offline (issue 32, item 2): the lore's bold-named
// entries ("*   **Goblin Scavengers**: Weak, cowardly creatures…"), the World Info entries (an imported
// card's lorebook: "the Kestrel" by any of its keys), and, when nothing is named, the one sentence of the
// lore, the opening or the World Info that shares the most words with what was asked ("examine the
// lanterns" → the opening's lanterns burning on iron posts). Persona macros never reach the player. Pure,
// bounded by MAX_KNOWN_ENTRIES and MAX_SEARCHED_CHARS.

import { firstSentences, MAX_LORE_CHARS } from './place.ts';
import { contentWords, wordsMatch } from './words.ts';

/** A World Info entry as the offline game reads it. */
export interface KnownEntry {
  readonly keys: readonly string[];
  readonly content: string;
}

/** What is known besides the rules and the lore's headings. */
export interface KnownTexts {
  readonly lore: string;
  /** The opening (first message) the player read. */
  readonly opening?: string | undefined;
  /** The World Info entries (disabled ones left out). */
  readonly entries?: readonly KnownEntry[] | undefined;
}

export interface NamedEntry {
  readonly name: string;
  readonly words: readonly string[];
  readonly text: string;
}

/** Named entries read (a longer lore or book keeps its first ones). */
export const MAX_KNOWN_ENTRIES = 300;
/** Characters searched for a sentence about what was asked. */
export const MAX_SEARCHED_CHARS = 200_000;
/** A sentence longer than this is not told as an answer. */
const MAX_TOLD_SENTENCE_CHARS = 400;

const BOLD_ENTRY = /^\s*(?:[*+-]|\d+\.)?\s*\*\*([^*\n]{2,80})\*\*\s*[:—–-]?\s*(.*)$/;

/** The lore's bold-named entries ("**Oakhaven**: A bustling frontier town…"). */
function boldEntries(lore: string): NamedEntry[] {
  const out: NamedEntry[] = [];
  for (const line of lore.slice(0, MAX_LORE_CHARS).split('\n')) {
    if (out.length >= MAX_KNOWN_ENTRIES) break;
    const match = BOLD_ENTRY.exec(line);
    if (match === null || match[2]!.trim() === '') continue;
    const name = match[1]!.trim().replace(/:$/, '');
    out.push({ name, words: contentWords(name), text: match[2]!.trim() });
  }
  return out;
}

/** Every named entry: the lore's bold ones and the World Info's, by their keys. */
export function namedEntries(known: KnownTexts): NamedEntry[] {
  const out = boldEntries(known.lore);
  for (const entry of (known.entries ?? []).slice(0, MAX_KNOWN_ENTRIES)) {
    const name = entry.keys[0]?.trim();
    if (name === undefined || name === '' || entry.content.trim() === '') continue;
    out.push({ name, words: [...new Set(entry.keys.flatMap(contentWords))], text: entry.content.trim() });
  }
  return out;
}

function sentencesOf(text: string): string[] {
  return text
    .slice(0, MAX_SEARCHED_CHARS)
    .replace(/\*+/g, '')
    .replace(/([^\n])\n(?=[^\n])/g, '$1 ')
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.replace(/^[\s#>*-]+/, '').trim())
    .filter((s) => s !== '' && !s.includes('{{') && s.length <= MAX_TOLD_SENTENCE_CHARS);
}

/** The shortest word that may name a thing when it ends what was asked ("the fog", "the old inn"). */
const MIN_HEAD_WORD_CHARS = 3;

/**
 * The sentence of the opening, the lore or the World Info sharing the most of the asked words (each of
 * four letters or more, so "the" and "old" decide nothing, and the last one, the thing itself, of three:
 * "examine the fog"), the earliest on a tie; undefined when none shares one.
 */
export function sentenceAbout(known: KnownTexts, asked: readonly string[]): string | undefined {
  const wanted = asked.filter(
    (w, i) => w.length >= 4 || (i === asked.length - 1 && w.length >= MIN_HEAD_WORD_CHARS),
  );
  if (wanted.length === 0) return undefined;
  const texts = [known.opening ?? '', known.lore, ...(known.entries ?? []).map((e) => e.content)];
  let best: { sentence: string; score: number } | undefined;
  for (const text of texts)
    for (const sentence of sentencesOf(text)) {
      const words = contentWords(sentence);
      const score = wanted.filter((w) => words.some((s) => wordsMatch(s, w))).length;
      if (score > 0 && (best === undefined || score > best.score)) best = { sentence, score };
    }
  return best?.sentence;
}

/** The first sentences of an entry's text, as told to the player. */
export function toldEntry(entry: NamedEntry, sentences = 2): string {
  const told = firstSentences(entry.text.replace(/\*+/g, ''), sentences);
  return told === '' ? entry.name : `${entry.name}: ${told}`;
}

/** The World Info entries the offline game may tell: enabled ones with text, at most MAX_KNOWN_ENTRIES. */
export function knownEntries(
  book: { readonly entries: readonly (KnownEntry & { readonly disable: boolean })[] } | undefined,
): KnownEntry[] {
  if (book === undefined) return [];
  return book.entries
    .filter((e) => !e.disable && e.content.trim() !== '')
    .slice(0, MAX_KNOWN_ENTRIES)
    .map((e) => ({ keys: e.keys, content: e.content }));
}
