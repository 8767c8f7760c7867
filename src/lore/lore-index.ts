// BM25 retrieval over lore chunks (MiniSearch's BM25+), built once per cartridge. Headings are a
// separate, boosted field; terms of 4+ letters also match as prefixes ("goblin" finds "goblins");
// common English words are not indexed (they match every chunk and only cost time).

import MiniSearch from 'minisearch';
import { type LoreChunk, chunkLore } from './chunk.ts';
import { type LoreLookupOptions, checkLookup } from './options.ts';
import { EMPTY_LOOKUP, fitToBudget, interleaveUnique, type LoreLookupResult } from './select.ts';

export interface LoreIndex {
  readonly chunks: readonly LoreChunk[];
  lookup(queries: readonly string[], options?: LoreLookupOptions): LoreLookupResult;
  /** Chunks matching one query, best first (score > 0), at most `limit`. */
  rank(query: string, limit: number): LoreChunk[];
}

const STOP_WORDS = new Set(
  (
    'a an and are as at be but by for from has have he her his i if in into is it its me my no not of on or our ' +
    'she so that the their them then there these they this to was we were what when where which who will with you your'
  ).split(' '),
);

const PREFIX_MIN_LENGTH = 4;
const HEADING_BOOST = 2;

interface IndexedChunk {
  readonly id: number;
  readonly heading: string;
  readonly text: string;
}

function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  return STOP_WORDS.has(lower) ? null : lower;
}

export function buildLoreIndexFromChunks(chunks: readonly LoreChunk[]): LoreIndex {
  const search = new MiniSearch<IndexedChunk>({
    fields: ['heading', 'text'],
    idField: 'id',
    processTerm,
    searchOptions: {
      boost: { heading: HEADING_BOOST },
      prefix: (term) => term.length >= PREFIX_MIN_LENGTH,
      combineWith: 'OR',
    },
  });
  search.addAll(chunks.map((chunk, id) => ({ id, heading: chunk.path.join(' '), text: chunk.text })));

  function rank(query: string, limit: number): LoreChunk[] {
    const hits = search.search(query).filter((hit) => hit.score > 0);
    // Ties go to the earlier chunk, so results never depend on MiniSearch's internal order.
    hits.sort((a, b) => b.score - a.score || (a.id as number) - (b.id as number));
    return hits.slice(0, limit).map((hit) => chunks[hit.id as number]!);
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
