// BM25 retrieval over lore chunks, built once per cartridge (see bm25.ts for the scoring).

import { buildBm25 } from './bm25.ts';
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
  const bm25 = buildBm25(chunks.map((chunk) => ({ heading: chunk.path.join(' '), text: chunk.text })));

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
