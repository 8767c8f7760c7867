import { describe, expect, it } from 'vitest';
import {
  compareStrings,
  durationToIso,
  formatDuration,
  formatFloat,
  formatValue,
  MAX_VALUE_NESTING,
  pyRepr,
  pyStrRepr,
  toNumeric,
  toStateValue,
  truthy,
  typeName,
  valueEquals,
} from '../../../../src/core/yare/python.ts';
import { Duration, inheritsNothing, newDict, PyFloat, type Value } from '../../../../src/core/yare/values.ts';
import { yareErrorOf } from './helpers.ts';

const SECOND = 1_000_000;
const DAY = 86_400 * SECOND;

function nestedList(depth: number): Value {
  let v: Value = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

describe('formatFloat (Python repr of float)', () => {
  // Expected strings produced by CPython 3.11.
  it.each([
    [1, '1.0'],
    [0.1, '0.1'],
    [2.5, '2.5'],
    [-0, '-0.0'],
    [0, '0.0'],
    [1e16, '1e+16'],
    [1e15, '1000000000000000.0'],
    [9999999999999998, '9999999999999998.0'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [1.5e-7, '1.5e-07'],
    [123456789012345680, '1.2345678901234568e+17'],
    [1e22, '1e+22'],
    [5e-324, '5e-324'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
    [-2.5e-5, '-2.5e-05'],
    [0.30000000000000004, '0.30000000000000004'],
    [Number.POSITIVE_INFINITY, 'inf'],
    [Number.NEGATIVE_INFINITY, '-inf'],
    [Number.NaN, 'nan'],
  ])('%s → %s', (n, text) => {
    expect(formatFloat(n)).toBe(text);
  });
});

describe('formatValue (Python str)', () => {
  it.each<[Value, string]>([
    [null, 'None'],
    [true, 'True'],
    [false, 'False'],
    [3, '3'],
    [new PyFloat(3), '3.0'],
    [2.5, '2.5'],
    [1e20, '1e+20'],
    ['text', 'text'],
    [[], '[]'],
    [['a', 1, new PyFloat(1), null, true], "['a', 1, 1.0, None, True]"],
    [{ a: "it's", b: [1] }, `{'a': "it's", 'b': [1]}`],
    [newDict(), '{}'],
    [new Duration(DAY + 7384 * SECOND), '1 day, 2:03:04'],
    [[new Duration(DAY)], '[datetime.timedelta(days=1)]'],
  ])('%o → %s', (v, text) => {
    expect(formatValue(v)).toBe(text);
  });

  it('formats durations like Python timedelta', () => {
    expect(formatDuration(new Duration(0))).toBe('0:00:00');
    expect(formatDuration(new Duration(-SECOND))).toBe('-1 day, 23:59:59');
    expect(formatDuration(new Duration(2 * DAY + 5))).toBe('2 days, 0:00:00.000005');
    expect(formatDuration(new Duration(-2 * DAY))).toBe('-2 days, 0:00:00');
    expect(pyRepr(new Duration(-SECOND))).toBe('datetime.timedelta(days=-1, seconds=86399)');
    expect(pyRepr([new Duration(0), new Duration(5)])).toBe(
      '[datetime.timedelta(0), datetime.timedelta(microseconds=5)]',
    );
  });

  it('quotes and escapes strings like Python repr', () => {
    expect(pyStrRepr('plain')).toBe("'plain'");
    expect(pyStrRepr("it's")).toBe(`"it's"`);
    expect(pyStrRepr(`it's "x"`)).toBe(`'it\\'s "x"'`);
    expect(pyStrRepr('a\x00\t\n\\\u200b😀')).toBe("'a\\x00\\t\\n\\\\\\u200b😀'");
    expect(pyStrRepr('\ud800')).toBe("'\\ud800'");
    expect(pyStrRepr('é ü')).toBe("'é ü'");
  });

  it(`prints values nested ${MAX_VALUE_NESTING} deep and refuses deeper`, () => {
    expect(formatValue(nestedList(MAX_VALUE_NESTING))).toHaveLength(2 * MAX_VALUE_NESTING + 1);
    expect(yareErrorOf(() => formatValue(nestedList(MAX_VALUE_NESTING + 1))).code).toBe('YARE_BAD_VALUE');
  });
});

describe('toStateValue', () => {
  it('turns floats into numbers, durations into ISO-8601, dicts into null-prototype objects', () => {
    const out = toStateValue({
      f: new PyFloat(3),
      d: new Duration(DAY + 7384 * SECOND),
      l: [new PyFloat(0.5), { x: null }],
    });
    expect(out).toEqual({ f: 3, d: 'P1DT2H3M4S', l: [0.5, { x: null }] });
    expect(inheritsNothing(out)).toBe(true);
    expect(inheritsNothing((out as { l: object[] }).l[1])).toBe(true);
    expect(JSON.stringify(out)).toBe('{"f":3,"d":"P1DT2H3M4S","l":[0.5,{"x":null}]}');
  });

  it.each([
    [0, 'PT0S'],
    [DAY, 'P1D'],
    [SECOND / 2, 'PT0.5S'],
    [1, 'PT0.000001S'],
    [-90 * SECOND, '-PT1M30S'],
    [3600 * SECOND, 'PT1H'],
  ])('duration of %d µs → %s', (micros, iso) => {
    expect(durationToIso(new Duration(micros))).toBe(iso);
  });

  it('refuses numbers JSON cannot hold', () => {
    expect(yareErrorOf(() => toStateValue(new PyFloat(Number.NaN))).code).toBe('YARE_BAD_VALUE');
    expect(yareErrorOf(() => toStateValue([new PyFloat(Number.POSITIVE_INFINITY)])).message).toContain('inf');
  });

  it(`converts values nested ${MAX_VALUE_NESTING} deep and refuses deeper`, () => {
    expect(() => toStateValue(nestedList(MAX_VALUE_NESTING))).not.toThrow();
    expect(yareErrorOf(() => toStateValue(nestedList(MAX_VALUE_NESTING + 1))).code).toBe('YARE_BAD_VALUE');
  });
});

describe('truthy', () => {
  it.each<[Value, boolean]>([
    [null, false],
    [false, false],
    [true, true],
    [0, false],
    [-1, true],
    [Number.NaN, true],
    [new PyFloat(0), false],
    [new PyFloat(0.1), true],
    ['', false],
    ['0', true],
    [[], false],
    [[0], true],
    [newDict(), false],
    [{ a: null }, true],
    [new Duration(0), false],
    [new Duration(1), true],
  ])('%o → %s', (v, expected) => {
    expect(truthy(v)).toBe(expected);
  });
});

describe('toNumeric (the original _to_numeric)', () => {
  it('follows the original coercions', () => {
    expect(toNumeric(5)).toBe(5);
    expect(toNumeric(3.14)).toBe(3.14);
    expect(toNumeric('10')).toBe(10);
    expect(toNumeric('3.5')).toEqual(new PyFloat(3.5));
    expect(toNumeric('abc')).toBe(0);
    expect(toNumeric(null)).toBe(0);
    expect(toNumeric(true)).toBe(1);
    expect(toNumeric(' -7 ')).toBe(-7);
    expect(toNumeric('1_000')).toBe(1000);
    expect(toNumeric('1e3')).toEqual(new PyFloat(1000));
    expect(toNumeric('-inf')).toEqual(new PyFloat(Number.NEGATIVE_INFINITY));
    const pf = new PyFloat(2);
    expect(toNumeric(pf)).toBe(pf);
  });

  it('refuses containers and durations (the original turned them into 0)', () => {
    expect(yareErrorOf(() => toNumeric([1])).code).toBe('YARE_TYPE');
    expect(yareErrorOf(() => toNumeric(new Duration(1))).code).toBe('YARE_TYPE');
    expect(yareErrorOf(() => toNumeric(newDict())).code).toBe('YARE_TYPE');
  });

  it('refuses integer text past the largest exact integer', () => {
    expect(toNumeric(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(yareErrorOf(() => toNumeric('9007199254740992')).code).toBe('YARE_OVERFLOW');
  });
});

describe('valueEquals, typeName, compareStrings', () => {
  it('compares like Python ==', () => {
    expect(valueEquals(1, new PyFloat(1))).toBe(true);
    expect(valueEquals(true, 1)).toBe(true);
    expect(valueEquals(new PyFloat(Number.NaN), new PyFloat(Number.NaN))).toBe(false);
    expect(valueEquals([1, { a: [2] }], [1, { a: [new PyFloat(2)] }])).toBe(true);
    expect(valueEquals({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(valueEquals({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(valueEquals([], newDict())).toBe(false);
    expect(valueEquals(new Duration(5), new Duration(5))).toBe(true);
    expect(valueEquals(new Duration(5), 5)).toBe(false);
    expect(valueEquals('1', 1)).toBe(false);
    expect(valueEquals(null, false)).toBe(false);
  });

  it('names types as Python does', () => {
    expect([null, true, 1, 1.5, new PyFloat(1), 's', [], newDict(), new Duration(0)].map(typeName)).toEqual([
      'NoneType',
      'bool',
      'int',
      'float',
      'float',
      'str',
      'list',
      'dict',
      'timedelta',
    ]);
  });

  it('orders strings by code point', () => {
    expect(compareStrings('\u{1F600}', '\uFFFF')).toBe(1);
    expect(compareStrings('a', 'b')).toBe(-1);
    expect(compareStrings('ab', 'a')).toBe(1);
    expect(compareStrings('x', 'x')).toBe(0);
  });

  it(`compares values nested ${MAX_VALUE_NESTING} deep and refuses deeper`, () => {
    expect(valueEquals(nestedList(MAX_VALUE_NESTING), nestedList(MAX_VALUE_NESTING))).toBe(true);
    expect(
      yareErrorOf(() => valueEquals(nestedList(MAX_VALUE_NESTING + 1), nestedList(MAX_VALUE_NESTING + 1)))
        .code,
    ).toBe('YARE_BAD_VALUE');
  });
});
