// Reads of collections of records (docs/yare.md, "Collections of records"): a record by its id, where a
// missing one is an error naming the collection and the id (as Python's KeyError would), a property by a
// computed name, and the containment queries over a collection's `parent:` property — `within`,
// `ancestors`, `descendants` — each following at most MAX_CONTAINMENT_DEPTH levels, so a cycle written
// into the state is an error rather than a loop.

import { YareError } from '../errors.ts';
import { MAX_CONTAINMENT_DEPTH } from '../limits.ts';
import { pyRepr, typeName } from '../python.ts';
import type { RecordSchema } from '../program.ts';
import { unknownProperty } from '../schema-records.ts';
import { type Dict, isDict, type Value } from '../values.ts';
import type { Span } from './ast.ts';
import { dictKeyOf } from './runtime.ts';

function records(collection: Value, record: RecordSchema, span: Span): Dict {
  if (isDict(collection)) return collection;
  throw new YareError(
    'YARE_TYPE',
    `state.${record.collection} is a collection, but holds ${typeName(collection)}`,
    span,
  );
}

/** `state.objs[id]`: the record, or an error naming the collection and the id. */
export function recordAt(collection: Value, id: Value, record: RecordSchema, span: Span): Dict {
  const all = records(collection, record, span);
  return all[existingId(all, id, record, span)] as Dict;
}

/** The key `id` names in the collection (a whole number names its text), which must hold a record. */
function existingId(all: Dict, id: Value, record: RecordSchema, span: Span): string {
  const key = typeof id === 'string' ? id : dictKeyOf(id, span);
  if (Object.hasOwn(all, key) && isDict(all[key])) return key;
  throw new YareError('YARE_BAD_PATH', `state.${record.collection} has no record ${pyRepr(key)}`, span);
}

/** `record[name]` with a computed name: a declared property, or an error naming the records' properties. */
export function propertyAt(value: Value, name: Value, record: RecordSchema, span: Span): Value {
  const key = typeof name === 'string' ? name : dictKeyOf(name, span);
  const problem = unknownProperty(record, key);
  if (problem !== undefined) throw new YareError('YARE_BAD_PATH', problem, span);
  return isDict(value) && Object.hasOwn(value, key) ? (value[key] ?? null) : null;
}

/** The id of the record containing `id`, or undefined at the top (a parent that is no record of it). */
function parentOf(all: Dict, id: string, parent: string): string | undefined {
  const own = all[id];
  const up = isDict(own) ? own[parent] : undefined;
  return typeof up === 'string' && Object.hasOwn(all, up) ? up : undefined;
}

function tooDeep(record: RecordSchema, id: string, span: Span): YareError {
  return new YareError(
    'YARE_BAD_VALUE',
    `containment in state.${record.collection} goes deeper than ${MAX_CONTAINMENT_DEPTH} levels from '${id}' (MAX_CONTAINMENT_DEPTH): do its ${record.parent} properties make a circle?`,
    span,
  );
}

/** `ancestors(C, x)`: the ids of the records containing x, innermost first. */
export function pyAncestors(collection: Value, id: Value, record: RecordSchema, span: Span): string[] {
  const all = records(collection, record, span);
  const start = existingId(all, id, record, span);
  const out: string[] = [];
  for (
    let up = parentOf(all, start, record.parent!);
    up !== undefined;
    up = parentOf(all, up, record.parent!)
  ) {
    if (out.length >= MAX_CONTAINMENT_DEPTH) throw tooDeep(record, start, span);
    out.push(up);
  }
  return out;
}

/** `within(C, x, y)`: whether y contains x, directly or through records inside y. */
export function pyWithin(
  collection: Value,
  id: Value,
  container: Value,
  record: RecordSchema,
  span: Span,
): boolean {
  const outer = typeof container === 'string' ? container : dictKeyOf(container, span);
  return pyAncestors(collection, id, record, span).includes(outer);
}

/**
 * `descendants(C, y)`: the ids of every record inside y, depth first — each child (in the collection's
 * order) followed by what it contains. Each record listed counts one step of the run.
 */
export function pyDescendants(
  collection: Value,
  id: Value,
  record: RecordSchema,
  step: () => void,
  span: Span,
): string[] {
  const all = records(collection, record, span);
  const start = existingId(all, id, record, span);
  const children = new Map<string, string[]>();
  for (const key of Object.keys(all)) {
    const up = parentOf(all, key, record.parent!);
    if (up === undefined) continue;
    const list = children.get(up);
    if (list === undefined) children.set(up, [key]);
    else list.push(key);
  }
  const out: string[] = [];
  const visit = (at: string, depth: number): void => {
    for (const child of children.get(at) ?? []) {
      if (depth >= MAX_CONTAINMENT_DEPTH) throw tooDeep(record, start, span);
      step();
      out.push(child);
      visit(child, depth + 1);
    }
  };
  visit(start, 0);
  return out;
}
