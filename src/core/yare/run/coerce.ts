// Coercion of values written to typed state fields and given as typed inputs: Python's `int()`,
// `float()`, `bool()` (with "true"/"false" strings) and `str()`, then a field's `min`/`max`.

import { YareError } from '../errors.ts';
import type { FieldSchema } from '../program.ts';
import { formatValue, parseFloatText, pyInt, truthy, typeName } from '../python.ts';
import { isDict, PyFloat, type Value } from '../values.ts';

/** Returned by `tryCoerce` when a value cannot become the type (errors are built only then). */
export const CANNOT = Symbol('cannot coerce');

/** Coerces a value written to a typed state field, then clamps numbers to the field's bounds. */
export function coerceToField(value: Value, field: FieldSchema, where: () => string, action: string): Value {
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
      return isDict(value) ? value : CANNOT;
  }
}
