// Properties of the expression compiler (the one semantics of expressions; recorded outcomes in
// test/core/yare/recorded.test.ts pin its values). Macros resolved while compiling (as the interpreter does)
// behave exactly as macros asked of the context at run time; a tree printed and re-parsed (real spans,
// roll text from the source) gives the same value or the same error as the tree itself; and the limits.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { YareError } from '../../../../src/core/yare/errors.ts';
import type { Expr, Expression, Span } from '../../../../src/core/yare/expr/ast.ts';
import { type Closure, type ClosureOptions, compileClosure } from '../../../../src/core/yare/expr/closure.ts';
import { parseExpression, printExpr } from '../../../../src/core/yare/expr/parser.ts';
import { MAX_CONTAINER_SIZE, MAX_EXPRESSION_LENGTH } from '../../../../src/core/yare/limits.ts';
import { DICT_PROTOTYPE } from '../../../../src/core/yare/values.ts';
import {
  EXPRESSION_MACROS as MACROS,
  type ExpressionOutcome,
  expressionOutcome as outcomeOf,
  expressionProbe as probe,
  HAND_PICKED_EXPRESSIONS,
} from '../recorded/fixtures.ts';
import { expr } from './generators.ts';

/** Macros resolved at compile time to their own closures, recording each call as the probe does. */
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

/** The outcome with macros resolved while compiling equals the outcome with macros asked of the context. */
function expectResolvedSame(expression: Expression, seed: number): ExpressionOutcome {
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
  expect(viaResolver).toStrictEqual(viaContext);
  return viaContext;
}

/** An outcome without error spans (a tree with zero spans and its re-parsed text differ only there). */
function withoutSpans(o: ExpressionOutcome): unknown {
  const { error, rolls, ...rest } = o;
  return {
    ...rest,
    ...(error ? { error: { code: error.code, message: error.message } } : {}),
    // A roll's label is its source text, which a zero-span tree does not have.
    rolls: rolls.map((r) => ({ dice: r.dice, faces: r.faces, total: r.total })),
  };
}

const S0: Span = { start: 0, end: 0 };
const asExpression = (ast: Expr): Expression => ({ source: printExpr(ast), offset: 0, ast });

describe('the expression compiler', () => {
  it('on generated trees: macros resolved while compiling ≡ macros asked of the context', () => {
    fc.assert(
      fc.property(expr, fc.nat(), (ast, seed) => {
        expectResolvedSame(asExpression(ast), seed);
      }),
      { numRuns: 3000 },
    );
  });

  it('a generated tree printed and re-parsed gives the same value or error (spans aside)', () => {
    let parsedCount = 0;
    let runs = 0;
    fc.assert(
      fc.property(expr, fc.nat(), (ast, seed) => {
        const printed = printExpr(ast);
        fc.pre(printed.length <= MAX_EXPRESSION_LENGTH);
        runs++;
        let parsed: Expression;
        try {
          parsed = parseExpression(printed);
        } catch (error) {
          // The parser refuses some generated shapes (counted below); any other failure is a bug.
          if (error instanceof YareError) return;
          throw error;
        }
        parsedCount++;
        const reparsed = expectResolvedSame(parsed, seed);
        const tree = outcomeOf((ctx) => compileClosure(asExpression(ast))(ctx), seed);
        expect(withoutSpans(reparsed)).toStrictEqual(withoutSpans(tree));
      }),
      { numRuns: 2000 },
    );
    // Most generated trees must survive printing and re-parsing, or this property checks little.
    expect(runs).toBeGreaterThan(1900);
    expect(parsedCount / runs).toBeGreaterThan(0.5);
  });

  it('on hand-picked edge cases of the fast paths', () => {
    for (const text of HAND_PICKED_EXPRESSIONS) {
      for (const seed of [0, 1, 2]) expectResolvedSame(parseExpression(text), seed);
    }
  });

  it(`a dict literal of ${MAX_CONTAINER_SIZE} keys is built; one more key is refused`, () => {
    const literal = (value: number | string): Expr => ({ kind: 'literal', value, span: S0 });
    const dictOf = (n: number): Expression =>
      asExpression({
        kind: 'dict',
        entries: Array.from({ length: n }, (_, i) => ({ key: literal(`k${i}`), value: literal(i) })),
        span: S0,
      });
    const atLimit = compileClosure(dictOf(MAX_CONTAINER_SIZE))(probe(0));
    expect(Object.keys(atLimit as object)).toHaveLength(MAX_CONTAINER_SIZE);
    const past = outcomeOf((ctx) => compileClosure(dictOf(MAX_CONTAINER_SIZE + 1))(ctx), 0);
    expect(past.error?.code).toBe('YARE_CONTAINER_LIMIT');
    expect(past.error?.message).toBe(`a dict has more than ${MAX_CONTAINER_SIZE} keys (MAX_CONTAINER_SIZE)`);
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
