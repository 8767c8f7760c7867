// The compiled interpreter against the one it replaced (test/yare/reference/interpreter.ts, frozen): for
// generated events of every step kind — with expressions that succeed, fail, roll dice, call macros and
// write through static and computed paths — and for every event of every real cartridge, the same rules,
// state, inputs and seed give the same result from both: state, notes, rolls, and on failure the same
// error code, message and file:line:col. The input state is never touched by either.
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadCartridge } from '../../src/cartridge/index.ts';
import { DiceRoller } from '../../src/yare/dice.ts';
import { EventRunner, runEvent } from '../../src/yare/interpreter.ts';
import type { CompiledRules } from '../../src/yare/program.ts';
import { compileYaml } from '../helpers/yare.ts';
import * as reference from './reference/interpreter.ts';

// ---------------------------------------------------------------- generated events

const SCHEMA = {
  player: {
    hp: { type: 'int', default: 50, min: 0, max: 100 },
    gold: { type: 'int', default: 10, min: 0 },
    luck: { type: 'float', default: 0.5, max: 9.5 },
    alive: { type: 'bool', default: true },
    name: { type: 'string', default: 'Ann' },
    bag: { type: 'list', default: ['rope', 2] },
    flags: { type: 'dict', default: { seen: true } },
  },
  npc: {
    hp: { type: 'int', default: 20 },
    mood: { type: 'string', default: 'calm' },
  },
  count: { type: 'int', default: 0 },
  log: { type: 'list', default: [] },
};

const MACROS = {
  atk: 'roll(1d20) + state.player.gold',
  bad: '@ 1 // state.count',
  dmg: '@ roll(1d6) + macros.atk // 10',
};

const values = [
  '@ roll(1d20) + inputs.n',
  '@ state.player.hp - 5',
  '@ temp.x',
  '@ temp.x + 1',
  '@ macros.atk',
  '@ macros.bad',
  '@ macros.dmg',
  '@ state.player.luck * 3',
  '@ [1, 2, roll(1d4)]',
  "@ {'a': 1, 'b': [temp.x]}",
  '@ timedelta(hours=1)',
  "@ 'hp ' + state.player.hp",
  '@ inputs.who',
  '@ state.player.bag',
  '@ state.player.flags',
  '@ 7 / 2',
  '@ 1 // 0',
  "@ state.player.name + '!'",
  '@ len(state.player.bag)',
  '@ state.player.alive and roll(1d6)',
  '@ inputs.n > 2',
  '@ 9007199254740991 + state.count',
  '@ state.npc.hp >= 20',
  "@ {'k': {'k': {'k': 1}}}",
  "@ {'a': {'k': {'k': {'k': 1}}}}",
  '@ state.player.bag + state.player.bag',
  5,
  -3,
  0,
  2.5,
  "'text'",
  'plain words',
  true,
  null,
  [1, 2],
  { k: 1 },
];

const numericValues = [
  '@ roll(1d20) + inputs.n',
  '@ state.player.hp - 5',
  '@ macros.atk',
  '@ macros.dmg',
  '@ 7 / 2',
  '@ len(state.player.bag)',
  '@ state.player.luck * 3',
  '@ inputs.n > 2',
  5,
  -3,
  2.5,
];

const numericTargets = [
  'state.player.hp',
  'state.player.gold',
  'state.player.luck',
  'state.count',
  "@ 'state.' + inputs.who + '.hp'",
];

const localValues = ['@ item', '@ i', '@ item + 1', '@ i * 10'];

const targets = [
  'state.player.hp',
  'state.player.gold',
  'state.player.luck',
  'state.player.name',
  'state.player.alive',
  'state.player.bag',
  'state.player.flags',
  'state.npc.mood',
  'state.count',
  'state.log',
  'temp.x',
  'temp.y',
  'temp.d.e',
  "@ 'state.' + inputs.who + '.hp'",
  "@ 'temp.' + 'z'",
  "@ 'state.nowhere'",
  '@ temp.x',
  "@ 'state.player.bag.1'",
  "@ ' state.count '",
  "@ 'state.player.flags.k'",
];

const noteExprs = [
  'state.player.hp',
  'temp.x',
  'roll(1d6)',
  'macros.atk',
  'inputs.who',
  'state.player.luck',
  '7 / 2',
  'temp.missing',
  'state.player.bag',
  '1 // 0',
  'state.player.flags',
];

type StepDoc = Record<string, unknown>;

function stepsArb(locals: boolean): fc.Arbitrary<StepDoc[]> {
  // Numbers into numeric fields most of the time, so runs go on for several steps; anything else
  // (other types, other places, failing expressions) often enough that every error path is reached.
  const value = fc.oneof(
    { arbitrary: fc.constantFrom(...numericValues, ...(locals ? localValues : [])), weight: 4 },
    { arbitrary: fc.constantFrom(...values), weight: 1 },
  );
  const target = fc.oneof(
    { arbitrary: fc.constantFrom(...numericTargets), weight: 4 },
    { arbitrary: fc.constantFrom(...targets), weight: 1 },
  );
  const listTarget = fc.oneof(
    {
      arbitrary: fc.constantFrom('state.player.bag', 'state.log', 'temp.l', "@ 'state.player.bag'"),
      weight: 4,
    },
    { arbitrary: fc.constantFrom(...targets), weight: 1 },
  );
  const dictTarget = fc.oneof(
    { arbitrary: fc.constantFrom('state.player.flags', 'temp.m', "@ 'state.player.flags'"), weight: 4 },
    { arbitrary: fc.constantFrom(...targets), weight: 1 },
  );
  const note = fc
    .array(
      fc.tuple(
        fc.constantFrom('', 'a ', ' b: ', '!'),
        fc.constantFrom(...noteExprs, ...(locals ? ['item', 'i'] : [])),
      ),
      {
        minLength: 0,
        maxLength: 3,
      },
    )
    .map((parts) => ({ action: 'note', message: `${parts.map(([t, e]) => `${t}{${e}}`).join('')}.` }));
  const { steps } = fc.letrec<{ steps: StepDoc[]; step: StepDoc }>((tie) => ({
    steps: fc.array(tie('step'), { minLength: 1, maxLength: 5 }),
    step: fc.oneof(
      { maxDepth: 2, depthIdentifier: 'steps' },
      { arbitrary: fc.record({ action: fc.constant('set'), var: target, value }), weight: 3 },
      {
        arbitrary: fc.record({
          action: fc.constant('mutate'),
          var: target,
          op: fc.constantFrom('add', 'sub', 'mul', 'div'),
          value,
        }),
        weight: 3,
      },
      { arbitrary: note, weight: 3 },
      fc.record({ action: fc.constant('list_push'), var: listTarget, item: value }),
      fc.oneof(
        fc.record({ action: fc.constant('list_remove'), var: listTarget, index: value }),
        fc.record({ action: fc.constant('list_remove'), var: listTarget, value }),
      ),
      fc.record({ action: fc.constant('dict_set'), var: dictTarget, key: value, value }),
      fc.record({ action: fc.constant('dict_delete'), var: dictTarget, key: value }),
      fc.record({
        action: fc.constant('table_roll'),
        roll: value,
        var: target,
        table: fc.record({ '1-5': fc.constant("'low'"), '6-10': value, '11+': fc.constant(5) }),
      }),
      fc.record({
        action: fc.constant('call'),
        event: fc.constant('helper'),
        args: fc.record({ amount: value }),
      }),
      {
        arbitrary: fc.tuple(value, tie('steps'), tie('steps')).map(([test, then, otherwise]) => ({
          action: 'branch',
          conditions: [
            { if: test, steps: then },
            { else: true, steps: otherwise },
          ],
        })),
        weight: 2,
      },
      fc
        .tuple(
          fc.constantFrom('@ state.player.bag', 'state.player.bag', '@ [1, 2, 3]', '@ temp.x', 'state.log'),
          tie('steps'),
        )
        .map(([array, body]) => ({ action: 'foreach', array, item: 'item', index: 'i', steps: body })),
    ),
  }));
  return steps;
}

function rulesYaml(probe: StepDoc[]): string {
  // A repeated object is written out again, not as a YAML alias (which rules files may not use).
  return stringify(
    {
      state_schema: SCHEMA,
      macros: MACROS,
      events: {
        helper: {
          inputs: { amount: { type: 'int', default: 1 } },
          steps: [
            { action: 'mutate', var: 'state.count', op: 'add', value: '@ inputs.amount' },
            { action: 'note', message: 'helper {inputs.amount} {state.count}' },
          ],
        },
        loop: {
          steps: [
            { action: 'mutate', var: 'state.count', op: 'add', value: 1 },
            { action: 'call', event: 'loop' },
          ],
        },
        probe: {
          inputs: {
            who: { type: 'string', default: 'npc', enum: ['player', 'npc'] },
            n: { type: 'int', default: 3 },
          },
          steps: probe,
        },
      },
    },
    { aliasDuplicateObjects: false },
  );
}

const inputsArb = fc.oneof(
  { arbitrary: fc.constant({}), weight: 2 },
  {
    arbitrary: fc.record(
      { who: fc.constantFrom('player', 'npc', 'NPC'), n: fc.integer({ min: -5, max: 30 }) },
      { requiredKeys: [] },
    ),
    weight: 12,
  },
  fc.record(
    {
      who: fc.constantFrom('player', 'npc', 'PLAYER', 'nobody', 7),
      n: fc.oneof(fc.integer({ min: -5, max: 30 }), fc.constantFrom('7', 'x', null, 2.5)),
    },
    { requiredKeys: [] },
  ),
  fc.constant({ stray: 1 }),
  fc.constant('not a mapping'),
);

const stateArb = fc.oneof(
  fc.constant(undefined),
  fc.record({
    player: fc.record({
      hp: fc.integer({ min: -5, max: 120 }),
      gold: fc.integer({ min: 0, max: 30 }),
      // Floats whose Python text differs from JavaScript's (`1e-07`, `1e+16`) as well as plain ones.
      luck: fc.oneof(fc.double({ min: 0, max: 5, noNaN: true }), fc.constantFrom(1e-7, 1e16, 0.1 + 0.2)),
      alive: fc.boolean(),
      name: fc.constantFrom('Ann', ''),
      bag: fc.array(fc.oneof(fc.integer({ min: 0, max: 9 }), fc.constantFrom('rope', 'torch')), {
        maxLength: 4,
      }),
      flags: fc.constantFrom({}, { seen: false, k: 2 }),
    }),
    npc: fc.record({ hp: fc.integer({ min: 0, max: 40 }), mood: fc.constantFrom('calm', 'angry') }),
    count: fc.integer({ min: 0, max: 3 }),
    log: fc.constantFrom([], ['x']),
  }),
);

/** Both interpreters on one run; the results must be equal, and neither may touch the input state. */
function expectSameRun(rules: CompiledRules, state: unknown, event: string, inputs: unknown, seed: number) {
  const snapshot = JSON.stringify(state);
  const expected = reference.runEvent(rules, state, event, inputs, { seed });
  const got = runEvent(rules, state, event, inputs, { seed });
  expect(got).toStrictEqual(expected);
  expect(JSON.stringify(state)).toBe(snapshot);
  return got;
}

describe('compiled interpreter ≡ reference interpreter', () => {
  it('on generated events: same state, notes, rolls, error and place', () => {
    let compiled = 0;
    let failed = 0;
    let runs = 0;
    fc.assert(
      fc.property(stepsArb(false), stateArb, inputsArb, fc.nat(1000), (steps, state, inputs, seed) => {
        // Locals only make sense inside a foreach; the generator adds them there.
        const { rules } = compileYaml(rulesYaml(steps));
        runs++;
        fc.pre(rules !== undefined);
        if (!rules) return;
        compiled++;
        const initial = state ?? JSON.parse(JSON.stringify(rules.initialState));
        const r = expectSameRun(rules, initial, 'probe', inputs, seed);
        if (!r.ok) failed++;
      }),
      { numRuns: 600 },
    );
    // The generator must mostly produce rules that load, and runs that both succeed and fail.
    expect(compiled / runs).toBeGreaterThan(0.8);
    expect(failed).toBeGreaterThan(compiled / 5);
    expect(failed).toBeLessThan((compiled * 4) / 5);
  });

  it('on generated events with foreach locals', () => {
    let runs = 0;
    let compiled = 0;
    fc.assert(
      fc.property(stepsArb(true), stepsArb(true), fc.nat(1000), (inner, after, seed) => {
        // Loops inside a loop: one with the same names (after it, `item` and `i` are the outer's again),
        // one with its own names (inside it, the outer's are still there).
        const steps = [
          {
            action: 'foreach',
            array: '@ [1, 2, 3]',
            item: 'item',
            index: 'i',
            steps: [
              { action: 'foreach', array: '@ [10, 20]', item: 'item', index: 'i', steps: inner },
              { action: 'note', message: 'outer {item} {i}' },
              {
                action: 'foreach',
                array: '@ [7, 8]',
                item: 'sub',
                index: 'j',
                steps: [{ action: 'note', message: 'nested {item} {i} {sub} {j}' }, ...inner],
              },
              ...after,
            ],
          },
        ];
        const { rules } = compileYaml(rulesYaml(steps));
        runs++;
        fc.pre(rules !== undefined);
        if (!rules) return;
        compiled++;
        expectSameRun(rules, JSON.parse(JSON.stringify(rules.initialState)), 'probe', {}, seed);
      }),
      { numRuns: 200 },
    );
    expect(compiled / runs).toBeGreaterThan(0.8);
  });

  it('a long-lived runner applies a sequence of runs the same way (working state, dice, places)', () => {
    fc.assert(
      fc.property(
        stepsArb(false),
        fc.array(fc.tuple(fc.constantFrom('probe', 'helper', 'loop', 'missing'), inputsArb), {
          minLength: 1,
          maxLength: 5,
        }),
        fc.nat(1000),
        (steps, calls, seed) => {
          const { rules } = compileYaml(rulesYaml(steps));
          fc.pre(rules !== undefined);
          if (!rules) return;
          const expectedDice = DiceRoller.fromSeed(seed);
          const gotDice = DiceRoller.fromSeed(seed);
          const expected = new reference.EventRunner(rules, rules.initialState, expectedDice);
          const got = new EventRunner(rules, rules.initialState, gotDice);
          const gotResults = [];
          const expectedResults = [];
          for (const [event, inputs] of calls) {
            gotResults.push(got.run(event, inputs));
            expectedResults.push(expected.run(event, inputs));
            expect(gotResults.at(-1)).toStrictEqual(expectedResults.at(-1));
            expect(got.state).toStrictEqual(expected.state);
          }
          // A later run never changes what an earlier one returned (each run copies what it writes).
          expect(gotResults).toStrictEqual(expectedResults);
          expect(gotDice.rolls).toStrictEqual(expectedDice.rolls);
        },
      ),
      { numRuns: 200 },
    );
  });
});

// ---------------------------------------------------------------- real cartridges

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SHARED = resolve(ROOT, '../shared/cartridges');

function cartridgeDirs(): string[] {
  const dirs = readdirSync(join(ROOT, 'cartridges')).map((d) => join(ROOT, 'cartridges', d));
  if (existsSync(SHARED)) {
    dirs.push(join(SHARED, 'seed-eldoria'));
    for (const d of readdirSync(join(SHARED, 'mnesos'))) dirs.push(join(SHARED, 'mnesos', d));
  }
  return dirs;
}

/** Inputs for an event: nothing (defaults), each declared enum value, and numbers and text at random. */
function inputSets(rules: CompiledRules, event: string): unknown[] {
  const def = rules.events.get(event)!;
  const sets: Record<string, unknown>[] = [{}];
  for (const spec of def.inputList) {
    for (const v of [...(spec.enum ?? []), 0, 1, 7, 20, 'x', 'player', 'npc', true])
      sets.push({ [spec.name]: v });
  }
  sets.push(Object.fromEntries(def.inputList.map((spec) => [spec.name, spec.enum?.[0] ?? 5])));
  return sets;
}

describe('compiled interpreter ≡ reference interpreter on real cartridges', () => {
  it('every event of every cartridge, alone and in sequence, with several seeds and inputs', async () => {
    let runs = 0;
    for (const dir of cartridgeDirs()) {
      const loaded = await loadCartridge(dir);
      if (!loaded.ok) continue;
      const rules = loaded.cartridge.rules;
      for (const seed of [0, 1, 2, 3, 42]) {
        const expectedRunner = new reference.EventRunner(
          rules,
          rules.initialState,
          DiceRoller.fromSeed(seed),
        );
        const gotRunner = new EventRunner(rules, rules.initialState, DiceRoller.fromSeed(seed));
        for (const event of rules.eventNames) {
          for (const inputs of inputSets(rules, event)) {
            expectSameRun(rules, rules.initialState, event, inputs, seed);
            expect(gotRunner.run(event, inputs)).toStrictEqual(expectedRunner.run(event, inputs));
            runs++;
          }
        }
        expect(gotRunner.state).toStrictEqual(expectedRunner.state);
      }
    }
    expect(runs).toBeGreaterThan(100);
  });
});
