// String inputs whose values the world knows (`values_from` in yare.yaml: a state list or dict, the
// ledger's entities), offered to the Director as an enum of what is there when the turn starts — the
// places, NPCs and items in play — and checked against the same values by the one input rule
// (`checkEventInputs` with `known`, through the tool set's `known`). A model cannot invent a destination
// the state does not hold; with nothing known yet the input stays a bounded free string.

import type { World } from '../../core/ledger/index.ts';
import { type Dict, type EventDef, formatValue, type Value } from '../../core/yare/index.ts';
import type { DirectorTool, DirectorToolSet } from './tools.ts';

/** Known values one input offers at most (the first ones, sorted): a schema stays a size a model can read. */
export const MAX_KNOWN_VALUES = 100;
/** Characters of one known value; longer ones are not offered (a schema's enum is no place for prose). */
export const MAX_KNOWN_VALUE_CHARS = 200;

function atPath(state: Dict, path: string): Value | undefined {
  let at: Value | undefined = state as unknown as Value;
  for (const part of path.split('.').slice(1)) {
    if (at === null || typeof at !== 'object' || Array.isArray(at) || !Object.hasOwn(at, part))
      return undefined;
    at = (at as Record<string, Value>)[part];
  }
  return at;
}

function bounded(values: Iterable<string>): string[] {
  const unique = new Set<string>();
  for (const value of values)
    if (value.trim() !== '' && value.length <= MAX_KNOWN_VALUE_CHARS) unique.add(value);
  return [...unique].sort().slice(0, MAX_KNOWN_VALUES);
}

/** The known values of each `values_from` input of `event`, from `state` and `world`. */
export function knownValues(event: EventDef, state: Dict, world: World): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  for (const spec of event.inputList) {
    const from = spec.valuesFrom;
    if (from === undefined) continue;
    if (from.kind === 'state') {
      const value = atPath(state, from.path);
      if (Array.isArray(value))
        out.set(
          spec.name,
          bounded(value.filter((v) => v !== null && typeof v !== 'object').map((v) => formatValue(v))),
        );
      else if (value !== null && typeof value === 'object') out.set(spec.name, bounded(Object.keys(value)));
      else out.set(spec.name, []);
    } else {
      const type = from.entityType?.toLowerCase();
      const keys: string[] = [];
      for (const key of Object.keys(world.entities)) {
        const entity = world.entities[key]!;
        if (type === undefined || entity.entityType?.toLowerCase() === type) keys.push(entity.key);
      }
      out.set(spec.name, bounded(keys));
    }
  }
  return out;
}

const NO_VALUES = new WeakMap<DirectorToolSet, true>();

/**
 * The tool set with each `values_from` input's known values as its enum (and as `known` for the check);
 * the same set when the cartridge has no such input.
 */
export function withKnownValues(set: DirectorToolSet, state: Dict, world: World): DirectorToolSet {
  if (NO_VALUES.has(set)) return set;
  let changed = false;
  const byName = new Map<string, DirectorTool>();
  for (const [name, tool] of set.byName) {
    if (tool.kind !== 'event' || !tool.event.inputList.some((spec) => spec.valuesFrom !== undefined)) {
      byName.set(name, tool);
      continue;
    }
    changed = true;
    const known = knownValues(tool.event, state, world);
    const schema = tool.spec.inputSchema as { properties?: Record<string, Record<string, unknown>> };
    const properties: Record<string, unknown> = { ...schema.properties };
    for (const [input, values] of known) {
      const property = schema.properties?.[input];
      if (property === undefined || values.length === 0) continue;
      const { maxLength: _free, ...rest } = property;
      properties[input] = { ...rest, enum: [...values] };
    }
    byName.set(name, {
      ...tool,
      spec: { ...tool.spec, inputSchema: { ...tool.spec.inputSchema, properties } },
      known,
    });
  }
  if (!changed) {
    NO_VALUES.set(set, true);
    return set;
  }
  return { ...set, byName, specs: [...byName.values()].map((t) => t.spec) };
}
