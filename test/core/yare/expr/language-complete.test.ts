// `**`, `int()`, `sum()`, `is None` / `is not None` and list comprehensions, with Python's semantics.
// Each expected value is Python 3.11's `repr` of the same expression (the error cases name the
// exception Python raises, mapped to our code); docs/yare.md describes them.
import { describe, expect, it } from 'vitest';
import { errorsOf, rulesOf } from '../../../helpers/yare.ts';
import { EventRunner } from '../../../../src/core/yare/interpreter.ts';
import { DiceRoller } from '../../../../src/core/yare/dice.ts';
import { pyRepr } from '../../../../src/core/yare/python.ts';
import { MAX_CONTAINER_SIZE } from '../../../../src/core/yare/limits.ts';
import { parseExpression } from '../../../../src/core/yare/expr/parser.ts';
import { run, yareErrorOf } from './helpers.ts';

function repr(text: string): string {
  return pyRepr(run(text));
}

// [expression, Python's repr] — checked against CPython 3.11.
const SAME_AS_PYTHON: readonly [string, string][] = [
  ['2 ** 10', '1024'],
  ['2 ** 3 ** 2', '512'],
  ['-2 ** 2', '-4'],
  ['(-2) ** 3', '-8'],
  ['2 ** -1', '0.5'],
  ['2 ** -2', '0.25'],
  ['2.0 ** 3', '8.0'],
  ['4 ** 0.5', '2.0'],
  ['0 ** 0', '1'],
  ['0.0 ** 0', '1.0'],
  ['True ** 2', '1'],
  ['2 ** True', '2'],
  ['(-1) ** 1000001', '-1'],
  ['1 ** 9007199254740991', '1'],
  ['0 ** 9007199254740991', '0'],
  ['2 ** 52', '4503599627370496'],
  ['(-2) ** 52', '4503599627370496'],
  ['3 ** 33', '5559060566555523'],
  ['10 ** 15', '1000000000000000'],
  ['1.5 ** 2', '2.25'],
  ['-1.0 ** 0.5', '-1.0'],
  ["int('42')", '42'],
  ["int(' -7 ')", '-7'],
  ["int('1_000')", '1000'],
  ['int(3.9)', '3'],
  ['int(-3.9)', '-3'],
  ['int(-0.5)', '0'],
  ['int(True)', '1'],
  ['int(7)', '7'],
  ['int(7 / 2)', '3'],
  ['sum([1, 2, 3])', '6'],
  ['sum([])', '0'],
  ['sum([], 5)', '5'],
  ['sum([1, 2.5])', '3.5'],
  ['sum([True, True, 1])', '3'],
  ['sum([0.1, 0.2, 0.3])', '0.6000000000000001'],
  ['sum([[1], [2, 3]], [])', '[1, 2, 3]'],
  ['sum([timedelta(hours=1), timedelta(minutes=30)], timedelta())', 'datetime.timedelta(seconds=5400)'],
  ['None is None', 'True'],
  ['None is not None', 'False'],
  ['0 is None', 'False'],
  ["'' is not None", 'True'],
  ['[] is None', 'False'],
  ['None is None is None', 'True'],
  ['1 < 2 is not None', 'True'],
  ['[x * 2 for x in [1, 2, 3]]', '[2, 4, 6]'],
  ['[x for x in [1, 2, 3, 4] if x % 2 == 0]', '[2, 4]'],
  ['[x for x in [1, 2, 3, 4] if x > 1 if x < 4]', '[2, 3]'],
  ["[k for k in {'a': 1, 'b': 2}]", "['a', 'b']"],
  ["[c for c in 'ab']", "['a', 'b']"],
  ['[[y + 1 for y in x] for x in [[1], [2, 3]]]', '[[2], [3, 4]]'],
  ['[x for x in []]', '[]'],
  ['sum([x ** 2 for x in [1, 2, 3]])', '14'],
  ['len([x for x in [1, None, 2] if x is not None])', '2'],
  ['[x if x else 0 for x in [None, 1]]', '[0, 1]'],
  ["sum([d['hp'] for d in [{'hp': 3}, {'hp': 4}]])", '7'],
];

// [expression, our code, Python's exception]
const ERRORS_AS_PYTHON: readonly [string, string, string][] = [
  ['2 ** 53', 'YARE_OVERFLOW', '(an int beyond 2^53: the overflow rule)'],
  ['(-2) ** 53', 'YARE_OVERFLOW', '(the overflow rule)'],
  ['3 ** 34', 'YARE_OVERFLOW', '(the overflow rule)'],
  ['2 ** 9007199254740991', 'YARE_OVERFLOW', '(the overflow rule, without computing)'],
  ['0 ** -1', 'YARE_ZERO_DIVISION', 'ZeroDivisionError'],
  ['0.0 ** -1', 'YARE_ZERO_DIVISION', 'ZeroDivisionError'],
  ['10.0 ** 400', 'YARE_OVERFLOW', 'OverflowError'],
  ['(-8.0) ** 0.5', 'YARE_BAD_VALUE', '(a complex number)'],
  ['None ** 2', 'YARE_TYPE', 'TypeError'],
  ["'2' ** 2", 'YARE_TYPE', 'TypeError'],
  ['timedelta(days=1) ** 2', 'YARE_TYPE', 'TypeError'],
  ["int('1.5')", 'YARE_BAD_VALUE', 'ValueError'],
  ["int('')", 'YARE_BAD_VALUE', 'ValueError'],
  ["int('0x10')", 'YARE_BAD_VALUE', 'ValueError'],
  ['int(None)', 'YARE_TYPE', 'TypeError'],
  ['int([1])', 'YARE_TYPE', 'TypeError'],
  ['int(1e300)', 'YARE_OVERFLOW', '(the overflow rule)'],
  ['int(1e999)', 'YARE_OVERFLOW', 'OverflowError'],
  ["sum(['a', 'b'])", 'YARE_TYPE', 'TypeError'],
  ["sum([1], 'x')", 'YARE_TYPE', 'TypeError'],
  ['sum([1, None])', 'YARE_TYPE', 'TypeError'],
  ['sum([[1], 2], [])', 'YARE_TYPE', 'TypeError'],
  ['sum(5)', 'YARE_TYPE', 'TypeError'],
  ['[x for x in 5]', 'YARE_TYPE', 'TypeError'],
  ['[x for x in None]', 'YARE_TYPE', 'TypeError'],
];

describe('Python semantics of **, int(), sum(), is None and comprehensions', () => {
  it.each(SAME_AS_PYTHON)('%s → %s', (text, expected) => {
    expect(repr(text)).toBe(expected);
  });

  it.each(ERRORS_AS_PYTHON)('%s is %s (Python: %s)', (text, code) => {
    expect(yareErrorOf(() => run(text)).code).toBe(code);
  });

  it('binds the comprehension variable only inside it, over the enclosing names', () => {
    const state = { items: [{ hp: 3 }, { hp: 0 }, { hp: 5 }] };
    expect(pyRepr(run('[i.hp for i in state.items if i.hp > 0]', { state }))).toBe('[3, 5]');
    // A foreach local of the same name is hidden inside and intact outside.
    expect(pyRepr(run('[x for x in [1, 2]] + [x]', { locals: { x: 9 } }))).toBe('[1, 2, 9]');
    expect(yareErrorOf(() => run('[x for x in [1]] + [x]')).code).toBe('YARE_UNKNOWN_PATH');
  });

  it(`makes a list of at most ${MAX_CONTAINER_SIZE} items`, () => {
    const list = `[${Array.from({ length: MAX_CONTAINER_SIZE }, (_, i) => i).join(', ')}]`;
    expect(run(`[x for x in ${list}]`)).toHaveLength(MAX_CONTAINER_SIZE);
    const err = yareErrorOf(() => run(`[x for x in ${list} + [0]]`));
    expect(err.code).toBe('YARE_CONTAINER_LIMIT');
    expect(err.message).toContain(`${MAX_CONTAINER_SIZE}`);
  });
});

describe('the parser refuses what is not Python or not supported, naming it', () => {
  it.each([
    ['x is 1', "'is' compares with None only"],
    ['x is not y', "'is not' compares with None only"],
    ['[x for x, y in l]', 'one variable'],
    ['[state for state in l]', "'state' cannot be a comprehension's variable"],
    ['[x for macros in l]', "'macros' cannot be a comprehension's variable"],
    ['[x for 1 in l]', "expected one name after 'for'"],
    ['[x for x l]', "expected 'in'"],
    ['sum(x for x in l)', 'write a list comprehension'],
  ])('%s: %s', (text, message) => {
    expect(yareErrorOf(() => parseExpression(text)).message).toContain(message);
  });
});

const RULES = `state_schema:
  items: { type: list, default: [] }
  total: { type: int, default: 0 }
events:
  count:
    steps:
      - { action: set, var: state.total, value: "@ len([x for x in state.items if x is not None])" }
`;

describe('comprehensions in events', () => {
  it('count one step per item against the run budget: at the limit it runs, one item more it stops', () => {
    const rules = rulesOf(RULES);
    const items = Array.from({ length: 50 }, (_, i) => i);
    // The event's one step plus 50 items: 51 steps.
    const at = new EventRunner(rules, { items, total: 0 }, DiceRoller.fromSeed(0), 51).run('count');
    expect(at.ok && at.stepsUsed).toBe(51);
    const past = new EventRunner(rules, { items, total: 0 }, DiceRoller.fromSeed(0), 50).run('count');
    expect(past.ok).toBe(false);
    if (!past.ok) expect(past.error.code).toBe('YARE_STEP_LIMIT');
  });

  it('are checked at load: a path on state inside one is checked against the schema', () => {
    const bad = errorsOf(RULES.replace('if x is not None', 'if state.itemz'));
    expect(bad.map((e) => e.message).join('\n')).toContain('state.itemz is not declared');
    const local = errorsOf(
      RULES.replace('[x for x in state.items if x is not None]', '[y for x in state.items]'),
    );
    expect(local.map((e) => e.message).join('\n')).toContain("Unknown name 'y'");
  });
});
