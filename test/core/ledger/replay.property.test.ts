// Property tests: for random sessions of valid and invalid batches, replaying the committed log from empty
// equals the live world, a snapshot plus the tail equals the full fold, and a rejected
// batch changes nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  DEFAULT_POLICY,
  foldLog,
  LedgerIndex,
  proposeBatch,
  replayLog,
  toWire,
  type World,
} from '../../../src/core/ledger/index.ts';

const key = fc.constantFrom('a', 'b', 'c', 'd', 'player');
const factId = fc.constantFrom('fa', 'fb', 'fc');
const thread = fc.constantFrom('t1', 't2');
const text = fc.constantFrom('x', 'y', 'calm', 'Mara', 'the well');
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const event: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({
    event_type: fc.constant('create_entity'),
    entity: key,
    name: text,
    aliases: maybe(fc.uniqueArray(text, { maxLength: 2 })),
  }),
  fc.record({ event_type: fc.constant('set_entity_status'), entity: key, status: text }),
  fc.record({
    event_type: fc.constant('set_entity_attribute'),
    entity: key,
    attribute: fc.constantFrom('mood', 'trust'),
    value: fc.oneof(text, fc.integer({ min: -5, max: 5 }), fc.boolean(), fc.constant(null)),
  }),
  fc.record({
    event_type: fc.constant('set_entity_conditions'),
    entity: key,
    conditions: fc.uniqueArray(text, { maxLength: 3 }),
  }),
  fc.record({ event_type: fc.constant('set_current_location'), entity: key, location: key }),
  fc.record({ event_type: fc.constant('set_possession'), item: key, owner: key }),
  fc.record({ event_type: fc.constant('clear_possession'), item: key }),
  fc.record({
    event_type: fc.constant('add_fact'),
    predicate: text,
    subject: maybe(key),
    object: maybe(fc.oneof(key, factId)),
    fact_id: maybe(factId),
    value: maybe(fc.integer()),
  }),
  fc.record({ event_type: fc.constant('invalidate_fact'), fact_id: factId, reason: maybe(text) }),
  fc.record({
    event_type: fc.constant('add_relationship'),
    source: key,
    target: key,
    relationship: fc.constantFrom('trusts', 'fears'),
  }),
  fc.record({
    event_type: fc.constant('end_relationship'),
    source: key,
    target: key,
    relationship: fc.constantFrom('trusts', 'fears'),
  }),
  fc.record({ event_type: fc.constant('open_story_thread'), thread, title: text }),
  fc.record({ event_type: fc.constant('resolve_story_thread'), thread, resolution: maybe(text) }),
  fc.record({
    event_type: fc.constant('set_scene'),
    summary: maybe(text),
    location: maybe(key),
    present: maybe(fc.uniqueArray(key, { maxLength: 3 })),
  }),
  fc.constant({ event_type: 'execute_shell' }),
);

/** Every session starts with its cast, so most later events have something to refer to. */
const PRELUDE: Record<string, unknown>[] = ['a', 'b', 'c', 'd', 'player'].map((k) => ({
  event_type: 'create_entity',
  entity: k,
  name: k.toUpperCase(),
}));

const session = fc.record({
  batches: fc.array(fc.array(event, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 24 }),
  interval: fc.integer({ min: 1, max: 6 }),
  gaps: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 25, maxLength: 25 }),
});

function play(batches: Record<string, unknown>[][], interval: number, gaps: number[]) {
  const index = new LedgerIndex({ snapshotInterval: interval });
  let live: World = index.current;
  let turn = 0;
  let committed = 0;
  [PRELUDE, ...batches].forEach((batch, i) => {
    turn += gaps[i] ?? 1;
    const before = canonicalJson(live);
    const result = proposeBatch(live, batch, DEFAULT_POLICY, { at: { turn, gameTime: `t${turn}` } });
    if (!result.ok) {
      expect(canonicalJson(live)).toBe(before);
      return;
    }
    index.append({ turn, gameTime: `t${turn}`, events: result.events });
    live = result.world;
    committed++;
  });
  return { index, live, lastTurn: turn, committed };
}

describe('replay properties', () => {
  it('folding the committed events from empty equals the live world', () => {
    fc.assert(
      fc.property(session, ({ batches, interval, gaps }) => {
        const { index, live } = play(batches, interval, gaps);
        expect(canonicalJson(foldLog(index.log()))).toBe(canonicalJson(live));
        expect(canonicalJson(index.current)).toBe(canonicalJson(live));
        // Saves re-validate: the wire form of the log replays to the same world.
        const replayed = replayLog(
          index.log().map((e) => ({ turn: e.turn, gameTime: e.gameTime, events: e.events.map(toWire) })),
          DEFAULT_POLICY,
          { cartridgeTurn: -1 },
        );
        expect(replayed.ok && canonicalJson(replayed.world)).toBe(canonicalJson(live));
      }),
      { numRuns: 150 },
    );
  });

  it('a snapshot plus the tail equals the full fold at every turn', () => {
    fc.assert(
      fc.property(session, fc.nat(), ({ batches, interval, gaps }, pick) => {
        const { index, lastTurn } = play(batches, interval, gaps);
        const n = pick % (lastTurn + 2);
        expect(canonicalJson(index.stateAt(n))).toBe(canonicalJson(foldLog(index.log(), n)));
      }),
      { numRuns: 150 },
    );
  });

  it('sessions commit a useful share of batches (the generator is not vacuous)', () => {
    let total = 0;
    fc.assert(
      fc.property(session, ({ batches, interval, gaps }) => {
        total += play(batches, interval, gaps).committed;
      }),
      { numRuns: 50, seed: 7 },
    );
    // 50 sessions, each committing its prelude: on average more than one random batch commits too.
    expect(total).toBeGreaterThan(100);
  });
});
