// The offline matcher's remembered verb comparisons (src/engine/turn/offline/words.ts): bounded, and the
// answers stay right when the memory fills and is cleared.
import { describe, expect, it } from 'vitest';
import { MAX_REMEMBERED_VERB_PAIRS, verbMatch, wordsMatch } from '../../../src/engine/turn/offline/words.ts';

describe('remembered verb comparisons', () => {
  it(`answers the same at ${MAX_REMEMBERED_VERB_PAIRS} remembered pairs and just past it`, () => {
    const before = [verbMatch('strike', 'attack'), verbMatch('atack', 'attack'), verbMatch('sing', 'attack')];
    expect(before[0]).toBe('plain');
    expect(before[2]).toBeUndefined();
    // Fill the memory to the limit with pairs never seen, then one more, which clears it.
    for (let i = 0; i < MAX_REMEMBERED_VERB_PAIRS - 3; i++) verbMatch(`zq${i}`, 'attack');
    expect([
      verbMatch('strike', 'attack'),
      verbMatch('atack', 'attack'),
      verbMatch('sing', 'attack'),
    ]).toEqual(before);
    verbMatch('zqpast', 'attack');
    expect([
      verbMatch('strike', 'attack'),
      verbMatch('atack', 'attack'),
      verbMatch('sing', 'attack'),
    ]).toEqual(before);
  });
});

describe('the same word', () => {
  it('an inflection of a stem of four letters or more, a doubled last letter allowed', () => {
    for (const [stem, form] of [
      ['attack', 'attacks'],
      ['attack', 'attacking'],
      ['heal', 'healed'],
      ['pray', 'prayer'],
      ['stab', 'stabbed'],
      ['travel', 'travelling'],
      ['torch', 'torches'],
    ])
      expect([stem, form, wordsMatch(stem!, form!)]).toEqual([stem, form, true]);
  });

  it('a word that only starts with another is not its form: "castle" is no "cast", "restore" no "rest"', () => {
    for (const [a, b] of [
      ['cast', 'castle'],
      ['rest', 'restore'],
      ['pass', 'passage'],
    ])
      expect([a, b, wordsMatch(a!, b!)]).toEqual([a, b, false]);
    // Three-letter stems are compared whole ("eat" and "eaten" are told apart by the lexicon).
    expect(wordsMatch('eat', 'eats')).toBe(false);
  });
});
