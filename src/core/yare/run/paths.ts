// Reading and writing `state.`/`temp.` paths during a run. A write copies only the objects on its path
// that the run does not own yet (structural sharing), coerces to the field's type, and keeps every
// container within MAX_CONTAINER_SIZE and MAX_DICT_DEPTH.

import { YareError } from '../errors.ts';
import { MAX_CONTAINER_SIZE, MAX_DICT_DEPTH } from '../limits.ts';
import type { DomainSchema, FieldSchema, RecordSchema } from '../program.ts';
import { formatValue, toStateValue, typeName } from '../python.ts';
import {
  dictDepth,
  resolveStatePath,
  schemaAt,
  targetPathProblem,
  undeclaredPathMessage,
} from '../schema.ts';
import { DICT_PROTOTYPE, type Dict, isDict, newDict, PyFloat, type Value } from '../values.ts';
import { coerceRecord, coerceToField } from './coerce.ts';

/** What path reads and writes need of the machine: the roots, and the objects the run owns. */
export interface PathRoots {
  root: Dict;
  readonly temp: Dict;
  readonly owned: object[];
  own<T extends Dict | Value[]>(obj: T): T;
}

/** A write or read target with everything known about it: static ones are built once, when lowered. */
export interface ResolvedPath {
  readonly segments: readonly string[];
  /** `segments.join('.')`, for messages. */
  readonly text: string;
  readonly inState: boolean;
  /** The typed field written, when the path names one exactly (coercion and bounds). */
  readonly field: FieldSchema | undefined;
  /** The path names a whole record of a collection: written, it is made a record of it. */
  readonly record: RecordSchema | undefined;
  /** The path goes through a record of a collection: the index (in `segments`) of the record's id. */
  readonly recordAt: number | undefined;
  readonly where: () => string;
}

/** A path with what the schema says of it: the field it names, the record it names or goes through. */
export function resolvedPath(segments: readonly string[], schema: DomainSchema | undefined): ResolvedPath {
  const text = segments.join('.');
  const inState = segments[0] === 'state';
  const at = inState && schema !== undefined ? resolveStatePath(schema, segments.slice(1)) : undefined;
  const field =
    at?.kind === 'node' && at.node.kind === 'field'
      ? at.node
      : at?.kind === 'property'
        ? at.property
        : undefined;
  const idAt =
    at?.kind === 'record' || at?.kind === 'property' || at?.kind === 'inside' ? at.idAt : undefined;
  return {
    segments,
    text,
    inState,
    field,
    record: at?.kind === 'record' ? at.collection.record : undefined,
    recordAt: idAt === undefined ? undefined : idAt + 1,
    where: () => text,
  };
}

/** The typed field a path lands on exactly, if any. */
export function fieldOf(schema: DomainSchema, segments: readonly string[]): FieldSchema | undefined {
  if (segments[0] !== 'state') return undefined;
  const node = schemaAt(schema, segments.slice(1));
  return node?.kind === 'field' && node.path.length === segments.length - 1 ? node : undefined;
}

/** A computed `var:` path checked: `state.` or `temp.` and, under `state.`, declared in the schema. */
export function checkedDynamicPath(raw: string, schema: DomainSchema): ResolvedPath {
  const segments = raw.trim().split('.');
  const problem = targetPathProblem(raw.trim());
  if (problem !== undefined) throw new YareError('YARE_BAD_PATH', `Path '${raw}' ${problem}.`);
  return checkedSegments(segments, schema);
}

/** Path segments a run computed (`state`/`temp` first), checked against the schema under `state.`. */
export function checkedSegments(segments: readonly string[], schema: DomainSchema): ResolvedPath {
  if (segments[0] === 'state' && !schemaAt(schema, segments.slice(1))) {
    const message = undeclaredPathMessage(schema, segments.slice(1));
    const text = segments.join('.');
    // "state.x is not declared…" reads "Path 'state.x' is not declared…"; a record's property says which.
    const said = message.startsWith(`${text} `)
      ? message.slice(text.length)
      : `: ${message.slice(text.length + 2)}`;
    throw new YareError('YARE_BAD_PATH', `Path '${text}'${said}`);
  }
  return resolvedPath(segments, schema);
}

/**
 * A path through a record of a collection names a record that exists: a property of a record no step
 * created is an error naming the collection and the id, not a record made up of one property.
 */
export function requireRecord(m: PathRoots, path: ResolvedPath): void {
  const at = path.recordAt;
  if (at === undefined) return;
  const records = readPath(m, path.segments.slice(0, at));
  const id = path.segments[at]!;
  if (isDict(records) && Object.hasOwn(records, id)) return;
  throw new YareError(
    'YARE_BAD_PATH',
    `${path.text}: ${path.segments.slice(0, at).join('.')} has no record '${id}' (a create step makes one).`,
  );
}

export function readPath(m: PathRoots, path: readonly string[]): Value | undefined {
  let node: Value | undefined = path[0] === 'state' ? m.root : m.temp;
  for (let i = 1; i < path.length; i++) {
    node = child(node, path[i]!);
    if (node === undefined) return undefined;
  }
  return node;
}

export function readList(m: PathRoots, path: ResolvedPath, action: string): Value[] {
  const current = readPath(m, path.segments);
  if (current === null || current === undefined) return [];
  if (Array.isArray(current)) return current;
  throw notA('list', action, path, current);
}

export function readDict(m: PathRoots, path: ResolvedPath, action: string): Dict {
  const current = readPath(m, path.segments);
  if (current === null || current === undefined) return newDict();
  if (isDict(current)) return current;
  throw notA('dict', action, path, current);
}

function notA(kind: 'list' | 'dict', action: string, path: ResolvedPath, current: Value): YareError {
  return new YareError(
    'YARE_TYPE',
    `${action}: path '${path.text}' not a ${kind} (it holds ${typeName(current)}).`,
  );
}

/** Writes with the schema's type coercion and bounds; copies only the objects on the path. */
export function writePath(m: PathRoots, target: ResolvedPath, value: Value, action: string): void {
  const path = target.segments;
  const inState = target.inState;
  let toWrite = value;
  if (inState) {
    const field = target.field;
    if (target.recordAt !== undefined) requireWrite(m, target);
    if (target.record !== undefined) {
      toWrite = coerceRecord(value, target.record, path[target.recordAt!]!, action);
    } else if (field) toWrite = coerceToField(value, field, target.where, action);
    // A finite number is already a state value; everything else is converted (floats unboxed, checked).
    if (typeof toWrite !== 'number' || !Number.isFinite(toWrite)) {
      toWrite = toStateValue(toWrite) as Value;
      if (typeof toWrite === 'object' && toWrite !== null) checkContainer(toWrite, target.text);
    }
  }
  let parent: Dict | Value[];
  if (inState) {
    parent = m.own(m.root);
    m.root = parent;
  } else parent = m.temp;
  for (let i = 1; i < path.length - 1; i++) {
    const key = path[i]!;
    const next = child(parent, key);
    let owned: Dict | Value[];
    if (next === undefined || next === null) owned = newDict();
    else if (isDict(next) || Array.isArray(next)) owned = m.own(next);
    else
      throw new YareError(
        'YARE_BAD_PATH',
        `Cannot write ${target.text}: '${path.slice(0, i + 1).join('.')}' holds ${typeName(next)}, not a mapping.`,
      );
    if (!m.owned.includes(owned)) m.owned.push(owned);
    assign(parent, key, owned, path);
    parent = owned;
  }
  assign(parent, path[path.length - 1]!, toWrite, path);
}

/** A record's `id` is its key: never written; a property of a record that does not exist neither. */
function requireWrite(m: PathRoots, target: ResolvedPath): void {
  if (target.field?.readOnly) {
    throw new YareError(
      'YARE_BAD_PATH',
      `${target.text}: a record's id is its key, kept by the engine; it cannot be written.`,
    );
  }
  // Writing a whole record makes it; writing into one needs it to exist.
  if (target.record === undefined) requireRecord(m, target);
}

function child(node: Value | undefined, key: string): Value | undefined {
  // One of our dicts inherits nothing, so a plain read finds an own key or nothing at all.
  if (typeof node === 'object' && node !== null && Object.getPrototypeOf(node) === DICT_PROTOTYPE)
    return (node as Dict)[key];
  if (Array.isArray(node)) {
    if (!/^\d+$/.test(key)) return undefined;
    return node[Number(key)];
  }
  if (isDict(node)) return Object.hasOwn(node, key) ? node[key] : undefined;
  return undefined;
}

function assign(parent: Dict | Value[], key: string, value: Value, path: readonly string[]): void {
  if (Array.isArray(parent)) {
    if (!/^\d+$/.test(key))
      throw new YareError('YARE_BAD_PATH', `Invalid path segment '${key}' for a list in ${path.join('.')}.`);
    const idx = Number(key);
    if (idx >= MAX_CONTAINER_SIZE)
      throw new YareError(
        'YARE_CONTAINER_LIMIT',
        `Index ${idx} in ${path.join('.')} is past MAX_CONTAINER_SIZE (${MAX_CONTAINER_SIZE}).`,
      );
    while (parent.length < idx) parent.push(null);
    parent[idx] = value;
    return;
  }
  parent[key] = value;
}

export function copyDict(d: Dict): Dict {
  const out = newDict();
  // for…in on a null-prototype dict visits exactly its own keys.
  for (const k in d) out[k] = d[k] as Value;
  return out;
}

export function dictKey(v: Value): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || v instanceof PyFloat) return formatValue(v);
  throw new YareError('YARE_TYPE', `A dict key must be a string or a number, got ${typeName(v)}.`);
}

export function checkContainer(v: Value, where: string): void {
  if (Array.isArray(v) && v.length > MAX_CONTAINER_SIZE) {
    throw new YareError(
      'YARE_CONTAINER_LIMIT',
      `${where}: a list of ${v.length} items exceeds MAX_CONTAINER_SIZE (${MAX_CONTAINER_SIZE}).`,
    );
  }
  if (isDict(v)) {
    if (Object.keys(v).length > MAX_CONTAINER_SIZE) {
      throw new YareError(
        'YARE_CONTAINER_LIMIT',
        `${where}: a dict of ${Object.keys(v).length} keys exceeds MAX_CONTAINER_SIZE (${MAX_CONTAINER_SIZE}).`,
      );
    }
    if (dictDepth(v) > MAX_DICT_DEPTH)
      throw new YareError(
        'YARE_DICT_DEPTH',
        `${where}: dict depth exceeds MAX_DICT_DEPTH (${MAX_DICT_DEPTH}).`,
      );
  }
}
