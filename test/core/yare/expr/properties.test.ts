import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DiceRoller } from '../../../../src/core/yare/dice.ts';
import { YareError } from '../../../../src/core/yare/errors.ts';
import type { BinaryOp, CompareOp, Expr } from '../../../../src/core/yare/expr/ast.ts';
import { type EvalContext, evaluate, pyRepr } from '../../../../src/core/yare/expr/evaluate.ts';
import { parseExpression, printExpr } from '../../../../src/core/yare/expr/parser.ts';
import { walkExpr } from '../../../../src/core/yare/expr/walk.ts';
import { MAX_EXPRESSION_LENGTH } from '../../../../src/core/yare/limits.ts';
import type { Value } from '../../../../src/core/yare/values.ts';

const S = { start: 0, end: 0 };

const ROOTS = new Map<string, Value>([
  ['state', { a: 1, b: [1, 2.5, 'x'], hp: 10, c: { d: 'e' } }],
  ['temp', { a: 'text', b: 0, hp: 2.5 }],
  ['inputs', { a: null, hp: -3, b: ['1', true] }],
  ['x', [{ a: 1 }, 'two', 3]],
]);

function contextWith(roller: DiceRoller): EvalContext {
  return {
    lookup: (name) => ROOTS.get(name),
    macro: () => 0,
    roll: (count, sides, text) => roller.roll(count, sides, text),
    step: () => {},
  };
}

/** Run an expression; the outcome is its Python repr or the error code (anything else fails the test). */
function outcome(text: string, seed: number): { result: string; rolls: unknown } {
  const roller = DiceRoller.fromSeed(seed);
  let result: string;
  try {
    result = pyRepr(evaluate(parseExpression(text), contextWith(roller)));
  } catch (e) {
    if (!(e instanceof YareError)) throw e;
    result = `error ${e.code}`;
  }
  return { result, rolls: roller.rolls };
}

const binaryOps: BinaryOp[] = ['+', '-', '*', '/', '//', '%', '**'];
const compareOps: CompareOp[] = ['==', '!=', '<', '<=', '>', '>=', 'in', 'not in'];
const attributeNames = ['a', 'b', 'c', 'd', 'hp', 'days', 'length', '__proto__', 'constructor', 'null', 'if'];

const leaf: fc.Arbitrary<Expr> = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }).map((value): Expr => ({ kind: 'literal', value, span: S })),
  fc
    .double({ noNaN: true, noDefaultInfinity: true, min: -1e20, max: 1e20 })
    .map((float): Expr => ({ kind: 'literal', value: { float }, span: S })),
  fc
    .oneof(fc.string({ maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 3 }))
    .map((value): Expr => ({ kind: 'literal', value, span: S })),
  fc.constantFrom(true, false, null).map((value): Expr => ({ kind: 'literal', value, span: S })),
  fc
    .record({ count: fc.integer({ min: 0, max: 4 }), sides: fc.integer({ min: 1, max: 20 }) })
    .map(({ count, sides }): Expr => ({ kind: 'dice', count, sides, span: S })),
  fc.constantFrom(...ROOTS.keys()).map((name): Expr => ({ kind: 'name', name, span: S })),
);

const { expr } = fc.letrec<{ expr: Expr }>((tie) => ({
  expr: fc.oneof(
    { maxDepth: 4, depthIdentifier: 'expr' },
    leaf,
    fc
      .tuple(tie('expr'), fc.constantFrom(...attributeNames))
      .map(([object, name]): Expr => ({ kind: 'attribute', object, name, span: S })),
    fc
      .tuple(tie('expr'), tie('expr'))
      .map(([object, index]): Expr => ({ kind: 'index', object, index, span: S })),
    fc
      .tuple(fc.constantFrom('-', '+', 'not' as const), tie('expr'))
      .map(([op, operand]): Expr => ({ kind: 'unary', op, operand, span: S })),
    fc
      .tuple(fc.constantFrom(...binaryOps), tie('expr'), tie('expr'))
      .map(([op, left, right]): Expr => ({ kind: 'binary', op, left, right, span: S })),
    fc
      .tuple(
        fc.array(fc.constantFrom(...compareOps), { minLength: 1, maxLength: 3 }),
        fc.array(tie('expr'), { minLength: 4, maxLength: 4 }),
      )
      .map(
        ([ops, operands]): Expr => ({
          kind: 'compare',
          ops,
          operands: operands.slice(0, ops.length + 1),
          span: S,
        }),
      ),
    fc.tuple(tie('expr'), fc.constantFrom('is' as const, 'is not' as const)).map(
      ([left, op]): Expr => ({
        kind: 'compare',
        ops: [op],
        operands: [left, { kind: 'literal', value: null, span: S }],
        span: S,
      }),
    ),
    fc
      .record({
        element: tie('expr'),
        key: fc.option(tie('expr'), { nil: undefined }),
        clauses: fc.array(
          fc.oneof(
            fc
              .record({ variable: fc.constantFrom('x', 'item'), iterable: tie('expr') })
              .map(({ variable, iterable }) => ({
                kind: 'for' as const,
                variable,
                variableSpan: S,
                iterable,
              })),
            tie('expr').map((test) => ({ kind: 'if' as const, test })),
          ),
          { maxLength: 3 },
        ),
        first: fc.record({ variable: fc.constantFrom('x', 'item'), iterable: tie('expr') }),
      })
      .map(
        ({ element, key, clauses, first }): Expr => ({
          kind: 'comprehension',
          element,
          key,
          clauses: [
            { kind: 'for', variable: first.variable, variableSpan: S, iterable: first.iterable },
            ...clauses,
          ],
          span: S,
        }),
      ),
    fc
      .record({
        object: tie('expr'),
        start: fc.option(tie('expr'), { nil: undefined }),
        stop: fc.option(tie('expr'), { nil: undefined }),
        step: fc.option(tie('expr'), { nil: undefined }),
      })
      .map(({ object, start, stop, step }): Expr => ({ kind: 'slice', object, start, stop, step, span: S })),
    fc
      .tuple(fc.constantFrom('and', 'or' as const), tie('expr'), tie('expr'))
      .map(([op, left, right]): Expr => ({ kind: 'logical', op, left, right, span: S })),
    fc
      .tuple(tie('expr'), tie('expr'), tie('expr'))
      .map(([test, then, otherwise]): Expr => ({ kind: 'conditional', test, then, otherwise, span: S })),
    fc.array(tie('expr'), { maxLength: 3 }).map((items): Expr => ({ kind: 'list', items, span: S })),
    fc
      .array(fc.record({ key: tie('expr'), value: tie('expr') }), { maxLength: 2 })
      .map((entries): Expr => ({ kind: 'dict', entries, span: S })),
    fc.record({ count: fc.integer({ min: 0, max: 3 }), sides: fc.integer({ min: 1, max: 12 }) }).map(
      ({ count, sides }): Expr => ({
        kind: 'call',
        callee: 'roll',
        args: [{ kind: 'dice', count, sides, span: S }],
        kwargs: [],
        span: S,
      }),
    ),
    fc
      .tuple(
        fc.constantFrom(
          'abs',
          'len',
          'floor',
          'ceil',
          'round',
          'roll',
          'int',
          'sum',
          'str',
          'upper',
          'sorted',
          'range',
          'keys',
          'values',
          'choice',
          'shuffle',
        ),
        tie('expr'),
      )
      .map(([callee, arg]): Expr => ({ kind: 'call', callee, args: [arg], kwargs: [], span: S })),
    fc
      .tuple(fc.constantFrom('min', 'max'), fc.array(tie('expr'), { minLength: 1, maxLength: 3 }))
      .map(([callee, args]): Expr => ({ kind: 'call', callee, args, kwargs: [], span: S })),
    tie('expr').map(
      (value): Expr => ({
        kind: 'call',
        callee: 'timedelta',
        args: [],
        kwargs: [{ name: 'hours', value }],
        span: S,
      }),
    ),
  ),
}));

const tokenSoup = fc
  .array(
    fc.constantFrom(
      '(',
      ')',
      '[',
      ']',
      '{',
      '}',
      'not',
      'and',
      'or',
      'in',
      'if',
      'else',
      'for',
      'lambda',
      'is',
      '1d6',
      '0d0',
      "'",
      '"',
      "'a'",
      '\\',
      '.',
      ',',
      ':',
      '=',
      '==',
      'x',
      'state',
      'macros',
      '1',
      '1.5e',
      '1e999',
      '@',
      ' ',
      '**',
      '*',
      '-',
      '+',
      '//',
      '%',
      '#',
      '\n',
      'True',
      'null',
      'roll',
      'abs',
      'timedelta',
      'days',
      '\u00e9',
      '\ud800',
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

describe('properties', () => {
  it('parseExpression throws nothing but YareError on any text', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 30 }), tokenSoup),
        (text) => {
          try {
            parseExpression(text);
          } catch (e) {
            if (!(e instanceof YareError)) throw e;
            expect(e.span).toBeDefined();
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('whatever parses evaluates to a value or a YareError', () => {
    fc.assert(
      fc.property(tokenSoup, fc.nat(), (text, seed) => {
        let parsed = true;
        try {
          parseExpression(text);
        } catch {
          parsed = false;
        }
        if (parsed) outcome(text, seed);
      }),
      { numRuns: 1000 },
    );
  });

  it('print → parse → print is stable for generated trees', () => {
    fc.assert(
      fc.property(expr, (ast) => {
        const printed = printExpr(ast);
        fc.pre(printed.length <= MAX_EXPRESSION_LENGTH);
        const reparsed = parseExpression(printed);
        expect(printExpr(reparsed.ast)).toBe(printed);
      }),
      { numRuns: 500 },
    );
  });

  it('every parsed node spans exactly the text of that node', () => {
    fc.assert(
      fc.property(expr, (ast) => {
        const printed = printExpr(ast);
        fc.pre(printed.length <= MAX_EXPRESSION_LENGTH);
        walkExpr(parseExpression(printed).ast, (node) => {
          const { start, end } = node.span;
          expect(0 <= start && start < end && end <= printed.length).toBe(true);
          expect(printExpr(parseExpression(printed.slice(start, end)).ast)).toBe(printExpr(node));
          return undefined;
        });
      }),
      { numRuns: 300 },
    );
  });

  it('generated expressions evaluate deterministically under a fixed seed', () => {
    fc.assert(
      fc.property(expr, fc.nat(), (ast, seed) => {
        const printed = printExpr(ast);
        fc.pre(printed.length <= MAX_EXPRESSION_LENGTH);
        const first = outcome(printed, seed);
        const second = outcome(printed, seed);
        expect(second).toEqual(first);
      }),
      { numRuns: 500 },
    );
  });
});
