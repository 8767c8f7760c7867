// Arithmetic with Python's semantics: int op int stays int (and must stay exact: past
// Number.MAX_SAFE_INTEGER is an overflow error), `/` is always float, `//` floors and `%` takes the
// sign of the divisor, `+` with a string concatenates `str()` of both sides, and a number mixed with
// None, a bool or a string coerces it the way the original `to_numeric` did.

import { YareError } from '../errors.ts';
import { MAX_CONTAINER_SIZE } from '../limits.ts';
import {
  checkStringLength,
  formatValue,
  isFloatNumber,
  isNumeric,
  numberOf,
  toNumeric,
  typeName,
} from '../python.ts';
import { Duration, PyFloat, type Value } from '../values.ts';
import type { BinaryOp, Span } from './ast.ts';

function overflow(span: Span): YareError {
  return new YareError(
    'YARE_OVERFLOW',
    `integer result is beyond the largest exact integer ${Number.MAX_SAFE_INTEGER}`,
    span,
  );
}

function zeroDivision(op: BinaryOp, isFloat: boolean, span: Span): YareError {
  const what = op === '%' ? 'modulo' : op === '//' ? 'integer division' : 'division';
  return new YareError('YARE_ZERO_DIVISION', `${isFloat ? 'float ' : ''}${what} by zero`, span);
}

function unsupported(op: string, a: Value, b: Value, span: Span): YareError {
  return new YareError(
    'YARE_TYPE',
    `unsupported operand types for ${op}: '${typeName(a)}' and '${typeName(b)}'`,
    span,
  );
}

function checkedInt(r: number, span: Span): number {
  if (!Number.isSafeInteger(r)) throw overflow(span);
  return r + 0; // no -0 among ints
}

function intOp(op: BinaryOp, a: number, b: number, span: Span): Value {
  switch (op) {
    case '+':
      return checkedInt(a + b, span);
    case '-':
      return checkedInt(a - b, span);
    case '*':
      return checkedInt(a * b, span);
    case '/':
      if (b === 0) throw zeroDivision(op, false, span);
      return new PyFloat(a / b);
    case '//': {
      if (b === 0) throw zeroDivision(op, false, span);
      // (a - a % b) / b is the exact truncated quotient; floor is one less when the signs differ.
      const r = a % b;
      const q = (a - r) / b;
      return (r !== 0 && r < 0 !== b < 0 ? q - 1 : q) + 0;
    }
    case '%': {
      if (b === 0) throw zeroDivision(op, false, span);
      const r = a % b;
      return (r !== 0 && r < 0 !== b < 0 ? r + b : r) + 0;
    }
  }
}

function copySignZero(sign: number): number {
  return sign < 0 || Object.is(sign, -0) ? -0 : 0;
}

/** CPython's float_divmod, so `//` and `%` on floats give Python's results to the last bit. */
function floatDivmod(vx: number, wx: number): { div: number; mod: number } {
  let mod = vx % wx;
  let div = (vx - mod) / wx;
  if (mod !== 0) {
    if (wx < 0 !== mod < 0) {
      mod += wx;
      div -= 1;
    }
  } else {
    mod = copySignZero(wx);
  }
  let floordiv: number;
  if (div !== 0) {
    floordiv = Math.floor(div);
    if (div - floordiv > 0.5) floordiv += 1;
  } else {
    floordiv = copySignZero(vx / wx);
  }
  return { div: floordiv, mod };
}

function floatOp(op: BinaryOp, x: number, y: number, span: Span): Value {
  switch (op) {
    case '+':
      return new PyFloat(x + y);
    case '-':
      return new PyFloat(x - y);
    case '*':
      return new PyFloat(x * y);
    case '/':
      if (y === 0) throw zeroDivision(op, true, span);
      return new PyFloat(x / y);
    case '//':
      if (y === 0) throw zeroDivision(op, true, span);
      return new PyFloat(floatDivmod(x, y).div);
    case '%':
      if (y === 0) throw zeroDivision(op, true, span);
      return new PyFloat(floatDivmod(x, y).mod);
  }
}

function isContainer(v: Value): boolean {
  return v !== null && typeof v === 'object' && !(v instanceof PyFloat) && !(v instanceof Duration);
}

function durationOp(op: BinaryOp, a: Value, b: Value, span: Span): Value {
  if (a instanceof Duration && b instanceof Duration && (op === '+' || op === '-')) {
    const micros = op === '+' ? a.micros + b.micros : a.micros - b.micros;
    if (!Number.isSafeInteger(micros)) throw overflow(span);
    return new Duration(micros + 0);
  }
  if (op === '*') {
    const [d, k] = a instanceof Duration ? [a, b] : [b as Duration, a];
    const factor = typeof k === 'boolean' ? (k ? 1 : 0) : k;
    if (typeof factor === 'number' && Number.isSafeInteger(factor)) {
      const micros = d.micros * factor;
      if (!Number.isSafeInteger(micros)) throw overflow(span);
      return new Duration(micros + 0);
    }
  }
  throw unsupported(op, a, b, span);
}

/** `a op b` for the six arithmetic operators. */
export function binaryOp(op: BinaryOp, a: Value, b: Value, span: Span): Value {
  if (typeof a === 'number' && typeof b === 'number' && Number.isSafeInteger(a) && Number.isSafeInteger(b)) {
    return intOp(op, a, b, span);
  }
  if (op === '+') {
    if (typeof a === 'string' || typeof b === 'string') {
      return checkStringLength(formatValue(a) + formatValue(b), span);
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length + b.length > MAX_CONTAINER_SIZE) {
        throw new YareError(
          'YARE_CONTAINER_LIMIT',
          `joined list would have ${a.length + b.length} items; the limit is ${MAX_CONTAINER_SIZE} (MAX_CONTAINER_SIZE)`,
          span,
        );
      }
      return a.concat(b);
    }
  }
  if (a instanceof Duration || b instanceof Duration) return durationOp(op, a, b, span);
  if ((isNumeric(a) || isNumeric(b)) && !isContainer(a) && !isContainer(b)) {
    const x = toNumeric(a, span);
    const y = toNumeric(b, span);
    if (!isFloatNumber(x) && !isFloatNumber(y)) return intOp(op, x as number, y as number, span);
    return floatOp(op, numberOf(x), numberOf(y), span);
  }
  throw unsupported(op, a, b, span);
}

/** Unary `-x` and `+x`. */
export function unaryOp(op: '-' | '+', v: Value, span: Span): Value {
  if (typeof v === 'number') return op === '-' ? 0 - v : v;
  if (typeof v === 'boolean') return op === '-' ? (v ? -1 : 0) : v ? 1 : 0;
  if (v instanceof PyFloat) return op === '-' ? new PyFloat(-v.value) : v;
  if (v instanceof Duration) return op === '-' ? new Duration(0 - v.micros) : v;
  throw new YareError('YARE_TYPE', `bad operand type for unary ${op}: '${typeName(v)}'`, span);
}
