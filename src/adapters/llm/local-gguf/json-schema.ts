// The engine's JSON Schemas (draft-07 subset: zod's output and the Director's calls schema) in the subset
// node-llama-cpp turns into a GBNF grammar. What a grammar can enforce is kept: types, properties and
// `required`, `additionalProperties`, enums and consts, `anyOf`/`oneOf`, string lengths, array lengths.
// Small integer ranges become enums; other numeric ranges and patterns cannot be written into its grammar
// and are dropped: the engine's one
// input validator checks every call anyway, so a grammar only ever narrows what the model can write.

import type { JsonSchema, ToolSpec } from '../types.ts';

/** node-llama-cpp's `GbnfJsonSchema`, structurally (the package is not a dependency at build time). */
export type GrammarSchema = { readonly [key: string]: unknown };

/** Nesting a schema may have; deeper is refused (the Director's schemas are a few levels deep). */
export const MAX_SCHEMA_DEPTH = 32;
/**
 * The longest bounded repetition written into a grammar. llama.cpp expands `x{0,n}` into n rules and
 * refuses a grammar whose expansion passes 2,000 (its MAX_REPETITION_THRESHOLD), so a longer
 * `maxLength` (the Director's 8,000-character directives) or `maxItems` is lowered to this: the grammar
 * still caps the string, a little tighter than the engine's own check.
 */
export const MAX_GRAMMAR_REPETITION = 1_500;
/**
 * An integer range this small becomes an enum of its values: a grammar cannot compare numbers, and its
 * integers may carry an exponent (`1e999`, which JSON reads as Infinity).
 */
export const MAX_INTEGER_ENUM = 64;

const SCALARS = ['string', 'number', 'integer', 'boolean', 'null'] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withDescription(out: Record<string, unknown>, schema: Record<string, unknown>): GrammarSchema {
  if (typeof schema.description === 'string') out.description = schema.description;
  return out;
}

type Schema = Record<string, unknown>;

function convert(schema: unknown, path: string, depth: number): GrammarSchema {
  if (depth > MAX_SCHEMA_DEPTH)
    throw new RangeError(`${path}: nested deeper than ${MAX_SCHEMA_DEPTH} (MAX_SCHEMA_DEPTH)`);
  if (schema === true || (isObject(schema) && Object.keys(schema).every((k) => k === 'description'))) {
    // Any value: the grammar offers every scalar (a model cannot nest without bound inside "anything").
    return { type: [...SCALARS] };
  }
  if (!isObject(schema)) throw new TypeError(`${path}: a schema must be an object`);
  if ('const' in schema) return withDescription({ const: schema.const }, schema);
  if (Array.isArray(schema.enum)) {
    return withDescription(
      schema.enum.length === 1 ? { const: schema.enum[0] } : { enum: schema.enum },
      schema,
    );
  }
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) {
    return withDescription(
      { oneOf: union.map((item, index) => convert(item, `${path}.anyOf[${index}]`, depth + 1)) },
      schema,
    );
  }
  const type =
    schema.type ??
    (isObject(schema.properties) ? 'object' : schema.items !== undefined ? 'array' : undefined);
  if (Array.isArray(type)) return convertTypeList(schema, type, path, depth);
  return convertTyped(schema, type, path, depth);
}

function convertTypeList(
  schema: Schema,
  type: readonly unknown[],
  path: string,
  depth: number,
): GrammarSchema {
  const scalars = type.filter((t): t is string => (SCALARS as readonly string[]).includes(t as string));
  if (scalars.length === type.length) return withDescription({ type: scalars }, schema);
  // A mixed union such as ["object", "null"]: one branch per type.
  return withDescription(
    { oneOf: type.map((t, index) => convert({ ...schema, type: t }, `${path}.type[${index}]`, depth + 1)) },
    schema,
  );
}

function convertTyped(schema: Schema, type: unknown, path: string, depth: number): GrammarSchema {
  switch (type) {
    case 'object':
      return convertObject(schema, path, depth);
    case 'array':
      return convertArray(schema, path, depth);
    case 'string':
      return convertString(schema);
    case 'integer':
      return convertInteger(schema);
    case 'number':
    case 'boolean':
    case 'null':
      return withDescription({ type }, schema);
    case undefined:
      return { type: [...SCALARS] };
    default:
      throw new TypeError(`${path}: unknown type ${JSON.stringify(type)}`);
  }
}

function convertObject(schema: Schema, path: string, depth: number): GrammarSchema {
  const properties: Record<string, GrammarSchema> = {};
  if (isObject(schema.properties)) {
    for (const [key, value] of Object.entries(schema.properties)) {
      properties[key] = convert(value, `${path}.${key}`, depth + 1);
    }
  }
  const out: Record<string, unknown> = { type: 'object', properties };
  if (Array.isArray(schema.required)) out.required = schema.required.filter((k) => k in properties);
  const extra = schema.additionalProperties;
  // JSON Schema allows extra keys unless told otherwise; a grammar that allows them lets a model
  // ramble in keys of its own, so they are offered only when the schema describes them.
  out.additionalProperties = isObject(extra) ? convert(extra, `${path}.*`, depth + 1) : false;
  return withDescription(out, schema);
}

function convertArray(schema: Schema, path: string, depth: number): GrammarSchema {
  const out: Record<string, unknown> = { type: 'array' };
  if (schema.items !== undefined && !Array.isArray(schema.items))
    out.items = convert(schema.items, `${path}[]`, depth + 1);
  if (typeof schema.minItems === 'number') out.minItems = Math.min(schema.minItems, MAX_GRAMMAR_REPETITION);
  if (typeof schema.maxItems === 'number') out.maxItems = Math.min(schema.maxItems, MAX_GRAMMAR_REPETITION);
  return withDescription(out, schema);
}

function convertString(schema: Schema): GrammarSchema {
  const out: Record<string, unknown> = { type: 'string' };
  if (typeof schema.minLength === 'number')
    out.minLength = Math.min(schema.minLength, MAX_GRAMMAR_REPETITION);
  if (typeof schema.maxLength === 'number')
    out.maxLength = Math.min(schema.maxLength, MAX_GRAMMAR_REPETITION);
  if (schema.format === 'date-time' || schema.format === 'date' || schema.format === 'time')
    out.format = schema.format;
  return withDescription(out, schema);
}

/** A small finite range becomes an enum of its values; any other integer is just an integer. */
function convertInteger(schema: Schema): GrammarSchema {
  const { minimum, maximum } = schema;
  if (
    typeof minimum === 'number' &&
    typeof maximum === 'number' &&
    Number.isFinite(minimum) &&
    Number.isFinite(maximum) &&
    maximum >= minimum &&
    Math.floor(maximum) - Math.ceil(minimum) < MAX_INTEGER_ENUM
  ) {
    const values: number[] = [];
    for (let n = Math.ceil(minimum); n <= Math.floor(maximum); n++) values.push(n);
    return withDescription(values.length === 1 ? { const: values[0] } : { enum: values }, schema);
  }
  return withDescription({ type: 'integer' }, schema);
}

/** A JSON Schema as node-llama-cpp's grammar schema; throws naming the place of what it cannot take. */
export function grammarSchema(schema: JsonSchema): GrammarSchema {
  return convert(schema, '$', 0);
}

/**
 * The schema of one forced tool call, `{"name": …, "arguments": …}`: one branch per tool, each with its
 * own argument schema, so the model can only name an offered tool and give it well-formed arguments.
 */
export function toolCallSchema(tools: readonly ToolSpec[]): GrammarSchema {
  const branches = tools.map((spec) => ({
    type: 'object',
    properties: { name: { const: spec.name }, arguments: grammarSchema(spec.inputSchema) },
    required: ['name', 'arguments'],
    additionalProperties: false,
  }));
  return branches.length === 1 ? branches[0]! : { oneOf: branches };
}
