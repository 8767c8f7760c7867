// Lore benchmarks: BM25 index build time and lookup latency (p50/p99) on a generated lore file of
// 10,000 sections, for one-query and three-query lookups. Target: lookup p50 under 1 ms.
// `npx tsx bench/lore.ts` prints one JSON object per line.

import { pathToFileURL } from 'node:url';
import { buildLoreIndex } from '../src/lore/lore-index.ts';
import { lcg, percentile, round3 as round } from './common.ts';

type Row = Record<string, unknown>;

const SECTIONS = 10_000;
const LOOKUPS = 2_000;
const TARGET_P50_MS = 1;

const VOCABULARY_SIZE = 4_000;
const SYLLABLES =
  'ka ri tho mel an dor vex lu sa gor in el mar ath quen bri os tal fen yr wy ash dru nim ol'.split(' ');
const FUNCTION_WORDS = 'the of and a to in is was with for on at by from'.split(' ');

// Invented words with a Zipf distribution (word n has weight 1/n), like the names and nouns of real
// lore: a few words are everywhere, most appear in a handful of sections.
function zipfWords(random: () => number): () => string {
  const words = Array.from({ length: VOCABULARY_SIZE }, (_, n) => {
    let word = '';
    let x = n + 1;
    do {
      word += SYLLABLES[x % SYLLABLES.length];
      x = Math.floor(x / SYLLABLES.length);
    } while (x > 0);
    return word;
  });
  const cumulative: number[] = [];
  let total = 0;
  for (let n = 1; n <= VOCABULARY_SIZE; n++) {
    total += 1 / n;
    cumulative.push(total);
  }
  return () => {
    const target = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return words[lo]!;
  };
}

export function generateLore(sections: number, seed = 42): string {
  const random = lcg(seed);
  const word = zipfWords(random);
  const any = (): string =>
    random() < 0.3 ? FUNCTION_WORDS[Math.floor(random() * FUNCTION_WORDS.length)]! : word();
  const out: string[] = ['Generated lore for benchmarks.'];
  for (let i = 0; i < sections; i++) {
    const level = i % 10 === 0 ? '#' : i % 3 === 0 ? '###' : '##';
    out.push(`${level} ${word()} ${word()}`);
    const sentences = 2 + Math.floor(random() * 4);
    for (let s = 0; s < sentences; s++) {
      out.push(`${Array.from({ length: 8 + Math.floor(random() * 8) }, any).join(' ')}.`);
    }
    out.push('');
  }
  return out.join('\n');
}

export async function benchLore(): Promise<Row[]> {
  const lore = generateLore(SECTIONS);
  const buildStart = performance.now();
  const index = buildLoreIndex(lore);
  const buildMs = performance.now() - buildStart;

  const word = zipfWords(lcg(7));
  const rows: Row[] = [];
  for (const queriesPerLookup of [1, 3]) {
    const lookups = Array.from({ length: LOOKUPS }, () =>
      // Director-style queries: one or two topic words each.
      Array.from({ length: queriesPerLookup }, (_, q) => (q % 2 === 0 ? word() : `${word()} ${word()}`)),
    );
    for (const queries of lookups.slice(0, 200)) index.lookup(queries); // warm up
    const times: number[] = [];
    let returned = 0;
    for (const queries of lookups) {
      const start = performance.now();
      const result = index.lookup(queries);
      times.push(performance.now() - start);
      returned += result.chunks.length;
    }
    times.sort((a, b) => a - b);
    const p50 = percentile(times, 50);
    rows.push({
      bench: 'lore.lookup',
      sections: index.chunks.length,
      lore_chars: lore.length,
      queries_per_lookup: queriesPerLookup,
      lookups: LOOKUPS,
      avg_chunks_returned: round(returned / LOOKUPS),
      p50_ms: round(p50),
      p99_ms: round(percentile(times, 99)),
      build_ms: round(buildMs),
      target_p50_ms: TARGET_P50_MS,
      meets_target: p50 < TARGET_P50_MS,
    });
  }
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of await benchLore()) process.stdout.write(`${JSON.stringify(row)}\n`);
}
