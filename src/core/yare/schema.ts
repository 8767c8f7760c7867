// `state_schema`: typed fields in domains nested to any depth, with defaults, bounds and visibility.
// A mapping is a field when it has a scalar `type`, or a `default` and only field keys; otherwise it is
// a domain. Domains pass `visibility` and `npc_visibility` down to their fields unless a field overrides.

import type { SourcePlace } from '../diagnostics.ts';
import { type DiagnosticSink, didYouMean } from './diagnostics-sink.ts';
import { DOMAIN_SHAPE, FIELD_SHAPE, IDENTIFIER, PROPERTY_SHAPE } from './grammar.ts';
import { MAX_CONTAINER_SIZE, MAX_DICT_DEPTH } from './limits.ts';
import type {
  DomainSchema,
  FieldSchema,
  FieldType,
  RecordSchema,
  SchemaNode,
  ValueType,
  Visibility,
} from './program.ts';
import {
  compileCollection,
  NEXT_IDS_KEY,
  nextIdNumber,
  PROPERTY_KEYS,
  unknownProperty,
} from './schema-records.ts';
import { cloneValue, type Dict, isDict, newDict, type Value } from './values.ts';
import {
  getNode,
  hasKey,
  isMap,
  isScalar,
  mapPairs,
  type NodeSource,
  placeOfNode,
  plainValue,
  scalarOf,
  type YAMLMap,
} from './yaml-nodes.ts';

export const RESERVED_NAMES: ReadonlySet<string> = new Set(['state', 'temp', 'inputs', 'macros', 'config']);
export const FIELD_TYPES: readonly FieldType[] = FIELD_SHAPE.props.type.enum;
/** The types of an input or a record property: a field's, but `collection`. */
export const VALUE_TYPES: readonly ValueType[] = PROPERTY_SHAPE.props.type.enum;
const FIELD_KEYS: ReadonlySet<string> = new Set(Object.keys(FIELD_SHAPE.props));
/** Keys only a collection field has. */
const COLLECTION_KEYS: ReadonlySet<string> = new Set(['record', 'parent', 'id_prefix']);

/** What `compileField` reads: a field of a domain, or a property of a collection's records. */
interface FieldKind {
  readonly what: 'Field' | 'Property';
  readonly keys: ReadonlySet<string>;
  readonly types: readonly FieldType[];
}
const A_FIELD: FieldKind = { what: 'Field', keys: FIELD_KEYS, types: FIELD_TYPES };
const A_PROPERTY: FieldKind = { what: 'Property', keys: PROPERTY_KEYS, types: VALUE_TYPES };
const DOMAIN_SETTING_KEYS: ReadonlySet<string> = new Set(Object.keys(DOMAIN_SHAPE.props));
const VISIBILITIES: readonly string[] = FIELD_SHAPE.props.visibility.enum;

function isVisibility(value: unknown): value is Visibility {
  return typeof value === 'string' && VISIBILITIES.includes(value);
}

/** The in-game clock (turn/game-time.ts). */
export const GAME_TIME_KEY = 'game_time';
/** The mini-game an event started and the player has not finished (turn/interaction.ts). */
export const PENDING_KEY = '_pending_interaction';

/**
 * Fields the engine itself reads or writes. Declaring them is optional; the checker knows them either way.
 * A cartridge that declares them differently (a `game_time` domain, say) keeps its own declaration.
 */
export const ENGINE_FIELDS: ReadonlyMap<string, FieldType> = new Map<string, FieldType>([
  [GAME_TIME_KEY, 'string'],
  [PENDING_KEY, 'dict'],
  // The ids each collection's create steps have made (`nextIdNumber`, schema-records.ts).
  [NEXT_IDS_KEY, 'dict'],
]);

interface Inherited {
  readonly visibility: Visibility;
  readonly npcVisible: boolean;
}

export function compileSchema(node: unknown, src: NodeSource, sink: DiagnosticSink): DomainSchema {
  const rootPlace = placeOfNode(src, node);
  const inherited: Inherited = { visibility: 'private', npcVisible: false };
  if (node === undefined || node === null || (isScalar(node) && node.value === null)) {
    return withEngineFields(
      { kind: 'domain', name: '', path: [], children: new Map(), ...inherited, place: rootPlace },
      src,
    );
  }
  if (!isMap(node)) {
    sink.error('YARE_BAD_SCHEMA', 'state_schema must be a mapping of domains and fields.', rootPlace);
    return withEngineFields(
      { kind: 'domain', name: '', path: [], children: new Map(), ...inherited, place: rootPlace },
      src,
    );
  }
  const children = compileChildren(node, [], inherited, src, sink);
  checkPerCharacter(children, sink);
  return withEngineFields(
    { kind: 'domain', name: '', path: [], children, ...inherited, place: rootPlace },
    src,
  );
}

function withEngineFields(root: DomainSchema, src: NodeSource): DomainSchema {
  const children = new Map(root.children);
  for (const [name, type] of ENGINE_FIELDS) {
    if (children.has(name)) continue;
    children.set(name, {
      kind: 'field',
      name,
      path: [name],
      type,
      default: null,
      min: undefined,
      max: undefined,
      visibility: name === GAME_TIME_KEY ? 'public' : 'private',
      npcVisible: name === GAME_TIME_KEY,
      description: undefined,
      place: { file: src.file, line: 1, col: 1 },
      implicit: true,
    } as FieldSchema & { implicit: true });
  }
  return { ...root, children };
}

/** Engine fields not declared by the cartridge are known to the checker but not part of the initial state. */
export function isImplicitField(node: SchemaNode): boolean {
  return (node as { implicit?: boolean }).implicit === true;
}

function compileChildren(
  node: YAMLMap,
  path: readonly string[],
  inherited: Inherited,
  src: NodeSource,
  sink: DiagnosticSink,
): Map<string, SchemaNode> {
  const children = new Map<string, SchemaNode>();
  for (const { key, pair, value } of mapPairs(node)) {
    const place = placeOfNode(src, pair.key);
    if (path.length > 0 && DOMAIN_SETTING_KEYS.has(key) && !isMap(value)) continue;
    if (refusedChildName(key, path, sink, place)) continue;
    if (!isMap(value)) {
      sink.error(
        'YARE_BAD_SCHEMA',
        `state_schema entry '${[...path, key].join('.')}' must be a mapping: a field like { type: int, default: 0 } or a domain of fields.`,
        placeOfNode(src, value, place),
      );
      continue;
    }
    const childPath = [...path, key];
    if (isFieldNode(value)) {
      const field = compileField(value, key, childPath, inherited, src, sink, place);
      if (field) children.set(key, field);
    } else children.set(key, compileDomain(value, childPath, inherited, src, sink, place));
  }
  return children;
}

/** A reserved name, or one that is no identifier: an error, and the entry is left out. */
function refusedChildName(
  key: string,
  path: readonly string[],
  sink: DiagnosticSink,
  place: SourcePlace,
): boolean {
  if (RESERVED_NAMES.has(key)) {
    const where = path.length === 0 ? 'domain' : `field ${[...path, key].join('.')}`;
    sink.error(
      'YARE_RESERVED_NAME',
      `state_schema ${where} '${key}' clashes with a reserved name (${[...RESERVED_NAMES].join(', ')}). Rename it.`,
      place,
    );
    return true;
  }
  if (!IDENTIFIER.test(key)) {
    sink.error(
      'YARE_BAD_SCHEMA',
      `state_schema name '${key}' must be an identifier (letters, digits, underscores).`,
      place,
    );
    return true;
  }
  return false;
}

/** A domain of fields: its visibility passed down to its children. */
function compileDomain(
  value: YAMLMap,
  childPath: readonly string[],
  inherited: Inherited,
  src: NodeSource,
  sink: DiagnosticSink,
  place: SourcePlace,
): SchemaNode {
  const domainInherited: Inherited = {
    visibility: readVisibility(value, inherited.visibility, src, sink),
    npcVisible: readNpcVisibility(value, inherited.npcVisible),
  };
  return {
    kind: 'domain',
    name: childPath[childPath.length - 1]!,
    path: childPath,
    children: compileChildren(value, childPath, domainInherited, src, sink),
    ...domainInherited,
    place,
    ...(readPerCharacter(value, childPath.slice(0, -1), src, sink) ? { perCharacter: true as const } : {}),
  };
}

/** `per_character: true`, allowed on a top-level domain only. */
function readPerCharacter(
  node: YAMLMap,
  path: readonly string[],
  src: NodeSource,
  sink: DiagnosticSink,
): boolean {
  const raw = getNode(node, 'per_character');
  if (raw === undefined || scalarOf(raw) !== true) return false;
  if (path.length === 0) return true;
  sink.error(
    'YARE_BAD_SCHEMA',
    `per_character is allowed on a top-level domain only (not inside ${path.join('.')}).`,
    placeOfNode(src, raw),
  );
  return false;
}

/** Where the engine keeps every character's copy of the per-character domain (state.players.<character>). */
export const PLAYERS_KEY = 'players';

/** The cartridge's per-character domain (`per_character: true`), if it has one. */
export function perCharacterDomain(schema: DomainSchema): DomainSchema | undefined {
  for (const child of schema.children.values())
    if (child.kind === 'domain' && child.perCharacter === true) return child;
  return undefined;
}

/** At most one per-character domain, and no name of the cartridge's own where its copies are kept. */
function checkPerCharacter(children: ReadonlyMap<string, SchemaNode>, sink: DiagnosticSink): void {
  const domains = [...children.values()].filter((c) => c.kind === 'domain' && c.perCharacter === true);
  for (const extra of domains.slice(1))
    sink.error(
      'YARE_BAD_SCHEMA',
      `only one domain may be per_character; '${domains[0]!.name}' is already.`,
      extra.place,
    );
  const clash = children.get(PLAYERS_KEY);
  if (domains.length > 0 && clash !== undefined)
    sink.error(
      'YARE_RESERVED_NAME',
      `'${PLAYERS_KEY}' is where each character's copy of the per_character domain '${domains[0]!.name}' is kept; rename this entry.`,
      clash.place,
    );
}

function isFieldNode(node: YAMLMap): boolean {
  const type = getNode(node, 'type');
  if (type !== undefined && isScalar(type)) return true;
  if (!hasKey(node, 'default')) return false;
  return mapPairs(node).every(({ key }) => FIELD_KEYS.has(key));
}

function readVisibility(
  node: YAMLMap,
  fallback: Visibility,
  src: NodeSource,
  sink: DiagnosticSink,
): Visibility {
  const raw = getNode(node, 'visibility');
  if (raw === undefined) return fallback;
  const v = scalarOf(raw);
  if (isVisibility(v)) return v;
  sink.error(
    'YARE_BAD_SCHEMA',
    `visibility must be ${VISIBILITIES.map((name) => `'${name}'`).join(' or ')}, got ${JSON.stringify(v)}.`,
    placeOfNode(src, raw),
  );
  return fallback;
}

function readNpcVisibility(node: YAMLMap, fallback: boolean): boolean {
  const raw = getNode(node, 'npc_visibility');
  if (raw === undefined) return fallback;
  return scalarOf(raw) === true;
}

function compileField(
  node: YAMLMap,
  name: string,
  path: readonly string[],
  inherited: Inherited,
  src: NodeSource,
  sink: DiagnosticSink,
  place: SourcePlace,
  kind: FieldKind = A_FIELD,
): FieldSchema | undefined {
  const label = path.join('.');
  const type = readFieldType(node, label, kind, src, sink);
  if (type === BROKEN) return brokenField(name, path, undefined, inherited, place);
  if (type === 'collection') return compileCollectionField(node, name, path, inherited, src, sink, place);
  if (kind === A_FIELD) refuseCollectionKeys(node, label, src, sink);
  const defaultNode = getNode(node, 'default');
  let value: Value = defaultNode === undefined ? zeroValue(type) : plainValue(defaultNode);
  const typed = type === undefined && defaultNode !== undefined ? inferType(value) : type;
  const checked = checkDefault(value, typed, label);
  if (typeof checked === 'string') {
    sink.error('YARE_BAD_SCHEMA', checked, placeOfNode(src, defaultNode, place));
    return brokenField(name, path, typed, inherited, place);
  }
  value = checked.value;
  const { min, max } = readBounds(
    node,
    typed,
    label,
    value,
    src,
    sink,
    placeOfNode(src, defaultNode, place),
    place,
  );
  return {
    kind: 'field',
    name,
    path,
    type: typed,
    default: value,
    min,
    max,
    visibility: readVisibility(node, inherited.visibility, src, sink),
    npcVisible: readNpcVisibility(node, inherited.npcVisible),
    description: descriptionOf(node),
    place,
  };
}

/** A `type: collection` field: its bounds checked (a collection has none), then its records' properties. */
function compileCollectionField(
  node: YAMLMap,
  name: string,
  path: readonly string[],
  inherited: Inherited,
  src: NodeSource,
  sink: DiagnosticSink,
  place: SourcePlace,
): FieldSchema | undefined {
  const type = 'collection' as const;
  const label = path.join('.');
  const base = {
    kind: 'field' as const,
    name,
    path,
    type,
    min: undefined,
    max: undefined,
    visibility: readVisibility(node, inherited.visibility, src, sink),
    npcVisible: readNpcVisibility(node, inherited.npcVisible),
    description: descriptionOf(node),
    place,
  };
  readBound(node, 'min', type, label, src, sink);
  readBound(node, 'max', type, label, src, sink);
  return compileCollection(node, base, src, sink, (propNode, propName, propPath, propInherited, propPlace) =>
    compileField(propNode, propName, propPath, propInherited, src, sink, propPlace, A_PROPERTY),
  );
}

/** A field that is no collection written with a collection's keys: each is an error. */
function refuseCollectionKeys(node: YAMLMap, label: string, src: NodeSource, sink: DiagnosticSink): void {
  for (const { key, pair } of mapPairs(node)) {
    if (COLLECTION_KEYS.has(key)) {
      sink.error(
        'YARE_BAD_SCHEMA',
        `Field ${label} has ${key}: but is no collection; ${key}: goes with type: collection.`,
        placeOfNode(src, pair.key),
      );
    }
  }
}

const BROKEN = Symbol('broken type');

/** The declared type (unknown keys reported on the way), undefined without one, BROKEN when it is no type. */
function readFieldType(
  node: YAMLMap,
  label: string,
  kind: FieldKind,
  src: NodeSource,
  sink: DiagnosticSink,
): FieldType | undefined | typeof BROKEN {
  for (const { key, pair } of mapPairs(node)) {
    if (!kind.keys.has(key)) {
      sink.error(
        'YARE_BAD_SCHEMA',
        `Unknown key '${key}' in ${kind.what.toLowerCase()} ${label}. ${kind.what} keys are: ${[...kind.keys].join(', ')}.${didYouMean(key, kind.keys)}`,
        placeOfNode(src, pair.key),
      );
    }
  }
  const typeNode = getNode(node, 'type');
  if (typeNode === undefined) return undefined;
  const raw = scalarOf(typeNode);
  if (typeof raw === 'string' && (kind.types as readonly string[]).includes(raw)) return raw as FieldType;
  // The field is still declared: one error here, not one more at every path that names it.
  sink.error(
    'YARE_BAD_SCHEMA',
    `${kind.what} ${label} has unknown type ${JSON.stringify(raw)}. Types are: ${kind.types.join(', ')}.${didYouMean(String(raw), kind.types)}`,
    placeOfNode(src, typeNode),
  );
  return BROKEN;
}

function descriptionOf(node: YAMLMap): string | undefined {
  const descriptionNode = getNode(node, 'description');
  return descriptionNode === undefined ? undefined : String(scalarOf(descriptionNode));
}

/** `min` and `max`, checked against each other and the default. */
function readBounds(
  node: YAMLMap,
  type: FieldType | undefined,
  label: string,
  value: Value,
  src: NodeSource,
  sink: DiagnosticSink,
  defaultPlace: SourcePlace,
  place: SourcePlace,
): { min: number | undefined; max: number | undefined } {
  const min = readBound(node, 'min', type, label, src, sink);
  const max = readBound(node, 'max', type, label, src, sink);
  if (min !== undefined && max !== undefined && min > max) {
    sink.error('YARE_BAD_SCHEMA', `Field ${label} has min ${min} greater than max ${max}.`, place);
  }
  if (
    typeof value === 'number' &&
    ((min !== undefined && value < min) || (max !== undefined && value > max))
  ) {
    sink.error(
      'YARE_BAD_SCHEMA',
      `Field ${label} default ${value} is outside its bounds [${min ?? '-∞'}, ${max ?? '∞'}].`,
      defaultPlace,
    );
  }
  return { min, max };
}

/**
 * A field whose declaration has an error (reported already): kept with its type's zero value so the
 * checker still knows its path and the cartridge gets one error, not a cascade of "not declared".
 */
function brokenField(
  name: string,
  path: readonly string[],
  type: FieldType | undefined,
  inherited: Inherited,
  place: SourcePlace,
): FieldSchema {
  return {
    kind: 'field',
    name,
    path,
    type,
    default: zeroValue(type),
    min: undefined,
    max: undefined,
    visibility: inherited.visibility,
    npcVisible: inherited.npcVisible,
    description: undefined,
    place,
  };
}

function readBound(
  node: YAMLMap,
  key: 'min' | 'max',
  type: FieldType | undefined,
  label: string,
  src: NodeSource,
  sink: DiagnosticSink,
): number | undefined {
  const raw = getNode(node, key);
  if (raw === undefined) return undefined;
  const v = scalarOf(raw);
  if (typeof v !== 'number' || !Number.isFinite(v)) {
    sink.error('YARE_BAD_SCHEMA', `Field ${label} ${key} must be a number.`, placeOfNode(src, raw));
    return undefined;
  }
  if (type !== 'int' && type !== 'float') {
    sink.error(
      'YARE_BAD_SCHEMA',
      `Field ${label} has ${key} but its type is ${type ?? 'untyped'}; bounds apply to int and float fields only.`,
      placeOfNode(src, raw),
    );
    return undefined;
  }
  return v;
}

/** Value of a typed field declared without a default. */
export function zeroValue(type: FieldType | undefined): Value {
  switch (type) {
    case 'int':
    case 'float':
      return 0;
    case 'bool':
      return false;
    case 'string':
      return '';
    case 'list':
      return [];
    case 'dict':
    case 'collection':
      return newDict();
    case undefined:
      return null;
  }
}

function inferType(v: Value): FieldType | undefined {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'string') return 'string';
  if (Array.isArray(v)) return 'list';
  if (isDict(v)) return 'dict';
  return undefined;
}

function checkDefault(v: Value, type: FieldType | undefined, label: string): { value: Value } | string {
  if (v === null) return { value: null };
  switch (type) {
    case undefined:
      return { value: v };
    case 'int':
      if (typeof v === 'number' && Number.isSafeInteger(v)) return { value: v };
      return `Field ${label} default ${JSON.stringify(v)} is not an int.`;
    case 'float':
      if (typeof v === 'number' && Number.isFinite(v)) return { value: v };
      return `Field ${label} default ${JSON.stringify(v)} is not a float.`;
    case 'bool':
      if (typeof v === 'boolean') return { value: v };
      return `Field ${label} default ${JSON.stringify(v)} is not a bool (true or false).`;
    case 'string':
      if (typeof v === 'string') return { value: v };
      return `Field ${label} default ${JSON.stringify(v)} is not a string; quote it.`;
    case 'list':
      if (!Array.isArray(v)) return `Field ${label} default is not a list.`;
      if (v.length > MAX_CONTAINER_SIZE) {
        return `state_schema.${label}: default list length ${v.length} exceeds MAX_CONTAINER_SIZE (${MAX_CONTAINER_SIZE}).`;
      }
      return { value: v };
    case 'dict':
      if (!isDict(v)) return `Field ${label} default is not a mapping.`;
      if (Object.keys(v).length > MAX_CONTAINER_SIZE) {
        return `state_schema.${label}: default dict size ${Object.keys(v).length} exceeds MAX_CONTAINER_SIZE (${MAX_CONTAINER_SIZE}).`;
      }
      if (dictDepth(v) > MAX_DICT_DEPTH)
        return `state_schema.${label}: default dict depth exceeds MAX_DICT_DEPTH (${MAX_DICT_DEPTH}).`;
      return { value: v };
    case 'collection':
      // Checked with its record shape (schema-records.ts), never here.
      return { value: v };
  }
}

/** Python's `dict_depth` of the original: `{}` and non-dicts are 0, `{a: 1}` is 1, lists are not traversed. */
export function dictDepth(v: unknown): number {
  if (!isDict(v)) return 0;
  let deepest = 0;
  for (const key of Object.keys(v)) {
    const d = dictDepth(v[key]);
    if (d > deepest) deepest = d;
  }
  return Object.keys(v).length === 0 ? 0 : 1 + deepest;
}

/**
 * The initial state: every declared field at its default, domains as nested dicts; with collections, the
 * engine's `_next_ids` past every numbered id of their defaults (so an id a default record had is never
 * made again, even after that record is deleted).
 */
export function buildInitialState(schema: DomainSchema): Dict {
  const out = fieldDefaults(schema);
  const counters = newDict();
  const walk = (node: DomainSchema): void => {
    for (const child of node.children.values()) {
      if (child.kind === 'domain') walk(child);
      else if (child.record !== undefined && isDict(child.default))
        counters[child.path.join('.')] = nextIdNumber(child.default, child.record, null);
    }
  };
  walk(schema);
  if (Object.keys(counters).length > 0 && !Object.hasOwn(out, NEXT_IDS_KEY)) out[NEXT_IDS_KEY] = counters;
  return out;
}

function fieldDefaults(schema: DomainSchema): Dict {
  const out = newDict();
  for (const [name, child] of schema.children) {
    if (isImplicitField(child)) continue;
    out[name] = child.kind === 'field' ? cloneValue(child.default) : fieldDefaults(child);
  }
  return out;
}

/** What a `state.` path (without `state`) names in the schema. */
export type StatePath =
  /** A domain, or a field exactly. */
  | { readonly kind: 'node'; readonly node: SchemaNode }
  /** A whole record of a collection (`objs.cup`); `idAt` is the id's index in the path. */
  | { readonly kind: 'record'; readonly collection: FieldSchema; readonly idAt: number }
  /** A property of a record exactly (`objs.cup.loc`). */
  | {
      readonly kind: 'property';
      readonly property: FieldSchema;
      readonly collection: FieldSchema;
      readonly idAt: number;
    }
  /** Inside a list, dict or untyped field or property (`flags.x`, `objs.cup.tags.0`). */
  | { readonly kind: 'inside'; readonly field: FieldSchema; readonly idAt: number | undefined }
  /** Nothing declared; `collection` when the unknown part is a record's property. */
  | { readonly kind: 'unknown'; readonly collection?: FieldSchema; readonly property?: string };

/**
 * What a path names: a domain, a field, a record of a collection (any id: records come and go), one of
 * its properties, or a place inside a container; or nothing declared.
 */
export function resolveStatePath(schema: DomainSchema, path: readonly string[]): StatePath {
  let node: SchemaNode = schema;
  let idAt: number | undefined;
  for (let i = 0; i < path.length; i++) {
    if (node.kind === 'domain') {
      const next: SchemaNode | undefined = node.children.get(path[i]!);
      if (next === undefined) return { kind: 'unknown' };
      node = next;
      continue;
    }
    const record: RecordSchema | undefined = node.record;
    if (record === undefined) {
      const container = node.type === 'list' || node.type === 'dict' || node.type === undefined;
      return container ? { kind: 'inside', field: node, idAt } : { kind: 'unknown' };
    }
    const collection: FieldSchema = node;
    idAt = i;
    const name = path[i + 1];
    if (name === undefined) return { kind: 'record', collection, idAt };
    const property: FieldSchema | undefined = record.properties.get(name);
    if (property === undefined) return { kind: 'unknown', collection, property: name };
    i++;
    if (i === path.length - 1) return { kind: 'property', property, collection, idAt };
    node = property;
  }
  return { kind: 'node', node };
}

/**
 * The schema node at a path (`['player', 'hp']`), or undefined. Inside a list or dict field, returns that
 * field; at a record of a collection, the collection; at a record's property, the property.
 */
export function schemaAt(schema: DomainSchema, path: readonly string[]): SchemaNode | undefined {
  const at = resolveStatePath(schema, path);
  switch (at.kind) {
    case 'node':
      return at.node;
    case 'record':
      return at.collection;
    case 'property':
      return at.property;
    case 'inside':
      return at.field;
    case 'unknown':
      return undefined;
  }
}

/** Why `state.<path>` is not declared, in words (a record's unknown property named as such), with a hint. */
export function undeclaredPathMessage(schema: DomainSchema, path: readonly string[]): string {
  const at = resolveStatePath(schema, path);
  const text = path.join('.');
  if (at.kind === 'unknown' && at.collection?.record !== undefined && at.property !== undefined) {
    return `state.${text}: ${unknownProperty(at.collection.record, at.property)}`;
  }
  return `state.${text} is not declared in state_schema.${didYouMean(text, allPaths(schema), (c) => `state.${c}`)}`;
}

/** All declared dotted paths, for "did you mean" hints. */
export function allPaths(schema: DomainSchema): string[] {
  const out: string[] = [];
  const walk = (node: SchemaNode): void => {
    if (node.path.length > 0) out.push(node.path.join('.'));
    if (node.kind === 'domain') for (const child of node.children.values()) walk(child);
  };
  walk(schema);
  return out;
}

/**
 * The path of every domain and field the cartridge declares, outermost first (`['player']`,
 * `['player', 'gold']`); the engine fields it does not declare itself are left out.
 */
export function declaredStatePaths(schema: DomainSchema): string[][] {
  const out: string[][] = [];
  const walk = (node: SchemaNode): void => {
    if (node.path.length > 0 && !isImplicitField(node)) out.push([...node.path]);
    if (node.kind === 'domain') for (const child of node.children.values()) walk(child);
  };
  walk(schema);
  return out;
}

/** What a viewer with the given predicate may see: fields filtered, domains kept when anything inside is visible. */
function filterState(state: unknown, node: DomainSchema, visible: (f: FieldSchema) => boolean): Dict {
  const out = newDict();
  if (!isDict(state)) return out;
  for (const [name, child] of node.children) {
    if (!Object.hasOwn(state, name)) continue;
    const value = state[name] as Value;
    if (child.kind === 'field' && child.record !== undefined) {
      const records = visibleRecords(value, child.record, visible);
      if (records !== undefined) out[name] = records;
    } else if (child.kind === 'field') {
      if (visible(child)) out[name] = value;
    } else {
      const inner = filterState(value, child, visible);
      if (Object.keys(inner).length > 0) out[name] = inner;
    }
  }
  return out;
}

/** A collection as a viewer sees it: each record with the properties it may see; undefined when it sees none. */
function visibleRecords(
  value: Value,
  record: RecordSchema,
  visible: (f: FieldSchema) => boolean,
): Dict | undefined {
  const shown = [...record.properties.values()].filter(visible).map((p) => p.name);
  if (shown.length === 0 || !isDict(value)) return undefined;
  const out = newDict();
  for (const id of Object.keys(value)) {
    const one = value[id];
    if (!isDict(one)) continue;
    const seen = newDict();
    for (const name of shown) if (Object.hasOwn(one, name)) seen[name] = one[name] as Value;
    out[id] = seen;
  }
  return out;
}

/** Fields marked `visibility: public` (directly or through their domain): what players and the Narrator see. */
export function publicState(state: unknown, schema: DomainSchema): Dict {
  return filterState(state, schema, (f) => f.visibility === 'public');
}

/** Fields marked `npc_visibility: true` (directly or through their domain): what the NPC brain sees. */
export function npcVisibleState(state: unknown, schema: DomainSchema): Dict {
  return filterState(state, schema, (f) => f.npcVisible);
}

/**
 * What is wrong with a `var:` path, in words that name the fault, or undefined when its form is right
 * (a `state.` or `temp.` root, then non-empty names). Whether a `state.` path is declared is checked apart.
 */
export function targetPathProblem(text: string): string | undefined {
  const segments = text.split('.');
  const root = segments[0]!;
  if (root !== 'state' && root !== 'temp') return `must start with 'state.' or 'temp.'`;
  if (segments.length < 2) return `names no field: write ${root}.FIELD, as in ${root}.player.hp`;
  if (segments[segments.length - 1] === '') {
    return `ends with a '.': the name of the field after '${segments.slice(0, -1).join('.')}.' is missing`;
  }
  const empty = segments.indexOf('');
  if (empty > 0) return `has an empty name after '${segments.slice(0, empty).join('.')}.' ('..')`;
  return undefined;
}
