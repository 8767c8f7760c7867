// Public events as tool descriptors for models: a JSON Schema per event with real enums, defaults and
// descriptions. Internal events, cycle ticks and mini-game resolvers are never offered.

import type { CompiledRules, EventDef, InputSpec, ValueType } from './program.ts';
import { toStateValue } from './python.ts';

export interface JsonSchema {
  readonly [key: string]: unknown;
}

export interface EventTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

const JSON_TYPES: Readonly<Record<ValueType, string>> = {
  int: 'integer',
  float: 'number',
  bool: 'boolean',
  string: 'string',
  list: 'array',
  dict: 'object',
};

/** Whether a model may call this event directly. */
export function isPublicEvent(event: EventDef): boolean {
  return !event.internal && !event.resolver && event.triggerOn === undefined;
}

export function publicEvents(rules: CompiledRules): EventDef[] {
  return [...rules.events.values()].filter(isPublicEvent);
}

export function eventTools(rules: CompiledRules): EventTool[] {
  return publicEvents(rules).map(eventTool);
}

export function eventTool(event: EventDef): EventTool {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const spec of event.inputs.values()) {
    properties[spec.name] = inputSchema(spec);
    if (!spec.hasDefault) required.push(spec.name);
  }
  return {
    name: event.name,
    description: event.description,
    inputSchema: { type: 'object', properties, required, additionalProperties: false },
  };
}

function inputSchema(spec: InputSpec): JsonSchema {
  const schema: Record<string, unknown> = {};
  if (spec.type !== undefined) schema.type = JSON_TYPES[spec.type];
  if (spec.enum) schema.enum = spec.enum.map((v) => toStateValue(v));
  if (spec.hasDefault) schema.default = toStateValue(spec.default);
  schema.description = spec.description ?? spec.name;
  return schema;
}
