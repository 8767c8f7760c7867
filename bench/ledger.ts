// Ledger benchmarks: apply and validate + apply cost at 100 vs 10,000 entities (target ≤ 2×: O(batch),
// not O(world)); a 10,000-turn game whose world gains an entity and a fact every turn, timed on the path
// the engine runs (`proposeBatch` on the turn's world, as the turn does; LedgerIndex is not used by the
// engine): validate + apply per turn at the end vs the start (target ≤ 2×), and the cold world read at
// turn 10,000 (`worldFromBase`: the stored snapshot parsed plus the batches since it, under the session's
// snapshot rule, at the worst point of its cycle (the last turn before a snapshot's last piece is stored); target ≤ 2× reading the snapshot alone); and the
// world-summary size for a world of 500 entities and 5,000 facts (it must stay within its budget).
// Run alone with `npx tsx bench/ledger.ts` (one JSON line per row).

import {
  applyBatch,
  DEFAULT_POLICY,
  DEFAULT_SUMMARY_TOKEN_BUDGET,
  emptyWorld,
  factCount,
  proposeBatch,
  toWire,
  summarizeWorld,
  type LedgerEvent,
  type World,
} from '../src/core/ledger/index.ts';
import { worldFromBase } from '../src/engine/session/ledger.ts';
import {
  DEFAULT_SNAPSHOT_RULE,
  nextSnapshotProgress,
  type SnapshotProgress,
} from '../src/engine/session/world-cache.ts';
import type { LedgerEntry, WorldBase } from '../src/adapters/store/index.ts';
import { lcg, median, percentile } from './common.ts';

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
 * Ledger apply must cost O(batch), not O(world): one turn's batch — a new entity, an attribute,
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

/** What a cold read of a turn finds: the last complete snapshot (as stored) and the events since its turn. */
interface Cycle {
  snapshot: { depth: number; text: string } | null;
  entries: LedgerEntry[];
  chars: number;
  turns: number;
}

/**
 * A game of `turns` turns on a world that grows every turn (a newcomer and a fact, beside the usual
 * changes to the 300 regulars), played the way the engine plays it: `proposeBatch` on the turn's world.
 * Snapshots follow the session's rule (`nextSnapshotProgress`: begun when due, stored a few pieces per
 * turn, read once complete), so the cold read at the end is the real one.
 */
export function benchGrowingWorld(turns: number): Row[] {
  const rand = lcg(42);
  let world = peopleWorld(300);
  const startEntities = Object.keys(world.entities).length;
  const times: number[] = [];
  let events = 0;
  let cycle: Cycle = { snapshot: null, entries: [], chars: 0, turns: 0 };
  let progress: SnapshotProgress = { sinceSnapshotChars: 0, snapshotChars: 0, sinceSnapshotTurns: 0 };
  /** The snapshot being stored: its depth, text, and where its turn's successors begin in `cycle.entries`. */
  let pending: { depth: number; text: string; from: number; chars: number; turns: number } | undefined;
  // The worst cold read near the end: the last turn before a snapshot is complete, at or before `turns`.
  let worst: Cycle | undefined;
  let worstDepth = 0;
  for (let turn = 1; turn <= turns; turn++) {
    const batch = [
      { event_type: 'create_entity', entity: `n${turn}`, name: `Newcomer ${turn}`, entity_type: 'person' },
      ...turnBatch(turn, 300, rand),
      { event_type: 'add_fact', subject: `n${turn}`, predicate: `arrived on turn ${turn}` },
    ];
    const t0 = performance.now();
    const r = proposeBatch(world, batch, DEFAULT_POLICY, { at: { turn } });
    times.push(performance.now() - t0);
    if (!r.ok) throw new Error(`turn ${turn}: ${JSON.stringify(r.errors)}`);
    world = r.world;
    events += r.events.length;
    const wire = r.events.map((event, position) => ({
      turnId: `t${turn}`,
      depth: turn,
      position,
      event: toWire(event) as LedgerEntry['event'],
    }));
    const chars = wire.reduce((n, e) => n + JSON.stringify(e.event).length, 0);
    const before = { length: cycle.entries.length, chars: cycle.chars, turns: cycle.turns };
    cycle.entries.push(...wire);
    cycle.chars += chars;
    cycle.turns += 1;
    if (pending !== undefined) {
      pending.chars += chars;
      pending.turns += 1;
    }
    let begun: string | undefined;
    const next = nextSnapshotProgress(
      progress,
      {
        turnId: `t${turn}`,
        eventChars: chars,
        worldText: () => {
          begun = JSON.stringify(world);
          return begun;
        },
      },
      DEFAULT_SNAPSHOT_RULE,
    );
    // The rule asked for the world's text: a snapshot of this turn began.
    if (begun !== undefined)
      pending = { depth: turn, text: begun, from: cycle.entries.length, chars: 0, turns: 0 };
    progress = next.progress;
    if (next.write?.total !== undefined && pending !== undefined) {
      if (turn > turns * 0.9) {
        worst = {
          snapshot: cycle.snapshot,
          entries: cycle.entries.slice(0, before.length),
          chars: before.chars,
          turns: before.turns,
        };
        worstDepth = turn - 1;
      }
      cycle = {
        snapshot: { depth: pending.depth, text: pending.text },
        entries: cycle.entries.slice(pending.from),
        chars: pending.chars,
        turns: pending.turns,
      };
      pending = undefined;
    }
  }
  if (worst === undefined || worst.snapshot === null) {
    worst = cycle;
    worstDepth = turns;
  }
  const window = 500;
  const first = median(times.slice(0, window));
  const last = median(times.slice(-window));
  const rows: Row[] = [
    {
      bench: `ledger.validate_apply_growing (proposeBatch per turn, 7–9 events; p50 of turns 1–${window} vs the last ${window} of ${turns})`,
      entitiesStart: startEntities,
      entitiesEnd: Object.keys(world.entities).length,
      factsEnd: factCount(world),
      firstMs: round(first, 4),
      lastMs: round(last, 4),
      ratio: round(last / first, 2),
      events_per_sec: Math.round(events / (times.reduce((a, b) => a + b, 0) / 1000)),
      target: '≤ 2×',
      pass: last / first <= 2,
    },
  ];
  const snapshot = worst.snapshot!;
  const base = (): WorldBase => ({
    snapshot: {
      turnId: `t${snapshot.depth}`,
      depth: snapshot.depth,
      world: JSON.parse(snapshot.text),
      chars: snapshot.text.length,
    },
    entries: worst!.entries,
    eventChars: worst!.chars,
    depth: worstDepth,
  });
  // A cold read parses megabytes: a few runs (after one warm-up) are enough for a median.
  const timed = (fn: () => void): number => {
    fn();
    const samples: number[] = [];
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      fn();
      samples.push(performance.now() - t0);
    }
    return median(samples);
  };
  const read = timed(() => {
    const result = worldFromBase(base());
    if (!result.ok) throw new Error(`the world does not read back: ${JSON.stringify(result.errors)}`);
  });
  const snapshotOnly = timed(() => {
    const result = worldFromBase({ ...base(), entries: [], eventChars: 0, depth: snapshot.depth });
    if (!result.ok) throw new Error('the snapshot does not read back');
  });
  rows.push({
    bench: `ledger.world_read (cold: stored snapshot parsed + batches since it, worldFromBase, at turn ${worstDepth}, the last turn before a snapshot is complete)`,
    snapshotDepth: snapshot.depth,
    snapshotChars: snapshot.text.length,
    batches: worst.turns,
    eventChars: worst.chars,
    p50Ms: round(read),
    snapshotAloneP50Ms: round(snapshotOnly),
    ratio: round(read / snapshotOnly, 2),
    target: '≤ 2× the snapshot alone',
    pass: read / snapshotOnly <= 2,
  });
  return rows;
}

export async function benchLedger(): Promise<Row[]> {
  const rows: Row[] = [...benchApplyScaling()];

  rows.push(...benchGrowingWorld(10_000));

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
