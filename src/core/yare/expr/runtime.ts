// The operations compiled expressions perform at run time (closure.ts lowers each node to a closure that
// calls these): what a context provides, comparison links, attribute and item reads, dict literal entries
// and computed dice. Python semantics come from python.ts; this file adds only what is specific to
// expressions.

import { YareError } from '../errors.ts';
import { MAX_CONTAINER_SIZE } from '../limits.ts';
import {
  compareOrder,
  contains,
  dictKeyText,
  durationParts,
  durationTotalSeconds,
  pyInt,
  typeName,
  valueEquals,
} from '../python.ts';
import { type Dict, Duration, isDict, PyFloat, type Value } from '../values.ts';
import type { CompareOp, Expression, Span } from './ast.ts';
import { parseDiceText } from './dice-notation.ts';

export interface EvalContext {
  /** Value bound to a root name: `state`, `temp`, `inputs`, or a foreach local. `undefined` = unknown name (error YARE_UNKNOWN_PATH). */
  lookup(name: string): Value | undefined;
  /** `macros.NAME`: the caller evaluates the macro (in the current scope) and returns its value. */
  macro(name: string, span: Span): Value;
  /**
   * Roll `count` dice of `sides` sides; the caller records it. `text` is the source text of the call, e.g.
   * `roll(1d20)`; `source` the expression it is written in (a macro's, when it is in one).
   */
  roll(count: number, sides: number, text: string, source?: Expression): number;
  /** Count one iteration of a comprehension against the run's step budget (throws past it). */
  step(): void;
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
    case 'is':
      return a === null && b === null;
    case 'is not':
      return (a === null) !== (b === null);
  }
}

/**
 * What a comprehension iterates, as Python does: a list's items, a dict's keys, a string's characters
 * (by code point). Anything else is an error.
 */
export function iterationItems(v: Value, span: Span): readonly Value[] {
  if (Array.isArray(v)) return v;
  if (isDict(v)) return Object.keys(v);
  if (typeof v === 'string') return Array.from(v);
  throw new YareError(
    'YARE_TYPE',
    `'${typeName(v)}' object is not iterable: a comprehension or sum() goes over a list, a dict's keys or a string`,
    span,
  );
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
      return new PyFloat(durationTotalSeconds(d));
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
