// Random expression trees for property tests of the evaluators: every node kind, the shapes the closure
// compiler special-cases (attribute chains from a root, `x + 5`, single comparisons, `roll(1d20)`),
// macro references, and calls that fail their signature check. Spans are zero; print and re-parse a
// tree to get real ones.
import fc from 'fast-check';
import type { BinaryOp, CompareOp, Expr } from '../../../../src/core/yare/expr/ast.ts';

const S = { start: 0, end: 0 };

export const ROOT_NAMES = ['state', 'temp', 'inputs', 'x'] as const;
export const MACRO_NAMES = ['bonus', 'hit', 'missing'] as const;

const binaryOps: BinaryOp[] = ['+', '-', '*', '/', '//', '%'];
const compareOps: CompareOp[] = ['==', '!=', '<', '<=', '>', '>=', 'in', 'not in'];
const attributeNames = [
  'a',
  'b',
  'c',
  'd',
  'hp',
  'f',
  'days',
  'seconds',
  'total_seconds',
  'length',
  '__proto__',
  'constructor',
  'toString',
  'null',
  'if',
];

const literal = (value: null | boolean | number | string | { float: number }): Expr => ({
  kind: 'literal',
  value,
  span: S,
});

const leaf: fc.Arbitrary<Expr> = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }).map(literal),
  fc.constantFrom(0, 1, -1, 5, 12, 9007199254740991, -9007199254740991).map(literal),
  fc
    .double({ noNaN: true, noDefaultInfinity: true, min: -1e20, max: 1e20 })
    .map((float) => literal({ float })),
  fc.constantFrom(0, -0, 0.5, 1e308).map((float) => literal({ float })),
  fc
    .oneof(
      fc.string({ maxLength: 6 }),
      fc.string({ unit: 'binary', maxLength: 3 }),
      fc.constantFrom('1d6', '2d4', 'x', '12', ' 7 ', '1.5', 'inf', 'a'),
    )
    .map(literal),
  fc.constantFrom(true, false, null).map(literal),
  fc
    .record({ count: fc.integer({ min: 0, max: 4 }), sides: fc.integer({ min: 1, max: 20 }) })
    .map(({ count, sides }): Expr => ({ kind: 'dice', count, sides, span: S })),
  fc.constantFrom(...ROOT_NAMES, 'nowhere', 'macros').map((name): Expr => ({ kind: 'name', name, span: S })),
  fc.constantFrom(...MACRO_NAMES).map(
    (name): Expr => ({
      kind: 'attribute',
      object: { kind: 'name', name: 'macros', span: S },
      name,
      span: S,
    }),
  ),
);

/** `root.k1.k2…`: the path shape nearly every cartridge expression has. */
const path: fc.Arbitrary<Expr> = fc
  .tuple(
    fc.constantFrom(...ROOT_NAMES, 'nowhere'),
    fc.array(fc.constantFrom(...attributeNames), { minLength: 1, maxLength: 4 }),
  )
  .map(([root, keys]) =>
    keys.reduce<Expr>((object, name) => ({ kind: 'attribute', object, name, span: S }), {
      kind: 'name',
      name: root,
      span: S,
    }),
  );

export const { expr } = fc.letrec<{ expr: Expr }>((tie) => ({
  expr: fc.oneof(
    { maxDepth: 4, depthIdentifier: 'expr' },
    leaf,
    path,
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
    // `x + 5`, `x - 9007199254740991`: the right-hand int literal the compiler folds into its closure.
    fc
      .tuple(
        fc.constantFrom('+', '-', '*' as const),
        tie('expr'),
        fc.constantFrom(0, 1, 5, -3, 9007199254740991, -9007199254740991),
      )
      .map(([op, left, k]): Expr => ({ kind: 'binary', op, left, right: literal(k), span: S })),
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
    fc
      .tuple(fc.constantFrom('and', 'or' as const), tie('expr'), tie('expr'))
      .map(([op, left, right]): Expr => ({ kind: 'logical', op, left, right, span: S })),
    fc
      .tuple(tie('expr'), tie('expr'), tie('expr'))
      .map(([test, then, otherwise]): Expr => ({ kind: 'conditional', test, then, otherwise, span: S })),
    fc.array(tie('expr'), { maxLength: 3 }).map((items): Expr => ({ kind: 'list', items, span: S })),
    fc
      .array(fc.record({ key: tie('expr'), value: tie('expr') }), { maxLength: 3 })
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
      .tuple(fc.constantFrom('abs', 'len', 'floor', 'ceil', 'round', 'roll'), tie('expr'))
      .map(([callee, arg]): Expr => ({ kind: 'call', callee, args: [arg], kwargs: [], span: S })),
    fc
      .tuple(tie('expr'), tie('expr'))
      .map(([x, n]): Expr => ({ kind: 'call', callee: 'round', args: [x, n], kwargs: [], span: S })),
    fc
      .tuple(fc.constantFrom('min', 'max'), fc.array(tie('expr'), { minLength: 1, maxLength: 3 }))
      .map(([callee, args]): Expr => ({ kind: 'call', callee, args, kwargs: [], span: S })),
    fc.tuple(fc.array(tie('expr'), { maxLength: 2 }), fc.option(tie('expr'), { nil: undefined })).map(
      ([args, hours]): Expr => ({
        kind: 'call',
        callee: 'timedelta',
        args,
        kwargs: hours === undefined ? [] : [{ name: 'hours', value: hours }],
        span: S,
      }),
    ),
    fc
      .tuple(tie('expr'), tie('expr'))
      .map(([a, b]): Expr => ({ kind: 'call', callee: 'time_delta', args: [a, b], kwargs: [], span: S })),
    // Calls that fail their signature check: an unknown function, a wrong arity, a stray keyword.
    fc
      .tuple(fc.constantFrom('eval', 'abs', 'roll', 'len'), fc.array(tie('expr'), { maxLength: 3 }))
      .map(([callee, args]): Expr => ({ kind: 'call', callee, args, kwargs: [], span: S })),
    tie('expr').map(
      (value): Expr => ({
        kind: 'call',
        callee: 'abs',
        args: [value],
        kwargs: [{ name: 'x', value }],
        span: S,
      }),
    ),
  ),
}));
