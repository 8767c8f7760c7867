// The explorer core (src/tools/authoring/explore): seeded random playthroughs find every kind of violation
// of the project's fixture, each shrunk to the shortest sequence that shows it (replayed from the start), the
// coverage names what was never reached at its file:line:col, the same seed gives the same report, and the
// limits hold at the limit and refuse one past it.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCartridge } from '../../../src/adapters/files/index.ts';
import type { Cartridge } from '../../../src/core/cartridge/index.ts';
import { prepareGame } from '../../../src/tools/authoring/explore/game.ts';
import { reproduces } from '../../../src/tools/authoring/explore/shrink.ts';
import {
  explore,
  ExploreError,
  exploreLimits,
  resolveExploreOptions,
  startState,
} from '../../../src/tools/authoring/index.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const KEEPER = resolve(ROOT, 'test/fixtures/cartridges/explore-keeper');

async function load(dir: string): Promise<Cartridge> {
  const result = await loadCartridge(dir);
  if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('\n'));
  return result.cartridge;
}

const line = (v: { place?: { line: number } }) => v.place?.line;

describe('explore on the fixture', async () => {
  const keeper = await load(KEEPER);
  const report = await explore(keeper, { runs: 20, depth: 20, seed: 1 });
  const byKey = new Map(report.violations.map((v) => [v.key.split(':').slice(0, 2).join(':'), v]));

  it('finds a runtime error, a budget hit, a broken invariant, a field out of bounds and a note that shows None', () => {
    expect(new Set(report.violations.map((v) => v.kind))).toEqual(
      new Set(['error', 'budget', 'invariant', 'bounds', 'note']),
    );
    const share = byKey.get('error:share')!;
    expect(share.code).toBe('YARE_ZERO_DIVISION');
    expect(share.place).toMatchObject({ line: 50, col: 50 });
    expect(byKey.get('budget:ponder')!.code).toBe('YARE_STEP_LIMIT');
    const debt = byKey.get('invariant:debt_never_negative')!;
    expect(line(debt)).toBe(18);
    const hp = byKey.get('bounds:state.player.hp')!;
    expect(hp.bounds).toEqual({ min: 0, max: 10, value: 99 });
    const note = report.violations.find((v) => v.kind === 'note')!;
    expect(note.message).toContain('shows {state.names[0]} as None: "Hello, None."');
    expect(line(note)).toBe(59);
  });

  it('shrinks each violation to the shortest sequence: one event, or the two an invariant needs together', () => {
    for (const v of report.violations) expect(v.steps.length).toBeLessThanOrEqual(v.originalLength);
    const share = byKey.get('error:share')!;
    expect(share.steps).toEqual([
      expect.objectContaining({ kind: 'event', event: 'share', inputs: { ways: 0 } }),
    ]);
    expect(share.originalLength).toBeGreaterThan(1);
    const both = byKey.get('invariant:not_both_lit')!;
    expect(both.steps.map((s) => (s.kind === 'event' ? s.event : s.kind)).sort()).toEqual([
      'light_lamp',
      'open_door',
    ]);
  });

  it('every shrunk sequence shows its violation when replayed from the start, at its last step', async () => {
    const game = prepareGame(keeper, true);
    const start = startState(keeper, undefined);
    for (const v of report.violations) {
      expect(await reproduces(game, start, v.steps, v.key)).toBe(v.steps.length);
      // One step fewer does not show it: the sequence is as short as it gets.
      if (v.steps.length > 0)
        expect(await reproduces(game, start, v.steps.slice(0, -1), v.key)).toBeUndefined();
    }
  });

  it('names what was never reached at its yare.yaml:line:col, and the lore never activated', () => {
    const c = report.coverage;
    expect(c.events.missed).toEqual([
      { place: expect.objectContaining({ line: 77, col: 3 }), what: "event 'forgotten' never run" },
    ]);
    expect(c.events).toMatchObject({ reached: 8, total: 9 });
    expect(c.branches.missed).toEqual([
      {
        place: expect.objectContaining({ line: 40, col: 20 }),
        what: 'count: the arm if state.counter > 100000 never taken',
      },
    ]);
    expect(c.notes.missed.map((n) => n.what)).toEqual([
      'count: note "A very long count." never shown',
      'forgotten: note "Nobody calls this." never shown',
    ]);
    expect(c.lore.missed.map((l) => [l.place.line, l.what])).toContainEqual([
      5,
      'lore section "Moonstone Vault" never activated',
    ]);
    expect(c.steps.total).toBe(16);
  });

  it('the same seed gives the same report, byte for byte; another seed another path', async () => {
    const again = await explore(keeper, { runs: 20, depth: 20, seed: 1 });
    expect(JSON.stringify(again)).toBe(JSON.stringify(report));
    const other = await explore(keeper, { runs: 20, depth: 20, seed: 2 });
    expect(other.violations.map((v) => v.foundIn)).not.toEqual(report.violations.map((v) => v.foundIn));
  });

  it('starts from a given state: a state already broken is a violation with no steps', async () => {
    const broken = await explore(keeper, { runs: 1, depth: 1, seed: 1, start: { keeper: { debt: -3 } } });
    const debt = broken.violations.find((v) => v.subject === 'debt_never_negative')!;
    expect(debt.steps).toEqual([]);
    expect(debt.foundIn).toEqual({ run: 0, step: 0 });
  });
});

describe('explore limits', () => {
  const { MAX_EXPLORE_RUNS, MAX_EXPLORE_DEPTH } = exploreLimits;

  it('runs and depth at their limits are taken; one past is refused naming the limit', async () => {
    expect(resolveExploreOptions({ runs: MAX_EXPLORE_RUNS, depth: MAX_EXPLORE_DEPTH, seed: 0 })).toEqual({
      runs: MAX_EXPLORE_RUNS,
      depth: MAX_EXPLORE_DEPTH,
      seed: 0,
    });
    expect(() => resolveExploreOptions({ runs: MAX_EXPLORE_RUNS + 1 })).toThrow(
      new ExploreError(
        `runs must be a whole number from 1 to ${MAX_EXPLORE_RUNS} (MAX_EXPLORE_RUNS), got 10001`,
      ),
    );
    expect(() => resolveExploreOptions({ depth: MAX_EXPLORE_DEPTH + 1 })).toThrow(/MAX_EXPLORE_DEPTH/);
    expect(() => resolveExploreOptions({ runs: 0 })).toThrow(/runs must be/);
    expect(() => resolveExploreOptions({ seed: -1 })).toThrow(/seed must be/);
    expect(resolveExploreOptions({ seed: exploreLimits.MAX_EXPLORE_SEED }).seed).toBe(
      exploreLimits.MAX_EXPLORE_SEED,
    );
    expect(() => resolveExploreOptions({ seed: exploreLimits.MAX_EXPLORE_SEED + 1 })).toThrow(
      /MAX_EXPLORE_SEED/,
    );
    expect(() => resolveExploreOptions({ depth: 1.5 })).toThrow(/depth must be/);
  });

  it('an exploration at the depth limit plays that many steps', async () => {
    const lanternmere = await load(resolve(ROOT, 'cartridges/lanternmere'));
    const report = await explore(lanternmere, { runs: 1, depth: MAX_EXPLORE_DEPTH, seed: 3 });
    expect(report.stepsPlayed).toBe(MAX_EXPLORE_DEPTH);
  });
});

describe('explore on the shipped cartridges', () => {
  for (const name of ['lanternmere', 'ember-toll']) {
    it(`${name}: no violation, every event reached, waits and turns included`, async () => {
      const cartridge = await load(resolve(ROOT, 'cartridges', name));
      const report = await explore(cartridge, { runs: 60, depth: 30, seed: 1 });
      expect(report.violations).toEqual([]);
      expect(report.coverage.events.missed).toEqual([]);
      expect(report.stepsPlayed).toBe(60 * 30);
      expect(report.eventsRun).toBeGreaterThan(0);
    });
  }
});

describe('explore: lore and World Info coverage', () => {
  it('a section whose when: held on an explored state is activated; what no state or note brings in is named', async () => {
    const { conditionsCartridge } = await import('../../engine/turn/lore-conditions-fixture.ts');
    const report = await explore(conditionsCartridge(), { runs: 5, depth: 5, seed: 1 });
    const missed = report.coverage.lore.missed.map((m) => m.what);
    expect(missed).not.toContain('lore section "Chapel bells" never activated');
    expect(missed).toContain('lore section "Mara at prayer" never activated');
    expect(missed).toContain('lore section "The cult below" never activated');
    expect(report.coverage.lore.total).toBe(5);
    const wi = report.coverage.worldInfo;
    expect(wi.total).toBe(3);
    expect(wi.missed.map((w) => w.uid)).toEqual([1, 2]);
    expect(wi.missed[0]!.what).toBe('World Info entry 1 (fish) never activated');
  });
});
