// A lore lookup that honours `when:` conditions and says why each section is in its result or not: the
// same ranking, interleaving and budget as `LoreIndex.lookup` (select.ts), with sections whose condition
// is false left out whatever the words, and one receipt per section the lookup considered.

import { estimateTokens } from '../tokens.ts';
import type { LoreChunk } from './chunk.ts';
import type { LoreIndex } from './lore-index.ts';
import { checkLookup, type LoreLookupOptions } from './options.ts';
import { EMPTY_LOOKUP, interleaveUnique, LORE_SEPARATOR, type LoreLookupResult } from './select.ts';

/** Whether a section may be in play this turn: no condition, or its condition's verdict. */
export type LoreAdmission =
  | { readonly kind: 'always' }
  | { readonly kind: 'when'; readonly held: boolean; readonly why: string };

export type LoreReceiptStatus = 'included' | 'over_budget' | 'excluded';

/** Why one section is, or is not, in a lookup's result. */
export interface LoreReceipt {
  readonly chunkId: string;
  readonly heading: string;
  readonly line: number;
  readonly status: LoreReceiptStatus;
  /** `matched "goblin" (rank 1)`, `when held: …`, `when false: …`, `over the lore budget of 600 tokens`. */
  readonly why: string;
  readonly tokens: number;
}

export interface AdmittedLookup {
  readonly result: LoreLookupResult;
  readonly receipts: readonly LoreReceipt[];
}

/**
 * Ranks every query as `lookup` does, over the sections `admit` lets in: a section whose condition is false
 * matches nothing (its receipt says it matched and was excluded). `admit` is asked once per ranked section.
 */
export function lookupAdmitted(
  index: LoreIndex,
  queries: readonly string[],
  options: LoreLookupOptions,
  admit: (chunk: LoreChunk) => LoreAdmission,
): AdmittedLookup {
  const checked = checkLookup(queries, options);
  if (checked.queries.length === 0 || index.chunks.length === 0)
    return { result: EMPTY_LOOKUP, receipts: [] };
  const admission = new Map<string, LoreAdmission>();
  const admissionOf = (chunk: LoreChunk): LoreAdmission => {
    let a = admission.get(chunk.id);
    if (a === undefined) {
      a = admit(chunk);
      admission.set(chunk.id, a);
    }
    return a;
  };
  const excluded = new Map<string, LoreReceipt>();
  const matchedBy = new Map<string, string>();
  const rankings = checked.queries.map((query) =>
    // Enough hits that `k` admitted ones survive however many excluded sections rank above them.
    admittedHits(query, index.rank(query, checked.k + index.chunks.length), checked.k, admissionOf, {
      excluded,
      matchedBy,
    }),
  );
  const fitted = fitWithReceipts(interleaveUnique(rankings), checked.tokenBudget, matchedBy);
  return { result: fitted.result, receipts: [...fitted.receipts, ...excluded.values()] };
}

/**
 * The first `k` of one query's hits that are admitted; an excluded one gets a receipt (its first exclusion),
 * a kept one its reason (its first match).
 */
function admittedHits(
  query: string,
  hits: readonly LoreChunk[],
  k: number,
  admissionOf: (chunk: LoreChunk) => LoreAdmission,
  why: { excluded: Map<string, LoreReceipt>; matchedBy: Map<string, string> },
): LoreChunk[] {
  const kept: LoreChunk[] = [];
  for (const [rank, chunk] of hits.entries()) {
    if (kept.length === k) break;
    const a = admissionOf(chunk);
    if (a.kind === 'when' && !a.held) {
      if (!why.excluded.has(chunk.id)) {
        why.excluded.set(chunk.id, {
          chunkId: chunk.id,
          heading: chunk.heading,
          line: chunk.line,
          status: 'excluded',
          why: `matched ${JSON.stringify(query)} but ${a.why}`,
          tokens: chunk.tokens,
        });
      }
      continue;
    }
    if (!why.matchedBy.has(chunk.id)) {
      const when = a.kind === 'when' ? `; ${a.why}` : '';
      why.matchedBy.set(chunk.id, `matched ${JSON.stringify(query)} (rank ${rank + 1})${when}`);
    }
    kept.push(chunk);
  }
  return kept;
}

/** `fitToBudget` of select.ts, with a receipt for every candidate (kept, or over the budget). */
export function fitWithReceipts(
  candidates: readonly LoreChunk[],
  tokenBudget: number,
  whyOf: ReadonlyMap<string, string>,
): { result: LoreLookupResult; receipts: LoreReceipt[] } {
  const chosen: LoreChunk[] = [];
  const receipts: LoreReceipt[] = [];
  let text = '';
  let dropped = 0;
  for (const chunk of candidates) {
    const next = text === '' ? chunk.text : text + LORE_SEPARATOR + chunk.text;
    const why = whyOf.get(chunk.id) ?? 'in play';
    const over = estimateTokens(next) > tokenBudget;
    receipts.push({
      chunkId: chunk.id,
      heading: chunk.heading,
      line: chunk.line,
      status: over ? 'over_budget' : 'included',
      why: over ? `${why}; left out: over the lore budget of ${tokenBudget} tokens` : why,
      tokens: chunk.tokens,
    });
    if (over) {
      dropped++;
      continue;
    }
    chosen.push(chunk);
    text = next;
  }
  return { result: { text, chunks: chosen, tokens: estimateTokens(text), dropped }, receipts };
}
