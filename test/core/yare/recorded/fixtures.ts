// Fixtures of the recorded-outcome tests (test/core/yare/recorded.test.ts) and of their generator
// (generate.ts): the contexts and rules the recorded expressions and events run in, the generators of
// cases, and the encoding of an outcome as plain JSON. An outcome prints values as Python's `repr`, so a
// recorded case can be read against MnesOS 0.6 (docs/yare-differences.md lists where it differs).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { compileYaml } from '../../../helpers/yare.ts';
import type { RunResult } from '../../../../src/core/yare/interpreter.ts';
import type { CompiledRules } from '../../../../src/core/yare/program.ts';
import { YareError } from '../../../../src/core/yare/errors.ts';
import { MAX_STEPS_PER_RUN } from '../../../../src/core/yare/limits.ts';
import { type EvalContext, evaluate } from '../../../../src/core/yare/expr/evaluate.ts';
import { parseExpression } from '../../../../src/core/yare/expr/parser.ts';
import { DiceRoller, type RollRecord, unlabelled } from '../../../../src/core/yare/dice.ts';
import { pyRepr, typeName } from '../../../../src/core/yare/python.ts';
import { Duration, PyFloat, toValue, type Value } from '../../../../src/core/yare/values.ts';

// ---------------------------------------------------------------- expressions

/** Roots of three kinds: our dicts, plain objects and null-prototype objects (a state may hold any). */
export function expressionRoots(): Map<string, Value> {
  const inputs = Object.create(null) as Record<string, Value>;
  Object.assign(inputs, { a: null, hp: -3, b: ['1', true], d: new Duration(90_061_000_001) });
  return new Map<string, Value>([
    ['state', toValue({ a: 1, b: [1, 2.5, 'x'], hp: 10, c: { d: 'e', hp: 3, a: { b: 7 } }, days: 2 })],
    [
      'temp',
      { a: 'text', b: 0, hp: 2.5, f: 1.5, c: [1, { d: 1, f: 0.5 }], d: { a: true } } as unknown as Value,
    ],
    ['inputs', inputs as Value],
    ['x', [toValue({ a: 1, hp: 4 }), 'two', 3, new PyFloat(1.5)]],
  ]);
}

export const EXPRESSION_MACROS: ReadonlyMap<string, string> = new Map([
  ['bonus', 'state.hp + 2'],
  ['hit', 'roll(1d20) + macros.bonus'],
]);

export interface ExpressionProbe extends EvalContext {
  readonly dice: DiceRoller;
  readonly macroCalls: string[];
}

/** A context over `expressionRoots()` with seeded dice; macros are evaluated when asked for, and counted. */
export function expressionProbe(seed: number): ExpressionProbe {
  const values = expressionRoots();
  const dice = DiceRoller.fromSeed(seed);
  const macroCalls: string[] = [];
  let steps = 0;
  const ctx: ExpressionProbe = {
    dice,
    macroCalls,
    lookup: (name) => values.get(name),
    step() {
      if (++steps > MAX_STEPS_PER_RUN)
        throw new YareError('YARE_STEP_LIMIT', `more than ${MAX_STEPS_PER_RUN} steps`);
    },
    macro(name, span) {
      macroCalls.push(name);
      const text = EXPRESSION_MACROS.get(name);
      if (text === undefined) throw new YareError('YARE_UNKNOWN_MACRO', `no macro ${name}`, span);
      return evaluate(parseExpression(text), ctx);
    },
    roll: (count, sides, text) => dice.roll(count, sides, text),
  };
  return ctx;
}

/** A value as recorded: its Python type name and `repr`, and for a dict whether it inherits nothing. */
export interface RecordedValue {
  readonly type: string;
  readonly repr: string;
}

export interface ExpressionOutcome {
  readonly value?: RecordedValue;
  readonly error?: {
    readonly code: string;
    readonly message: string;
    readonly start?: number;
    readonly end?: number;
  };
  readonly rolls: readonly RollRecord[];
  readonly macroCalls: readonly string[];
}

export function recordValue(v: Value): RecordedValue {
  return { type: typeName(v), repr: pyRepr(v) };
}

/** Runs `run` in a fresh probe and records what happened. Anything but a `YareError` is an engine bug: thrown. */
export function expressionOutcome(run: (ctx: ExpressionProbe) => Value, seed: number): ExpressionOutcome {
  const ctx = expressionProbe(seed);
  try {
    const value = run(ctx);
    return { value: recordValue(value), rolls: ctx.dice.rolls, macroCalls: ctx.macroCalls };
  } catch (e) {
    if (!(e instanceof YareError)) throw e;
    return {
      error: {
        code: e.code,
        message: e.message,
        ...(e.span ? { start: e.span.start, end: e.span.end } : {}),
      },
      rolls: ctx.dice.rolls,
      macroCalls: ctx.macroCalls,
    };
  }
}

/** Expressions picked by hand: the edge cases of the compiled fast paths and of Python's semantics. */
export const HAND_PICKED_EXPRESSIONS: readonly string[] = [
  '9007199254740991 + 1',
  '9007199254740991 - -1',
  '-9007199254740991 - 1',
  'state.hp + 9007199254740991',
  'state.hp - 5',
  "state.hp + '1'",
  'temp.hp + 1',
  'temp.hp - temp.hp',
  'temp.f + temp.f',
  'temp.f + temp.c[1].f',
  'temp.f - temp.c[1].f',
  'temp.f * 2',
  'temp.f + 1',
  '1 <= 1',
  '1 < 1',
  '2 >= 2',
  '2 > 2',
  'state.hp <= 10',
  'state.hp >= 10',
  '1 == 1.0',
  '1 != True',
  "'a' + 'b'",
  'x[3] + 1',
  'inputs.d.days + inputs.d.seconds',
  'inputs.d.total_seconds',
  'state.c.a.b',
  'state.c.a.b.c',
  'temp.c[1].d',
  'temp.constructor',
  'state.__proto__',
  'state.toString',
  'x.length',
  "'abc'.length",
  'macros.hit',
  'macros.hit.a',
  'macros.missing',
  'nowhere.a',
  '1 < 2 < 3',
  "1 < 'a'",
  "'a' in 'cat'",
  '1 in 2',
  'roll(1d20) + 5 >= 12',
  "roll('2d6')",
  'roll(5)',
  "roll('101d6')",
  'abs(1, 2)',
  'eval(1)',
  'min()',
  'timedelta(1, 2, hours=3)',
  '{1: 2, 1: 3}',
  '{1.5: 2}',
  '[roll(1d4), roll(1d4)]',
  '0 or roll(1d6)',
  '1 and roll(1d6)',
  'roll(1d6) if state.a else roll(1d8)',
  // Python semantics, as MnesOS 0.6 evaluates them (docs/yare-differences.md lists where we differ).
  '2 + 3 * 4',
  "'npc_' + 1",
  "'a' + None",
  '7 / 7',
  '7 // 2',
  '-7 // 2',
  '-7 % 3',
  '7.5 % -2',
  "0 or 'x'",
  "'' and 1",
  'not 0',
  "'5' * 2",
  "'x' - 1",
  'None + 1',
  'True + True',
  '1 / 0',
  '1 // 0.0',
  '1e16',
  '1e-05',
  '0.1 + 0.2',
  'round(2.5)',
  'round(3.5)',
  'round(2.675, 2)',
  'floor(-0.5)',
  'ceil(1.2)',
  'len(state.b)',
  "len('héllo')",
  'min(3, 1.0, 2)',
  'max([1, 2], [1, 3])',
  'abs(-3.0)',
  "time_delta('2026-04-01T10:00:00', '2026-04-02T12:30:00')",
  "time_delta('2026-01-01', '2026-W14-3').days",
  "time_delta('2026-01-01T00:00', '2026-01-01T10:30.5')",
  "time_delta('2026-02-31', '2026-03-01')",
  "time_delta('2026-01-01T00:00Z', '2026-01-01T00:00')",
  'timedelta(days=1, hours=-1)',
  'timedelta(minutes=1.5)',
  "{1: 'x'}[1]",
  "1 in {1: 'x'}",
  "'1' in {1: 'x'}",
  "{'a': 1}['b']",
  'state.b[-1]',
  'state.b[True]',
  'state.b[1.7]',
  "state.b['1_0']",
  '[1, 2] < [1, 2, 0]',
  "'B' < 'a'",
  "1 if '' else 2",
  "'ell' in 'hello'",
  '[1] in [[1], 2]',
  "'1_000' - 0",
  "'0x10' + 0",
  "'inf' + 0",
  '9007199254740991 * 2',
  '-(-9007199254740991)',
  '+True',
  "-'x'",
  // Powers, int(), sum(), `is None` and comprehensions, as Python 3.11 gives them.
  'state.hp ** 2',
  'state.b[1] ** 2',
  '2 ** state.hp ** 2',
  '-state.hp ** 2',
  'state.hp ** -1',
  '(-state.hp) ** 0.5',
  'state.a ** 53',
  '2 ** 53',
  '0 ** -1',
  'True ** state.hp',
  'int(state.b[1])',
  "int('12') + int(temp.hp)",
  'int(inputs.a)',
  "int('x')",
  'sum(state.b)',
  'sum([state.hp, temp.hp])',
  'sum([inputs.d, inputs.d], timedelta())',
  'sum(x)',
  'inputs.a is None',
  'state.a is not None',
  'state.missing is None and temp.b is not None',
  '[i * 2 for i in [state.hp, temp.hp]]',
  "[k for k in state.c if k != 'hp']",
  '[i.hp for i in x if i is not None and i.hp]',
  "[c for c in 'ab' if c in 'b']",
  'sum([i ** 2 for i in [1, 2, 3] if i > macros.bonus - 12])',
  '[roll(1d6) for i in [1, 2, 3]]',
  '[[j for j in i] for i in [[1], [2, 3]]]',
  '[i for i in state.hp]',
];

// ---------------------------------------------------------------- events

export const SCHEMA = {
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

export const EVENT_MACROS = {
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

export type StepDoc = Record<string, unknown>;

export function stepsArb(locals: boolean): fc.Arbitrary<StepDoc[]> {
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

export function rulesYaml(probe: StepDoc[]): string {
  // A repeated object is written out again, not as a YAML alias (which rules files may not use).
  return stringify(
    {
      state_schema: SCHEMA,
      macros: EVENT_MACROS,
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

export const inputsArb = fc.oneof(
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

export const stateArb = fc.oneof(
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

/** A run's result as recorded: the whole state after it (or none on error), notes, rolls and steps. */
export interface EventOutcome {
  readonly ok: boolean;
  readonly state?: unknown;
  readonly notes: readonly string[];
  readonly rolls: readonly RollRecord[];
  readonly stepsUsed: number;
  readonly error?: { readonly code: string; readonly message: string; readonly place?: unknown };
}

export function eventOutcome(r: RunResult, withState = true): EventOutcome {
  // The recorded cases pin the dice; labels (what each roll was for) are pinned in test/core/yare/roll-labels.test.ts.
  const base = { notes: r.notes, rolls: r.rolls.map(unlabelled), stepsUsed: r.stepsUsed };
  if (r.ok) return { ok: true, ...(withState ? { state: plain(r.state) } : {}), ...base };
  return {
    ok: false,
    ...base,
    error: {
      code: r.error.code,
      message: r.error.message,
      ...(r.error.place ? { place: r.error.place } : {}),
    },
  };
}

/** Events a long-lived runner is asked to run in sequence (`missing` does not exist). */
export const SEQUENCE_EVENTS = ['probe', 'helper', 'loop', 'missing'] as const;

/**
 * Loops inside a loop around generated steps: one with the same local names (after it, `item` and `i` are
 * the outer's again), one with its own names (inside it, the outer's are still there).
 */
export function LOCALS_EVENT(inner: StepDoc[], after: StepDoc[]): StepDoc[] {
  return [
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
}

/** Inputs for an event: nothing (defaults), each declared enum value, and numbers and text. */
export function inputSets(rules: CompiledRules, event: string): unknown[] {
  const def = rules.events.get(event)!;
  const sets: Record<string, unknown>[] = [{}];
  for (const spec of def.inputList) {
    for (const v of [...(spec.enum ?? []), 0, 1, 7, 20, 'x', 'player', 'npc', true])
      sets.push({ [spec.name]: v });
  }
  sets.push(Object.fromEntries(def.inputList.map((spec) => [spec.name, spec.enum?.[0] ?? 5])));
  return sets;
}

/** Lanternmere's `yare.yaml` as recorded (lanternmere.yare.yaml), compiled. */
export function lanternmereRules(): CompiledRules {
  const file = join(dirname(fileURLToPath(import.meta.url)), 'lanternmere.yare.yaml');
  const { rules } = compileYaml(readFileSync(file, 'utf8'), 'lanternmere.yare.yaml');
  if (!rules) throw new Error('the recorded Lanternmere rules no longer compile');
  return rules;
}

/** A value as JSON would carry it (dicts with the ordinary prototype), for comparing with a recording. */
export function plain<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}
