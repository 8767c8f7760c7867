// World Info benchmarks: one activation of a typical book (200 entries) and of a book at the entry limit
// (MAX_WI_ENTRIES), three keys each, groups, probabilities and recursion on, against long messages; and the
// worst regex key the policy allows (one unbounded quantifier) on the longest text it may run against.
// Targets: activation p50 under 5 ms (200 entries) and 50 ms (2,000); the worst allowed regex under 10 ms
// per test (MAX_WI_REGEX_TESTS of them at most per activation). `npx tsx bench/world-info.ts` prints one
// JSON object per line.

import { pathToFileURL } from 'node:url';
import { activateWorldInfo } from '../src/core/lore/world-info.ts';
import { parseWorldInfoFile } from '../src/core/lore/world-info-format.ts';
import { MAX_WI_ENTRIES, MAX_WI_REGEX_TEXT_CHARS } from '../src/core/lore/world-info-limits.ts';
import { parseRegexKey } from '../src/core/lore/world-info-regex.ts';
import { lcg, percentile, round3 as round } from './common.ts';

type Row = Record<string, unknown>;

const ACTIVATIONS = 200;
const TARGET_P50_MS: ReadonlyMap<number, number> = new Map([
  [200, 5],
  [MAX_WI_ENTRIES, 50],
]);
const TARGET_REGEX_MS = 10;

const SYLLABLES = 'ka ri tho mel an dor vex lu sa gor in el mar ath quen bri os tal fen yr'.split(' ');
function word(random: () => number): string {
  return Array.from(
    { length: 2 + Math.floor(random() * 2) },
    () => SYLLABLES[Math.floor(random() * SYLLABLES.length)],
  ).join('');
}

function activationRow(size: number): Row {
  const random = lcg(11);
  const entries: Record<string, unknown> = {};
  for (let uid = 0; uid < size; uid++) {
    entries[uid] = {
      uid,
      key: [word(random), word(random), word(random)],
      keysecondary: uid % 5 === 0 ? [word(random)] : [],
      selective: true,
      selectiveLogic: uid % 4,
      content: Array.from({ length: 12 }, () => word(random)).join(' '),
      order: uid % 200,
      group: uid % 10 === 0 ? `g${uid % 30}` : '',
      probability: uid % 7 === 0 ? 50 : 100,
    };
  }
  const parsed = parseWorldInfoFile({ entries, token_budget: 4_000 }, 'bench');
  if (!parsed.ok) throw new Error('bench book does not parse');
  const book = parsed.book;
  const messages = Array.from({ length: 10 }, () =>
    Array.from({ length: 300 }, () => word(random)).join(' '),
  );
  const times: number[] = [];
  let activated = 0;
  for (let i = 0; i < ACTIVATIONS + 20; i++) {
    const start = performance.now();
    const result = activateWorldInfo(book, { messages, chatLength: 20, timed: [], seed: i });
    if (i >= 20) {
      times.push(performance.now() - start);
      activated += result.activated.length;
    }
  }
  times.sort((a, b) => a - b);
  const p50 = percentile(times, 50);
  const target = TARGET_P50_MS.get(size)!;
  return {
    bench: 'world_info.activate',
    entries: book.entries.length,
    message_chars: messages.join('\n').length,
    activations: ACTIVATIONS,
    avg_activated: round(activated / ACTIVATIONS),
    p50_ms: round(p50),
    p99_ms: round(percentile(times, 99)),
    target_p50_ms: target,
    meets_target: p50 < target,
  };
}

export async function benchWorldInfo(): Promise<Row[]> {
  const worst = parseRegexKey('/a.*b/');
  if (worst.kind !== 'regex') throw new Error('the policy should allow /a.*b/');
  const text = 'a'.repeat(MAX_WI_REGEX_TEXT_CHARS);
  const regexStart = performance.now();
  worst.regex.test(text);
  const regexMs = performance.now() - regexStart;
  const refusedStart = performance.now();
  const refused = parseRegexKey('/(a+)+$/');
  const refusedMs = performance.now() - refusedStart;

  return [
    activationRow(200),
    activationRow(MAX_WI_ENTRIES),
    {
      bench: 'world_info.worst_allowed_regex',
      pattern: '/a.*b/',
      text_chars: text.length,
      ms: round(regexMs),
      target_ms: TARGET_REGEX_MS,
      meets_target: regexMs < TARGET_REGEX_MS,
      nested_quantifier_refused: refused.kind === 'refused',
      refusal_ms: round(refusedMs),
    },
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of await benchWorldInfo()) process.stdout.write(`${JSON.stringify(row)}\n`);
}
