import { describe, expect, it } from 'vitest';
import type { Expression } from '../../../../src/core/yare/expr/ast.ts';
import { evaluate, formatValue } from '../../../../src/core/yare/expr/evaluate.ts';
import { parseAtExpression, parseExpression } from '../../../../src/core/yare/expr/parser.ts';
import { MAX_CONTAINER_SIZE, MAX_STRING_LENGTH } from '../../../../src/core/yare/limits.ts';
import { Duration, inheritsNothing, PyFloat } from '../../../../src/core/yare/values.ts';
import { contextOf, run, yareErrorOf } from './helpers.ts';

/** Python's str() of the result: distinguishes 3 from 3.0 and True from 1. */
function show(text: string, fixture = {}): string {
  return formatValue(run(text, fixture));
}

describe("the original evaluator's cases", () => {
  it('literals', () => {
    expect(run('@ 5')).toBe(5);
    expect(run('@ 3.14')).toEqual(new PyFloat(3.14));
    expect(run("@ 'Safe Haven'")).toBe('Safe Haven');
  });

  it.each([
    ['@ 3 + 4', 7],
    ['@ 10 - 3', 7],
    ['@ 6 * 7', 42],
    ['@ 7 // 2', 3],
    ['@ 10 % 3', 1],
    ['@ abs(-5)', 5],
    ['@ 5 == 5', true],
    ['@ 5 == 6', false],
    ['@ 5 != 6', true],
    ['@ 3 < 5', true],
    ['@ 5 >= 5', true],
    ['@ 1 == 1 and 2 == 2', true],
    ['@ 1 == 1 and 2 == 3', false],
    ['@ not True', false],
    ['@ not False', true],
    ['@ True or False', true],
    ['@ False or False', false],
    ['@ 10 if True else 20', 10],
  ])('%s → %s', (text, value) => {
    expect(run(text)).toBe(value);
  });

  it('time_delta of two dates has .days', () => {
    expect(run("@ time_delta('2026-04-01T00:00:00', '2026-04-03T00:00:00').days")).toBe(2);
  });

  it('time_delta over state timestamps has total_seconds', () => {
    const state = { game_time: { start: '2026-04-01T10:00:00', now: '2026-04-01T10:45:00' } };
    expect(run('@ time_delta(state.game_time.start, state.game_time.now).total_seconds', { state })).toEqual(
      new PyFloat(2700),
    );
  });

  it('reads state, temp and inputs', () => {
    expect(run('@ state.player.hp', { state: { player: { hp: 80 } } })).toBe(80);
    expect(run('@ temp.score', { temp: { score: 15 } })).toBe(15);
    expect(run('@ inputs.difficulty', { inputs: { difficulty: 12 } })).toBe(12);
    expect(
      run('@ state.player.is_poisoned_with_asymptomatic_poison', {
        state: { player: { is_poisoned_with_asymptomatic_poison: true } },
      }),
    ).toBe(true);
  });

  it('evaluates a macro through the context', () => {
    const ctx = contextOf({ macros: { power_bonus: '@ 3 + 1' } });
    expect(evaluate(parseAtExpression('@ macros.power_bonus'), ctx)).toBe(4);
    expect(ctx.macroCalls).toEqual(['power_bonus']);
  });

  it('roll(1d20) rolls one d20 once and labels the roll with its text', () => {
    const ctx = contextOf({ faces: [13] });
    expect(evaluate(parseAtExpression('@ roll(1d20)'), ctx)).toBe(13);
    expect(ctx.rolls).toEqual([{ count: 1, sides: 20, text: 'roll(1d20)' }]);
  });

  it("roll(3d6) and roll('3d6') sum the faces", () => {
    expect(run('@ roll(3d6)', { faces: [2, 4, 6] })).toBe(12);
    expect(run("@ roll('3d6')", { faces: [2, 4, 6] })).toBe(12);
  });

  it('roll(1d20) + state.player.level', () => {
    expect(run('@ roll(1d20) + state.player.level', { faces: [10], state: { player: { level: 3 } } })).toBe(
      13,
    );
  });

  it('conditional on state', () => {
    expect(run("@ 'Alive' if state.player.hp > 0 else 'Dead'", { state: { player: { hp: 0 } } })).toBe(
      'Dead',
    );
  });

  it('roll plus state plus temp', () => {
    const fixture = {
      faces: [2, 4, 6],
      state: { active_npcs: { npc_1: { skill_mod: 10 } } },
      temp: { pc_speed_bonus: 5 },
    };
    expect(run('@ roll(3d6) + state.active_npcs.npc_1.skill_mod + temp.pc_speed_bonus', fixture)).toBe(27);
  });

  it.each([
    ['speed_fast', 5],
    ['speed_slow', 1],
    ['idle', 0],
  ])('nested conditional with substring in: %s → %d', (speed, expected) => {
    const text =
      "@ (5 if 'fast' in temp.speed else (1 if 'slow' in temp.speed else (2 if 'normal' in temp.speed else (1 if 'expert' in temp.speed else 0))))";
    expect(run(text, { temp: { speed } })).toBe(expected);
  });

  it('list comprehensions run (test/core/yare/expr/language-complete.test.ts has the rest)', () => {
    expect(run('@ [x for x in state.items]', { state: { items: [1, 'a'] } })).toEqual([1, 'a']);
  });

  it('foreach locals and dynamic keys', () => {
    expect(run('@ my_var', { locals: { my_var: 'val' } })).toBe('val');
    expect(run('@ current_entity.health', { locals: { current_entity: { health: 99 } } })).toBe(99);
    expect(
      run('@ state.entities[inputs.target_id].health', {
        state: { entities: { e1: { health: 50 } } },
        inputs: { target_id: 'e1' },
      }),
    ).toBe(50);
  });

  it('list and dict literals evaluate their items', () => {
    const v = run("@ {'id': temp.id, 'health': 100}", { temp: { id: 'x42' } });
    expect({ ...(v as object) }).toEqual({ id: 'x42', health: 100 });
    expect(inheritsNothing(v)).toBe(true);
    expect(run("@ [1, inputs.val, 'a']", { inputs: { val: 7 } })).toEqual([1, 7, 'a']);
  });

  it('an unknown bare name is an error (the original silently returned the temp dict)', () => {
    const e = yareErrorOf(() => run('@ other_var'));
    expect(e.code).toBe('YARE_UNKNOWN_PATH');
    expect(e.span).toEqual({ start: 0, end: 9 });
  });
});

describe('Python numbers', () => {
  it.each([
    ['7 // 2', '3'],
    ['-7 // 2', '-4'],
    ['7 // -2', '-4'],
    ['-7 % 3', '2'],
    ['7 % -3', '-2'],
    ['-6 % 3', '0'],
    ['7 / 2', '3.5'],
    ['6 / 2', '3.0'],
    ['1 + 2.0', '3.0'],
    ['2.0 * 3', '6.0'],
    ['7.5 // 2', '3.0'],
    ['7.5 // -2', '-4.0'],
    ['-7.5 % 2', '0.5'],
    ['0.0 // -3', '-0.0'],
    ['5.5 % -2', '-0.5'],
    ['True + True', '2'],
    ['True * 2.5', '2.5'],
    ['-True', '-1'],
    ['+False', '0'],
    ['-(2.5)', '-2.5'],
    ['0.1 + 0.2', '0.30000000000000004'],
    ['1e308 * 10', 'inf'],
    ['None + 1', '1'],
    ["'5' - 2", '3'],
    ["'2.5' * 2", '5.0'],
    ["'abc' - 1", '-1'],
    ["'ab' * 3", '0'],
  ])('%s → %s', (text, printed) => {
    expect(show(text)).toBe(printed);
  });

  it('keeps int and float apart', () => {
    expect(run('6 / 2')).toEqual(new PyFloat(3));
    expect(run('6 // 2')).toBe(3);
    expect(run('1 + 2.0')).toEqual(new PyFloat(3));
  });

  it('treats a non-integer number read from state as a float', () => {
    expect(show('state.x // 1', { state: { x: 2.5 } })).toBe('2.0');
    expect(show('state.x + 1', { state: { x: 2.5 } })).toBe('3.5');
    expect(show('state.x + 1', { state: { x: 2 } })).toBe('3');
  });

  it('floors exactly for the largest integers', () => {
    const max = Number.MAX_SAFE_INTEGER;
    expect(run(`${max} // -3`)).toBe(-3002399751580331);
    expect(run(`${max} % -3`)).toBe(-2);
    expect(run(`-${max} // 2`)).toBe(-4503599627370496);
  });

  it('refuses an int result past the largest exact integer', () => {
    const max = Number.MAX_SAFE_INTEGER;
    expect(run(`${max} - 1 + 1`)).toBe(max);
    const e = yareErrorOf(() => run(`${max} + 1`));
    expect(e.code).toBe('YARE_OVERFLOW');
    expect(e.span).toEqual({ start: 0, end: String(max).length + 4 });
    expect(yareErrorOf(() => run(`-${max} - 1`)).code).toBe('YARE_OVERFLOW');
    expect(yareErrorOf(() => run('99999999 * 99999999')).code).toBe('YARE_OVERFLOW');
  });

  it.each(['1 / 0', '1 // 0', '1 % 0', '1.0 / 0', '1 / 0.0', '2.5 // 0', '2.5 % 0.0', '1 / False'])(
    '%s is a zero division',
    (text) => {
      expect(yareErrorOf(() => run(text)).code).toBe('YARE_ZERO_DIVISION');
    },
  );

  it.each([
    ['None + None', 'NoneType'],
    ['[1] + 1', 'list'],
    ["{'a': 1} - 1", 'dict'],
    ['[1] * 2', 'list'],
    ['[1] - [1]', 'list'],
    ['timedelta(days=1) + 1', 'timedelta'],
    ['timedelta(days=1) * 1.5', 'timedelta'],
    ["-'a'", 'str'],
    ['-None', 'NoneType'],
    ['+[1]', 'list'],
  ])('%s is a type error', (text, typeName) => {
    const e = yareErrorOf(() => run(text));
    expect(e.code).toBe('YARE_TYPE');
    expect(e.message).toContain(typeName);
  });

  it('concatenates lists, adds and scales durations', () => {
    expect(run('[1, 2] + [3]')).toEqual([1, 2, 3]);
    expect(run('timedelta(hours=1) + timedelta(minutes=30)')).toEqual(new Duration(5_400_000_000));
    expect(run('timedelta(hours=1) - timedelta(hours=3)')).toEqual(new Duration(-7_200_000_000));
    expect(run('2 * timedelta(seconds=3)')).toEqual(new Duration(6_000_000));
    expect(run('timedelta(seconds=3) * True')).toEqual(new Duration(3_000_000));
    expect(run('-timedelta(seconds=3)')).toEqual(new Duration(-3_000_000));
  });

  it(`joins lists up to ${MAX_CONTAINER_SIZE} items and refuses one more`, () => {
    const list = (n: number) => Array.from({ length: n }, () => 0);
    expect(run('temp.a + temp.b', { temp: { a: list(60), b: list(MAX_CONTAINER_SIZE - 60) } })).toHaveLength(
      MAX_CONTAINER_SIZE,
    );
    const e = yareErrorOf(() =>
      run('temp.a + temp.b', { temp: { a: list(60), b: list(MAX_CONTAINER_SIZE - 59) } }),
    );
    expect(e.code).toBe('YARE_CONTAINER_LIMIT');
  });
});

describe('string concatenation', () => {
  it.each([
    ["'npc_' + 1", 'npc_1'],
    ["'a' + None", 'aNone'],
    ["'x' + 1.0", 'x1.0'],
    ["'x' + True", 'xTrue'],
    ["1 + 'x'", '1x'],
    ["'hp: ' + state.hp", 'hp: 7'],
    ["'list ' + [1, 'a']", "list [1, 'a']"],
    ["'t=' + timedelta(days=1, seconds=7384)", 't=1 day, 2:03:04'],
    ["'state.' + inputs.defender + '.hp'", 'state.goblin.hp'],
  ])('%s → %s', (text, expected) => {
    expect(run(text, { state: { hp: 7 }, inputs: { defender: 'goblin' } })).toBe(expected);
  });

  it(`allows ${MAX_STRING_LENGTH} characters and refuses one more`, () => {
    const half = 'a'.repeat(MAX_STRING_LENGTH / 2);
    expect(run('temp.a + temp.a', { temp: { a: half } })).toHaveLength(MAX_STRING_LENGTH);
    const e = yareErrorOf(() => run("temp.a + temp.a + 'b'", { temp: { a: half } }));
    expect(e.code).toBe('YARE_CONTAINER_LIMIT');
    expect(e.message).toContain(String(MAX_STRING_LENGTH));
  });

  it('leaves dice inside string literals alone', () => {
    expect(run("'roll 2d6 now'")).toBe('roll 2d6 now');
    expect(run('2d6')).toBe('2d6');
    expect(run('3D6')).toBe('3d6');
  });
});

describe('comparisons', () => {
  it.each([
    ['1 == 1.0', true],
    ['True == 1', true],
    ["1 == '1'", false],
    ['None == None', true],
    ['None == 0', false],
    ['[1, [2]] == [1, [2.0]]', true],
    ["{'a': 1} == {'a': 1}", true],
    ["{'a': 1} == {'a': 2}", false],
    ["{'a': 1} != {'b': 1}", true],
    ["'a' < 'b'", true],
    ["'B' < 'a'", true],
    ['[1, 2] < [1, 3]', true],
    ['[1, 2] < [1, 2, 0]', true],
    ['True < 2', true],
    ['1.5 >= 1', true],
    ['timedelta(hours=1) > timedelta(minutes=59)', true],
    ["'ell' in 'hello'", true],
    ["'x' not in 'hello'", true],
    ['2 in [1, 2.0]', true],
    ["'a' in {'a': 1}", true],
    // Dict keys are strings: `1` names the key '1', for `in` as for `d[1]` (yare-differences.md).
    ["1 in {'1': 1}", true],
    ['1 in {1: 2}', true],
    ['1.5 in {1: 2}', false],
    ['None in {1: 2}', false],
    ['[1] in [[1], 2]', true],
    ['1 < 2 < 3', true],
    ['1 < 3 < 2', false],
    ['3 > 2 == 2', true],
  ])('%s → %s', (text, value) => {
    expect(run(text)).toBe(value);
  });

  it('compares strings by code point as Python does', () => {
    expect(run("'\\U0001F600' > '\\uFFFF'")).toBe(true);
  });

  it.each([
    ["'a' < 1", "'<'"],
    ['None < 1', 'NoneType'],
    ["{'a': 1} < {'a': 2}", 'dict'],
    ['[1] < 1', 'list'],
    ["1 in 'abc'", 'in'],
    ['1 in None', 'NoneType'],
    ["[1] in {'a': 1}", 'list'],
  ])('%s is a type error', (text, fragment) => {
    const e = yareErrorOf(() => run(text));
    expect(e.code).toBe('YARE_TYPE');
    expect(e.message).toContain(fragment);
  });

  it('a chain stops at the first false link', () => {
    const ctx = contextOf({ faces: [1] });
    expect(evaluate(parseExpression('3 < 2 < roll(1d20)'), ctx)).toBe(false);
    expect(ctx.rolls).toHaveLength(0);
    expect(evaluate(parseExpression('1 < 2 < roll(1d20)'), ctx)).toBe(false);
    expect(ctx.rolls).toHaveLength(1);
  });

  it('evaluates each middle operand of a chain once', () => {
    const ctx = contextOf({ faces: [5] });
    expect(evaluate(parseExpression('1 < roll(1d6) < 6'), ctx)).toBe(true);
    expect(ctx.rolls).toHaveLength(1);
  });
});

describe('logic', () => {
  it.each([
    ["0 or 'x'", 'x'],
    ["'' or 0", 0],
    ["1 and 'y'", 'y'],
    ['0 and 1', 0],
    ['[] or None', null],
    ['not []', true],
    ['not {}', true],
    ["not 'a'", false],
    ['not 0.0', true],
    ['not timedelta(0)', true],
  ])('%s → %j', (text, value) => {
    expect(run(text)).toEqual(value);
  });

  it('short-circuits and/or and the conditional (the original evaluated both sides)', () => {
    const ctx = contextOf({ faces: [] });
    expect(evaluate(parseExpression('False and roll(1d20)'), ctx)).toBe(false);
    expect(evaluate(parseExpression('True or roll(1d20)'), ctx)).toBe(true);
    expect(evaluate(parseExpression('True or 1/0'), ctx)).toBe(true);
    expect(evaluate(parseExpression('0 and 1/0'), ctx)).toBe(0);
    expect(evaluate(parseExpression('1 if True else roll(1d20)'), ctx)).toBe(1);
    expect(evaluate(parseExpression('roll(1d20) if False else 2'), ctx)).toBe(2);
    expect(ctx.rolls).toHaveLength(0);
    expect(yareErrorOf(() => evaluate(parseExpression('True and 1/0'), ctx)).code).toBe('YARE_ZERO_DIVISION');
  });
});

describe('attribute and subscript safety', () => {
  const state = { player: { hp: 5, tags: ['a', 'b'] }, name: 'Ann', n: 3 };

  it.each([
    'state.name.length',
    'state.name.constructor',
    'state.name.__proto__',
    'state.name.__class__',
    'state.n.toFixed',
    'state.player.tags.length',
    'state.player.tags.push',
    'state.player.constructor',
    'state.player.__proto__',
    'state.player.toString',
    'state.player.hasOwnProperty',
    'state.missing',
    'state.missing.deeper',
    "state.name['length']",
    "state.player['constructor']",
    "state.player['__proto__']",
    "state.player.tags['length']",
    'state.player.tags[5]',
    'state.player.tags[-1]',
    "state.player.tags['x']",
    'state.n[0]',
    '(1.5).real',
    'timedelta(days=1).max',
    'timedelta(days=1).__class__',
  ])('%s is None', (text) => {
    expect(run(text, { state })).toBeNull();
  });

  it('reads list items by int, bool, integral float or numeric string', () => {
    expect(run('state.player.tags[1]', { state })).toBe('b');
    expect(run('state.player.tags[True]', { state })).toBe('b');
    expect(run('state.player.tags[1.0]', { state })).toBe('b');
    expect(run("state.player.tags['1']", { state })).toBe('b');
  });

  it('reads dict keys by string or int', () => {
    expect(run("state.player['hp']", { state })).toBe(5);
    expect(run('state.m[1]', { state: { m: { '1': 'one' } } })).toBe('one');
  });

  it('is case-sensitive, as the original expression access was', () => {
    expect(run('state.Player', { state })).toBeNull();
  });

  it('exposes the data attributes of a duration', () => {
    const d = 'timedelta(days=-1, seconds=5, microseconds=7)';
    expect(run(`${d}.days`)).toBe(-1);
    expect(run(`${d}.seconds`)).toBe(5);
    expect(run(`${d}.microseconds`)).toBe(7);
    expect(run(`${d}.total_seconds`)).toEqual(new PyFloat(-86394.999993));
  });

  it('dict literal and subscript keys like __proto__ are ordinary own keys and pollute nothing', () => {
    const v = run("{'__proto__': {'polluted': 1}, 'constructor': 2, 'prototype': 3}") as Record<
      string,
      unknown
    >;
    expect(Object.keys(v)).toEqual(['__proto__', 'constructor', 'prototype']);
    expect(inheritsNothing(v)).toBe(true);
    expect(run("{'__proto__': {'polluted': 1}}['__proto__']['polluted']")).toBe(1);
    expect(run("{'__proto__': 5}.__proto__")).toBe(5);
    expect(run("{'a': 1}['__proto__']")).toBeNull();
    // biome-ignore lint/suspicious/noExplicitAny: checking that no prototype was touched
    expect(({} as any).polluted).toBeUndefined();
    // biome-ignore lint/suspicious/noExplicitAny: checking that no prototype was touched
    expect((Object.prototype as any).polluted).toBeUndefined();
  });

  it('reads own __proto__ keys of parsed JSON state', () => {
    const fromJson = JSON.parse('{"__proto__": {"x": 1}}');
    expect(run("state['__proto__'].x", { state: fromJson })).toBe(1);
    expect(run('state.__proto__.x', { state: fromJson })).toBe(1);
  });

  it('dict keys must be strings or whole numbers', () => {
    expect(Object.keys(run('{1: 2}') as object)).toEqual(['1']);
    const e = yareErrorOf(() => run('{None: 1}'));
    expect(e.code).toBe('YARE_TYPE');
    expect(e.span).toEqual({ start: 1, end: 5 });
  });

  it('a dict literal may repeat keys; the last value wins', () => {
    expect({ ...(run("{'a': 1, 'a': 2}") as object) }).toEqual({ a: 2 });
  });

  it(`a hand-built dict of ${MAX_CONTAINER_SIZE} distinct keys evaluates; one more is refused`, () => {
    const span = { start: 0, end: 1 };
    const dict = (n: number): Expression => ({
      source: 'x',
      offset: 0,
      ast: {
        kind: 'dict',
        span,
        entries: Array.from({ length: n }, (_, i) => ({
          key: { kind: 'literal', value: `k${i}`, span },
          value: { kind: 'literal', value: i, span },
        })),
      },
    });
    expect(Object.keys(evaluate(dict(MAX_CONTAINER_SIZE), contextOf()) as object)).toHaveLength(
      MAX_CONTAINER_SIZE,
    );
    expect(yareErrorOf(() => evaluate(dict(MAX_CONTAINER_SIZE + 1), contextOf())).code).toBe(
      'YARE_CONTAINER_LIMIT',
    );
  });
});

describe('macros and names', () => {
  it('macros are evaluated by the context with the span of the reference', () => {
    const ctx = contextOf({ macros: {} });
    const e = yareErrorOf(() => evaluate(parseExpression('1 + macros.nope'), ctx));
    expect(e.code).toBe('YARE_UNKNOWN_MACRO');
    expect(e.span).toEqual({ start: 4, end: 15 });
  });

  it('a macro result can be navigated', () => {
    expect(run('macros.hero.hp', { macros: { hero: "@ {'hp': 3}" } })).toBe(3);
  });

  it('a hand-built tree with a bare macros name is refused at run time', () => {
    const e = yareErrorOf(() =>
      evaluate(
        { source: 'macros', offset: 0, ast: { kind: 'name', name: 'macros', span: { start: 0, end: 6 } } },
        contextOf(),
      ),
    );
    expect(e.code).toBe('YARE_SYNTAX');
  });
});

describe('error spans', () => {
  it('points at the offending node', () => {
    const text = "1 + (2 < 'a' < 3)";
    const e = yareErrorOf(() => run(text));
    expect(e.code).toBe('YARE_TYPE');
    expect(text.slice(e.span!.start, e.span!.end)).toBe("2 < 'a' < 3");
    const times = '1 + (2 * [1]) - 3';
    const t = yareErrorOf(() => run(times));
    expect(times.slice(t.span!.start, t.span!.end)).toBe('2 * [1]');
    const z = yareErrorOf(() => run('1 + 10 // (2 - 2)'));
    expect(z.span).toEqual({ start: 4, end: 17 });
    const call = yareErrorOf(() => run('abs(1) + nope(2)'));
    expect(call.code).toBe('YARE_UNKNOWN_FUNCTION');
    expect(call.span).toEqual({ start: 9, end: 16 });
  });
});
