import { describe, expect, it } from 'vitest';
import { buildBm25, MAX_PREFIX_EXPANSIONS, tokenize } from '../../../src/core/lore/bm25.ts';

describe('tokenize', () => {
  it('lower-cases, splits on anything but letters and digits, drops common words', () => {
    expect(tokenize("The Goblin's lair, in Ürwald-2!")).toEqual(['goblin', 's', 'lair', 'ürwald', '2']);
  });
});

describe('BM25', () => {
  const index = buildBm25([
    { heading: '', text: 'wolf forest' },
    { heading: '', text: 'wolf river' },
    { heading: '', text: 'wolf cave dragon' },
  ]);

  it('a rare word outweighs a common one', () => {
    expect(index.search('wolf dragon', 3).map((h) => h.doc)).toEqual([2, 0, 1]);
  });

  it('a heading outweighs the body', () => {
    const headed = buildBm25([
      { heading: '', text: 'dragon lair' },
      { heading: 'Dragon', text: 'lair' },
    ]);
    expect(headed.search('dragon', 2).map((h) => h.doc)).toEqual([1, 0]);
  });

  it('prefix matches count less than exact ones', () => {
    const prefixed = buildBm25([
      { heading: '', text: 'goblins everywhere' },
      { heading: '', text: 'a goblin here' },
    ]);
    expect(prefixed.search('goblin', 2).map((h) => h.doc)).toEqual([1, 0]);
  });

  it('short words do not expand as prefixes', () => {
    expect(buildBm25([{ heading: '', text: 'catapult' }]).search('cat', 1)).toEqual([]);
  });

  it('a prefix expands to at most MAX_PREFIX_EXPANSIONS words', () => {
    const many = Array.from({ length: MAX_PREFIX_EXPANSIONS + 5 }, (_, i) => ({
      heading: '',
      text: `rune${i}`,
    }));
    expect(buildBm25(many).search('rune', 100)).toHaveLength(MAX_PREFIX_EXPANSIONS);
  });

  it('equal scores keep document order, and the limit is respected', () => {
    const same = buildBm25(Array.from({ length: 10 }, () => ({ heading: '', text: 'wolf' })));
    expect(same.search('wolf', 4).map((h) => h.doc)).toEqual([0, 1, 2, 3]);
    // Scratch state is reset between searches: the same query scores the same twice.
    expect(same.search('wolf', 4)).toEqual(same.search('wolf', 4));
  });

  it('an empty index and a zero limit return nothing', () => {
    expect(buildBm25([]).search('wolf', 3)).toEqual([]);
    expect(index.search('wolf', 0)).toEqual([]);
  });
});
