// The closure compiler must be `evaluate` under another name: for generated trees (with spans of zero,
// and printed and re-parsed with real spans) both give the same value — same types, floats apart from
// ints, dicts without a prototype to reach — or the same error with the same span, after the same
// dice rolls and macro calls in the same order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DiceRoller } from '../../../src/yare/dice.ts';
import { YareError } from '../../../src/yare/errors.ts';
import type { Expr, Expression, Span } from '../../../src/yare/expr/ast.ts';
import { type Closure, type ClosureOptions, compileClosure } from '../../../src/yare/expr/closure.ts';
import { type EvalContext, evaluate } from '../../../src/yare/expr/evaluate.ts';
import { parseExpression, printExpr } from '../../../src/yare/expr/parser.ts';
import { MAX_CONTAINER_SIZE, MAX_EXPRESSION_LENGTH } from '../../../src/yare/limits.ts';
import { DICT_PROTOTYPE, Duration, PyFloat, toValue, type Value } from '../../../src/yare/values.ts';
import { expr } from './generators.ts';

/** Roots of three kinds: our dicts, plain objects and null-prototype objects (a state may hold any). */
function roots(): Map<string, Value> {
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

const MACROS: ReadonlyMap<string, string> = new Map([
  ['bonus', 'state.hp + 2'],
  ['hit', 'roll(1d20) + macros.bonus'],
]);

interface Outcome {
  readonly value?: Value;
  readonly error?: { code: string; message: string; span: Span | undefined };
  /** Anything else thrown (`round(1, -9007199254740990)` overflows a BigInt in `pyRound`): same for both. */
  readonly crash?: string;
  readonly rolls: unknown;
  readonly macroCalls: readonly string[];
}

interface Probe extends EvalContext {
  readonly dice: DiceRoller;
  readonly macroCalls: string[];
}

/** The reference context: macros evaluated by `evaluate` when an expression asks for one. */
function probe(seed: number): Probe {
  const values = roots();
  const dice = DiceRoller.fromSeed(seed);
  const macroCalls: string[] = [];
  const ctx: Probe = {
    dice,
    macroCalls,
    lookup: (name) => values.get(name),
    macro(name, span) {
      macroCalls.push(name);
      const text = MACROS.get(name);
      if (text === undefined) throw new YareError('YARE_UNKNOWN_MACRO', `no macro ${name}`, span);
      return evaluate(parseExpression(text), ctx);
    },
    roll: (count, sides, text) => dice.roll(count, sides, text),
  };
  return ctx;
}

/** Macros resolved at compile time to their own closures, recording each call as `probe` does. */
function resolvingOptions(calls: () => string[]): ClosureOptions {
  const compiled = new Map<string, Closure>();
  const options: ClosureOptions = {
    macro(name) {
      const text = MACROS.get(name);
      if (text === undefined) return undefined;
      let body = compiled.get(name);
      const fn: Closure = (ctx) => {
        calls().push(name);
        body ??= compileClosure(parseExpression(text), options);
        compiled.set(name, body);
        return body(ctx);
      };
      return fn;
    },
  };
  return options;
}

function outcomeOf(run: (ctx: Probe) => Value, seed: number): Outcome {
  const ctx = probe(seed);
  try {
    const value = run(ctx);
    return { value, rolls: ctx.dice.rolls, macroCalls: ctx.macroCalls };
  } catch (e) {
    if (!(e instanceof YareError)) {
      if (!(e instanceof Error)) throw e;
      return { crash: `${e.name}: ${e.message}`, rolls: ctx.dice.rolls, macroCalls: ctx.macroCalls };
    }
    return {
      error: { code: e.code, message: e.message, span: e.span },
      rolls: ctx.dice.rolls,
      macroCalls: ctx.macroCalls,
    };
  }
}

function expectSame(expression: Expression, seed: number): void {
  const reference = outcomeOf((ctx) => evaluate(expression, ctx), seed);
  const viaContext = outcomeOf((ctx) => compileClosure(expression)(ctx), seed);
  let current: string[] = [];
  const resolved = compileClosure(
    expression,
    resolvingOptions(() => current),
  );
  const viaResolver = outcomeOf((ctx) => {
    current = ctx.macroCalls;
    return resolved(ctx);
  }, seed);
  for (const got of [viaContext, viaResolver]) {
    expect(got).toStrictEqual(reference);
    if (reference.value !== null && typeof reference.value === 'object' && !Array.isArray(reference.value))
      expect(Object.getPrototypeOf(got.value)).toBe(Object.getPrototypeOf(reference.value));
  }
}

const S0: Span = { start: 0, end: 0 };
const asExpression = (ast: Expr): Expression => ({ source: printExpr(ast), offset: 0, ast });

describe('compileClosure ≡ evaluate', () => {
  it('on generated trees: same value, or same error and span, same rolls and macro calls', () => {
    fc.assert(
      fc.property(expr, fc.nat(), (ast, seed) => expectSame(asExpression(ast), seed)),
      { numRuns: 3000 },
    );
  });

  it('on the same trees printed and re-parsed (real spans, and roll text taken from the source)', () => {
    fc.assert(
      fc.property(expr, fc.nat(), (ast, seed) => {
        const printed = printExpr(ast);
        fc.pre(printed.length <= MAX_EXPRESSION_LENGTH);
        let parsed: Expression;
        try {
          parsed = parseExpression(printed);
        } catch {
          return; // the parser refuses some generated shapes; only what parses is evaluated
        }
        expectSame(parsed, seed);
      }),
      { numRuns: 2000 },
    );
  });

  it('on hand-picked edge cases of the fast paths', () => {
    const cases = [
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
    ];
    for (const text of cases) {
      for (const seed of [0, 1, 2]) expectSame(parseExpression(text), seed);
    }
  });

  it(`a dict literal of ${MAX_CONTAINER_SIZE} keys is built; one more key is refused by both`, () => {
    const literal = (value: number | string): Expr => ({ kind: 'literal', value, span: S0 });
    const dictOf = (n: number): Expression =>
      asExpression({
        kind: 'dict',
        entries: Array.from({ length: n }, (_, i) => ({ key: literal(`k${i}`), value: literal(i) })),
        span: S0,
      });
    const atLimit = outcomeOf((ctx) => compileClosure(dictOf(MAX_CONTAINER_SIZE))(ctx), 0);
    expect(Object.keys(atLimit.value as object)).toHaveLength(MAX_CONTAINER_SIZE);
    expectSame(dictOf(MAX_CONTAINER_SIZE), 0);
    const past = outcomeOf((ctx) => compileClosure(dictOf(MAX_CONTAINER_SIZE + 1))(ctx), 0);
    expect(past.error?.code).toBe('YARE_CONTAINER_LIMIT');
    expectSame(dictOf(MAX_CONTAINER_SIZE + 1), 0);
  });

  it('compiling never throws, even for a call that fails its check (it fails each time it runs)', () => {
    const closure = compileClosure(parseExpression('abs(1, 2)'));
    const errors = [0, 1].map(() => {
      try {
        closure(probe(0));
      } catch (e) {
        return e;
      }
      return undefined;
    });
    expect(errors[0]).toBeInstanceOf(YareError);
    expect((errors[0] as YareError).code).toBe('YARE_ARITY');
    // A fresh error each run: the interpreter adds a place to the error it is given.
    expect(errors[1]).not.toBe(errors[0]);
  });

  it('a dict read inherits nothing: no host property is reached through our dicts', () => {
    const ctx = probe(0);
    for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(compileClosure(parseExpression(`state.${key}`))(ctx)).toBeNull();
      expect(compileClosure(parseExpression(`temp.${key}`))(ctx)).toBeNull();
    }
    expect(Object.getPrototypeOf(compileClosure(parseExpression('{1: 2}'))(ctx))).toBe(DICT_PROTOTYPE);
  });
});
