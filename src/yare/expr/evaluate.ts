// Evaluator: a tight switch over a parsed tree. It allocates only the values it returns — no
// exceptions for control flow. `and`/`or` short-circuit and the conditional is lazy (the original
// evaluated both sides of `and`/`or`, so a roll or an error on the skipped side still happened).
// This is the reference semantics of expressions: the event interpreter runs the same trees compiled
// to closures (closure.ts), which must agree with it exactly (test/yare/expr/closure.property.test.ts).

import { YareError } from '../errors.ts';
import { MAX_CONTAINER_SIZE } from '../limits.ts';
import {
  compareOrder,
  contains,
  dictKeyText,
  durationParts,
  pyInt,
  truthy,
  typeName,
  valueEquals,
} from '../python.ts';
import { Duration, type Dict, isDict, newDict, PyFloat, type Value } from '../values.ts';
import { binaryOp, unaryOp } from './arithmetic.ts';
import type { CompareOp, Expr, Expression, Span } from './ast.ts';
import {
  TIMEDELTA_POSITIONAL,
  checkCall,
  pyAbs,
  pyCeil,
  pyFloor,
  pyLen,
  pyMinMax,
  pyRound,
  pyTimedelta,
} from './builtins.ts';
import { parseDiceText } from './dice-notation.ts';
import { exprText } from './parser.ts';
import { timeDelta } from './timestamps.ts';

export {
  formatValue,
  pyRepr,
  toNumeric,
  toStateValue,
  truthy,
  valueEquals,
} from '../python.ts';

export interface EvalContext {
  /** Value bound to a root name: `state`, `temp`, `inputs`, or a foreach local. `undefined` = unknown name (error YARE_UNKNOWN_PATH). */
  lookup(name: string): Value | undefined;
  /** `macros.NAME`: the caller evaluates the macro (in the current scope) and returns its value. */
  macro(name: string, span: Span): Value;
  /** Roll `count` dice of `sides` sides; the caller records it. `text` is the source text of the call, e.g. `roll(1d20)`. */
  roll(count: number, sides: number, text: string): number;
}

/** Evaluate a parsed expression. Every failure is a `YareError` carrying the offending node's span. */
export function evaluate(expr: Expression, ctx: EvalContext): Value {
  return evalNode(expr.ast, expr, ctx);
}

function evalNode(node: Expr, expr: Expression, ctx: EvalContext): Value {
  switch (node.kind) {
    case 'literal': {
      const v = node.value;
      return v !== null && typeof v === 'object' ? new PyFloat(v.float) : v;
    }
    case 'dice':
      return `${node.count}d${node.sides}`;
    case 'name': {
      if (node.name === 'macros') {
        throw new YareError(
          'YARE_SYNTAX',
          "'macros' must be followed by a macro name, as in macros.attack_roll",
          node.span,
        );
      }
      const v = ctx.lookup(node.name);
      if (v === undefined) throw new YareError('YARE_UNKNOWN_PATH', `unknown name '${node.name}'`, node.span);
      return v;
    }
    case 'attribute': {
      const object = node.object;
      if (object.kind === 'name' && object.name === 'macros') return ctx.macro(node.name, node.span);
      return getAttribute(evalNode(object, expr, ctx), node.name);
    }
    case 'index':
      return getItem(evalNode(node.object, expr, ctx), evalNode(node.index, expr, ctx));
    case 'call':
      return evalCall(node, expr, ctx);
    case 'unary': {
      const v = evalNode(node.operand, expr, ctx);
      return node.op === 'not' ? !truthy(v) : unaryOp(node.op, v, node.span);
    }
    case 'binary':
      return binaryOp(node.op, evalNode(node.left, expr, ctx), evalNode(node.right, expr, ctx), node.span);
    case 'compare': {
      const operands = node.operands;
      let left = evalNode(operands[0]!, expr, ctx);
      for (let i = 0; i < node.ops.length; i++) {
        const right = evalNode(operands[i + 1]!, expr, ctx);
        if (!compareLink(node.ops[i]!, left, right, node.span)) return false;
        left = right;
      }
      return true;
    }
    case 'logical': {
      const left = evalNode(node.left, expr, ctx);
      if (node.op === 'and' ? !truthy(left) : truthy(left)) return left;
      return evalNode(node.right, expr, ctx);
    }
    case 'conditional':
      return truthy(evalNode(node.test, expr, ctx))
        ? evalNode(node.then, expr, ctx)
        : evalNode(node.otherwise, expr, ctx);
    case 'list': {
      const items = node.items;
      const out = new Array<Value>(items.length);
      for (let i = 0; i < items.length; i++) out[i] = evalNode(items[i]!, expr, ctx);
      return out;
    }
    case 'dict':
      return evalDict(node, expr, ctx);
    default: {
      const never: never = node;
      throw new YareError('YARE_SYNTAX', `unknown expression node '${(never as Expr).kind}'`);
    }
  }
}

/** One link `a op b` of a (possibly chained) comparison. */
export function compareLink(op: CompareOp, a: Value, b: Value, span: Span): boolean {
  switch (op) {
    case '==':
      return a === b || valueEquals(a, b);
    case '!=':
      return a !== b && !valueEquals(a, b);
    case '<':
      return typeof a === 'number' && typeof b === 'number' ? a < b : compareOrder(op, a, b, span);
    case '<=':
      return typeof a === 'number' && typeof b === 'number' ? a <= b : compareOrder(op, a, b, span);
    case '>':
      return typeof a === 'number' && typeof b === 'number' ? a > b : compareOrder(op, a, b, span);
    case '>=':
      return typeof a === 'number' && typeof b === 'number' ? a >= b : compareOrder(op, a, b, span);
    case 'in':
      return contains(b, a, span);
    case 'not in':
      return !contains(b, a, span);
  }
}

/**
 * `a.name`: own keys of dicts only, and the data attributes of durations. Nothing else has
 * attributes — never a host property (`'x'.length`, `x.constructor`, `x.__proto__` are all None).
 */
export function getAttribute(base: Value, name: string): Value {
  if (base === null || typeof base !== 'object' || Array.isArray(base) || base instanceof PyFloat)
    return null;
  if (base instanceof Duration) return durationAttribute(base, name);
  if (!Object.hasOwn(base, name)) return null;
  return base[name] ?? null;
}

function durationAttribute(d: Duration, name: string): Value {
  switch (name) {
    case 'days':
      return durationParts(d).days;
    case 'seconds':
      return durationParts(d).seconds;
    case 'microseconds':
      return durationParts(d).microseconds;
    case 'total_seconds':
      return new PyFloat(d.micros / 1_000_000);
    default:
      return null;
  }
}

/** A list position the way the original's `int(idx)` read it; undefined when it is not one. */
function listPosition(idx: Value): number | undefined {
  try {
    return pyInt(idx);
  } catch (error) {
    // A whole number beyond ±2^53 is no position in a list of at most MAX_CONTAINER_SIZE items.
    if (error instanceof YareError && error.code === 'YARE_OVERFLOW') return undefined;
    throw error;
  }
}

/**
 * `a[i]`: a dict's own key (the index as a string), a list position (negative or out of range → None);
 * anything else → None.
 */
export function getItem(base: Value, idx: Value): Value {
  if (Array.isArray(base)) {
    const i = listPosition(idx);
    if (i === undefined || i < 0 || i >= base.length) return null;
    return base[i] ?? null;
  }
  if (!isDict(base)) return null;
  const key = dictKeyText(idx);
  if (key === undefined || !Object.hasOwn(base, key)) return null;
  return base[key] ?? null;
}

function evalDict(node: Extract<Expr, { kind: 'dict' }>, expr: Expression, ctx: EvalContext): Dict {
  const out = newDict();
  let size = 0;
  for (const entry of node.entries) {
    const key = dictKeyOf(evalNode(entry.key, expr, ctx), entry.key.span);
    const value = evalNode(entry.value, expr, ctx);
    size = dictEntry(out, key, value, size, entry.key.span);
  }
  return out;
}

/** A dict literal's key: a string, or a whole number written as its text. */
export function dictKeyOf(k: Value, span: Span): string {
  if (typeof k === 'string') return k;
  if (typeof k === 'number' && Number.isSafeInteger(k)) return String(k);
  throw new YareError(
    'YARE_TYPE',
    `a dict key must be a string or a whole number, not a ${typeName(k)}`,
    span,
  );
}

/** Stores one entry of a dict literal; returns the new key count (a repeated key replaces, as in Python). */
export function dictEntry(out: Dict, key: string, value: Value, size: number, span: Span): number {
  let n = size;
  if (!Object.hasOwn(out, key) && ++n > MAX_CONTAINER_SIZE) {
    throw new YareError(
      'YARE_CONTAINER_LIMIT',
      `a dict has more than ${MAX_CONTAINER_SIZE} keys (MAX_CONTAINER_SIZE)`,
      span,
    );
  }
  out[key] = value;
  return n;
}

/** The dice a computed `roll(...)` argument names, e.g. `roll('3d6')`. */
export function diceOf(v: Value, span: Span): { count: number; sides: number } {
  if (typeof v !== 'string') {
    throw new YareError('YARE_BAD_DICE', `roll() needs dice like 1d20, not a ${typeName(v)}`, span);
  }
  return parseDiceText(v, span);
}

function evalCall(node: Extract<Expr, { kind: 'call' }>, expr: Expression, ctx: EvalContext): Value {
  const sig = checkCall(node);
  const args = node.args;
  switch (sig.name) {
    case 'roll': {
      const arg = args[0]!;
      if (arg.kind === 'dice') return ctx.roll(arg.count, arg.sides, exprText(expr, node.span));
      const dice = diceOf(evalNode(arg, expr, ctx), arg.span);
      return ctx.roll(dice.count, dice.sides, exprText(expr, node.span));
    }
    case 'abs':
      return pyAbs(evalNode(args[0]!, expr, ctx), node.span);
    case 'floor':
      return pyFloor(evalNode(args[0]!, expr, ctx), node.span);
    case 'ceil':
      return pyCeil(evalNode(args[0]!, expr, ctx), node.span);
    case 'len':
      return pyLen(evalNode(args[0]!, expr, ctx), node.span);
    case 'round': {
      const x = evalNode(args[0]!, expr, ctx);
      const ndigits = args.length > 1 ? evalNode(args[1]!, expr, ctx) : undefined;
      return pyRound(x, ndigits, node.span);
    }
    case 'min':
    case 'max': {
      const values = new Array<Value>(args.length);
      for (let i = 0; i < args.length; i++) values[i] = evalNode(args[i]!, expr, ctx);
      return pyMinMax(sig.name, values, node.span);
    }
    case 'timedelta': {
      const kwargs: { name: string; value: Value; span: Span }[] = [];
      for (let i = 0; i < args.length; i++) {
        kwargs.push({
          name: TIMEDELTA_POSITIONAL[i]!,
          value: evalNode(args[i]!, expr, ctx),
          span: args[i]!.span,
        });
      }
      for (const k of node.kwargs)
        kwargs.push({ name: k.name, value: evalNode(k.value, expr, ctx), span: k.value.span });
      return pyTimedelta(kwargs, node.span);
    }
    case 'time_delta': {
      const a = evalNode(args[0]!, expr, ctx);
      const b = evalNode(args[1]!, expr, ctx);
      return timeDelta(a, b, args[0]!.span, args[1]!.span, node.span);
    }
    default: {
      const never: never = sig.name;
      throw new YareError('YARE_UNKNOWN_FUNCTION', `unknown function '${String(never)}'`, node.span);
    }
  }
}
