// The world summary's index (summary-index.ts) follows a game from world to world by diffing shared
// tables. For random games, summaries taken in any order — forwards, back to an ancestor, across to a
// sibling branch — equal the summary of the same world decoded afresh (no lineage: indexed from scratch).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_POLICY,
  emptyWorld,
  proposeBatch,
  summarizeWorld,
  type World,
} from '../../../src/core/ledger/index.ts';
import { SUMMARY_RECENT_INDEXES } from '../../../src/core/ledger/summary-index.ts';
import { worldFromJson } from '../../../src/core/ledger/world-json.ts';

const key = fc.constantFrom('a', 'b', 'c', 'd', 'player');
const factId = fc.constantFrom('fa', 'fb', 'fc', 'fd');
const thread = fc.constantFrom('t1', 't2', 't3');
const text = fc.constantFrom('x', 'y', 'calm', 'Mara', 'the well');
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const event: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({
    event_type: fc.constant('create_entity'),
    entity: fc.constantFrom('e1', 'e2', 'e3'),
    name: text,
  }),
  fc.record({ event_type: fc.constant('set_entity_status'), entity: key, status: text }),
  fc.record({ event_type: fc.constant('set_current_location'), entity: key, location: key }),
  fc.record({ event_type: fc.constant('set_possession'), item: key, owner: key }),
  fc.record({ event_type: fc.constant('clear_possession'), item: key }),
  fc.record({
    event_type: fc.constant('add_fact'),
    predicate: text,
    subject: maybe(key),
    object: maybe(fc.oneof(key, factId)),
    fact_id: maybe(factId),
    value: maybe(fc.integer({ min: 0, max: 9 })),
  }),
  // Twice as likely as the others: facts are what the summary ranks.
  fc.record({ event_type: fc.constant('add_fact'), predicate: text, subject: key }),
  fc.record({ event_type: fc.constant('invalidate_fact'), fact_id: factId }),
  fc.record({ event_type: fc.constant('open_story_thread'), thread, title: text }),
  fc.record({ event_type: fc.constant('resolve_story_thread'), thread }),
  fc.record({
    event_type: fc.constant('set_scene'),
    summary: maybe(text),
    location: maybe(key),
    present: maybe(fc.uniqueArray(key, { maxLength: 3 })),
  }),
);

const PRELUDE: Record<string, unknown>[] = ['a', 'b', 'c', 'd', 'player'].map((k) => ({
  event_type: 'create_entity',
  entity: k,
  name: k.toUpperCase(),
}));

/** Each step extends one earlier world (often the last: a game; sometimes another: a branch). */
const game = fc.array(
  fc.record({
    from: fc.nat(),
    branch: fc.boolean(),
    events: fc.array(event, { minLength: 1, maxLength: 3 }),
  }),
  { minLength: 1, maxLength: 30 },
);

function grow(steps: { from: number; branch: boolean; events: Record<string, unknown>[] }[]): World[] {
  const first = proposeBatch(emptyWorld(), PRELUDE, DEFAULT_POLICY, { at: { turn: 1 } });
  if (!first.ok) throw new Error('prelude refused');
  const worlds = [first.world];
  steps.forEach(({ from, branch, events }, i) => {
    const base = branch ? worlds[from % worlds.length]! : worlds[worlds.length - 1]!;
    const next = proposeBatch(base, events, DEFAULT_POLICY, { at: { turn: i + 2 } });
    if (next.ok) worlds.push(next.world);
  });
  return worlds;
}

function fresh(world: World): World {
  const decoded = worldFromJson(JSON.parse(JSON.stringify(world)));
  if (!decoded.ok) throw new Error(decoded.message);
  return decoded.world;
}

describe('summary index', () => {
  it('summaries in any order equal the summary of the same world indexed from scratch', () => {
    fc.assert(
      fc.property(
        game,
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.constantFrom(40, 2_000),
        (steps, order, budget) => {
          const worlds = grow(steps);
          // Forwards first (a game being played), then jumps anywhere.
          const visits = [...worlds.keys(), ...order.map((n) => n % worlds.length)];
          for (const at of visits) {
            const world = worlds[at]!;
            expect(summarizeWorld(world, { tokenBudget: budget })).toEqual(
              summarizeWorld(fresh(world), { tokenBudget: budget }),
            );
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it(`more interleaved games than SUMMARY_RECENT_INDEXES (${SUMMARY_RECENT_INDEXES}) each keep a right summary`, () => {
    fc.assert(
      fc.property(
        fc.array(game, { minLength: SUMMARY_RECENT_INDEXES + 4, maxLength: SUMMARY_RECENT_INDEXES + 4 }),
        (games) => {
          const played = games.map(grow);
          const longest = Math.max(...played.map((worlds) => worlds.length));
          for (let turn = 0; turn < longest; turn++)
            for (const worlds of played) {
              const world = worlds[Math.min(turn, worlds.length - 1)]!;
              expect(summarizeWorld(world)).toEqual(summarizeWorld(fresh(world)));
            }
        },
      ),
      { numRuns: 5 },
    );
  });

  it('the generator makes worlds with facts, threads, a scene with people and held things (not vacuous)', () => {
    const seen = { facts: 0, threads: 0, present: 0, held: 0 };
    fc.assert(
      fc.property(game, (steps) => {
        const last = grow(steps).at(-1)!;
        const text = summarizeWorld(last, { tokenBudget: 2_000 }).text;
        if (text.includes('Facts:')) seen.facts++;
        if (text.includes('Open threads:')) seen.threads++;
        if (text.includes('Present:')) seen.present++;
        if (Object.values(last.entities).some((e) => e.holder !== undefined)) seen.held++;
      }),
      // A fixed seed: this measures the generator, and an unlucky random draw (9 held things in 100 games)
      // must not fail it.
      { numRuns: 100, seed: 20_261_201 },
    );
    expect(Math.min(...Object.values(seen))).toBeGreaterThan(10);
  });
});
