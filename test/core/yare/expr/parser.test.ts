import { describe, expect, it } from 'vitest';
import type { Expr } from '../../../../src/core/yare/expr/ast.ts';
import {
  exprText,
  parseAtExpression,
  parseExpression,
  printExpr,
} from '../../../../src/core/yare/expr/parser.ts';
import { walkExpr } from '../../../../src/core/yare/expr/walk.ts';
import {
  MAX_CONTAINER_SIZE,
  MAX_EXPRESSION_DEPTH,
  MAX_EXPRESSION_LENGTH,
} from '../../../../src/core/yare/limits.ts';
import { yareErrorOf } from './helpers.ts';

/** Fully parenthesised structure, to assert precedence and associativity. */
function sx(node: Expr): string {
  switch (node.kind) {
    case 'literal': {
      const v = node.value;
      return v !== null && typeof v === 'object' ? `${v.float}f` : JSON.stringify(v);
    }
    case 'dice':
      return `${node.count}d${node.sides}`;
    case 'name':
      return node.name;
    case 'attribute':
      return `${sx(node.object)}.${node.name}`;
    case 'index':
      return `${sx(node.object)}[${sx(node.index)}]`;
    case 'call':
      return `${node.callee}(${[...node.args.map(sx), ...node.kwargs.map((k) => `${k.name}=${sx(k.value)}`)].join(' ')})`;
    case 'unary':
      return `(${node.op} ${sx(node.operand)})`;
    case 'binary':
    case 'logical':
      return `(${node.op} ${sx(node.left)} ${sx(node.right)})`;
    case 'compare':
      return `(cmp ${sx(node.operands[0]!)}${node.ops.map((op, i) => ` ${op} ${sx(node.operands[i + 1]!)}`).join('')})`;
    case 'conditional':
      return `(if ${sx(node.test)} ${sx(node.then)} ${sx(node.otherwise)})`;
    case 'list':
      return `[${node.items.map(sx).join(' ')}]`;
    case 'comprehension': {
      const clauses = node.clauses
        .map((c) => (c.kind === 'for' ? ` for ${c.variable} in ${sx(c.iterable)}` : ` if ${sx(c.test)}`))
        .join('');
      return node.key === undefined
        ? `[${sx(node.element)}${clauses}]`
        : `{${sx(node.key)}:${sx(node.element)}${clauses}}`;
    }
    case 'slice': {
      const part = (e: Expr | undefined) => (e === undefined ? '_' : sx(e));
      return `${sx(node.object)}[${part(node.start)}:${part(node.stop)}:${part(node.step)}]`;
    }
    case 'macroCall':
      return `macros.${node.name}(${node.args.map(sx).join(' ')})`;
    case 'dict':
      return `{${node.entries.map((e) => `${sx(e.key)}:${sx(e.value)}`).join(' ')}}`;
  }
}

function tree(text: string): string {
  return sx(parseExpression(text).ast);
}

describe('parser: precedence and associativity (Python)', () => {
  it.each([
    ['2 + 3 * 4', '(+ 2 (* 3 4))'],
    ['10 - 3 - 2', '(- (- 10 3) 2)'],
    ['8 // 2 * 3 % 5', '(% (* (// 8 2) 3) 5)'],
    ['-2 * 3', '(* (- 2) 3)'],
    ['-a.b', '(- a.b)'],
    ['- - 1', '(- (- 1))'],
    ['+x', '(+ x)'],
    ['not a == b', '(not (cmp a == b))'],
    ['not a and b', '(and (not a) b)'],
    ['a or b and c', '(or a (and b c))'],
    ['a and b or c and d', '(or (and a b) (and c d))'],
    ['a or b or c', '(or (or a b) c)'],
    ['a < b <= c', '(cmp a < b <= c)'],
    ['a + 1 > b * 2', '(cmp (+ a 1) > (* b 2))'],
    ["'x' in s and 'y' not in s", '(and (cmp "x" in s) (cmp "y" not in s))'],
    ['a if c else b', '(if c a b)'],
    ['a if c else b if d else e', '(if c a (if d b e))'],
    ['x or y if c else z', '(if c (or x y) z)'],
    ['(a if c else b) + 1', '(+ (if c a b) 1)'],
    ['not not x', '(not (not x))'],
    ['a.b[c].d', 'a.b[c].d'],
    ['state.entities[inputs.target_id].health', 'state.entities[inputs.target_id].health'],
    ['roll(1d20) + @state.npc.attack_power', '(+ roll(1d20) state.npc.attack_power)'],
    ['(1 + 2) * 3', '(* (+ 1 2) 3)'],
    ["[1, 'a', [2]]", '[1 "a" [2]]'],
    ["{'id': x, 'n': 1,}", '{"id":x "n":1}'],
    ['timedelta(days=1, hours=2)', 'timedelta(days=1 hours=2)'],
    ['max(1, 2, )', 'max(1 2)'],
    ['[]', '[]'],
    ['2 ** 3 ** 2', '(** 2 (** 3 2))'],
    ['-2 ** 2', '(- (** 2 2))'],
    ['2 ** -1', '(** 2 (- 1))'],
    ['a * b ** c', '(* a (** b c))'],
    ['a.b ** 2', '(** a.b 2)'],
    ['x is None', '(cmp x is null)'],
    ['x is not None and y', '(and (cmp x is not null) y)'],
    ['None is x', '(cmp null is x)'],
    ['[x * 2 for x in l]', '[(* x 2) for x in l]'],
    ['[x for x in l if x > 1 if x < 5]', '[x for x in l if (cmp x > 1) if (cmp x < 5)]'],
    ['[a if c else b for x in l]', '[(if c a b) for x in l]'],
    ['[[y for y in x] for x in l]', '[[y for y in x] for x in l]'],
    ['[x + y for x in a if x for y in b if y]', '[(+ x y) for x in a if x for y in b if y]'],
    ['{k: v for k in d if k}', '{k:v for k in d if k}'],
    ['{k: [v for v in l] for k in d}', '{k:[v for v in l] for k in d}'],
    ['a[1:2]', 'a[1:2:_]'],
    ['a[:-1]', 'a[_:(- 1):_]'],
    ['a[::2]', 'a[_:_:2]'],
    ['a[b + 1:]', 'a[(+ b 1):_:_]'],
    ['a[x][1:][0]', 'a[x][1:_:_][0]'],
    ['macros.describe(o, 2 + 3)', 'macros.describe(o (+ 2 3))'],
    ['macros.f()', 'macros.f()'],
    ['{}', '{}'],
    ["'a' 'b'", '"ab"'],
  ])('%s → %s', (text, expected) => {
    expect(tree(text)).toBe(expected);
  });

  it('reads both literal spellings', () => {
    expect(tree('[True, False, None, true, false, null]')).toBe('[true false null true false null]');
  });

  it('makes float literals boxed and ints plain', () => {
    expect(parseExpression('3.0').ast).toMatchObject({ kind: 'literal', value: { float: 3 } });
    expect(parseExpression('3').ast).toMatchObject({ kind: 'literal', value: 3 });
  });

  it('allows keywords and literal words as attribute names after a dot', () => {
    expect(tree('state.null.true.if')).toBe('state.null.true.if');
  });
});

describe('parser: spans', () => {
  it('gives every node the range of its text', () => {
    const text = 'roll(1d20) + (state.npc.attack_power)';
    const { ast } = parseExpression(text);
    const seen: string[] = [];
    walkExpr(ast, (node) => {
      seen.push(`${node.kind}:${text.slice(node.span.start, node.span.end)}`);
      return undefined;
    });
    expect(seen).toEqual([
      'binary:roll(1d20) + (state.npc.attack_power)',
      'call:roll(1d20)',
      'dice:1d20',
      'attribute:state.npc.attack_power',
      'attribute:state.npc',
      'name:state',
    ]);
  });

  it('starts a node at its opening parenthesis', () => {
    const { ast } = parseExpression('(a + b).c');
    expect(ast.span).toEqual({ start: 0, end: 9 });
  });

  it('parseAtExpression strips @ and spaces and records the offset', () => {
    const e = parseAtExpression('@   roll(1d20) + 2  ');
    expect(e.offset).toBe(4);
    expect(e.source).toBe('@   roll(1d20) + 2  ');
    const call = (e.ast as Extract<Expr, { kind: 'binary' }>).left;
    expect(exprText(e, call.span)).toBe('roll(1d20)');
    expect(parseAtExpression('@state.x').offset).toBe(1);
  });

  it('parseAtExpression refuses text without a leading @', () => {
    expect(yareErrorOf(() => parseAtExpression(' @ 1')).code).toBe('YARE_NOT_AN_EXPRESSION');
  });

  it('reports syntax errors at the offending token', () => {
    const e = yareErrorOf(() => parseExpression('1 + * 2'));
    expect(e.code).toBe('YARE_SYNTAX');
    expect(e.span).toEqual({ start: 4, end: 5 });
    expect(yareErrorOf(() => parseExpression('(1 + 2')).message).toContain("expected ')'");
    expect(yareErrorOf(() => parseExpression('a if b')).message).toContain("expected 'else'");
    expect(yareErrorOf(() => parseExpression('')).message).toContain('empty expression');
    expect(yareErrorOf(() => parseExpression('a = 1')).message).toContain("'=='");
    expect(yareErrorOf(() => parseExpression('a b')).span).toEqual({ start: 2, end: 3 });
  });
});

describe('parser: unsupported Python constructs', () => {
  it.each([
    ['f(x for x in y)', 'generator expressions'],
    ['(x for x in y)', 'generator expressions'],
    ['lambda: 1', 'lambda'],
    ['a is 1', "'is' compares with None only"],
    ['a is not b', "'is not' compares with None only"],
    ['a[1, 2]', 'tuple'],
    ['(1, 2)', 'tuples'],
    ['1, 2', 'tuples'],
    ['()', 'tuples'],
    ['{1, 2}', 'set literals'],
    ['{**a}', 'unpacking'],
    ['[*a]', 'unpacking'],
    ['max(*a)', 'unpacking'],
    ['timedelta(**a)', 'unpacking'],
    ['state.name.upper()', 'write upper(x, ...) instead of x.upper(...)'],
    ['state.name.shout()', 'method calls'],
    ['macros.f(x=1)', 'by position'],
    ['(abs)(1)', 'only built-in functions'],
    ['state.f[0](1)', 'only built-in functions'],
    ["'x'(1)", 'only built-in functions'],
    ['await x', "'await'"],
    ['yield', "'yield'"],
    ['import os', 'statement keyword'],
  ])('%s', (text, message) => {
    const e = yareErrorOf(() => parseExpression(text));
    expect(e.code).toBe('YARE_UNSUPPORTED');
    expect(e.message).toContain(message);
    expect(e.span).toBeDefined();
  });

  it('refuses bare macros and repeated or misplaced arguments', () => {
    expect(yareErrorOf(() => parseExpression('macros')).code).toBe('YARE_SYNTAX');
    expect(yareErrorOf(() => parseExpression("macros['x']")).code).toBe('YARE_SYNTAX');
    expect(yareErrorOf(() => parseExpression('timedelta(days=1, days=2)')).message).toContain('repeated');
    expect(yareErrorOf(() => parseExpression('round(ndigits=1, 2.5)')).message).toContain('positional');
  });
});

describe('parser: limits', () => {
  it(`accepts ${MAX_EXPRESSION_LENGTH} characters and refuses ${MAX_EXPRESSION_LENGTH + 1}`, () => {
    const atLimit = `'${'a'.repeat(MAX_EXPRESSION_LENGTH - 2)}'`;
    expect(atLimit).toHaveLength(MAX_EXPRESSION_LENGTH);
    expect(parseExpression(atLimit).ast).toMatchObject({ kind: 'literal' });
    const e = yareErrorOf(() => parseExpression(`${atLimit} `));
    expect(e.code).toBe('YARE_EXPR_TOO_LONG');
    expect(e.message).toContain(String(MAX_EXPRESSION_LENGTH));
    expect(e.span).toEqual({ start: MAX_EXPRESSION_LENGTH, end: MAX_EXPRESSION_LENGTH + 1 });
  });

  const nestings: [string, (n: number) => string][] = [
    ['parentheses', (n) => `${'('.repeat(n)}1${')'.repeat(n)}`],
    ['lists', (n) => `${'['.repeat(n)}1${']'.repeat(n)}`],
    ['not', (n) => `${'not '.repeat(n)}True`],
    ['unary minus', (n) => `${'- '.repeat(n)}1`],
    ['dicts', (n) => `${"{'a': ".repeat(n)}1${'}'.repeat(n)}`],
    ['calls', (n) => `${'abs('.repeat(n)}1${')'.repeat(n)}`],
    ['conditionals', (n) => `${'1 if x else '.repeat(n)}1`],
  ];

  it.each(nestings)(`accepts ${MAX_EXPRESSION_DEPTH} nested %s and refuses one more`, (_name, make) => {
    expect(() => parseExpression(make(MAX_EXPRESSION_DEPTH))).not.toThrow();
    const e = yareErrorOf(() => parseExpression(make(MAX_EXPRESSION_DEPTH + 1)));
    expect(e.code).toBe('YARE_EXPR_TOO_DEEP');
    expect(e.message).toContain(String(MAX_EXPRESSION_DEPTH));
  });

  it('counts the height of operator chains, which the parser builds without recursion', () => {
    expect(() => parseExpression(`1${' + 1'.repeat(MAX_EXPRESSION_DEPTH)}`)).not.toThrow();
    expect(yareErrorOf(() => parseExpression(`1${' + 1'.repeat(MAX_EXPRESSION_DEPTH + 1)}`)).code).toBe(
      'YARE_EXPR_TOO_DEEP',
    );
    expect(() => parseExpression(`x${'.a'.repeat(MAX_EXPRESSION_DEPTH)}`)).not.toThrow();
    expect(yareErrorOf(() => parseExpression(`x${'.a'.repeat(MAX_EXPRESSION_DEPTH + 1)}`)).code).toBe(
      'YARE_EXPR_TOO_DEEP',
    );
  });

  it.each([
    ['parentheses', `${'('.repeat(10_000)}1${')'.repeat(10_000)}`],
    ['not', `${'not '.repeat(10_000)}True`],
    ['unary minus', `${'- '.repeat(10_000)}1`],
    ['lists', `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
  ])('never overflows the stack on 10000 nested %s', (_name, text) => {
    // Past the length limit this is refused before any parsing; at any length within it, by depth.
    expect(yareErrorOf(() => parseExpression(text)).code).toBe('YARE_EXPR_TOO_LONG');
    const fitting = text.slice(0, Math.floor(MAX_EXPRESSION_LENGTH / 2));
    expect(['YARE_EXPR_TOO_DEEP', 'YARE_SYNTAX']).toContain(yareErrorOf(() => parseExpression(fitting)).code);
  });

  it('refuses 450 nested parentheses (within the length limit) by depth', () => {
    const e = yareErrorOf(() => parseExpression(`${'('.repeat(450)}1${')'.repeat(450)}`));
    expect(e.code).toBe('YARE_EXPR_TOO_DEEP');
    expect(e.span).toEqual({ start: MAX_EXPRESSION_DEPTH, end: MAX_EXPRESSION_DEPTH + 1 });
  });

  it(`accepts ${MAX_CONTAINER_SIZE} list items and dict entries, refuses one more`, () => {
    const items = (n: number) => Array.from({ length: n }, (_, i) => String(i));
    expect(() => parseExpression(`[${items(MAX_CONTAINER_SIZE).join(',')}]`)).not.toThrow();
    expect(yareErrorOf(() => parseExpression(`[${items(MAX_CONTAINER_SIZE + 1).join(',')}]`)).code).toBe(
      'YARE_CONTAINER_LIMIT',
    );
    const entries = (n: number) => items(n).map((i) => `${i}:0`);
    expect(() => parseExpression(`{${entries(MAX_CONTAINER_SIZE).join(',')}}`)).not.toThrow();
    expect(yareErrorOf(() => parseExpression(`{${entries(MAX_CONTAINER_SIZE + 1).join(',')}}`)).code).toBe(
      'YARE_CONTAINER_LIMIT',
    );
  });
});

describe('printExpr', () => {
  it.each([
    ['@ 2+3*4', '2 + 3 * 4'],
    ['(2 + 3) * 4', '(2 + 3) * 4'],
    ['a - (b - c)', 'a - (b - c)'],
    ['(a - b) - c', 'a - b - c'],
    ['-(-1)', '--1'],
    ['(-1) ** 0 if 0 else 1', '(-1) ** 0 if 0 else 1'],
    ['-(2 ** 2)', '-2 ** 2'],
    ['(2 ** 3) ** 2', '(2 ** 3) ** 2'],
    ['2 ** (3 ** 2)', '2 ** 3 ** 2'],
    ['2 ** (-1)', '2 ** -1'],
    ['(a.b) ** 2', 'a.b ** 2'],
    ['x is None', 'x is None'],
    ['x is not None', 'x is not None'],
    ['[x for x in (a if b else c) if (d or e)]', '[x for x in (a if b else c) if d or e]'],
    ['[(a if b else c) for x in l]', '[a if b else c for x in l]'],
    ['not (a and b)', 'not (a and b)'],
    ['(a < b) < c', '(a < b) < c'],
    ['a < b < c', 'a < b < c'],
    ['(a if b else c) if d else e', '(a if b else c) if d else e'],
    ['a if b else (c if d else e)', 'a if b else c if d else e'],
    ['(1).x', '(1).x'],
    ['1.5.x', '1.5.x'],
    ['3D6', '3d6'],
    ['"it\'s"', '"it\'s"'],
    ["'a\\nb'", "'a\\nb'"],
    ['1e16 + 0.0001 + 1e-05 + 1.0', '1e+16 + 0.0001 + 1e-05 + 1.0'],
    ['true', 'True'],
    ['null', 'None'],
    ['@state.x', 'state.x'],
    ['{"a": [1, 2]}', "{'a': [1, 2]}"],
    ['round(x, ndigits=2)', 'round(x, ndigits=2)'],
    ['(-x).y', '(-x).y'],
    ['-x.y', '-x.y'],
    ['x - -1', 'x - -1'],
  ])('%s prints as %s', (text, printed) => {
    if (printed === '') {
      expect(yareErrorOf(() => parseExpression(text)).code).toBe('YARE_UNSUPPORTED');
      return;
    }
    const source = text.startsWith('@') ? text : `@${text}`;
    const out = printExpr(parseAtExpression(source).ast);
    expect(out).toBe(printed);
    expect(printExpr(parseExpression(out).ast)).toBe(out);
  });
});

describe('walkExpr', () => {
  it('visits every node, parents first, and can skip children', () => {
    const { ast } = parseExpression("max(state.a, inputs.b[0]) if macros.m else {'k': temp.c}");
    const kinds: string[] = [];
    walkExpr(ast, (node, parent) => {
      kinds.push(`${node.kind}<${parent?.kind ?? ''}`);
      return undefined;
    });
    expect(kinds).toEqual([
      'conditional<',
      'attribute<conditional',
      'name<attribute',
      'call<conditional',
      'attribute<call',
      'name<attribute',
      'index<call',
      'attribute<index',
      'name<attribute',
      'literal<index',
      'dict<conditional',
      'literal<dict',
      'attribute<dict',
      'name<attribute',
    ]);
    let count = 0;
    walkExpr(ast, (node) => {
      count++;
      return node.kind !== 'call';
    });
    expect(count).toBe(kinds.length - 6);
  });
});
