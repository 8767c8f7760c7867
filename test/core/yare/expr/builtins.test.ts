import { describe, expect, it } from 'vitest';
import { BUILTINS, checkCall, TIMEDELTA_POSITIONAL } from '../../../../src/core/yare/expr/builtins.ts';
import { evaluate, formatValue } from '../../../../src/core/yare/expr/evaluate.ts';
import { parseExpression } from '../../../../src/core/yare/expr/parser.ts';
import { MAX_CONTAINER_SIZE, MAX_DICE_COUNT, MAX_DICE_SIDES } from '../../../../src/core/yare/limits.ts';
import { Duration, PyFloat } from '../../../../src/core/yare/values.ts';
import { contextOf, run, yareErrorOf } from './helpers.ts';

const SECOND = 1_000_000;
const DAY = 86_400 * SECOND;

function show(text: string, fixture = {}): string {
  return formatValue(run(text, fixture));
}

describe('roll', () => {
  it('rolls bare dice, quoted dice, upper case and dice held in state', () => {
    const ctx = contextOf({ faces: [1, 2, 3, 4, 5, 6, 7], temp: { d: '2d6' } });
    expect(evaluate(parseExpression("roll(1d20) + roll('1D4') + roll(temp.d) + roll(' 3d8 ')"), ctx)).toBe(
      28,
    );
    expect(ctx.rolls).toEqual([
      { count: 1, sides: 20, text: 'roll(1d20)' },
      { count: 1, sides: 4, text: "roll('1D4')" },
      { count: 2, sides: 6, text: 'roll(temp.d)' },
      { count: 3, sides: 8, text: "roll(' 3d8 ')" },
    ]);
  });

  it('rolls zero dice to 0, as the original did', () => {
    expect(run('roll(0d6)')).toBe(0);
  });

  it('checks dice written as text against the same limits at run time', () => {
    expect(run(`roll('${MAX_DICE_COUNT}d1')`, { faces: Array(MAX_DICE_COUNT).fill(1) })).toBe(MAX_DICE_COUNT);
    expect(yareErrorOf(() => run(`roll('${MAX_DICE_COUNT + 1}d6')`)).code).toBe('YARE_DICE_LIMIT');
    expect(run(`roll('1d${MAX_DICE_SIDES}')`, { faces: [MAX_DICE_SIDES] })).toBe(MAX_DICE_SIDES);
    expect(yareErrorOf(() => run(`roll('1d${MAX_DICE_SIDES + 1}')`)).code).toBe('YARE_DICE_LIMIT');
    expect(yareErrorOf(() => run("roll('1d0')")).code).toBe('YARE_BAD_DICE');
  });

  it.each([
    "roll('d20')",
    "roll('2x6')",
    "roll('-1d6')",
    "roll('1d6+2')",
    "roll('')",
    'roll(20)',
    'roll(None)',
  ])('%s is bad dice', (text) => {
    const e = yareErrorOf(() => run(text));
    expect(e.code).toBe('YARE_BAD_DICE');
    expect(e.span).toEqual({ start: 5, end: text.length - 1 });
  });

  it('takes exactly one positional argument', () => {
    expect(yareErrorOf(() => run('roll()')).code).toBe('YARE_ARITY');
    expect(yareErrorOf(() => run('roll(1d6, 1d8)')).code).toBe('YARE_ARITY');
    expect(yareErrorOf(() => run('roll(dice=1d6)')).code).toBe('YARE_ARITY');
  });
});

describe('abs, floor, ceil, len', () => {
  it.each([
    ['abs(-5)', '5'],
    ['abs(-2.5)', '2.5'],
    ['abs(True)', '1'],
    ['abs(-timedelta(seconds=3))', '0:00:03'],
    ['floor(2.7)', '2'],
    ['floor(-2.1)', '-3'],
    ['floor(5)', '5'],
    ['ceil(2.1)', '3'],
    ['ceil(-2.7)', '-2'],
    ['ceil(True)', '1'],
    ["len('héllo')", '5'],
    ["len('😀a')", '2'],
    ['len([1, 2, 3])', '3'],
    ["len({'a': 1})", '1'],
    ["len('')", '0'],
  ])('%s → %s', (text, printed) => {
    expect(show(text)).toBe(printed);
  });

  it('floor and ceil return ints', () => {
    expect(run('floor(2.7)')).toBe(2);
    expect(run('ceil(2.1)')).toBe(3);
  });

  it.each(["abs('a')", 'abs(None)', "floor('2')", 'ceil([1])', 'len(5)', 'len(None)'])(
    '%s is a type error',
    (text) => {
      expect(yareErrorOf(() => run(text)).code).toBe('YARE_TYPE');
    },
  );

  it('refuses results that are not exact ints', () => {
    expect(yareErrorOf(() => run('floor(1e300)')).code).toBe('YARE_OVERFLOW');
    expect(yareErrorOf(() => run('ceil(1e999)')).code).toBe('YARE_OVERFLOW');
    expect(yareErrorOf(() => run('floor(1e999 - 1e999)')).code).toBe('YARE_BAD_VALUE');
  });
});

describe('min and max', () => {
  it.each([
    ['max(1, 5, 3)', '5'],
    ['min(4, 2, 8)', '2'],
    ['max([1, 7, 3])', '7'],
    ['min([2.5, 1, 3])', '1'],
    ["max('apple', 'pear')", 'pear'],
    ['max(1, 1.0)', '1'],
    ['min(1.0, 1)', '1.0'],
    ['max(True, 0)', 'True'],
  ])('%s → %s', (text, printed) => {
    expect(show(text)).toBe(printed);
  });

  it('refuses an empty list, one non-list value, mixed types and keywords', () => {
    expect(yareErrorOf(() => run('max([])')).code).toBe('YARE_BAD_VALUE');
    expect(yareErrorOf(() => run('max(5)')).code).toBe('YARE_TYPE');
    expect(yareErrorOf(() => run("max(1, 'a')")).code).toBe('YARE_TYPE');
    expect(yareErrorOf(() => run('min()')).code).toBe('YARE_ARITY');
    expect(yareErrorOf(() => run('max([1], key=1)')).code).toBe('YARE_ARITY');
  });
});

describe('round (Python: banker’s rounding on the exact binary value)', () => {
  // Expected results printed by CPython 3.11.
  it.each([
    ['round(2.5)', '2'],
    ['round(3.5)', '4'],
    ['round(-2.5)', '-2'],
    ['round(-0.5)', '0'],
    ['round(0.5)', '0'],
    ['round(1.5)', '2'],
    ['round(2.675, 2)', '2.67'],
    ['round(0.125, 2)', '0.12'],
    ['round(0.375, 2)', '0.38'],
    ['round(15, -1)', '20'],
    ['round(25, -1)', '20'],
    ['round(-25, -1)', '-20'],
    ['round(1234.5678, -2)', '1200.0'],
    ['round(1.5e300, -299)', '1.5e+300'],
    ['round(5e-324, 400)', '5e-324'],
    ['round(1.23456, 0)', '1.0'],
    ['round(-0.001, 2)', '-0.0'],
    ['round(7, 2)', '7'],
    ['round(2.5, None)', '2'],
    ['round(True)', '1'],
    ['round(123.456, 1)', '123.5'],
    ['round(0.5, 0)', '0.0'],
    ['round(-1.5, 0)', '-2.0'],
    ['round(12345, -5)', '0'],
    ['round(50000, -5)', '0'],
    ['round(150000, -5)', '200000'],
    ['round(2.5, True)', '2.5'],
  ])('%s → %s', (text, printed) => {
    expect(show(text)).toBe(printed);
  });

  it('keeps ints and floats apart', () => {
    expect(run('round(2.7)')).toBe(3);
    expect(run('round(2.7, 0)')).toEqual(new PyFloat(3));
  });

  it('refuses what Python refuses, and ints past the exact range', () => {
    expect(yareErrorOf(() => run('round(2.5, 1.0)')).code).toBe('YARE_TYPE');
    expect(yareErrorOf(() => run("round('2.5')")).code).toBe('YARE_TYPE');
    expect(yareErrorOf(() => run('round(1e999)')).code).toBe('YARE_OVERFLOW');
    expect(yareErrorOf(() => run('round(1e999 - 1e999)')).code).toBe('YARE_BAD_VALUE');
    expect(yareErrorOf(() => run('round(1e16)')).code).toBe('YARE_OVERFLOW');
    expect(yareErrorOf(() => run('round(1, 2, 3)')).code).toBe('YARE_ARITY');
  });
});

describe('timedelta', () => {
  it('builds durations from every keyword', () => {
    expect(
      show('timedelta(days=1, hours=2, minutes=3, seconds=4, weeks=1, milliseconds=5, microseconds=6)'),
    ).toBe('8 days, 2:03:04.005006');
    expect(run('timedelta(hours=1)')).toEqual(new Duration(3600 * SECOND));
    expect(run('timedelta()')).toEqual(new Duration(0));
  });

  it('accepts Python’s positional order (days, seconds, microseconds, ...)', () => {
    expect(run('timedelta(5)')).toEqual(new Duration(5 * DAY));
    expect(run('timedelta(0, 30)')).toEqual(new Duration(30 * SECOND));
    expect(yareErrorOf(() => run('timedelta(1, days=2)')).code).toBe('YARE_ARITY');
  });

  it('rounds fractional microseconds half to even', () => {
    expect(run('timedelta(hours=1.5)')).toEqual(new Duration(5400 * SECOND));
    expect(run('timedelta(microseconds=0.5)')).toEqual(new Duration(0));
    expect(run('timedelta(microseconds=1.5)')).toEqual(new Duration(2));
    expect(run('timedelta(microseconds=2.5)')).toEqual(new Duration(2));
    expect(show('timedelta(seconds=-0.0000015)')).toBe('-1 day, 23:59:59.999998');
  });

  it('refuses unknown keywords, non-numbers and overflow', () => {
    expect(yareErrorOf(() => run('timedelta(years=1)')).code).toBe('YARE_ARITY');
    expect(yareErrorOf(() => run("timedelta(days='1')")).code).toBe('YARE_TYPE');
  });

  // Python's timedelta range: ±999,999,999 days (about 2^66 microseconds), held exactly.
  it('holds durations exactly up to 999999999 days and refuses one day more, as Python does', () => {
    expect(show('timedelta(weeks=100000) * 1000')).toBe('700000000 days, 0:00:00');
    const max = 'timedelta(days=999999999, hours=23, minutes=59, seconds=59, microseconds=999999)';
    expect(show(max)).toBe('999999999 days, 23:59:59.999999');
    expect(show(`${max}.total_seconds`)).toBe('86400000000000.0');
    expect(show('timedelta(days=-999999999)')).toBe('-999999999 days, 0:00:00');
    const past = yareErrorOf(() => run('timedelta(days=1000000000)'));
    expect(past.code).toBe('YARE_OVERFLOW');
    expect(past.message).toContain('999999999 days');
    expect(yareErrorOf(() => run(`${max} + timedelta(microseconds=1)`)).code).toBe('YARE_OVERFLOW');
    expect(yareErrorOf(() => run(`-${max}`)).code).toBe('YARE_OVERFLOW');
    expect(yareErrorOf(() => run('timedelta(days=-999999999) - timedelta(microseconds=1)')).code).toBe(
      'YARE_OVERFLOW',
    );
    expect(yareErrorOf(() => run('timedelta(days=500000000) * 2')).code).toBe('YARE_OVERFLOW');
    expect(yareErrorOf(() => run('timedelta(days=1e300)')).code).toBe('YARE_OVERFLOW');
  });

  it('gives total_seconds past 2^53 microseconds rounded once, as Python does', () => {
    // 2^53 + 1 and 2^60 + 3 microseconds: Python prints 9007199254.740993 and 1152921504606.847.
    expect(show('(timedelta(microseconds=9007199254740991) + timedelta(microseconds=2)).total_seconds')).toBe(
      '9007199254.740993',
    );
    expect(show('timedelta(seconds=1152921504606, microseconds=846979).total_seconds')).toBe(
      '1152921504606.847',
    );
    expect(show('(-timedelta(seconds=1152921504606, microseconds=846979)).total_seconds')).toBe(
      '-1152921504606.847',
    );
  });
});

describe('time_delta', () => {
  it.each([
    ["time_delta('2026-04-01T00:00:00', '2026-04-03T00:00:00')", '2 days, 0:00:00'],
    ["time_delta('2026-04-01', '2026-04-03')", '2 days, 0:00:00'],
    ["time_delta('20260401', '2026-04-01T1000')", '10:00:00'],
    ["time_delta('2026-04-01T12:30:00.25', '2026-04-03')", '1 day, 11:29:59.750000'],
    ["time_delta('2026-04-01T09:00:00Z', '2026-04-01T10:00:00+02:00')", '-1 day, 23:00:00'],
    ["time_delta('2023-01-01T12:00:00Z', '2023-01-01T12:00:00+00:00')", '0:00:00'],
    ["time_delta('2024-03-01', '2024-02-28')", '-2 days, 0:00:00'],
    ["time_delta('2023-03-01', '2023-02-28')", '-1 day, 0:00:00'],
    ["time_delta('2026-04-01 10:00', '2026-04-01t10:00:01,5')", '0:00:01.500000'],
    ["time_delta('2026-04-01T10:00:00.1234567', '2026-04-01T10:00:00.2')", '0:00:00.076544'],
    ["time_delta('2026-04-01T10:00+0130', '2026-04-01T10:00-00:00')", '1:30:00'],
    ["time_delta('0001-01-01', '0001-01-02')", '1 day, 0:00:00'],
  ])('%s → %s', (text, printed) => {
    expect(show(text)).toBe(printed);
  });

  it.each([
    "'not-a-date'",
    "'2026-04-01T24:00'",
    "'2026-04-01T10:00:60'",
    "'2026-02-30'",
    "'2026-04-01Z'",
    "'2026-4-01'",
    "'2026-04-01T10:00z'",
    "'2026-W54-1'", // week dates are read (as Python 3.11 reads them), but 2026 has no week 54
    "'2026-123'", // ordinal dates are not (nor by Python 3.11)
    "''",
  ])('%s is an unsupported timestamp format', (text) => {
    const e = yareErrorOf(() => run(`time_delta(${text}, '2026-04-01')`));
    expect(e.code).toBe('YARE_BAD_VALUE');
    expect(e.message).toContain('Unsupported timestamp format');
    expect(e.span).toEqual({ start: 11, end: 11 + text.length });
  });

  it('refuses mixing naive and aware timestamps', () => {
    const e = yareErrorOf(() => run("time_delta('2026-04-01T10:00', '2026-04-01T10:00Z')"));
    expect(e.code).toBe('YARE_TYPE');
    expect(e.message).toContain('naive');
  });

  it('refuses numbers (no clock or time zone is read) and other types', () => {
    expect(yareErrorOf(() => run("time_delta(1600000000, '2026-04-01')")).message).toContain('clock');
    expect(yareErrorOf(() => run("time_delta([], '2026-04-01')")).message).toContain(
      'time_delta unsupported type: list',
    );
    expect(yareErrorOf(() => run("time_delta('2026-04-01')")).code).toBe('YARE_ARITY');
  });

  // The wall that was: 2^53 microseconds after 1000-01-01 is 1285-06-04T23:47:34.740992.
  it.each([
    ['1285-06-04T23:47:34', 104249, 85654, '9007199254.0'],
    ['1285-06-04T23:47:35', 104249, 85655, '9007199255.0'],
    ['2026-03-14T09:41:27.123456', 374811, 34887, '32383705287.123455'],
    ['9999-12-31T23:59:59.999999', 3287181, 86399, '284012524800.0'],
  ])(
    'measures 1000-01-01 to %s exactly (the minute-of-day macro works for any date)',
    (to, days, seconds, total) => {
      const delta = `time_delta('1000-01-01T00:00:00', '${to}')`;
      expect(run(`${delta}.days`)).toBe(days);
      expect(run(`${delta}.seconds`)).toBe(seconds);
      expect(run(`${delta}.seconds // 60`)).toBe(Math.floor(seconds / 60));
      expect(show(`${delta}.total_seconds`)).toBe(total);
    },
  );

  it('measures the whole calendar, 0001-01-01 to 9999-12-31', () => {
    expect(show("time_delta('0001-01-01', '9999-12-31')")).toBe('3652058 days, 0:00:00');
    expect(show("time_delta('9999-12-31', '0001-01-01')")).toBe('-3652058 days, 0:00:00');
  });
});

describe('argument limits', () => {
  it(`accepts ${MAX_CONTAINER_SIZE} arguments in a call and refuses one more`, () => {
    const args = (n: number) => Array.from({ length: n }, (_, i) => String(i)).join(',');
    expect(run(`max(${args(MAX_CONTAINER_SIZE)})`)).toBe(MAX_CONTAINER_SIZE - 1);
    const e = yareErrorOf(() => parseExpression(`max(${args(MAX_CONTAINER_SIZE + 1)})`));
    expect(e.code).toBe('YARE_CONTAINER_LIMIT');
    expect(e.message).toContain(String(MAX_CONTAINER_SIZE));
    // A macro's call parses to the same limit (its parameters are checked against the macro at load).
    expect(parseExpression(`macros.m(${args(MAX_CONTAINER_SIZE)})`).ast.kind).toBe('macroCall');
    expect(yareErrorOf(() => parseExpression(`macros.m(${args(MAX_CONTAINER_SIZE + 1)})`)).code).toBe(
      'YARE_CONTAINER_LIMIT',
    );
  });

  it(`timedelta takes ${TIMEDELTA_POSITIONAL.length} positional arguments and refuses one more`, () => {
    expect(run('timedelta(0, 0, 0, 0, 0, 0, 1)')).toEqual(new Duration(7 * DAY));
    expect(yareErrorOf(() => run('timedelta(0, 0, 0, 0, 0, 0, 1, 1)')).code).toBe('YARE_ARITY');
  });
});

describe('checkCall', () => {
  it('knows the complete whitelist', () => {
    expect([...BUILTINS.keys()].sort()).toEqual(
      [
        'abs',
        'ceil',
        'floor',
        'int',
        'len',
        'max',
        'min',
        'roll',
        'round',
        'sum',
        'time_delta',
        'timedelta',
        'str',
        'join',
        'split',
        'replace',
        'upper',
        'lower',
        'capitalize',
        'strip',
        'startswith',
        'endswith',
        'format',
        'sorted',
        'range',
        'keys',
        'values',
        'choice',
        'shuffle',
        'within',
        'ancestors',
        'descendants',
      ].sort(),
    );
  });

  it('refuses unknown functions and wrong arity with the call span', () => {
    const unknown = parseExpression('1 + eval(2)').ast;
    if (unknown.kind !== 'binary' || unknown.right.kind !== 'call') throw new Error('unexpected tree');
    const e = yareErrorOf(() => checkCall(unknown.right as Extract<typeof unknown.right, { kind: 'call' }>));
    expect(e.code).toBe('YARE_UNKNOWN_FUNCTION');
    expect(e.span).toEqual({ start: 4, end: 11 });
    expect(e.message).toContain('roll');
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(yareErrorOf(() => run(`${name}(1)`)).code).toBe('YARE_UNKNOWN_FUNCTION');
    }
    expect(yareErrorOf(() => run('abs(1, 2)')).message).toContain('abs() takes 1 argument, got 2');
  });
});
