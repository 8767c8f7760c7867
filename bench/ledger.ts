// Ledger benchmarks: apply and validate + apply cost at 100 vs 10,000 entities (target ≤ 2×: O(batch),
// not O(world)), validation + apply throughput, stateAt at turn 10,000 (target p50 < 1 ms), and the
// world-summary size for a world of 500 entities and 5,000 facts (it must stay within its budget).
// Run alone with `npx tsx bench/ledger.ts` (one JSON line per row).

import {
  applyBatch,
  DEFAULT_POLICY,
  DEFAULT_SUMMARY_TOKEN_BUDGET,
  emptyWorld,
  factCount,
  LedgerIndex,
  proposeBatch,
  summarizeWorld,
  type LedgerEvent,
  type World,
} from '../src/ledger/index.ts';
import { lcg, percentile } from './common.ts';

type Row = Record<string, unknown>;

/** A realistic turn: a few attribute/location/status changes, a fact, sometimes a new entity or a thread. */
function turnBatch(turn: number, entities: number, rand: () => number): Record<string, unknown>[] {
  const pick = () => `e${Math.floor(rand() * entities)}`;
  const batch: Record<string, unknown>[] = [
    {
      event_type: 'set_entity_attribute',
      entity: pick(),
      attribute: 'mood',
      value: rand() < 0.5 ? 'calm' : 'wary',
    },
    { event_type: 'set_entity_status', entity: pick(), status: rand() < 0.5 ? 'active' : 'resting' },
    { event_type: 'add_fact', subject: pick(), predicate: `noticed something on turn ${turn}` },
  ];
  const place = `p${Math.floor(rand() * 20)}`;
  const who = pick();
  batch.push({ event_type: 'set_current_location', entity: who, location: place });
  if (turn % 10 === 0)
    batch.push({ event_type: 'set_scene', summary: `Scene ${turn}`, location: place, present: [who] });
  if (turn % 25 === 0)
    batch.push({ event_type: 'open_story_thread', thread: `t${turn}`, title: `Thread ${turn}` });
  return batch;
}

function setupBatches(entities: number): Record<string, unknown>[][] {
  const out: Record<string, unknown>[][] = [];
  const all: Record<string, unknown>[] = [];
  for (let i = 0; i < 20; i++)
    all.push({ event_type: 'create_entity', entity: `p${i}`, name: `Place ${i}`, entity_type: 'place' });
  for (let i = 0; i < entities; i++)
    all.push({ event_type: 'create_entity', entity: `e${i}`, name: `Person ${i}`, entity_type: 'person' });
  for (let i = 0; i < all.length; i += 32) out.push(all.slice(i, i + 32));
  return out;
}

function round(n: number, digits = 3): number {
  return Number(n.toFixed(digits));
}

function buildSession(turns: number, entities: number) {
  const rand = lcg(42);
  const index = new LedgerIndex();
  let turn = 0;
  for (const batch of setupBatches(entities)) {
    const r = proposeBatch(index.current, batch, DEFAULT_POLICY, { at: { turn }, source: 'cartridge' });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    index.append({ turn, events: r.events });
    turn++;
  }
  let events = 0;
  const start = performance.now();
  for (; turn <= turns; turn++) {
    const batch = turnBatch(turn, entities, rand);
    const r = index.commit(batch, DEFAULT_POLICY, { turn });
    if (!r.ok) throw new Error(`turn ${turn}: ${JSON.stringify(r.errors)}`);
    events += r.events.length;
  }
  return { index, events, ms: performance.now() - start };
}

function summaryWorld(entities: number, facts: number): World {
  let world = emptyWorld();
  const creates: Record<string, unknown>[] = [];
  for (let i = 0; i < entities; i++)
    creates.push({
      event_type: 'create_entity',
      entity: `e${i}`,
      name: `Person ${i}`,
      entity_type: 'person',
    });
  const factsEvents: Record<string, unknown>[] = [];
  for (let i = 0; i < facts; i++) {
    factsEvents.push({
      event_type: 'add_fact',
      fact_id: `k${i}`,
      subject: `e${i % entities}`,
      predicate: `has a secret numbered ${i}`,
      value: i,
    });
  }
  const scene = [
    {
      event_type: 'set_scene',
      summary: 'A crowded market square',
      location: 'e0',
      present: Array.from({ length: 12 }, (_, i) => `e${i + 1}`),
    },
    ...Array.from({ length: 30 }, (_, i) => ({
      event_type: 'open_story_thread',
      thread: `t${i}`,
      title: `A rumour about person ${i}`,
    })),
  ];
  let turn = 0;
  for (const all of [creates, factsEvents, scene]) {
    for (let i = 0; i < all.length; i += 32) {
      const r = proposeBatch(world, all.slice(i, i + 32), DEFAULT_POLICY, {
        at: { turn: turn++ },
        source: 'cartridge',
      });
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      world = r.world;
    }
  }
  return world;
}

/** A world of `n` people (created through the validator, as a cartridge would), plus 20 places. */
function peopleWorld(n: number): World {
  let world = emptyWorld();
  let turn = 0;
  for (const batch of setupBatches(n)) {
    const r = proposeBatch(world, batch, DEFAULT_POLICY, { at: { turn: turn++ }, source: 'cartridge' });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    world = r.world;
  }
  return world;
}

/** p50 of `fn` over `runs` calls, after a warm-up, in ms. */
function p50Of(runs: number, fn: (i: number) => void): number {
  for (let i = 0; i < 200; i++) fn(i);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn(i);
    times.push(performance.now() - t0);
  }
  return percentile(
    times.sort((a, b) => a - b),
    50,
  );
}

/**
 * Ledger apply must cost O(batch), not O(world) (issue 10): one turn's batch — a new entity, an attribute,
 * a status, a move and a fact — on a world of 100 entities and on one of 10,000, both the bare apply and
 * the whole per-turn validate + apply (`proposeBatch`, which also runs the look-alike name check).
 */
export function benchApplyScaling(): Row[] {
  const rows: Row[] = [];
  const small = peopleWorld(100);
  const large = peopleWorld(10_000);
  const turnEvents = (i: number): Record<string, unknown>[] => [
    { event_type: 'create_entity', entity: `newcomer_${i}`, name: `Newcomer ${i}`, entity_type: 'person' },
    { event_type: 'set_entity_attribute', entity: `e${i % 100}`, attribute: 'mood', value: 'wary' },
    { event_type: 'set_entity_status', entity: `e${(i * 7) % 100}`, status: 'resting' },
    { event_type: 'set_current_location', entity: `e${(i * 3) % 100}`, location: `p${i % 20}` },
    { event_type: 'add_fact', subject: `e${i % 100}`, predicate: `noticed something on turn ${i}` },
  ];
  // The same validated batches for both worlds: validation is timed separately below.
  const validated: LedgerEvent[][] = [];
  for (let i = 0; i < 256; i++) {
    const r = proposeBatch(small, turnEvents(i), DEFAULT_POLICY, { at: { turn: 100_000 } });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    validated.push(r.events as LedgerEvent[]);
  }
  const measure = (name: string, fn: (world: World, i: number) => void) => {
    const a = p50Of(2_000, (i) => fn(small, i));
    const b = p50Of(2_000, (i) => fn(large, i));
    rows.push({
      bench: name,
      entities100Ms: round(a, 4),
      entities10000Ms: round(b, 4),
      ratio: round(b / a, 2),
      target: '≤ 2×',
      pass: b / a <= 2,
    });
  };
  measure('ledger.apply_scaling (applyBatch, one turn of 5 events)', (world, i) => {
    applyBatch(world, validated[i % validated.length]!, { turn: 100_000 });
  });
  measure('ledger.propose_scaling (validate + apply, one turn of 5 events)', (world, i) => {
    const r = proposeBatch(world, turnEvents(i), DEFAULT_POLICY, { at: { turn: 100_000 } });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
  });
  return rows;
}

export async function benchLedger(): Promise<Row[]> {
  const rows: Row[] = [...benchApplyScaling()];

  const { index, events, ms } = buildSession(10_000, 300);
  rows.push({
    bench: 'ledger.validate_apply',
    turns: 10_000,
    events,
    events_per_sec: Math.round((events / ms) * 1000),
  });

  const rand = lcg(7);
  const samples: number[] = [];
  for (let i = 0; i < 400; i++) {
    const turn = 9_000 + Math.floor(rand() * 1_001);
    const t0 = performance.now();
    index.stateAt(turn);
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const world = index.current;
  rows.push({
    bench: 'ledger.stateAt',
    turn: 10_000,
    entities: Object.keys(world.entities).length,
    facts: factCount(world),
    snapshot_interval: index.snapshotInterval,
    p50_ms: round(percentile(samples, 50)),
    p99_ms: round(percentile(samples, 99)),
    target_p50_ms: 1,
    within_target: percentile(samples, 50) < 1,
  });

  const big = summaryWorld(500, 5_000);
  const t0 = performance.now();
  const summary = summarizeWorld(big, { tokenBudget: DEFAULT_SUMMARY_TOKEN_BUDGET });
  rows.push({
    bench: 'ledger.summary',
    entities: 500,
    facts: 5_000,
    tokens: summary.tokens,
    budget: summary.budget,
    within_budget: summary.tokens <= summary.budget,
    included_facts: summary.included.facts,
    dropped_facts: summary.dropped.facts,
    ms: round(performance.now() - t0),
  });
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await benchLedger()) process.stdout.write(`${JSON.stringify(row)}\n`);
}
