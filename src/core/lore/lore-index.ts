// BM25 retrieval over lore chunks, built once per cartridge (see bm25.ts for the scoring).

import { runUnsliced, UNMETERED, type WorkMeter } from '../turn-budget.ts';
import { buildBm25Steps } from './bm25.ts';
import { chunkLore, type LoreChunk } from './chunk.ts';
import { checkLookup, type LoreLookupOptions } from './options.ts';
import { EMPTY_LOOKUP, fitToBudget, interleaveUnique, type LoreLookupResult } from './select.ts';

export interface LoreIndex {
  readonly chunks: readonly LoreChunk[];
  lookup(queries: readonly string[], options?: LoreLookupOptions): LoreLookupResult;
  /** Chunks matching one query, best first (score > 0), at most `limit`. */
  rank(query: string, limit: number): LoreChunk[];
}

export function buildLoreIndexFromChunks(chunks: readonly LoreChunk[]): LoreIndex {
  return runUnsliced(loreIndexSteps(chunks, UNMETERED));
}

/** `buildLoreIndexFromChunks` as a sliced loop (bm25.ts, buildBm25Steps). */
export function* loreIndexSteps(
  chunks: readonly LoreChunk[],
  meter: WorkMeter,
): Generator<undefined, LoreIndex, undefined> {
  const bm25 = yield* buildBm25Steps(
    chunks.map((chunk) => ({ heading: chunk.path.join(' '), text: chunk.text })),
    meter,
  );

  function rank(query: string, limit: number): LoreChunk[] {
    return bm25.search(query, limit).map((hit) => chunks[hit.doc]!);
  }

  return {
    chunks,
    rank,
    lookup(queries, options) {
      const checked = checkLookup(queries, options);
      if (checked.queries.length === 0 || chunks.length === 0) return EMPTY_LOOKUP;
      const rankings = checked.queries.map((query) => rank(query, checked.k));
      return fitToBudget(interleaveUnique(rankings), checked.tokenBudget);
    },
  };
}

/** Chunks the Markdown and indexes it. Build once per cartridge and reuse for every lookup. */
export function buildLoreIndex(markdown: string): LoreIndex {
  return buildLoreIndexFromChunks(chunkLore(markdown));
}
