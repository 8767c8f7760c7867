// A small JSON-Schema checker for tool arguments sent by a model, covering what the engine's tool schemas
// use: `type`, `enum`, `properties`, `required`, `additionalProperties: false`, `items`, `maxItems`,
// `maxLength`, `minimum`, `maximum`. Model output is hostile input: sizes and depth are bounded before
// anything is walked, and the checked value is rebuilt with null-prototype objects, so a `__proto__` or
// `constructor` key is only ever an unknown property.

import type { JsonSchema } from '../../adapters/llm/index.ts';
import type { Checked } from '../../core/result.ts';
import { MAX_TOOL_ARGS_DEPTH, MAX_TOOL_ARGS_ITEMS, MAX_TOOL_STRING_CHARS } from './limits.ts';
import { isRecord } from '../../core/is-record.ts';

export type ArgsCheck = Checked<unknown>;

type Schema = { readonly [key: string]: unknown };

function where(path: readonly string[]): string {
  return path.length === 0 ? 'arguments' : `argument '${path.join('.')}'`;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isRecord(value);
    case 'null':
      return value === null;
    default:
      return false;
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === 'number' && typeof b === 'number' && a === b);
}

class Failure {
  constructor(readonly message: string) {}
}

/** Checks `value` against `schema`; returns a null-prototype copy, or a message naming the argument. */
export function checkArgs(schema: JsonSchema, value: unknown): ArgsCheck {
  try {
    return { ok: true, value: check(schema, value, [], 1) };
  } catch (error) {
    if (error instanceof Failure) return { ok: false, message: error.message };
    throw error;
  }
}

function check(schema: Schema, value: unknown, path: string[], depth: number): unknown {
  if (depth > MAX_TOOL_ARGS_DEPTH) {
    throw new Failure(
      `${where(path)} is nested deeper than ${MAX_TOOL_ARGS_DEPTH} levels (MAX_TOOL_ARGS_DEPTH)`,
    );
  }
  const type = schema.type;
  if (typeof type === 'string' && !matchesType(value, type)) {
    throw new Failure(
      `${where(path)} must be ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}, got ${typeOf(value)}`,
    );
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => sameValue(option, value))) {
    const options = schema.enum.map((o) => JSON.stringify(o)).join(', ');
    throw new Failure(`${where(path)} must be one of ${options}, got ${JSON.stringify(truncate(value))}`);
  }
  if (typeof value === 'string') {
    const max = Math.min(
      typeof schema.maxLength === 'number' ? schema.maxLength : Infinity,
      MAX_TOOL_STRING_CHARS,
    );
    if (value.length > max) {
      const limit = max === MAX_TOOL_STRING_CHARS ? ' (MAX_TOOL_STRING_CHARS)' : '';
      throw new Failure(`${where(path)} is ${value.length} characters; the limit is ${max}${limit}`);
    }
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) {
      throw new Failure(`${where(path)} must have at least ${schema.minLength} characters`);
    }
    return value;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Failure(`${where(path)} must be a finite number`);
    if (typeof schema.minimum === 'number' && value < schema.minimum) {
      throw new Failure(`${where(path)} must be at least ${schema.minimum}, got ${value}`);
    }
    if (typeof schema.maximum === 'number' && value > schema.maximum) {
      throw new Failure(`${where(path)} must be at most ${schema.maximum}, got ${value}`);
    }
    return value;
  }
  if (value === null || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return checkArray(schema, value, path, depth);
  if (typeof value === 'object') return checkObject(schema, value as Record<string, unknown>, path, depth);
  throw new Failure(`${where(path)} is not JSON data (${typeof value})`);
}

function checkArray(schema: Schema, value: readonly unknown[], path: string[], depth: number): unknown[] {
  const max = Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : Infinity, MAX_TOOL_ARGS_ITEMS);
  if (value.length > max) {
    const limit = max === MAX_TOOL_ARGS_ITEMS ? ' (MAX_TOOL_ARGS_ITEMS)' : '';
    throw new Failure(`${where(path)} has ${value.length} items; the limit is ${max}${limit}`);
  }
  if (typeof schema.minItems === 'number' && value.length < schema.minItems) {
    throw new Failure(
      `${where(path)} must have at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`,
    );
  }
  const items = isSchema(schema.items) ? schema.items : {};
  return value.map((item, i) => check(items, item, [...path, String(i)], depth + 1));
}

function checkObject(schema: Schema, value: Record<string, unknown>, path: string[], depth: number): object {
  const keys = Object.keys(value);
  if (keys.length > MAX_TOOL_ARGS_ITEMS) {
    throw new Failure(
      `${where(path)} has ${keys.length} keys; the limit is ${MAX_TOOL_ARGS_ITEMS} (MAX_TOOL_ARGS_ITEMS)`,
    );
  }
  const properties = isSchema(schema.properties) ? schema.properties : undefined;
  const known = (key: string): Schema | undefined =>
    properties !== undefined && Object.hasOwn(properties, key) && isSchema(properties[key])
      ? (properties[key] as Schema)
      : undefined;
  const out: Record<string, unknown> = Object.create(null);
  for (const key of keys) {
    const propertySchema = known(key);
    if (propertySchema === undefined && schema.additionalProperties === false) {
      const expected = properties ? Object.keys(properties) : [];
      const list = expected.length > 0 ? `; expected: ${expected.join(', ')}` : '; it takes none';
      throw new Failure(`${where(path)}: unknown property ${JSON.stringify(truncate(key))}${list}`);
    }
    out[key] = check(propertySchema ?? {}, value[key], [...path, key], depth + 1);
  }
  if (Array.isArray(schema.required)) {
    for (const name of schema.required) {
      if (typeof name === 'string' && !Object.hasOwn(value, name)) {
        throw new Failure(`${where(path)}: missing required property '${name}'`);
      }
    }
  }
  return out;
}

function isSchema(value: unknown): value is Schema {
  return isRecord(value);
}

function truncate(value: unknown): unknown {
  return typeof value === 'string' && value.length > 60 ? `${value.slice(0, 60)}…` : value;
}

/**
 * What a model's raw argument text is, found in one pass before anything parses it: `too-deep`
 * past MAX_TOOL_ARGS_DEPTH, `duplicate-key` when an object names a key twice (JSON.parse would keep the
 * last one silently), `malformed` when it is not one JSON value. Linear, iterative, no recursion.
 */
export type RawArgsScan =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly reason: 'too-deep' | 'duplicate-key' | 'malformed';
      readonly message: string;
    };

/** One open object or array; an object frame keeps the keys seen and whether a key comes next. */
interface ScanFrame {
  readonly keys: Set<string> | undefined;
  expectKey: boolean;
}

type ScanRefusal = Extract<RawArgsScan, { ok: false }>;

export function scanRawArgs(raw: string): RawArgsScan {
  const stack: ScanFrame[] = [];
  let i = 0;
  while (i < raw.length) {
    const c = raw.charCodeAt(i);
    if (c === 0x22) {
      let end = i + 1;
      while (end < raw.length && raw.charCodeAt(end) !== 0x22) end += raw.charCodeAt(end) === 0x5c ? 2 : 1;
      if (end >= raw.length) return { ok: false, reason: 'malformed', message: 'an unterminated string' };
      const refused = scanKey(raw, i, end, stack.at(-1));
      if (refused !== undefined) return refused;
      i = end + 1;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      if (stack.length >= MAX_TOOL_ARGS_DEPTH) {
        return {
          ok: false,
          reason: 'too-deep',
          message: `nested deeper than ${MAX_TOOL_ARGS_DEPTH} levels (MAX_TOOL_ARGS_DEPTH)`,
        };
      }
      stack.push(c === 0x7b ? { keys: new Set(), expectKey: true } : { keys: undefined, expectKey: false });
    } else if (c === 0x7d || c === 0x5d) {
      if (stack.pop() === undefined)
        return { ok: false, reason: 'malformed', message: `an unmatched bracket at offset ${i}` };
    } else if (c === 0x2c) {
      const top = stack.at(-1);
      if (top?.keys !== undefined) top.expectKey = true;
    }
    i += 1;
  }
  if (stack.length > 0) return { ok: false, reason: 'malformed', message: 'unclosed brackets' };
  return { ok: true };
}

/** The string at `start`..`end` (its quotes): when it is an object's key, recorded; a repeated key is refused. */
function scanKey(
  raw: string,
  start: number,
  end: number,
  top: ScanFrame | undefined,
): ScanRefusal | undefined {
  if (top?.keys === undefined || !top.expectKey) return undefined;
  let key: string;
  try {
    key = JSON.parse(raw.slice(start, end + 1)) as string;
  } catch {
    return { ok: false, reason: 'malformed', message: `a bad string at offset ${start}` };
  }
  if (top.keys.has(key)) {
    return {
      ok: false,
      reason: 'duplicate-key',
      message: `the key ${JSON.stringify(key.slice(0, 60))} appears twice in one object`,
    };
  }
  top.keys.add(key);
  top.expectKey = false;
  return undefined;
}

/** Parses a model's raw arguments after `scanRawArgs` passed them; empty text is `{}`. */
export function parseRawArgs(raw: string): ArgsCheck {
  if (raw.trim() === '') return { ok: true, value: {} };
  const scan = scanRawArgs(raw);
  if (!scan.ok) {
    const what = scan.reason === 'malformed' ? 'are not valid JSON' : 'are refused';
    return { ok: false, message: `arguments ${what}: ${scan.message}` };
  }
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch (error) {
    return { ok: false, message: `arguments are not valid JSON (${(error as Error).message.slice(0, 120)})` };
  }
}
