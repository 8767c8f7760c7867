// Collections of records in `state_schema` (docs/yare.md, "Collections of records"): a field of
// `type: collection` holds records by id, every record with the properties `record:` declares — typed,
// defaulted, bounded, each with its visibility (the collection's unless it says otherwise) — and `id`, its
// key, kept by the engine. `parent:` names the property that holds the id of the record containing this
// one (for within/descendants/ancestors), `id_prefix:` what the ids a create step makes start with. This
// file compiles that declaration and checks its default; run/coerce.ts keeps records whole at run time.

import type { SourcePlace } from '../diagnostics.ts';
import { type DiagnosticSink, didYouMean } from './diagnostics-sink.ts';
import { PROPERTY_SHAPE } from './grammar.ts';
import { MAX_CONTAINER_SIZE } from './limits.ts';
import type { FieldSchema, RecordSchema, Visibility } from './program.ts';
import { cloneValue, type Dict, isDict, newDict, type Value } from './values.ts';
import {
  getNode,
  isMap,
  mapPairs,
  type NodeSource,
  placeOfNode,
  plainValue,
  scalarOf,
  type YAMLMap,
} from './yaml-nodes.ts';

/** The property every record has: its key in the collection, kept by the engine. */
export const RECORD_ID = 'id';

/** The keys a property may have (a field's, without the collection's own), and its types. */
export const PROPERTY_KEYS: ReadonlySet<string> = new Set(Object.keys(PROPERTY_SHAPE.props));

/** What a property inherits from its collection. */
export interface Inherited {
  readonly visibility: Visibility;
  readonly npcVisible: boolean;
}

/** Compiles one property (schema.ts's field compiler, given a property's keys). */
export type CompileProperty = (
  node: YAMLMap,
  name: string,
  path: readonly string[],
  inherited: Inherited,
  place: SourcePlace,
) => FieldSchema | undefined;

/** The base of a collection field, as schema.ts read it: its name, path, visibility and place. */
export type CollectionBase = Omit<FieldSchema, 'default' | 'record'>;

/**
 * A `collection` field: its record shape from `record:`, `parent:` and `id_prefix:`, and its default (a
 * mapping of id → record, each checked and filled with the properties' defaults).
 */
export function compileCollection(
  node: YAMLMap,
  base: CollectionBase,
  src: NodeSource,
  sink: DiagnosticSink,
  compileProperty: CompileProperty,
): FieldSchema {
  const label = base.path.join('.');
  const record = compileRecord(node, base, src, sink, compileProperty);
  const defaultNode = getNode(node, 'default');
  let value: Dict = newDict();
  if (defaultNode !== undefined) {
    const checked = checkCollectionValue(plainValue(defaultNode), record, label);
    if (typeof checked === 'string')
      sink.error('YARE_BAD_SCHEMA', checked, placeOfNode(src, defaultNode, base.place));
    else value = checked;
  }
  return { ...base, default: value, record };
}

function compileRecord(
  node: YAMLMap,
  base: CollectionBase,
  src: NodeSource,
  sink: DiagnosticSink,
  compileProperty: CompileProperty,
): RecordSchema {
  const label = base.path.join('.');
  const inherited: Inherited = { visibility: base.visibility, npcVisible: base.npcVisible };
  const properties = new Map<string, FieldSchema>();
  properties.set(RECORD_ID, {
    kind: 'field',
    name: RECORD_ID,
    path: [...base.path, '*', RECORD_ID],
    type: 'string',
    default: '',
    min: undefined,
    max: undefined,
    ...inherited,
    description: 'The record’s key in the collection, kept by the engine.',
    place: base.place,
    readOnly: true,
  });
  const recordNode = getNode(node, 'record');
  if (recordNode === undefined || !isMap(recordNode)) {
    sink.error(
      'YARE_BAD_SCHEMA',
      `Collection ${label} needs record:, a mapping of its records' properties, as record: { name: { type: string } }.`,
      placeOfNode(src, recordNode, base.place),
    );
  } else {
    for (const { key, pair, value } of mapPairs(recordNode)) {
      const place = placeOfNode(src, pair.key);
      const property = checkedProperty(key, value, label, place, src, sink);
      if (property === undefined) continue;
      const compiled = compileProperty(property, key, [...base.path, '*', key], inherited, place);
      if (compiled !== undefined) properties.set(key, compiled);
    }
  }
  const parent = scalarOf(getNode(node, 'parent'));
  const parentProperty = typeof parent === 'string' ? properties.get(parent) : undefined;
  if (
    parent !== undefined &&
    (parentProperty === undefined || parent === RECORD_ID || parentProperty.type !== 'string')
  ) {
    sink.error(
      'YARE_BAD_SCHEMA',
      `Collection ${label}: parent: must name a string property of its records (the id of the record containing one), got ${JSON.stringify(parent)}.${
        typeof parent === 'string'
          ? didYouMean(
              parent,
              [...properties.keys()].filter((p) => p !== RECORD_ID),
            )
          : ''
      }`,
      placeOfNode(src, getNode(node, 'parent'), base.place),
    );
  }
  const prefix = scalarOf(getNode(node, 'id_prefix'));
  if (prefix !== undefined && (typeof prefix !== 'string' || !/^[A-Za-z_]*$/.test(prefix))) {
    sink.error(
      'YARE_BAD_SCHEMA',
      `Collection ${label}: id_prefix: must be letters or underscores (the ids are it and a number: o12), got ${JSON.stringify(prefix)}.`,
      placeOfNode(src, getNode(node, 'id_prefix'), base.place),
    );
  }
  return {
    collection: label,
    properties,
    parent: parentProperty === undefined ? undefined : (parent as string),
    idPrefix: typeof prefix === 'string' ? prefix : '',
  };
}

/** A property's declaration, or undefined (reported) when it cannot be one. */
function checkedProperty(
  key: string,
  value: unknown,
  label: string,
  place: SourcePlace,
  src: NodeSource,
  sink: DiagnosticSink,
): YAMLMap | undefined {
  if (key === RECORD_ID) {
    sink.error(
      'YARE_RESERVED_NAME',
      `Collection ${label}: '${RECORD_ID}' is the record's key, kept by the engine; it is not declared.`,
      place,
    );
    return undefined;
  }
  if (!isMap(value)) {
    sink.error(
      'YARE_BAD_SCHEMA',
      `Collection ${label}: property '${key}' must be a mapping, as { type: int, default: 0 }.`,
      placeOfNode(src, value, place),
    );
    return undefined;
  }
  return value;
}

/** Why `name` is no property of these records, with the properties and a "did you mean"; undefined when it is one. */
export function unknownProperty(record: RecordSchema, name: string): string | undefined {
  if (record.properties.has(name)) return undefined;
  const names = [...record.properties.keys()];
  return `records of state.${record.collection} have no property '${name}' (properties: ${names.join(', ')}).${didYouMean(name, names)}`;
}

/** A record with every property at its default, and `id` its key. */
export function defaultRecord(record: RecordSchema, id: string): Dict {
  const out = newDict();
  for (const [name, property] of record.properties)
    out[name] = name === RECORD_ID ? id : cloneValue(property.default);
  return out;
}

/**
 * A collection's default, checked at load: a mapping of id → record, at most MAX_CONTAINER_SIZE records,
 * each a mapping of declared properties whose values fit their types and bounds; missing ones defaulted.
 */
export function checkCollectionValue(value: Value, record: RecordSchema, label: string): Dict | string {
  if (!isDict(value)) return `Field ${label} default must be a mapping of id: record.`;
  const ids = Object.keys(value);
  if (ids.length > MAX_CONTAINER_SIZE) {
    return `state_schema.${label}: default has ${ids.length} records; the limit is ${MAX_CONTAINER_SIZE} (MAX_CONTAINER_SIZE).`;
  }
  const out = newDict();
  for (const id of ids) {
    const given = value[id] ?? null;
    if (!isDict(given)) return `Field ${label} default: record '${id}' must be a mapping of its properties.`;
    const filled = defaultRecord(record, id);
    for (const name of Object.keys(given)) {
      const problem = unknownProperty(record, name);
      if (problem !== undefined) return `Field ${label} default: record '${id}': ${problem}`;
      if (name === RECORD_ID) {
        if (given[name] !== id)
          return `Field ${label} default: record '${id}' gives id ${JSON.stringify(given[name])}; a record's id is its key.`;
        continue;
      }
      const property = record.properties.get(name)!;
      const fits = propertyFits(given[name] as Value, property);
      if (fits !== undefined) return `Field ${label} default: record '${id}': ${name} ${fits}.`;
      filled[name] = given[name] as Value;
    }
    out[id] = filled;
  }
  return out;
}

/** Why a default value does not fit a property (its type, its bounds), or undefined when it does. */
function propertyFits(v: Value, property: FieldSchema): string | undefined {
  if (v === null) return undefined;
  const type = property.type;
  const isType =
    type === undefined ||
    (type === 'int' && typeof v === 'number' && Number.isSafeInteger(v)) ||
    (type === 'float' && typeof v === 'number') ||
    (type === 'bool' && typeof v === 'boolean') ||
    (type === 'string' && typeof v === 'string') ||
    (type === 'list' && Array.isArray(v)) ||
    (type === 'dict' && isDict(v));
  if (!isType) return `${JSON.stringify(v)} is not a ${type}`;
  if (
    typeof v === 'number' &&
    ((property.min !== undefined && v < property.min) || (property.max !== undefined && v > property.max))
  )
    return `${v} is outside its bounds [${property.min ?? '-∞'}, ${property.max ?? '∞'}]`;
  return undefined;
}

/** The engine's own field counting the ids each collection's create steps have made, by collection path. */
export const NEXT_IDS_KEY = '_next_ids';

/**
 * The number of the next id of a collection: past the count kept in `_next_ids` and past every id of the
 * form prefix + number the collection holds (so a state written by hand, or without `_next_ids`, never
 * gets an id twice).
 */
export function nextIdNumber(records: Dict, record: RecordSchema, kept: Value): number {
  let next = typeof kept === 'number' && Number.isSafeInteger(kept) && kept > 0 ? kept : 0;
  const prefix = record.idPrefix;
  for (const id of Object.keys(records)) {
    if (!id.startsWith(prefix)) continue;
    const digits = id.slice(prefix.length);
    if (digits === '' || digits.length > 15 || !/^\d+$/.test(digits)) continue;
    const n = Number(digits);
    if (n >= next) next = n + 1;
  }
  return next;
}
