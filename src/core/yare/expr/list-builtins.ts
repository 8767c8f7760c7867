// The built-in functions on lists and dicts (docs/yare.md, "Built-in functions"): `sorted`, `range`,
// `keys`, `values`, and the seeded `choice` and `shuffle`. Every list they make holds at most
// MAX_CONTAINER_SIZE items (a `range` past it is refused before it is built). `choice` and `shuffle` draw
// from the run's dice — one roll per draw, recorded like any other — so a replay with the same seed draws
// the same, and nothing else in the engine is random.

import { YareError } from '../errors.ts';
import { MAX_CONTAINER_SIZE } from '../limits.ts';
import { compareOrder, pyInt, truthy, typeName } from '../python.ts';
import { isDict, type Value } from '../values.ts';
import type { Span } from './ast.ts';
import { getAttribute, iterationItems } from './runtime.ts';

/**
 * Python's `sorted(items, reverse=...)`, stable. `key` is the name of a key of every item (a dict, a
 * record): `sorted(values(state.objs), key='name')` — Python takes a function there, which YARE has not.
 */
export function pySorted(
  items: Value,
  reverse: Value | undefined,
  key: Value | undefined,
  span: Span,
): Value[] {
  const list = boundedItems('sorted', items, span);
  if (key !== undefined && key !== null && typeof key !== 'string') {
    throw new YareError(
      'YARE_TYPE',
      `sorted(key=...) names a key of the items, as key='name'; got a ${typeName(key)}`,
      span,
    );
  }
  const keyOf = (item: Value): Value => {
    if (key === undefined || key === null) return item;
    if (!isDict(item))
      throw new YareError('YARE_TYPE', `sorted(key='${key}') needs dicts, got a ${typeName(item)}`, span);
    return getAttribute(item, key);
  };
  const decorated = list.map((item) => ({ item, by: keyOf(item) }));
  const descending = reverse !== undefined && truthy(reverse);
  // Reverse order keeps equal items in their order, as Python's reverse=True does.
  decorated.sort((a, b) => {
    if (compareOrder('<', a.by, b.by, span)) return descending ? 1 : -1;
    if (compareOrder('<', b.by, a.by, span)) return descending ? -1 : 1;
    return 0;
  });
  return decorated.map((d) => d.item);
}

/** The items of a list, a dict (its keys) or a string (its characters), as a new list of at most MAX_CONTAINER_SIZE. */
function boundedItems(fn: string, items: Value, span: Span): Value[] {
  const list = iterationItems(items, span);
  if (list.length > MAX_CONTAINER_SIZE) {
    throw new YareError(
      'YARE_CONTAINER_LIMIT',
      `${fn}() would make a list of ${list.length} items; the limit is ${MAX_CONTAINER_SIZE} (MAX_CONTAINER_SIZE)`,
      span,
    );
  }
  return [...list];
}

function rangeInt(v: Value, span: Span): number {
  if (typeof v === 'boolean' || (typeof v === 'number' && Number.isSafeInteger(v))) return pyInt(v, span)!;
  throw new YareError('YARE_TYPE', `range() takes ints, not a ${typeName(v)}`, span);
}

/** Python's `range(stop)`, `range(start, stop)`, `range(start, stop, step)`, as a list. */
export function pyRange(args: readonly Value[], span: Span): number[] {
  const ints = args.map((a) => rangeInt(a, span));
  const [start, stop, step] = ints.length === 1 ? [0, ints[0]!, 1] : [ints[0]!, ints[1]!, ints[2] ?? 1];
  if (step === 0) throw new YareError('YARE_BAD_VALUE', 'range() step cannot be zero', span);
  const count = Math.max(0, Math.ceil((stop - start) / step));
  if (count > MAX_CONTAINER_SIZE) {
    throw new YareError(
      'YARE_CONTAINER_LIMIT',
      `range() would make a list of ${count} items; the limit is ${MAX_CONTAINER_SIZE} (MAX_CONTAINER_SIZE)`,
      span,
    );
  }
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(start + i * step);
  return out;
}

/** A dict's keys (`keys(d)`) or values (`values(d)`), in the dict's order, as a list. */
export function dictPart(fn: 'keys' | 'values', d: Value, span: Span): Value[] {
  if (!isDict(d)) throw new YareError('YARE_TYPE', `${fn}() needs a dict, not a ${typeName(d)}`, span);
  const keys = Object.keys(d);
  return fn === 'keys' ? keys : keys.map((k) => d[k] ?? null);
}

/** Rolls one die of `sides` sides (the run's dice, recorded), for a draw. */
export type Draw = (sides: number) => number;

/** Python's `random.choice(items)`, with one roll of the run's dice: 1dN picks the Nth item. */
export function pyChoice(items: Value, draw: Draw, span: Span): Value {
  const list = iterationItems(items, span);
  if (list.length === 0)
    throw new YareError('YARE_BAD_VALUE', 'choice() of an empty list has no answer', span);
  return list[draw(list.length) - 1]!;
}

/**
 * `shuffle(items)`: a shuffled copy (Python's `random.shuffle` shuffles in place; a YARE value never
 * changes in place), Fisher–Yates with one roll per position but the last.
 */
export function pyShuffle(items: Value, draw: Draw, span: Span): Value[] {
  const list = boundedItems('shuffle', items, span);
  for (let i = list.length - 1; i > 0; i--) {
    const j = draw(i + 1) - 1;
    const t = list[i]!;
    list[i] = list[j]!;
    list[j] = t;
  }
  return list;
}
