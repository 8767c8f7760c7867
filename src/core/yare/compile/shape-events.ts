// Shape pass, events: each event's mapping read into a raw event — its keys, its inputs (names, types,
// enums, defaults: all local to the input, so they are final here), its steps (shape-steps.ts), trigger,
// visibility, description and intents. Nothing an event names is resolved yet.

import type { Diagnostic, SourcePlace } from '../../diagnostics.ts';
import { didYouMean } from '../diagnostics-sink.ts';
import { EVENT_SHAPE, INPUT_SHAPE } from '../grammar.ts';
import type { InputSpec, ValuesFrom, ValueType } from '../program.ts';
import { formatValue } from '../python.ts';
import { RESERVED_NAMES, VALUE_TYPES } from '../schema.ts';
import type { Value } from '../values.ts';
import {
  getNode,
  getPair,
  isAbsent,
  isMap,
  isScalar,
  isSeq,
  mapPairs,
  placeOfNode,
  plainValue,
  scalarOf,
  type YAMLMap,
} from '../yaml-nodes.ts';
import { IDENTIFIER } from './context.ts';
import type { RawEvent, RawInputs } from './raw-ast.ts';
import { shapeSteps } from './shape-steps.ts';
import { type ShapeContext, shapeError } from './shape-values.ts';

const EVENT_KEYS: ReadonlySet<string> = new Set(Object.keys(EVENT_SHAPE.props));
const INPUT_KEYS: ReadonlySet<string> = new Set(Object.keys(INPUT_SHAPE.props));
const TRIGGERS: readonly string[] = EVENT_SHAPE.props.trigger_on.enum;
type Trigger = (typeof EVENT_SHAPE.props.trigger_on.enum)[number];
/** `values_from`: `state.` and a dotted path, `ledger.entities`, or `ledger.` and an entity type. */
const VALUES_FROM = /^(state|ledger)\.([A-Za-z_][A-Za-z0-9_]{0,63}(?:\.[A-Za-z_][A-Za-z0-9_]{0,63}){0,15})$/;

function isTrigger(value: unknown): value is Trigger {
  return typeof value === 'string' && TRIGGERS.includes(value);
}

export function shapeEvent(ctx: ShapeContext, name: string, node: YAMLMap, place: SourcePlace): RawEvent {
  const keyProblems = mapPairs(node)
    .filter(({ key }) => !EVENT_KEYS.has(key))
    .map(({ key, pair }) =>
      shapeError(
        'YARE_BAD_SCHEMA',
        `Unknown key '${key}' in event '${name}'. Event keys are: ${[...EVENT_KEYS].join(', ')}.${didYouMean(key, EVENT_KEYS)}`,
        placeOfNode(ctx.src, pair.key),
      ),
    );
  const stepsNode = getNode(node, 'steps');
  const steps = stepsNode === undefined ? undefined : shapeSteps(ctx, stepsNode, `events.${name}.steps`);
  const trailingProblems: Diagnostic[] = [];
  const triggerNode = getNode(node, 'trigger_on');
  let triggerOn: Trigger | undefined;
  if (triggerNode !== undefined) {
    const trigger = scalarOf(triggerNode);
    if (isTrigger(trigger)) triggerOn = trigger;
    else
      trailingProblems.push(
        shapeError(
          'YARE_BAD_SCHEMA',
          `trigger_on supports only ${TRIGGERS.map((t) => `'${t}'`).join(', ')}, got ${JSON.stringify(scalarOf(triggerNode))}.`,
          placeOfNode(ctx.src, triggerNode),
        ),
      );
  }
  const internalNode = getNode(node, 'internal');
  if (internalNode !== undefined && typeof scalarOf(internalNode) !== 'boolean') {
    trailingProblems.push(
      shapeError('YARE_BAD_SCHEMA', 'internal must be true or false.', placeOfNode(ctx.src, internalNode)),
    );
  }
  const description = scalarOf(getNode(node, 'description'));
  return {
    name,
    place,
    keyProblems,
    inputs: shapeInputs(ctx, name, getNode(node, 'inputs')),
    steps,
    description: typeof description === 'string' ? description : `Trigger the ${name} event.`,
    triggerOn,
    internal: scalarOf(internalNode) === true,
    intents: shapeIntents(ctx, getNode(node, 'intents'), trailingProblems),
    trailingProblems,
  };
}

export function shapeInputs(ctx: ShapeContext, eventName: string, node: unknown): RawInputs {
  const specs = new Map<string, InputSpec>();
  const problems: Diagnostic[] = [];
  const result = (): RawInputs => ({ problems, specs, listForm: isSeq(node) });
  if (isAbsent(node)) return result();
  if (isSeq(node)) {
    for (const item of node.items) {
      const n = scalarOf(item);
      if (typeof n !== 'string' || !IDENTIFIER.test(n)) {
        problems.push(
          shapeError(
            'YARE_BAD_SCHEMA',
            `Input names of '${eventName}' must be identifiers.`,
            placeOfNode(ctx.src, item),
          ),
        );
        continue;
      }
      specs.set(n, untypedInput(n));
    }
    return result();
  }
  if (!isMap(node)) {
    problems.push(
      shapeError(
        'YARE_BAD_SCHEMA',
        `inputs of '${eventName}' must be a list of names or a mapping of typed inputs.`,
        placeOfNode(ctx.src, node),
      ),
    );
    return result();
  }
  for (const { key, pair, value } of mapPairs(node)) {
    const spec = shapeTypedInput(ctx, eventName, key, placeOfNode(ctx.src, pair.key), value, problems);
    if (spec !== undefined) specs.set(key, spec);
  }
  return result();
}

/** One input of the mapping form (`name: { type: int, default: 0 }`); undefined when it is refused. */
function shapeTypedInput(
  ctx: ShapeContext,
  eventName: string,
  key: string,
  place: SourcePlace,
  value: unknown,
  problems: Diagnostic[],
): InputSpec | undefined {
  if (!IDENTIFIER.test(key) || RESERVED_NAMES.has(key)) {
    problems.push(
      shapeError(
        'YARE_BAD_SCHEMA',
        `Input name '${key}' of '${eventName}' must be an identifier and not a reserved name.`,
        place,
      ),
    );
    return undefined;
  }
  if (value === null || (isScalar(value) && value.value === null)) return untypedInput(key);
  if (!isMap(value)) {
    problems.push(
      shapeError(
        'YARE_BAD_SCHEMA',
        `Input '${key}' of '${eventName}' must be a mapping like { type: int, default: 0 }.`,
        placeOfNode(ctx.src, value, place),
      ),
    );
    return undefined;
  }
  for (const { key: k, pair: p } of mapPairs(value)) {
    if (!INPUT_KEYS.has(k)) {
      problems.push(
        shapeError(
          'YARE_BAD_SCHEMA',
          `Unknown key '${k}' in input '${key}' of '${eventName}'. Input keys are: ${[...INPUT_KEYS].join(', ')}.${didYouMean(k, INPUT_KEYS)}`,
          placeOfNode(ctx.src, p.key),
        ),
      );
    }
  }
  const type = shapeInputType(ctx, eventName, key, value, problems);
  const enumValues = shapeInputEnum(ctx, key, value, problems);
  const valuesFrom = shapeValuesFrom(ctx, getNode(value, 'values_from'), key, type, enumValues, problems);
  const defaultPair = getPair(value, 'default');
  const descriptionRaw = scalarOf(getNode(value, 'description'));
  const def = defaultPair ? plainValue(defaultPair.value) : null;
  if (
    defaultPair &&
    enumValues &&
    !enumValues.some((v) => String(v).toLowerCase() === String(def).toLowerCase())
  ) {
    problems.push(
      shapeError(
        'YARE_BAD_SCHEMA',
        `Default ${JSON.stringify(def)} of input '${key}' is not one of its enum values.`,
        placeOfNode(ctx.src, defaultPair.value),
      ),
    );
  }
  return {
    name: key,
    type,
    enum: enumValues,
    enumIndex: enumValues ? new Map(enumValues.map((v) => [formatValue(v).toLowerCase(), v])) : undefined,
    hasDefault: defaultPair !== undefined,
    default: def,
    description: typeof descriptionRaw === 'string' ? descriptionRaw : undefined,
    required: defaultPair === undefined,
    ...(valuesFrom === undefined ? {} : { valuesFrom }),
  };
}

/** An input's `type:`, one of the value types; undefined when absent or unknown (then a problem). */
function shapeInputType(
  ctx: ShapeContext,
  eventName: string,
  key: string,
  value: YAMLMap,
  problems: Diagnostic[],
): ValueType | undefined {
  const typeRaw = scalarOf(getNode(value, 'type'));
  if (typeRaw === undefined) return undefined;
  if (typeof typeRaw === 'string' && (VALUE_TYPES as readonly string[]).includes(typeRaw))
    return typeRaw as ValueType;
  problems.push(
    shapeError(
      'YARE_BAD_SCHEMA',
      `Input '${key}' of '${eventName}' has unknown type ${JSON.stringify(typeRaw)}. Types are: ${VALUE_TYPES.join(', ')}.${didYouMean(String(typeRaw), VALUE_TYPES)}`,
      placeOfNode(ctx.src, getNode(value, 'type')),
    ),
  );
  return undefined;
}

/** An input's `enum:`, a non-empty list; undefined when absent or not one (then a problem). */
function shapeInputEnum(
  ctx: ShapeContext,
  key: string,
  value: YAMLMap,
  problems: Diagnostic[],
): Value[] | undefined {
  const enumNode = getNode(value, 'enum');
  if (enumNode === undefined) return undefined;
  const plain = plainValue(enumNode);
  if (Array.isArray(plain) && plain.length > 0) return plain;
  problems.push(
    shapeError(
      'YARE_BAD_SCHEMA',
      `enum of input '${key}' must be a non-empty list.`,
      placeOfNode(ctx.src, enumNode),
    ),
  );
  return undefined;
}

/** An input's `values_from`: a string input's known values, from a state list or dict, or the ledger. */
function shapeValuesFrom(
  ctx: ShapeContext,
  node: unknown,
  input: string,
  type: ValueType | undefined,
  enumValues: Value[] | undefined,
  problems: Diagnostic[],
): ValuesFrom | undefined {
  if (node === undefined) return undefined;
  const raw = scalarOf(node);
  const place = placeOfNode(ctx.src, node);
  const match = typeof raw === 'string' ? VALUES_FROM.exec(raw) : null;
  if (match === null) {
    problems.push(
      shapeError(
        'YARE_BAD_SCHEMA',
        `values_from of input '${input}' must be a state path (state.world.places), ledger.entities or ledger.<entity type> (ledger.npc), got ${JSON.stringify(raw)}.`,
        place,
      ),
    );
    return undefined;
  }
  if (enumValues !== undefined || (type !== undefined && type !== 'string')) {
    problems.push(
      shapeError(
        'YARE_BAD_SCHEMA',
        `values_from of input '${input}' needs a string input without an enum (its values are the enum).`,
        place,
      ),
    );
    return undefined;
  }
  const [, source, rest] = match as unknown as [string, 'state' | 'ledger', string];
  if (source === 'state') return { kind: 'state', path: `state.${rest}`, place };
  if (rest.includes('.')) {
    problems.push(
      shapeError(
        'YARE_BAD_SCHEMA',
        `values_from of input '${input}': ledger values are ledger.entities or ledger.<entity type>, got ${JSON.stringify(raw)}.`,
        place,
      ),
    );
    return undefined;
  }
  return { kind: 'ledger', entityType: rest === 'entities' ? undefined : rest };
}

function shapeIntents(ctx: ShapeContext, node: unknown, problems: Diagnostic[]): string[] {
  if (node === undefined) return [];
  if (!isSeq(node)) {
    problems.push(
      shapeError(
        'YARE_BAD_SCHEMA',
        'intents must be a list of example player phrases.',
        placeOfNode(ctx.src, node),
      ),
    );
    return [];
  }
  const out: string[] = [];
  for (const item of node.items) {
    const v = scalarOf(item);
    if (typeof v === 'string' && v.trim() !== '') out.push(v);
    else
      problems.push(
        shapeError('YARE_BAD_SCHEMA', 'Each intent must be a non-empty string.', placeOfNode(ctx.src, item)),
      );
  }
  return out;
}

/** An input declared by name only (list form, or `name:` with nothing after it): any value, required. */
function untypedInput(name: string): InputSpec {
  return {
    name,
    type: undefined,
    enum: undefined,
    enumIndex: undefined,
    hasDefault: false,
    default: null,
    description: undefined,
    required: true,
  };
}
