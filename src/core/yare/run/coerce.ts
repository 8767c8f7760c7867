// Coercion of values written to typed state fields and given as typed inputs: Python's `int()`,
// `float()`, `bool()` (with "true"/"false" strings) and `str()`, then a field's `min`/`max`. A record of a
// collection written whole (a set, a dict_set on the collection, a create step, the collection set whole)
// is made a record of its collection: each property coerced, the missing ones defaulted, an unknown one
// refused naming the collection and the record, `id` kept equal to its key.

import { YareError } from '../errors.ts';
import type { FieldSchema } from '../program.ts';
import { formatValue, parseFloatText, pyInt, truthy, typeName } from '../python.ts';
import { type Dict, isDict, newDict, PyFloat, type Value } from '../values.ts';
import type { RecordSchema } from '../program.ts';
import { defaultRecord, RECORD_ID, unknownProperty } from '../schema-records.ts';

/** Returned by `tryCoerce` when a value cannot become the type (errors are built only then). */
export const CANNOT = Symbol('cannot coerce');

/** Coerces a value written to a typed state field, then clamps numbers to the field's bounds. */
export function coerceToField(value: Value, field: FieldSchema, where: () => string, action: string): Value {
  if (field.record !== undefined) return coerceCollection(value, field.record, action);
  let coerced: Value | typeof CANNOT;
  try {
    coerced = tryCoerce(value, field.type);
  } catch (error) {
    if (error instanceof YareError && error.code === 'YARE_OVERFLOW')
      throw new YareError('YARE_OVERFLOW', `${action}: ${error.message} (${where()} is an int field).`);
    throw error;
  }
  if (coerced === CANNOT) {
    throw new YareError(
      'YARE_TYPE',
      `${action}: cannot coerce ${formatValue(value)} (${typeName(value)}) to ${field.type} for ${where()}.`,
    );
  }
  if (field.type !== 'int' && field.type !== 'float') return coerced;
  let n = coerced instanceof PyFloat ? coerced.value : (coerced as number);
  if (field.min !== undefined && n < field.min) n = field.min;
  if (field.max !== undefined && n > field.max) n = field.max;
  if (field.type === 'int') return Math.trunc(n);
  return new PyFloat(n);
}

export function tryCoerce(value: Value, type: FieldSchema['type']): Value | typeof CANNOT {
  switch (type) {
    case undefined:
      return value;
    case 'int': {
      // Python `int()`: floats truncate, `'1_000'` is 1000, `'3.5'` is refused; beyond ±2^53 is
      // YARE_OVERFLOW rather than a float that silently loses precision.
      if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
      return pyInt(value) ?? CANNOT;
    }
    case 'float': {
      // Python `float()`, finite values only: `'1_000'` is 1000.0, `'0x10'` is refused.
      if (typeof value === 'boolean') return new PyFloat(value ? 1 : 0);
      if (typeof value === 'number') return new PyFloat(value);
      if (value instanceof PyFloat) return value;
      if (typeof value === 'string') {
        const n = parseFloatText(value);
        return n === undefined ? CANNOT : new PyFloat(n);
      }
      return CANNOT;
    }
    case 'bool': {
      if (typeof value === 'boolean') return value;
      if (typeof value === 'string') {
        const s = value.trim().toLowerCase();
        if (s === 'true') return true;
        if (s === 'false') return false;
        return CANNOT;
      }
      if (typeof value === 'number' || value instanceof PyFloat || value === null) return truthy(value);
      return CANNOT;
    }
    case 'string':
      return typeof value === 'string' ? value : formatValue(value);
    case 'list':
      return Array.isArray(value) ? value : CANNOT;
    case 'dict':
    case 'collection':
      return isDict(value) ? value : CANNOT;
  }
}

/** `value` as a record of `record` with the key `id`: each property coerced, the missing ones defaulted. */
export function coerceRecord(value: Value, record: RecordSchema, id: string, action: string): Dict {
  const where = `state.${record.collection}.${id}`;
  if (!isDict(value)) {
    throw new YareError(
      'YARE_TYPE',
      `${action}: a record of state.${record.collection} is a mapping of its properties; ${where} was given ${typeName(value)}: ${formatValue(value)}.`,
    );
  }
  const out = defaultRecord(record, id);
  for (const name of Object.keys(value)) {
    const problem = unknownProperty(record, name);
    if (problem !== undefined) throw new YareError('YARE_BAD_PATH', `${action}: record '${id}': ${problem}`);
    const given = value[name] as Value;
    if (name === RECORD_ID) {
      if (given !== id) {
        throw new YareError(
          'YARE_BAD_VALUE',
          `${action}: ${where} is given the id ${formatValue(given)}; a record's id is its key ('${id}').`,
        );
      }
      continue;
    }
    const property = record.properties.get(name)!;
    out[name] = coerceToField(given, property, () => `${where}.${name}`, action);
  }
  return out;
}

/** A whole collection written: each entry made a record with its key. */
export function coerceCollection(value: Value, record: RecordSchema, action: string): Dict {
  if (!isDict(value)) {
    throw new YareError(
      'YARE_TYPE',
      `${action}: state.${record.collection} is a collection: a mapping of id to record, not ${typeName(value)}.`,
    );
  }
  const out = newDict();
  for (const id of Object.keys(value)) out[id] = coerceRecord(value[id] as Value, record, id, action);
  return out;
}
