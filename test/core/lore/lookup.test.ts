import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LoreError } from '../../../src/core/lore/errors.ts';
import {
  DEFAULT_LORE_K,
  MAX_LORE_K,
  MAX_LORE_QUERIES,
  MAX_LORE_QUERY_CHARS,
  MAX_LORE_TOKEN_BUDGET,
} from '../../../src/core/lore/limits.ts';
import { buildLoreIndex } from '../../../src/core/lore/lore-index.ts';
import { LORE_SEPARATOR } from '../../../src/core/lore/select.ts';
import { estimateTokens } from '../../../src/core/tokens.ts';

/** A lore file of several sections (the project's own fixture), where one word occurs in two of them. */
const KINGDOM_LORE = readFileSync(new URL('../../fixtures/lore/kingdom.md', import.meta.url), 'utf8');

const LORE = [
  '# Dragons',
  'Ancient dragons breathe fire over the northern peaks.',
  '# Village',
  'A quiet village of farmers and a blacksmith.',
  '# Goblins',
  'Goblins raid the village at night and steal chickens.',
  '# Moon Temple',
  'Priests of the moon goddess guard the temple.',
].join('\n');

function loreError(run: () => unknown): LoreError {
  try {
    run();
  } catch (error) {
    if (error instanceof LoreError) return error;
    throw error;
  }
  throw new Error('expected a LoreError');
}

describe('ranking', () => {
  it('"goblin" finds the bestiary section first, before a longer section that mentions goblins once', () => {
    const index = buildLoreIndex(KINGDOM_LORE);
    const both = index.lookup(['goblin'], { k: 3 });
    expect(both.chunks.map((c) => c.heading)).toEqual(['Enemies & Bestiary', 'Factions']);
    const result = index.lookup(['goblin'], { k: 1 });
    expect(result.chunks.map((c) => c.heading)).toEqual(['Enemies & Bestiary']);
    expect(result.text).toContain('Goblin Raiders');
  });

  it('matches word prefixes ("dragon" finds "dragons") and skips chunks with no match', () => {
    const index = buildLoreIndex(LORE);
    const result = index.lookup(['dragon fire ancient'], { k: 3 });
    expect(result.chunks.map((c) => c.heading)).toEqual(['Dragons']);
  });

  it('a query that matches nothing, no queries and empty lore give an empty result', () => {
    const index = buildLoreIndex(LORE);
    expect(index.lookup(['zeppelin'])).toEqual({ text: '', chunks: [], tokens: 0, dropped: 0 });
    expect(index.lookup([])).toEqual({ text: '', chunks: [], tokens: 0, dropped: 0 });
    expect(index.lookup(['   '])).toEqual({ text: '', chunks: [], tokens: 0, dropped: 0 });
    expect(buildLoreIndex('').lookup(['goblin']).chunks).toEqual([]);
  });

  it('common words alone match nothing', () => {
    expect(buildLoreIndex(LORE).lookup(['the of and']).chunks).toEqual([]);
  });

  it('takes at most k chunks per query (default 3)', () => {
    const index = buildLoreIndex(LORE);
    expect(index.lookup(['village goblins dragons moon']).chunks).toHaveLength(DEFAULT_LORE_K);
    expect(index.lookup(['village goblins dragons moon'], { k: 4 }).chunks).toHaveLength(4);
  });
});

describe('several queries', () => {
  it('deduplicates across queries and interleaves by rank', () => {
    const index = buildLoreIndex(LORE);
    const result = index.lookup(['goblins village', 'goblins', 'moon'], { k: 2 });
    const ids = result.chunks.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(result.chunks.map((c) => c.heading)).toEqual(['Goblins', 'Moon Temple', 'Village']);
    expect(result.text).toBe(result.chunks.map((c) => c.text).join(LORE_SEPARATOR));
  });
});

describe('token budget', () => {
  const index = buildLoreIndex(LORE);
  const both = index.lookup(['goblins', 'moon'], { k: 1 });
  const exact = estimateTokens(both.text);

  it('a budget equal to the text fits everything', () => {
    const result = index.lookup(['goblins', 'moon'], { k: 1, tokenBudget: exact });
    expect(result.chunks).toHaveLength(2);
    expect(result.tokens).toBe(exact);
    expect(result.dropped).toBe(0);
  });

  it('one token less drops a chunk and says so; the result never exceeds the budget', () => {
    const result = index.lookup(['goblins', 'moon'], { k: 1, tokenBudget: exact - 1 });
    expect(result.chunks.map((c) => c.heading)).toEqual(['Goblins']);
    expect(result.dropped).toBe(1);
    expect(result.tokens).toBeLessThanOrEqual(exact - 1);
  });

  it('a smaller later chunk still fits after a big one is skipped', () => {
    const lore = `# Big\n${'goblin lore '.repeat(100)}\n# Small\ngoblin`;
    const result = buildLoreIndex(lore).lookup(['goblin'], { k: 2, tokenBudget: 10 });
    expect(result.chunks.map((c) => c.heading)).toEqual(['Small']);
    expect(result.dropped).toBe(1);
  });

  it('a zero budget returns nothing', () => {
    expect(index.lookup(['goblins'], { tokenBudget: 0 })).toMatchObject({ text: '', chunks: [], dropped: 1 });
  });
});

describe('limits', () => {
  const index = buildLoreIndex(LORE);

  it('queries: MAX_LORE_QUERIES are accepted, one more is refused', () => {
    expect(index.lookup(Array.from({ length: MAX_LORE_QUERIES }, () => 'goblin')).chunks).toHaveLength(1);
    const error = loreError(() => index.lookup(Array.from({ length: MAX_LORE_QUERIES + 1 }, () => 'goblin')));
    expect(error.code).toBe('LORE_BAD_QUERY');
    expect(error.message).toContain('MAX_LORE_QUERIES');
  });

  it('query length: MAX_LORE_QUERY_CHARS is accepted, one more is refused', () => {
    const atLimit = `goblin ${'x'.repeat(MAX_LORE_QUERY_CHARS - 7)}`;
    expect(atLimit).toHaveLength(MAX_LORE_QUERY_CHARS);
    expect(index.lookup([atLimit]).chunks.map((c) => c.heading)).toEqual(['Goblins']);
    expect(loreError(() => index.lookup([`${atLimit}x`])).message).toContain('MAX_LORE_QUERY_CHARS');
  });

  it('k and tokenBudget: at the limit accepted, past it refused', () => {
    expect(() =>
      index.lookup(['goblin'], { k: MAX_LORE_K, tokenBudget: MAX_LORE_TOKEN_BUDGET }),
    ).not.toThrow();
    expect(loreError(() => index.lookup(['goblin'], { k: MAX_LORE_K + 1 })).message).toContain('MAX_LORE_K');
    expect(loreError(() => index.lookup(['goblin'], { k: 0 })).code).toBe('LORE_BAD_OPTION');
    expect(
      loreError(() => index.lookup(['goblin'], { tokenBudget: MAX_LORE_TOKEN_BUDGET + 1 })).message,
    ).toContain('MAX_LORE_TOKEN_BUDGET');
  });

  it('a non-string query from a model is refused, not crashed on', () => {
    expect(loreError(() => index.lookup([42 as unknown as string])).message).toContain(
      'query 1 is not a string',
    );
  });
});
