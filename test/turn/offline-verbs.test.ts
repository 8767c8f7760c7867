// The offline matcher's remembered verb comparisons (src/engine/turn/offline/words.ts): bounded, and the
// answers stay right when the memory fills and is cleared.
import { describe, expect, it } from 'vitest';
import { MAX_REMEMBERED_VERB_PAIRS, verbMatch } from '../../src/engine/turn/offline/words.ts';

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
