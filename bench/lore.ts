// Lore benchmarks: BM25 index build time and lookup latency (p50/p99) on a generated lore file of
// 10,000 sections, for one-query and three-query lookups. Target: lookup p50 under 1 ms.
// `npx tsx bench/lore.ts` prints one JSON object per line.

import { pathToFileURL } from 'node:url';
import { buildLoreIndex } from '../src/lore/lore-index.ts';

type Row = Record<string, unknown>;

const SECTIONS = 10_000;
const LOOKUPS = 2_000;
const TARGET_P50_MS = 1;

const WORDS = (
  'ancient goblin wolf dragon tower river forest village knight shadow guild merchant temple priest moon sun ' +
  'crystal sword shield ruin mountain cave swamp bridge king queen rebel thief scholar mage spell rune portal ' +
  'harbor ship storm winter harvest festival plague relic oath betrayal crown throne border fortress mine ' +
  'golem spirit ghost witch herb potion market tavern bounty hunter scout caravan desert oasis jungle'
).split(' ');

// A small deterministic generator (LCG): same lore on every run, no global randomness.
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

export function generateLore(sections: number, seed = 42): string {
  const random = generator(seed);
  const word = (): string => WORDS[Math.floor(random() * WORDS.length)]!;
  const out: string[] = ['Generated lore for benchmarks.'];
  for (let i = 0; i < sections; i++) {
    const level = i % 10 === 0 ? '#' : i % 3 === 0 ? '###' : '##';
    out.push(`${level} ${word()} ${word()} ${i}`);
    const sentences = 2 + Math.floor(random() * 4);
    for (let s = 0; s < sentences; s++) {
      out.push(`${Array.from({ length: 8 + Math.floor(random() * 8) }, word).join(' ')}.`);
    }
    out.push('');
  }
  return out.join('\n');
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const round = (ms: number): number => Math.round(ms * 1000) / 1000;

export async function benchLore(): Promise<Row[]> {
  const lore = generateLore(SECTIONS);
  const buildStart = performance.now();
  const index = buildLoreIndex(lore);
  const buildMs = performance.now() - buildStart;

  const random = generator(7);
  const word = (): string => WORDS[Math.floor(random() * WORDS.length)]!;
  const rows: Row[] = [];
  for (const queriesPerLookup of [1, 3]) {
    const lookups = Array.from({ length: LOOKUPS }, () =>
      Array.from({ length: queriesPerLookup }, () => `${word()} ${word()}`),
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
