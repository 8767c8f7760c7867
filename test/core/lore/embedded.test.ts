import { describe, expect, it } from 'vitest';
import { withEmbeddings } from '../../../src/core/lore/embedded.ts';
import { LoreError } from '../../../src/core/lore/errors.ts';
import { buildLoreIndex } from '../../../src/core/lore/lore-index.ts';

const LORE = [
  '# Wolves',
  'Grey wolves hunt in packs through the pines.',
  '# Goblins',
  'Goblins raid the village at night.',
  '# Dragons',
  'A wyrm sleeps under the mountain.',
].join('\n');

// A deterministic "semantic" embedding: words of one concept share a dimension, so "hound" is close
// to "wolves" although they share no letters.
const CONCEPTS: readonly (readonly string[])[] = [
  ['wolf', 'wolves', 'hound', 'hounds', 'canine'],
  ['goblin', 'goblins', 'imp'],
  ['dragon', 'dragons', 'wyrm', 'serpent'],
];

function conceptEmbed(text: string): number[] {
  const vector = [0, 0, 0, 0.01];
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    CONCEPTS.forEach((words, dim) => {
      if (words.includes(word)) vector[dim]! += 1;
    });
  }
  return vector;
}

function recordingEmbed() {
  const calls: string[][] = [];
  const embed = async (texts: string[]) => {
    calls.push(texts);
    return texts.map(conceptEmbed);
  };
  return { calls, embed };
}

describe('withEmbeddings', () => {
  it('embeds every chunk once at build, and all queries of a lookup in one call', async () => {
    const { calls, embed } = recordingEmbed();
    const index = await withEmbeddings(buildLoreIndex(LORE), embed);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toEqual(index.chunks.map((c) => c.text));
    expect(index.dimensions).toBe(4);
    await index.lookupAsync(['hound', 'serpent']);
    expect(calls).toHaveLength(2);
    expect(calls[1]).toEqual(['hound', 'serpent']);
  });

  it('finds by meaning what BM25 alone cannot', async () => {
    const { embed } = recordingEmbed();
    const index = await withEmbeddings(buildLoreIndex(LORE), embed);
    expect(index.lookup(['hound']).chunks).toEqual([]);
    const blended = await index.lookupAsync(['hound'], { k: 1 });
    expect(blended.chunks.map((c) => c.heading)).toEqual(['Wolves']);
  });

  it('a chunk ranked by both BM25 and cosine beats one ranked by a single list', async () => {
    const { embed } = recordingEmbed();
    const index = await withEmbeddings(buildLoreIndex(LORE), embed);
    // "village" is a BM25 hit for Goblins only; "wyrm" is a BM25 and a cosine hit for Dragons.
    const result = await index.lookupAsync(['wyrm village'], { k: 2 });
    expect(result.chunks.map((c) => c.heading)).toEqual(['Dragons', 'Goblins']);
  });

  it('dedupes across queries and keeps to the token budget like the BM25 lookup', async () => {
    const { embed } = recordingEmbed();
    const index = await withEmbeddings(buildLoreIndex(LORE), embed);
    const budget = index.chunks[0]!.tokens; // room for the Wolves chunk only
    const result = await index.lookupAsync(['hound', 'wolves', 'imp'], { k: 1, tokenBudget: budget });
    expect(result.chunks.map((c) => c.heading)).toEqual(['Wolves']);
    expect(result.dropped).toBe(1); // Goblins (for "imp"); "wolves" repeated Wolves and was deduplicated
    expect(result.tokens).toBe(budget);
  });

  it('empty lore and empty queries do not call the embed function', async () => {
    const { calls, embed } = recordingEmbed();
    const empty = await withEmbeddings(buildLoreIndex(''), embed);
    expect((await empty.lookupAsync(['wolf'])).chunks).toEqual([]);
    const index = await withEmbeddings(buildLoreIndex(LORE), embed);
    expect((await index.lookupAsync([' '])).chunks).toEqual([]);
    expect(calls).toHaveLength(1);
  });

  it('refuses a wrong vector count, mixed dimensions and non-finite values', async () => {
    const base = buildLoreIndex(LORE);
    await expect(withEmbeddings(base, async () => [[1]])).rejects.toThrow(/returned 1 vectors for 3 chunks/);
    await expect(withEmbeddings(base, async () => [[1, 0], [1], [0, 1]])).rejects.toThrow(
      /chunk vector 2 has 1 dimensions, expected 2/,
    );
    await expect(withEmbeddings(base, async () => [[1], [Number.NaN], [1]])).rejects.toBeInstanceOf(
      LoreError,
    );
    let call = 0;
    const index = await withEmbeddings(base, async (texts) =>
      call++ === 0 ? texts.map(conceptEmbed) : [[1, 2]],
    );
    await expect(index.lookupAsync(['wolf'])).rejects.toThrow(/query vector 1 has 2 dimensions, expected 4/);
  });
});
