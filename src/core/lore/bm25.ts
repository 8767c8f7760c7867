// A small BM25 index over typed arrays. MiniSearch (the first choice) allocates a result object per
// matching document, which made a lookup on 10,000 sections take tens of milliseconds whenever a query
// word was common; this scores into one reused Float64Array instead.
// Headings count HEADING_BOOST times (BM25F-style); words of PREFIX_MIN_LENGTH+ letters also match
// longer words that start with them, at PREFIX_WEIGHT; common English words are not indexed.

import { runUnsliced, UNMETERED, type WorkMeter } from '../turn-budget.ts';

export const HEADING_BOOST = 2;
export const PREFIX_MIN_LENGTH = 4;
export const PREFIX_WEIGHT = 0.5;
/** Longer words a prefix may expand to (the most frequent first), so "fore" cannot touch the whole vocabulary. */
export const MAX_PREFIX_EXPANSIONS = 20;
const K1 = 1.2;
const B = 0.75;

const STOP_WORDS = new Set(
  (
    'a an and are as at be but by for from has have he her his i if in into is it its me my no not of on or our ' +
    'she so that the their them then there these they this to was we were what when where which who will with you your'
  ).split(' '),
);

export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (word !== '' && !STOP_WORDS.has(word)) out.push(word);
  }
  return out;
}

interface Postings {
  readonly docs: Int32Array;
  readonly tfs: Float32Array;
}

export interface Bm25Document {
  readonly heading: string;
  readonly text: string;
}

export interface Bm25Hit {
  readonly doc: number;
  readonly score: number;
}

export interface Bm25Index {
  /** Documents matching `query`, best first (ties: lower index first), at most `limit`. */
  search(query: string, limit: number): Bm25Hit[];
}

export function buildBm25(documents: readonly Bm25Document[]): Bm25Index {
  return runUnsliced(buildBm25Steps(documents, UNMETERED));
}

/**
 * `buildBm25` as a sliced loop: it yields between documents whenever `meter` says its slice is due (an index of
 * a lore file at its limits takes several hundred milliseconds to build; a turn gives the event loop back
 * meanwhile). Building charges no steps: it is the cartridge's, done once per lore text.
 */
export function* buildBm25Steps(
  documents: readonly Bm25Document[],
  meter: WorkMeter,
): Generator<undefined, Bm25Index, undefined> {
  const n = documents.length;
  const lengths = new Float32Array(n);
  const building = new Map<string, { docs: number[]; tfs: number[] }>();
  for (let doc = 0; doc < n; doc++) {
    if (meter.due()) yield;
    let length = 0;
    for (const [term, count] of termFrequencies(documents[doc]!)) {
      length += count;
      let postings = building.get(term);
      if (postings === undefined) {
        postings = { docs: [], tfs: [] };
        building.set(term, postings);
      }
      postings.docs.push(doc);
      postings.tfs.push(count);
    }
    lengths[doc] = length;
  }
  const postingsOf = new Map<string, Postings>();
  for (const [term, p] of building)
    postingsOf.set(term, { docs: Int32Array.from(p.docs), tfs: Float32Array.from(p.tfs) });
  return new Bm25Searcher(lengths, postingsOf);
}

/** How often each indexed word occurs in a document, its heading's words counting HEADING_BOOST times. */
function termFrequencies(document: Bm25Document): Map<string, number> {
  const tf = new Map<string, number>();
  for (const term of tokenize(document.heading)) tf.set(term, (tf.get(term) ?? 0) + HEADING_BOOST);
  for (const term of tokenize(document.text)) tf.set(term, (tf.get(term) ?? 0) + 1);
  return tf;
}

class Bm25Searcher implements Bm25Index {
  readonly #n: number;
  readonly #vocabulary: readonly string[];
  readonly #averageLength: number;
  // Scratch space reused by every search (lookups are synchronous, so never shared between two).
  readonly #scores: Float64Array;
  readonly #touched: Int32Array;
  readonly #seen: Uint8Array;

  constructor(
    private readonly lengths: Float32Array,
    private readonly postingsOf: ReadonlyMap<string, Postings>,
  ) {
    const n = lengths.length;
    this.#n = n;
    this.#vocabulary = [...postingsOf.keys()].sort();
    let totalLength = 0;
    for (const length of lengths) totalLength += length;
    this.#averageLength = n === 0 ? 1 : totalLength / n || 1;
    this.#scores = new Float64Array(n);
    this.#touched = new Int32Array(n);
    this.#seen = new Uint8Array(n);
  }

  search(query: string, limit: number): Bm25Hit[] {
    if (this.#n === 0 || limit <= 0) return [];
    const count = this.#score(this.#weights(query));
    return this.#best(count, limit);
  }

  /** The query's words at weight 1, and the longer words its long-enough words begin, at PREFIX_WEIGHT. */
  #weights(query: string): Map<string, number> {
    const weights = new Map<string, number>();
    for (const term of tokenize(query)) {
      weights.set(term, 1);
      if (term.length >= PREFIX_MIN_LENGTH) {
        for (const longer of this.#expansions(term))
          weights.set(longer, Math.max(weights.get(longer) ?? 0, PREFIX_WEIGHT));
      }
    }
    return weights;
  }

  #expansions(prefix: string): string[] {
    const vocabulary = this.#vocabulary;
    let lo = 0;
    let hi = vocabulary.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (vocabulary[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const found: string[] = [];
    for (let i = lo; i < vocabulary.length && vocabulary[i]!.startsWith(prefix); i++) {
      if (vocabulary[i] !== prefix) found.push(vocabulary[i]!);
    }
    if (found.length <= MAX_PREFIX_EXPANSIONS) return found;
    return found
      .sort(
        (a, b) =>
          this.postingsOf.get(b)!.docs.length - this.postingsOf.get(a)!.docs.length || (a < b ? -1 : 1),
      )
      .slice(0, MAX_PREFIX_EXPANSIONS);
  }

  /** Adds each weighted word's BM25 score into the scratch scores; returns how many documents it touched. */
  #score(weights: ReadonlyMap<string, number>): number {
    const n = this.#n;
    const scores = this.#scores;
    const seen = this.#seen;
    let count = 0;
    for (const [term, weight] of weights) {
      const postings = this.postingsOf.get(term);
      if (postings === undefined) continue;
      const df = postings.docs.length;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let i = 0; i < df; i++) {
        const doc = postings.docs[i]!;
        const tf = postings.tfs[i]!;
        const norm = tf + K1 * (1 - B + (B * this.lengths[doc]!) / this.#averageLength);
        if (seen[doc] === 0) {
          seen[doc] = 1;
          this.#touched[count++] = doc;
        }
        scores[doc] = scores[doc]! + (weight * idf * (tf * (K1 + 1))) / norm;
      }
    }
    return count;
  }

  /** The best `limit` touched documents, clearing the scratch space as it reads it. */
  #best(count: number, limit: number): Bm25Hit[] {
    const scores = this.#scores;
    // Keep the best `limit` in a small sorted array; cheaper than sorting every touched document.
    const best: Bm25Hit[] = [];
    for (let i = 0; i < count; i++) {
      const doc = this.#touched[i]!;
      const score = scores[doc]!;
      scores[doc] = 0;
      this.#seen[doc] = 0;
      if (score <= 0) continue;
      if (best.length === limit) {
        const worst = best[limit - 1]!;
        if (score < worst.score || (score === worst.score && doc > worst.doc)) continue;
        best.pop();
      }
      let at = best.length;
      while (
        at > 0 &&
        (best[at - 1]!.score < score || (best[at - 1]!.score === score && best[at - 1]!.doc > doc))
      )
        at--;
      best.splice(at, 0, { doc, score });
    }
    return best;
  }
}
