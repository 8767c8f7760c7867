// The functions a game needs (issue 38 item 2), each with Python's meaning and each bounded: text (`str`,
// `join`, `split`, `replace`, `upper`, `lower`, `capitalize`, `strip`, `startswith`, `endswith`, `format`,
// slices), lists (`sorted`, `range`, `keys`, `values`), comprehensions over several `for`s and dict
// comprehensions, and the seeded `choice` and `shuffle`. Expected values are what CPython 3.11 prints.

import { describe, expect, it } from 'vitest';
import { evaluate, formatValue } from '../../../../src/core/yare/expr/evaluate.ts';
import { parseExpression } from '../../../../src/core/yare/expr/parser.ts';
import { MAX_FORMAT_PRECISION } from '../../../../src/core/yare/expr/text-builtins.ts';
import { MAX_CONTAINER_SIZE, MAX_STRING_LENGTH } from '../../../../src/core/yare/limits.ts';
import { contextOf, run, yareErrorOf } from './helpers.ts';

const show = (text: string, fixture = {}) => formatValue(run(text, fixture));
const repr = (text: string, fixture = {}) => {
  const v = run(text, fixture);
  return typeof v === 'string' ? `'${v}'` : formatValue(v);
};

describe('text', () => {
  it.each([
    ['str(None)', 'None'],
    ['str(2 / 2)', '1.0'],
    ["str([1, 'a'])", "[1, 'a']"],
    ["join(['a', 'b', 'c'], ', ')", 'a, b, c'],
    ["join(['a', 'b', 'c'], ', ', ' and ')", 'a, b and c'],
    ["join(['a', 'b'], ', ', ' and ')", 'a and b'],
    ["join(['solo'], ', ', ' and ')", 'solo'],
    ["join([], ', ')", ''],
    ["join('abc', '-')", 'a-b-c'],
    ["join(['x', 'y'])", 'xy'],
    ["replace('a-b-c', '-', '+')", 'a+b+c'],
    ["replace('abc', '', '.')", '.a.b.c.'],
    ["replace('', '', '.')", '.'],
    ["upper('Dish Soap')", 'DISH SOAP'],
    ["lower('Dish Soap')", 'dish soap'],
    ["capitalize('region 0 now has a WIND farm.')", 'Region 0 now has a wind farm.'],
    ["capitalize('')", ''],
    ["strip('  a b  ')", 'a b'],
    ["strip('..a..', '.')", 'a'],
  ])('%s is %s', (text, expected) => {
    expect(show(text)).toBe(expected);
  });

  it('split: on whitespace runs without a separator, on each separator with one', () => {
    expect(show("split('  take the  cup ')")).toBe("['take', 'the', 'cup']");
    expect(show("split('a,,b', ',')")).toBe("['a', '', 'b']");
    expect(show("split('', ',')")).toBe("['']");
    expect(show("split('   ')")).toBe('[]');
    expect(yareErrorOf(() => run("split('a', '')")).message).toContain('empty separator');
  });

  it('startswith and endswith', () => {
    expect(run("startswith('dirty cup', 'dirty')")).toBe(true);
    expect(run("endswith('dirty cup', 'plate')")).toBe(false);
  });

  it('refuses what Python refuses: join of a non-string, text functions on numbers', () => {
    const joined = yareErrorOf(() => run("join(['a', 1], ', ')"));
    expect(joined.code).toBe('YARE_TYPE');
    expect(joined.message).toContain('item 1 is a int');
    expect(yareErrorOf(() => run('upper(3)')).code).toBe('YARE_TYPE');
    expect(yareErrorOf(() => run("replace(1, 'a', 'b')")).code).toBe('YARE_TYPE');
  });

  it('a result past MAX_STRING_LENGTH is refused before it is built; at the limit it is made', () => {
    const half = MAX_STRING_LENGTH / 2;
    expect((run(`replace(temp.s, 'a', 'aa')`, { temp: { s: 'a'.repeat(half) } }) as string).length).toBe(
      MAX_STRING_LENGTH,
    );
    const past = yareErrorOf(() => run(`replace(temp.s, 'a', 'aa')`, { temp: { s: 'a'.repeat(half + 1) } }));
    expect(past.code).toBe('YARE_CONTAINER_LIMIT');
    expect(past.message).toContain('MAX_STRING_LENGTH');
    const parts = { temp: { l: ['x'.repeat(MAX_STRING_LENGTH / 2), 'y'.repeat(MAX_STRING_LENGTH / 2)] } };
    expect((run("join(temp.l, '')", parts) as string).length).toBe(MAX_STRING_LENGTH);
    expect(yareErrorOf(() => run("join(temp.l, '-')", parts)).code).toBe('YARE_CONTAINER_LIMIT');
  });

  it('upper may lengthen a string (ß is SS): at MAX_STRING_LENGTH it is made, one past is refused', () => {
    const half = MAX_STRING_LENGTH / 2;
    expect((run('upper(temp.s)', { temp: { s: 'ß'.repeat(half) } }) as string).length).toBe(
      MAX_STRING_LENGTH,
    );
    const past = yareErrorOf(() => run('upper(temp.s)', { temp: { s: `${'ß'.repeat(half)}a` } }));
    expect(past.code).toBe('YARE_CONTAINER_LIMIT');
    expect(past.message).toContain('MAX_STRING_LENGTH');
  });

  it('split makes at most MAX_CONTAINER_SIZE items', () => {
    const at = { temp: { s: Array(MAX_CONTAINER_SIZE).fill('w').join(' ') } };
    expect((run('split(temp.s)', at) as unknown[]).length).toBe(MAX_CONTAINER_SIZE);
    const past = {
      temp: {
        s: Array(MAX_CONTAINER_SIZE + 1)
          .fill('w')
          .join(','),
      },
    };
    expect(yareErrorOf(() => run("split(temp.s, ',')", past)).code).toBe('YARE_CONTAINER_LIMIT');
  });
});

describe('format', () => {
  it.each([
    ["format('{} has {}', 'cup', 3)", 'cup has 3'],
    ["format('{1} {0}', 'a', 'b')", 'b a'],
    ["format('{:.2f}', 2.675)", '2.67'],
    ["format('{:.2f}', 0.125)", '0.12'],
    ["format('{:.0f}', 2.5)", '2'],
    ["format('{:.1f}', -0.04)", '-0.0'],
    ["format('{:,d}', 1234567)", '1,234,567'],
    ["format('{:,.2f}', 1234.5)", '1,234.50'],
    ["format('{:>5}|{:<4}|{:^5}', 'ab', 1, 'c')", '   ab|1   |  c  '],
    ["format('{:05d}', -42)", '-0042'],
    ["format('{:+d}', 7)", '+7'],
    ["format('{:.0%}', 0.25)", '25%'],
    ["format('{:*^7}', 'x')", '***x***'],
    ["format('{:.3s}', 'kitchen')", 'kit'],
    ["format('{{}} {}', 1)", '{} 1'],
    ["format('{:f}', 1e22)", '10000000000000000000000.000000'],
    ["format('{}', 2 / 2)", '1.0'],
    ["format('{:d}', True)", '1'],
  ])('%s is %s', (text, expected) => {
    expect(show(text)).toBe(expected);
  });

  it('refuses what str.format refuses, and what it does not support, naming it', () => {
    const cases: [string, string][] = [
      ["format('{}')", 'only 0 were given'],
      ["format('{} {0}', 1)", 'cannot mix'],
      ["format('{name}', 1)", "'{name}' is not a field"],
      ["format('{', 1)", "'{' without its '}'"],
      ["format('}', 1)", "single '}'"],
      ["format('{:d}', 1.5)", 'type d takes an int'],
      ["format('{:f}', 'x')", 'type f takes a number'],
      ["format('{:.2}', 1.5)", 'a precision needs the type f'],
      ["format('{:q}', 1)", 'bad format spec'],
    ];
    for (const [text, message] of cases) expect(yareErrorOf(() => run(text)).message).toContain(message);
  });

  it('a width of MAX_STRING_LENGTH is allowed; one more is refused, as is a result past the limit', () => {
    expect((run(`format('{:>${MAX_STRING_LENGTH}}', 'x')`) as string).length).toBe(MAX_STRING_LENGTH);
    expect(yareErrorOf(() => run(`format('{:>${MAX_STRING_LENGTH + 1}}', 'x')`)).message).toContain(
      'MAX_STRING_LENGTH',
    );
    expect(yareErrorOf(() => run(`format('{:>${MAX_STRING_LENGTH}}!', 'x')`)).code).toBe(
      'YARE_CONTAINER_LIMIT',
    );
  });

  it(`a precision of MAX_FORMAT_PRECISION (${MAX_FORMAT_PRECISION}) is allowed; one more is refused`, () => {
    expect((run(`format('{:.${MAX_FORMAT_PRECISION}f}', 1)`) as string).length).toBe(
      MAX_FORMAT_PRECISION + 2,
    );
    expect(yareErrorOf(() => run(`format('{:.${MAX_FORMAT_PRECISION + 1}f}', 1)`)).message).toContain(
      'MAX_FORMAT_PRECISION',
    );
  });
});

describe('slices', () => {
  it.each([
    ["'kitchen'[1:3]", "'it'"],
    ["'kitchen'[-3:]", "'hen'"],
    ["'kitchen'[::-1]", "'nehctik'"],
    ["'kitchen'[::2]", "'kthn'"],
    ["'kitchen'[5:1]", "''"],
    ["'kitchen'[100:]", "''"],
    ["'kitchen'[-100:2]", "'ki'"],
    ["'héllo😀'[4:6]", "'o😀'"],
    ['[1, 2, 3, 4][1:-1]', '[2, 3]'],
    ['[1, 2, 3, 4][::-2]', '[4, 2]'],
    ['[1, 2, 3, 4][True:]', '[2, 3, 4]'],
    ['[1, 2, 3, 4][None:2]', '[1, 2]'],
  ])('%s is %s', (text, expected) => {
    expect(repr(text)).toBe(expected);
  });

  it('a step of 0, a float index, or a dict is an error', () => {
    expect(yareErrorOf(() => run('[1][::0]')).message).toContain('slice step cannot be zero');
    expect(yareErrorOf(() => run('[1][1.5:]')).message).toContain('slice indices must be integers or None');
    expect(yareErrorOf(() => run("{'a': 1}[0:1]")).code).toBe('YARE_TYPE');
  });
});

describe('lists and dicts', () => {
  it('sorted: stable, reverse keeps equal items in order, key names a key of each item', () => {
    expect(show('sorted([3, 1, 2])')).toBe('[1, 2, 3]');
    expect(show("sorted('cab')")).toBe("['a', 'b', 'c']");
    expect(show('sorted([3, 1, 2], reverse=True)')).toBe('[3, 2, 1]');
    const items = {
      temp: {
        l: [
          { n: 'b', w: 1 },
          { n: 'a', w: 2 },
          { n: 'c', w: 1 },
        ],
      },
    };
    expect(show("[x.n for x in sorted(temp.l, key='w')]", items)).toBe("['b', 'c', 'a']");
    expect(show("[x.n for x in sorted(temp.l, key='w', reverse=True)]", items)).toBe("['a', 'b', 'c']");
    expect(yareErrorOf(() => run("sorted([1, 'a'])")).code).toBe('YARE_TYPE');
    expect(yareErrorOf(() => run("sorted([1], key='w')")).message).toContain('needs dicts');
  });

  it('range: Python arguments, at most MAX_CONTAINER_SIZE items', () => {
    expect(show('range(3)')).toBe('[0, 1, 2]');
    expect(show('range(2, 8, 3)')).toBe('[2, 5]');
    expect(show('range(5, 0, -2)')).toBe('[5, 3, 1]');
    expect(show('range(0)')).toBe('[]');
    expect((run(`range(${MAX_CONTAINER_SIZE})`) as unknown[]).length).toBe(MAX_CONTAINER_SIZE);
    expect(yareErrorOf(() => run(`range(${MAX_CONTAINER_SIZE + 1})`)).code).toBe('YARE_CONTAINER_LIMIT');
    expect(yareErrorOf(() => run('range(10 ** 15)')).code).toBe('YARE_CONTAINER_LIMIT');
    expect(yareErrorOf(() => run('range(1, 5, 0)')).message).toContain('step cannot be zero');
    expect(yareErrorOf(() => run('range(1.5)')).code).toBe('YARE_TYPE');
  });

  it('sorted and shuffle make lists of at most MAX_CONTAINER_SIZE (a long string has more characters)', () => {
    const at = { temp: { s: 'x'.repeat(MAX_CONTAINER_SIZE) } };
    const past = { temp: { s: 'x'.repeat(MAX_CONTAINER_SIZE + 1) } };
    expect((run('sorted(temp.s)', at) as unknown[]).length).toBe(MAX_CONTAINER_SIZE);
    expect(yareErrorOf(() => run('sorted(temp.s)', past)).code).toBe('YARE_CONTAINER_LIMIT');
    const faces = Array.from({ length: MAX_CONTAINER_SIZE }, () => 1);
    expect((run('shuffle(temp.s)', { ...at, faces }) as unknown[]).length).toBe(MAX_CONTAINER_SIZE);
    expect(yareErrorOf(() => run('shuffle(temp.s)', { ...past, faces })).code).toBe('YARE_CONTAINER_LIMIT');
  });

  it('keys and values of a dict, in its order', () => {
    const d = { temp: { d: { cup: 1, plate: 2 } } };
    expect(show('keys(temp.d)', d)).toBe("['cup', 'plate']");
    expect(show('values(temp.d)', d)).toBe('[1, 2]');
    expect(yareErrorOf(() => run('keys([1])')).code).toBe('YARE_TYPE');
  });
});

describe('comprehensions', () => {
  it('several fors, the last varying fastest, each if applying to what is bound before it', () => {
    expect(show("[a + b for a in ['x', 'y'] for b in ['1', '2']]")).toBe("['x1', 'x2', 'y1', 'y2']");
    expect(show('[a * b for a in range(4) if a % 2 for b in range(a) if b]')).toBe('[3, 6]');
    expect(show('[c for row in [[1, 2], [3]] for c in row]')).toBe('[1, 2, 3]');
  });

  it('dict comprehensions: over a dict (its keys), with key and value computed', () => {
    const d = { temp: { d: { cup: 1, plate: 2, mug: 3 } } };
    expect(show('{k: temp.d[k] * 10 for k in temp.d if temp.d[k] > 1}', d)).toBe("{'plate': 20, 'mug': 30}");
    expect(show('{str(i): i for i in range(3)}')).toBe("{'0': 0, '1': 1, '2': 2}");
  });

  it('the variables stay inside the brackets and a later for may rebind an earlier name', () => {
    expect(show('[x for x in [[1], [2]] for x in x]')).toBe('[1, 2]');
    expect(show('[x for x in [1] for y in [2]] + [x]', { locals: { x: 'outer' } })).toBe("[1, 'outer']");
  });

  it('every item of every for counts a step; the results hold at most MAX_CONTAINER_SIZE', () => {
    expect((run('[a for a in range(10) for b in range(10)]') as unknown[]).length).toBe(MAX_CONTAINER_SIZE);
    expect(yareErrorOf(() => run('[a for a in range(10) for b in range(11)]')).code).toBe(
      'YARE_CONTAINER_LIMIT',
    );
    expect(Object.keys(run('{a * 10 + b: 1 for a in range(10) for b in range(10)}') as object)).toHaveLength(
      MAX_CONTAINER_SIZE,
    );
    expect(yareErrorOf(() => run('{a * 11 + b: 1 for a in range(10) for b in range(11)}')).code).toBe(
      'YARE_CONTAINER_LIMIT',
    );
    const deep = '[1 for a in range(100) for b in range(100) if False]';
    expect(yareErrorOf(() => run(`[${deep} for c in range(2)]`)).code).toBe('YARE_STEP_LIMIT');
  });
});

describe('choice and shuffle draw from the run’s dice', () => {
  it('choice rolls one die of as many sides as items; its face picks the item', () => {
    const ctx = contextOf({ faces: [3] });
    expect(evaluate(parseExpression("choice(['a', 'b', 'c', 'd'])"), ctx)).toBe('c');
    expect(ctx.rolls).toEqual([{ count: 1, sides: 4, text: "choice(['a', 'b', 'c', 'd'])" }]);
    expect(yareErrorOf(() => run('choice([])')).message).toContain('empty list');
  });

  it('shuffle rolls once per position but the last, Fisher–Yates from the end', () => {
    // [a, b, c]: i=2 draws 1d3 → 1 (swap c with a): [c, b, a]; i=1 draws 1d2 → 2 (stay): [c, b, a].
    expect(show("shuffle(['a', 'b', 'c'])", { faces: [1, 2] })).toBe("['c', 'b', 'a']");
    expect(show('shuffle([])')).toBe('[]');
  });
});
