// Knowledge scoping (in `npm run bench` as the `knowledge-scoping` suite): what the rule of
// src/engine/turn/secret-phrases.ts costs a turn at its limits, on the request thread. A world with
// MAX_SECRET_FACTS_SCANNED current facts (each with a predicate of ~12 words and a value, learned by one
// NPC), the index of what another NPC does not know built once (the first prompt of the turn pays it), then
// hiding over a free text of 100,000 characters (the Director's words, lore and history together are far
// less). Rows: the build and the hide, median and max of RUNS runs, with the index's size and whether it
// stayed within MAX_SECRET_PHRASES (past it the free text is left out, which costs nothing).

import { performance } from 'node:perf_hooks';
import { applyBatch, emptyWorld, type LedgerEvent, type World } from '../src/core/ledger/index.ts';
import { MAX_SECRET_FACTS_SCANNED, readerFactPhrases } from '../src/engine/turn/director-text.ts';
import type { SecretPhrases } from '../src/engine/turn/secret-phrases.ts';
import { lcg, median } from './common.ts';

const RUNS = 5;
const WORDS =
  'lamp tower keeper tide harbour rope bell chapel altar stone vault stair cellar mill wheel pond'.split(' ');

function bigWorld(): World {
  const random = lcg(11);
  const word = () => `${WORDS[Math.floor(random() * WORDS.length)]}${Math.floor(random() * 500)}`;
  let world = applyBatch(
    emptyWorld(),
    [
      { type: 'create_entity', entity: 'mara', name: 'Mara' },
      { type: 'create_entity', entity: 'bran', name: 'Bran' },
    ],
    { turn: 0 },
  );
  const events: LedgerEvent[] = [];
  for (let i = 0; i < MAX_SECRET_FACTS_SCANNED; i++)
    events.push({
      type: 'add_fact',
      fact_id: `f${i}`,
      predicate: Array.from({ length: 12 }, word).join(' ').slice(0, 120),
      value: word(),
      learned_by: ['mara'],
    });
  for (let i = 0; i < events.length; i += 32) world = applyBatch(world, events.slice(i, i + 32), { turn: 1 });
  return world;
}

/** What a turn's first NPC prompt pays: the reader's index, over facts whose phrases are made (first run) or kept. */
function build(world: World): SecretPhrases {
  return readerFactPhrases(world, 'bran');
}

export async function benchKnowledgeScoping(): Promise<Array<Record<string, unknown>>> {
  const world = bigWorld();
  const random = lcg(5);
  const text = Array.from(
    { length: 14_000 },
    () => `${WORDS[Math.floor(random() * WORDS.length)]}${Math.floor(random() * 500)}`,
  )
    .join(' ')
    .slice(0, 100_000);
  const builds: number[] = [];
  const hides: number[] = [];
  let phrases: SecretPhrases | undefined;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    phrases = build(world);
    builds.push(performance.now() - t0);
    const t1 = performance.now();
    phrases.hide(text);
    hides.push(performance.now() - t1);
  }
  const round = (n: number) => Number(n.toFixed(2));
  return [
    {
      bench: 'knowledge-scoping',
      what: `index of ${MAX_SECRET_FACTS_SCANNED} unknown facts (MAX_SECRET_FACTS_SCANNED), first time (each fact's phrases made)`,
      phrases: phrases?.size,
      over: phrases?.over,
      ms: round(builds[0]!),
    },
    {
      bench: 'knowledge-scoping',
      what: 'the same index on a later turn (fact phrases kept; what each turn pays)',
      medianMs: round(median(builds.slice(1))),
      maxMs: round(Math.max(...builds.slice(1))),
    },
    {
      bench: 'knowledge-scoping',
      what: 'hide over 100,000 characters of free text',
      medianMs: round(median(hides)),
      maxMs: round(Math.max(...hides)),
    },
  ];
}
