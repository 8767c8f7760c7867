// A typo of a grouped adventure verb ("atack") matches the other verbs of its group (src/engine/turn/offline/
// words.ts). Its groups are kept in a small table of the last words asked (TYPO_MEMO_WORDS, emptied when
// full): the answers are the same whether the word is in the table, was just added, or was dropped when the
// table filled at the limit and one past it.
import { describe, expect, it } from 'vitest';
import { TYPO_MEMO_WORDS, verbMatch } from '../../src/engine/turn/offline/words.ts';

/** Distinct five-letter words that are no typo of any grouped verb (consonant runs no verb is one edit from). */
function fillerWords(count: number): string[] {
  const letters = 'bcdfgjkqvxz';
  const words: string[] = [];
  for (let i = 0; words.length < count; i++) {
    const a = letters[i % letters.length]!;
    const b = letters[Math.floor(i / letters.length) % letters.length]!;
    const c = letters[Math.floor(i / letters.length ** 2) % letters.length]!;
    words.push(`qz${a}${b}${c}`);
  }
  return words;
}

const cases: Array<[string, string, ReturnType<typeof verbMatch>]> = [
  ['atack', 'hit', 'plain'],
  ['punsh', 'strike', 'plain'],
  ['purchse', 'buy', 'plain'],
  ['qzbbb', 'hit', undefined],
];

function answers(): Array<ReturnType<typeof verbMatch>> {
  return cases.map(([said, verb]) => verbMatch(said, verb));
}

describe('verbMatch with typos of grouped verbs', () => {
  it('matches a typo of a grouped verb to its group, the same asked again', () => {
    const expected = cases.map(([, , match]) => match);
    expect(answers()).toEqual(expected);
    expect(answers()).toEqual(expected);
  });

  it('answers the same after the table fills at its limit and one past it', () => {
    const expected = cases.map(([, , match]) => match);
    const fillers = fillerWords(TYPO_MEMO_WORDS + 1);
    for (const count of [TYPO_MEMO_WORDS - cases.length, TYPO_MEMO_WORDS, TYPO_MEMO_WORDS + 1]) {
      answers();
      for (const word of fillers.slice(0, count)) expect(verbMatch(word, 'attack')).toBeUndefined();
      expect(answers(), `after ${count} other words`).toEqual(expected);
    }
  });
});
