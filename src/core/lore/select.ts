// Turns per-query rankings into one lookup result: deduplicated across queries, interleaved by rank
// (every query's best chunk before any query's second best, so a tight budget still serves each
// query), then fitted to the token budget.

import { estimateTokens } from '../tokens.ts';
import type { LoreChunk } from './chunk.ts';

export const LORE_SEPARATOR = '\n\n---\n\n';

export interface LoreLookupResult {
  /** The chunks' texts joined with `---` separators ('' when nothing matched). */
  readonly text: string;
  readonly chunks: readonly LoreChunk[];
  /** `estimateTokens(text)`; never more than the budget. */
  readonly tokens: number;
  /** Matching chunks left out because they did not fit the budget. */
  readonly dropped: number;
}

export const EMPTY_LOOKUP: LoreLookupResult = Object.freeze({ text: '', chunks: [], tokens: 0, dropped: 0 });

export function interleaveUnique(rankings: readonly (readonly LoreChunk[])[]): LoreChunk[] {
  const seen = new Set<string>();
  const out: LoreChunk[] = [];
  const depth = Math.max(0, ...rankings.map((r) => r.length));
  for (let rank = 0; rank < depth; rank++) {
    for (const ranking of rankings) {
      const chunk = ranking[rank];
      if (chunk === undefined || seen.has(chunk.id)) continue;
      seen.add(chunk.id);
      out.push(chunk);
    }
  }
  return out;
}

/** Takes chunks in order while they fit; a chunk too big is skipped (and counted), smaller ones still fit. */
export function fitToBudget(candidates: readonly LoreChunk[], tokenBudget: number): LoreLookupResult {
  const chosen: LoreChunk[] = [];
  let text = '';
  let dropped = 0;
  for (const chunk of candidates) {
    const next = text === '' ? chunk.text : text + LORE_SEPARATOR + chunk.text;
    if (estimateTokens(next) > tokenBudget) {
      dropped++;
      continue;
    }
    chosen.push(chunk);
    text = next;
  }
  return { text, chunks: chosen, tokens: estimateTokens(text), dropped };
}
