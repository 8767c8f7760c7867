// Optional semantic retrieval: chunk vectors from an injected embed function, blended with BM25 by
// reciprocal rank fusion (score = sum over rankings of 1 / (RRF_K + rank)). The embed function is the
// only way out (no network here): chunks are embedded once at build, queries once per lookup.

import type { LoreChunk } from './chunk.ts';
import { LoreError } from './errors.ts';
import { RRF_CANDIDATES, RRF_K } from './limits.ts';
import type { LoreIndex } from './lore-index.ts';
import { type LoreLookupOptions, checkLookup } from './options.ts';
import { EMPTY_LOOKUP, fitToBudget, interleaveUnique, type LoreLookupResult } from './select.ts';

export type LoreEmbedFunction = (texts: string[]) => Promise<number[][]>;

export interface EmbeddedLoreIndex extends LoreIndex {
  readonly dimensions: number;
  /** BM25 and cosine rankings fused; calls the embed function once for all queries. */
  lookupAsync(queries: readonly string[], options?: LoreLookupOptions): Promise<LoreLookupResult>;
}

/** Unit-length copies, so cosine similarity is a dot product; a zero vector stays zero. */
function normalised(
  vectors: readonly (readonly number[])[],
  what: string,
  dimensions?: number,
): Float32Array[] {
  return vectors.map((vector, index) => {
    if (!Array.isArray(vector) || vector.length === 0) {
      throw new LoreError('LORE_BAD_EMBEDDINGS', `${what} ${index + 1}: not a non-empty array of numbers`);
    }
    if (dimensions !== undefined && vector.length !== dimensions) {
      throw new LoreError(
        'LORE_BAD_EMBEDDINGS',
        `${what} ${index + 1} has ${vector.length} dimensions, expected ${dimensions}`,
      );
    }
    let norm = 0;
    for (const x of vector) {
      if (typeof x !== 'number' || !Number.isFinite(x)) {
        throw new LoreError(
          'LORE_BAD_EMBEDDINGS',
          `${what} ${index + 1} contains a value that is not a finite number`,
        );
      }
      norm += x * x;
    }
    const out = new Float32Array(vector.length);
    if (norm > 0) {
      const scale = 1 / Math.sqrt(norm);
      for (let i = 0; i < vector.length; i++) out[i] = vector[i]! * scale;
    }
    return out;
  });
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

function checkCount(vectors: unknown, expected: number, what: string): asserts vectors is number[][] {
  if (!Array.isArray(vectors) || vectors.length !== expected) {
    const got = Array.isArray(vectors) ? `${vectors.length} vectors` : 'no array';
    throw new LoreError('LORE_BAD_EMBEDDINGS', `the embed function returned ${got} for ${expected} ${what}`);
  }
}

export async function withEmbeddings(index: LoreIndex, embed: LoreEmbedFunction): Promise<EmbeddedLoreIndex> {
  const chunks = index.chunks;
  const position = new Map<string, number>(chunks.map((chunk, i) => [chunk.id, i]));
  let chunkVectors: Float32Array[] = [];
  if (chunks.length > 0) {
    const raw = await embed(chunks.map((chunk) => chunk.text));
    checkCount(raw, chunks.length, 'chunks');
    const first = raw[0];
    chunkVectors = normalised(raw, 'chunk vector', Array.isArray(first) ? first.length : undefined);
  }
  const dimensions = chunkVectors[0]?.length ?? 0;

  function cosineRanking(query: Float32Array, limit: number): LoreChunk[] {
    const scored: { at: number; score: number }[] = [];
    chunkVectors.forEach((vector, at) => {
      const score = dot(query, vector);
      if (score > 0) scored.push({ at, score });
    });
    scored.sort((a, b) => b.score - a.score || a.at - b.at);
    return scored.slice(0, limit).map((s) => chunks[s.at]!);
  }

  function fused(rankings: readonly (readonly LoreChunk[])[], k: number): LoreChunk[] {
    const score = new Map<string, number>();
    for (const ranking of rankings) {
      ranking.forEach((chunk, rank) => {
        score.set(chunk.id, (score.get(chunk.id) ?? 0) + 1 / (RRF_K + rank + 1));
      });
    }
    return [...score.entries()]
      .sort((a, b) => b[1] - a[1] || position.get(a[0])! - position.get(b[0])!)
      .slice(0, k)
      .map(([id]) => chunks[position.get(id)!]!);
  }

  return {
    chunks,
    dimensions,
    rank: (query, limit) => index.rank(query, limit),
    lookup: (queries, options) => index.lookup(queries, options),
    async lookupAsync(queries, options) {
      const checked = checkLookup(queries, options);
      if (checked.queries.length === 0 || chunks.length === 0) return EMPTY_LOOKUP;
      const raw = await embed([...checked.queries]);
      checkCount(raw, checked.queries.length, 'queries');
      const queryVectors = normalised(raw, 'query vector', dimensions);
      const rankings = checked.queries.map((query, i) =>
        fused(
          [index.rank(query, RRF_CANDIDATES), cosineRanking(queryVectors[i]!, RRF_CANDIDATES)],
          checked.k,
        ),
      );
      return fitToBudget(interleaveUnique(rankings), checked.tokenBudget);
    },
  };
}
