// `evaluate(expr, ctx)`: an expression's value in a context, by the one semantics of YARE expressions —
// the closures `compileClosure` lowers the tree to (closure.ts), the same code events run. There is no
// second, tree-walking evaluator to keep in step: recorded outcomes pin the semantics
// (test/core/yare/recorded.test.ts).

import type { Value } from '../values.ts';
import type { Expression } from './ast.ts';
import { type Closure, compileClosure } from './closure.ts';
import type { EvalContext } from './runtime.ts';

export { formatValue, pyRepr, toNumeric, toStateValue, truthy, valueEquals } from '../python.ts';
export { type EvalContext, getAttribute, getItem } from './runtime.ts';

/** Each parsed expression is lowered once; its `macros.NAME` go to `ctx.macro` when they run. */
const compiled = new WeakMap<Expression, Closure>();

/** Evaluate a parsed expression. Every failure is a `YareError` carrying the offending node's span. */
export function evaluate(expr: Expression, ctx: EvalContext): Value {
  let closure = compiled.get(expr);
  if (closure === undefined) {
    closure = compileClosure(expr);
    compiled.set(expr, closure);
  }
  return closure(ctx);
}
