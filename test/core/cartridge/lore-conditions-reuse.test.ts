// A turn re-evaluates only the `when:` conditions whose inputs changed: the state paths they name and the
// ledger records they ask for by a written key. The verdicts are always those of evaluating every condition
// afresh — over random sequences of states and worlds, at the turn's step limit, with computed keys and
// containers (evaluated every turn) — and a condition whose inputs did not change is not run again.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CompiledCondition,
  compileCondition,
  evaluateLoreConditions,
  type LoreConditions,
} from '../../../src/core/cartridge/lore-conditions.ts';
import { conditionInputs } from '../../../src/core/cartridge/lore-condition-inputs.ts';
import { applyBatch, emptyWorld, type LedgerEvent, type World } from '../../../src/core/ledger/index.ts';
import { type Dict, MAX_STEPS_PER_RUN, parseExpression, toValue } from '../../../src/core/yare/index.ts';
import { rulesOf } from '../../helpers/yare.ts';

const rules = rulesOf(`
state_schema:
  world:
    hour: { type: int, default: 0 }
    weather: { type: string, default: "clear" }
    who: { type: string, default: "mara" }
    flags: { type: dict, default: {} }
    items: { type: list, default: [] }
events:
  wait:
    steps: []
`);

const TEXTS = [
  "@ state.world.hour >= 6 and state.world.weather == 'rain'",
  "@ entity('mara').location == 'chapel'",
  "@ entity('mara').present",
  "@ thread('bells') != None and thread('bells').open",
  "@ fact('burned') != None or state.world.hour > 20",
  "@ knows('bran', 'burned')",
  "@ scene() != None and scene().location == 'chapel'",
  "@ entity(state.world.who) != None and entity(state.world.who).location == 'market'",
  "@ state.world.flags['seen'] == True if 'seen' in state.world.flags else False",
  '@ len(state.world.items) > 1',
  "@ state.world.hour < 3 or state.world.weather != 'rain'",
];

function compiled(texts: readonly string[] = TEXTS): CompiledCondition[] {
  return texts.map((text) => {
    const c = compileCondition(rules, text);
    if (!c.ok) throw new Error(`${text}: ${c.message}`);
    return c.condition;
  });
}

function tableOf(conditions: readonly CompiledCondition[]): LoreConditions {
  return { sections: new Map(conditions.map((c, i) => [`L${i}`, c])), worldInfo: new Map() };
}

/** Verdicts as plain [id, held, why] rows. */
function rows(conditions: LoreConditions, state: Dict, world: World): unknown[] {
  const v = evaluateLoreConditions(conditions, state, world);
  return [...v.sections.entries()].map(([id, verdict]) => [id, verdict.held, verdict.why]);
}

const PLACES = ['chapel', 'market', 'inn'] as const;

function worldEvents(step: { move?: string; who?: string; open?: boolean; burn?: boolean; scene?: string }) {
  const events: LedgerEvent[] = [];
  if (step.move !== undefined)
    events.push({
      type: 'set_current_location',
      entity: step.who ?? 'mara',
      location: step.move,
    });
  if (step.open) events.push({ type: 'open_story_thread', thread: 'bells', title: 'The bells' });
  if (step.burn)
    events.push({
      type: 'add_fact',
      fact_id: 'burned',
      predicate: 'the bridge burned',
      learned_by: ['bran'],
    });
  if (step.scene !== undefined) events.push({ type: 'set_scene', location: step.scene, present: ['mara'] });
  return events;
}

function startWorld(): World {
  const names = { chapel: 'Chapel', market: 'Market', inn: 'Inn', mara: 'Mara', bran: 'Bran' };
  const events: LedgerEvent[] = Object.entries(names).map(([entity, name]) => ({
    type: 'create_entity',
    entity,
    name,
  }));
  return applyBatch(emptyWorld(), events, { turn: 0 });
}

describe('what a condition reads', () => {
  it('names its state paths and ledger records; a computed ledger key means every turn', () => {
    const inputs = (text: string) => conditionInputs(parseExpression(text).ast)?.map((i) => i.text);
    expect(inputs("state.world.hour >= 6 and state.world.weather == 'rain'")).toEqual([
      'state:["world","hour"]',
      'state:["world","weather"]',
    ]);
    expect(inputs("entity('mara').location == 'x'")).toEqual(['entity:mara', 'scene']);
    expect(inputs("knows('bran', 'burned') and thread('t') != None")).toEqual(['fact:burned', 'thread:t']);
    // A computed key reads the chain before it, and the key's own paths.
    expect(inputs('state.world.flags[state.world.who]')).toEqual([
      'state:["world","flags"]',
      'state:["world","who"]',
    ]);
    expect(inputs('[x for x in state.world.items if x == state.world.who]')).toEqual([
      'state:["world","items"]',
      'state:["world","who"]',
    ]);
    expect(inputs('entity(state.world.who) != None')).toBeUndefined();
    expect(inputs("knows(state.world.who, 'f')")).toBeUndefined();
  });
});

describe('evaluating only what changed', () => {
  it('gives the verdicts of a fresh evaluation over random sequences of states and worlds', () => {
    const step = fc.record({
      hour: fc.integer({ min: 0, max: 23 }),
      weather: fc.constantFrom('rain', 'clear'),
      who: fc.constantFrom('mara', 'bran', 'nobody'),
      seen: fc.option(fc.boolean(), { nil: undefined }),
      items: fc.integer({ min: 0, max: 3 }),
      move: fc.option(fc.constantFrom(...PLACES), { nil: undefined }),
      mover: fc.constantFrom('mara', 'bran'),
      open: fc.boolean(),
      burn: fc.boolean(),
      scene: fc.option(fc.constantFrom(...PLACES), { nil: undefined }),
      fresh: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
        const reused = tableOf(compiled());
        let world = startWorld();
        let state = toValue({
          world: { hour: 0, weather: 'clear', who: 'mara', flags: {}, items: [] },
        }) as Dict;
        let opened = false;
        let burned = false;
        steps.forEach((s, turn) => {
          const events = worldEvents({
            ...(s.move === undefined ? {} : { move: s.move, who: s.mover }),
            open: s.open && !opened,
            burn: s.burn && !burned,
            ...(s.scene === undefined ? {} : { scene: s.scene }),
          });
          opened ||= s.open;
          burned ||= s.burn;
          if (events.length > 0) world = applyBatch(world, events, { turn: turn + 1 });
          const next = {
            world: {
              hour: s.hour,
              weather: s.weather,
              who: s.who,
              flags: s.seen === undefined ? {} : { seen: s.seen },
              items: Array.from({ length: s.items }, (_, i) => `item ${i}`),
            },
          };
          // Sometimes the same objects again, sometimes the state read anew from JSON.
          state = s.fresh ? (toValue(JSON.parse(JSON.stringify(next))) as Dict) : (toValue(next) as Dict);
          expect(rows(reused, state, world)).toEqual(rows(tableOf(compiled()), state, world));
        });
      }),
      { numRuns: 60 },
    );
  });

  it('runs a condition again only when what it reads changed', () => {
    const calls = TEXTS.map(() => 0);
    const spied = compiled().map((c, i) => ({
      ...c,
      closure: ((ctx: never) => {
        calls[i]!++;
        return c.closure(ctx);
      }) as CompiledCondition['closure'],
    }));
    const conditions = tableOf(spied);
    const world = startWorld();
    const at = (hour: number, weather = 'clear') =>
      toValue({ world: { hour, weather, who: 'mara', flags: {}, items: [] } }) as Dict;
    evaluateLoreConditions(conditions, at(5), world);
    expect(calls.every((n) => n === 1)).toBe(true);
    // The same values in new objects: only the computed key and the containers run again.
    evaluateLoreConditions(conditions, at(5), world);
    expect(calls).toEqual([1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 1]);
    // The hour changed: the three conditions that read it run again.
    evaluateLoreConditions(conditions, at(7), world);
    expect(calls).toEqual([2, 1, 1, 1, 2, 1, 1, 3, 3, 3, 2]);
    // Mara moves: the ledger record changed, so what reads her (and the computed key) runs again.
    const moved = applyBatch(world, worldEvents({ move: 'chapel' }), { turn: 1 });
    evaluateLoreConditions(conditions, at(7), moved);
    expect(calls).toEqual([2, 2, 2, 1, 2, 1, 1, 4, 4, 4, 2]);
  });

  it('keeps the turn’s step limit: a reused condition’s steps count, and a turn past it is evaluated afresh', () => {
    // Two conditions of 3,660 comprehension steps each on an input that does not change, and one over the
    // state's items: with 3,000 items the third passes MAX_STEPS_PER_RUN (10,000) and fails, as it does
    // when every condition is evaluated.
    expect(MAX_STEPS_PER_RUN).toBe(10_000);
    const sixty = `[${Array.from({ length: 60 }, (_, i) => i).join(', ')}]`;
    const texts = [
      `@ len([len([y for y in ${sixty}]) for x in ${sixty}]) > 0 and state.world.hour >= 0`,
      `@ len([len([y for y in ${sixty}]) for x in ${sixty}]) > 0 and state.world.hour >= 1`,
      "@ len([x for x in state.world.items if x == 'none']) == 0",
    ];
    const conditions = tableOf(compiled(texts));
    const world = startWorld();
    const state = (n: number) =>
      toValue({
        world: {
          hour: 1,
          weather: 'clear',
          who: 'mara',
          flags: {},
          items: Array.from({ length: n }, () => 'i'),
        },
      }) as Dict;
    const held = (r: unknown[]) => r.map((row) => (row as unknown[])[1]);
    for (const n of [0, 3_000, 3_000, 0, 2_000, 3_000]) {
      const fresh = rows(tableOf(compiled(texts)), state(n), world);
      expect(held(fresh)).toEqual(n > 10_000 - 2 * 3_660 ? [true, true, false] : [true, true, true]);
      expect(rows(conditions, state(n), world)).toEqual(fresh);
    }
  });
});
