// The complete whitelist of functions an expression can call, with their signatures. Looked up in a
// Map by the callee name written in the cartridge — never as a property of any object.

import { YareError } from '../errors.ts';
import { MAX_CONTAINER_SIZE } from '../limits.ts';
import {
  checkedDuration,
  compareOrder,
  formatFloat,
  isNumeric,
  parseIntText,
  pyStrRepr,
  typeName,
} from '../python.ts';
import { binaryOp } from './arithmetic.ts';
import { iterationItems } from './runtime.ts';
import { Duration, isDict, PyFloat, type Value } from '../values.ts';
import type { Expr, Span } from './ast.ts';

export type BuiltinName =
  | 'roll'
  | 'abs'
  | 'min'
  | 'max'
  | 'floor'
  | 'ceil'
  | 'round'
  | 'len'
  | 'int'
  | 'sum'
  | 'timedelta'
  | 'time_delta'
  | 'str'
  | 'join'
  | 'split'
  | 'replace'
  | 'upper'
  | 'lower'
  | 'capitalize'
  | 'strip'
  | 'startswith'
  | 'endswith'
  | 'format'
  | 'sorted'
  | 'range'
  | 'keys'
  | 'values'
  | 'choice'
  | 'shuffle'
  | 'within'
  | 'ancestors'
  | 'descendants';

export interface BuiltinSignature {
  readonly name: BuiltinName;
  readonly minArgs: number;
  readonly maxArgs: number;
  /** Keyword arguments accepted (only `timedelta` takes any). */
  readonly keywords: ReadonlySet<string>;
  /** Shown in arity errors. */
  readonly usage: string;
}

const NO_KEYWORDS: ReadonlySet<string> = new Set();

/** Python's positional order of `timedelta(days, seconds, microseconds, milliseconds, minutes, hours, weeks)`. */
export const TIMEDELTA_POSITIONAL = [
  'days',
  'seconds',
  'microseconds',
  'milliseconds',
  'minutes',
  'hours',
  'weeks',
] as const;

/** Microseconds per unit of each `timedelta` keyword. */
const TIMEDELTA_UNITS: ReadonlyMap<string, number> = new Map([
  ['weeks', 604_800_000_000],
  ['days', 86_400_000_000],
  ['hours', 3_600_000_000],
  ['minutes', 60_000_000],
  ['seconds', 1_000_000],
  ['milliseconds', 1_000],
  ['microseconds', 1],
]);

function signature(
  name: BuiltinName,
  minArgs: number,
  maxArgs: number,
  usage: string,
  keywords = NO_KEYWORDS,
) {
  return [name, { name, minArgs, maxArgs, keywords, usage }] as const;
}

export const BUILTINS: ReadonlyMap<string, BuiltinSignature> = new Map<string, BuiltinSignature>([
  signature('roll', 1, 1, "roll(1d20) or roll('3d6')"),
  signature('abs', 1, 1, 'abs(x)'),
  signature('min', 1, MAX_CONTAINER_SIZE, 'min(a, b, ...) or min(list)'),
  signature('max', 1, MAX_CONTAINER_SIZE, 'max(a, b, ...) or max(list)'),
  signature('floor', 1, 1, 'floor(x)'),
  signature('ceil', 1, 1, 'ceil(x)'),
  signature('round', 1, 2, 'round(x) or round(x, ndigits)'),
  signature('len', 1, 1, 'len(x)'),
  signature('int', 1, 1, 'int(x)'),
  signature('sum', 1, 2, 'sum(list) or sum(list, start)'),
  signature(
    'timedelta',
    0,
    TIMEDELTA_POSITIONAL.length,
    'timedelta(days=1, hours=2, ...)',
    new Set(TIMEDELTA_UNITS.keys()),
  ),
  signature('time_delta', 2, 2, 'time_delta(timestamp_a, timestamp_b)'),
  signature('str', 1, 1, 'str(x)'),
  signature('join', 1, 3, "join(items, ', ') or join(items, ', ', ' and ')"),
  signature('split', 1, 2, "split(text) or split(text, ',')"),
  signature('replace', 3, 3, "replace(text, 'old', 'new')"),
  signature('upper', 1, 1, 'upper(text)'),
  signature('lower', 1, 1, 'lower(text)'),
  signature('capitalize', 1, 1, 'capitalize(text)'),
  signature('strip', 1, 2, "strip(text) or strip(text, '.!')"),
  signature('startswith', 2, 2, "startswith(text, 'prefix')"),
  signature('endswith', 2, 2, "endswith(text, 'suffix')"),
  signature('format', 1, MAX_CONTAINER_SIZE, "format('{} has {:.1f} kg', name, weight)"),
  signature(
    'sorted',
    1,
    1,
    "sorted(items), sorted(items, reverse=True) or sorted(items, key='name')",
    new Set(['reverse', 'key']),
  ),
  signature('range', 1, 3, 'range(stop), range(start, stop) or range(start, stop, step)'),
  signature('keys', 1, 1, 'keys(dict)'),
  signature('values', 1, 1, 'values(dict)'),
  signature('choice', 1, 1, 'choice(items)'),
  signature('shuffle', 1, 1, 'shuffle(items)'),
  signature('within', 3, 3, 'within(state.objs, id, container_id)'),
  signature('ancestors', 2, 2, 'ancestors(state.objs, id)'),
  signature('descendants', 2, 2, 'descendants(state.objs, id)'),
]);

/** The builtins that follow a collection's `parent:` property: their first argument names the collection. */
export const CONTAINMENT_FUNCTIONS: ReadonlySet<string> = new Set(['within', 'ancestors', 'descendants']);

/** Refuse an unknown function or a call with the wrong arguments (at load time and at run time). */
export function checkCall(node: Extract<Expr, { kind: 'call' }>): BuiltinSignature {
  const sig = BUILTINS.get(node.callee);
  if (sig === undefined) {
    const known = [...BUILTINS.keys()].join(', ');
    throw new YareError(
      'YARE_UNKNOWN_FUNCTION',
      `unknown function '${node.callee}'; the functions are ${known}`,
      node.span,
    );
  }
  const n = node.args.length;
  if (n < sig.minArgs || n > sig.maxArgs) {
    const expected =
      sig.maxArgs === 0
        ? 'no positional arguments'
        : sig.minArgs === sig.maxArgs
          ? `${sig.minArgs} argument${sig.minArgs === 1 ? '' : 's'}`
          : `${sig.minArgs} to ${sig.maxArgs} arguments`;
    throw new YareError(
      'YARE_ARITY',
      `${sig.name}() takes ${expected}, got ${n}; use ${sig.usage}`,
      node.span,
    );
  }
  for (const k of node.kwargs) {
    if (!sig.keywords.has(k.name)) {
      const accepted =
        sig.keywords.size === 0 ? 'no keyword arguments' : `only ${[...sig.keywords].join(', ')}`;
      throw new YareError('YARE_ARITY', `${sig.name}() takes ${accepted}, not '${k.name}'`, node.span);
    }
    if (
      sig.name === 'timedelta' &&
      TIMEDELTA_POSITIONAL.indexOf(k.name as (typeof TIMEDELTA_POSITIONAL)[number]) < n
    ) {
      throw new YareError('YARE_ARITY', `timedelta() got two values for '${k.name}'`, node.span);
    }
  }
  return sig;
}

function numberArg(fn: string, v: Value, span: Span): number | PyFloat {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof PyFloat) return v;
  throw new YareError('YARE_TYPE', `${fn}() needs a number, not a ${typeName(v)}`, span);
}

function intResult(n: number, fn: string, span: Span): number {
  if (Number.isNaN(n)) throw new YareError('YARE_BAD_VALUE', `${fn}() cannot turn nan into an integer`, span);
  if (!Number.isSafeInteger(n)) {
    throw new YareError(
      'YARE_OVERFLOW',
      `${fn}() result is beyond the largest exact integer ${Number.MAX_SAFE_INTEGER}`,
      span,
    );
  }
  return n + 0;
}

export function pyAbs(v: Value, span: Span): Value {
  if (v instanceof Duration) return v.micros < 0n ? checkedDuration(-v.micros, span) : v;
  const n = numberArg('abs', v, span);
  if (typeof n === 'number' && Number.isSafeInteger(n)) return Math.abs(n);
  return new PyFloat(Math.abs(typeof n === 'number' ? n : n.value));
}

export function pyFloor(v: Value, span: Span): number {
  const n = numberArg('floor', v, span);
  return intResult(Math.floor(typeof n === 'number' ? n : n.value), 'floor', span);
}

export function pyCeil(v: Value, span: Span): number {
  const n = numberArg('ceil', v, span);
  return intResult(Math.ceil(typeof n === 'number' ? n : n.value), 'ceil', span);
}

/** `min`/`max` over 2+ values or over one list; the first extreme item wins, as in Python. */
export function pyMinMax(fn: 'min' | 'max', args: readonly Value[], span: Span): Value {
  let items = args;
  if (args.length === 1) {
    const only = args[0]!;
    if (!Array.isArray(only))
      throw new YareError('YARE_TYPE', `${fn}() of one value needs a list, not a ${typeName(only)}`, span);
    if (only.length === 0)
      throw new YareError('YARE_BAD_VALUE', `${fn}() of an empty list has no answer`, span);
    items = only;
  }
  let best = items[0]!;
  const op = fn === 'max' ? '>' : '<';
  for (let i = 1; i < items.length; i++) if (compareOrder(op, items[i]!, best, span)) best = items[i]!;
  return best;
}

export function pyLen(v: Value, span: Span): number {
  if (typeof v === 'string') {
    let count = 0;
    for (let i = 0; i < v.length; i++) {
      const c = v.charCodeAt(i);
      // A surrogate pair is one code point, as Python counts.
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < v.length) {
        const d = v.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) i++;
      }
      count++;
    }
    return count;
  }
  if (Array.isArray(v)) return v.length;
  if (isDict(v)) return Object.keys(v).length;
  throw new YareError('YARE_TYPE', `len() needs a string, list or dict, not a ${typeName(v)}`, span);
}

/** Round half to even on an integer-plus-fraction split that is exact for doubles. */
function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const diff = x - f;
  if (diff > 0.5) return f + 1;
  if (diff < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

const TEN = 10n;

/** The exact value of a finite double as sign · mantissa · 2^exponent. */
function decompose(x: number): { negative: boolean; mantissa: bigint; exponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const negative = hi >>> 31 === 1;
  const biased = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exponent: number;
  if (biased === 0) {
    exponent = -1074;
  } else {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  return { negative, mantissa, exponent };
}

/**
 * Python's `round(float, ndigits)`: the decimal nearest to the exact binary value, ties to even,
 * read back as the nearest double (so `round(2.675, 2)` is 2.67 and `round(0.125, 2)` is 0.12).
 */
function roundFloatDigits(x: number, ndigits: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  if (ndigits > 400) return x;
  if (ndigits < -400) return x < 0 ? -0 : 0;
  const { negative, mantissa, exponent } = decompose(x);
  let num = mantissa;
  let den = 1n;
  if (exponent >= 0) num <<= BigInt(exponent);
  else den <<= BigInt(-exponent);
  if (ndigits >= 0) num *= TEN ** BigInt(ndigits);
  else den *= TEN ** BigInt(-ndigits);
  let q = num / den;
  const r2 = (num % den) * 2n;
  if (r2 > den || (r2 === den && q % 2n === 1n)) q += 1n;
  const result = Number(`${q}e${-ndigits}`);
  return negative ? -result : result;
}

/**
 * The digits of `|x|` with `digits` decimals, rounded from its exact binary value with ties to even, as
 * Python's `'%.Nf'` writes them (JavaScript's `toFixed` rounds ties up and turns to exponents at 1e21).
 */
export function fixedDigits(x: number, digits: number): string {
  const { mantissa, exponent } = decompose(Math.abs(x));
  let num = mantissa;
  let den = 1n;
  if (exponent >= 0) num <<= BigInt(exponent);
  else den <<= BigInt(-exponent);
  num *= TEN ** BigInt(digits);
  let q = num / den;
  const r2 = (num % den) * 2n;
  if (r2 > den || (r2 === den && q % 2n === 1n)) q += 1n;
  const text = q.toString().padStart(digits + 1, '0');
  return digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** Beyond this many digits to the left, every safe integer rounds to 0 (it has at most 16 digits). */
const ROUND_INT_DIGITS = 17;

function roundInt(n: number, ndigits: number, span: Span): number {
  if (ndigits >= 0) return n;
  if (-ndigits > ROUND_INT_DIGITS) return 0;
  const unit = TEN ** BigInt(-ndigits);
  const big = BigInt(n);
  const negative = big < 0n;
  const abs = negative ? -big : big;
  let q = abs / unit;
  const r2 = (abs % unit) * 2n;
  if (r2 > unit || (r2 === unit && q % 2n === 1n)) q += 1n;
  const result = Number((negative ? -q : q) * unit);
  return intResult(result, 'round', span);
}

/** Python `round(x)` (→ int, ties to even) and `round(x, ndigits)` (int stays int, float stays float). */
export function pyRound(v: Value, ndigitsValue: Value | undefined, span: Span): Value {
  const n = numberArg('round', v, span);
  const isFloat = typeof n !== 'number' || !Number.isSafeInteger(n);
  const x = typeof n === 'number' ? n : n.value;
  if (ndigitsValue === undefined || ndigitsValue === null) {
    if (!isFloat) return x;
    if (x === Infinity || x === -Infinity) {
      throw new YareError('YARE_OVERFLOW', 'round() cannot turn an infinite float into an integer', span);
    }
    return intResult(roundHalfEven(x), 'round', span);
  }
  let ndigits: number;
  if (typeof ndigitsValue === 'boolean') ndigits = ndigitsValue ? 1 : 0;
  else if (typeof ndigitsValue === 'number' && Number.isSafeInteger(ndigitsValue)) ndigits = ndigitsValue;
  else
    throw new YareError(
      'YARE_TYPE',
      `round() needs a whole number of digits, not a ${typeName(ndigitsValue)}`,
      span,
    );
  if (!isFloat) return roundInt(x, ndigits, span);
  return new PyFloat(roundFloatDigits(x, ndigits));
}

/** `timedelta(days=..., hours=..., ...)`; a fractional total rounds to the microsecond, ties to even. */
export function pyTimedelta(
  kwargs: readonly { name: string; value: Value; span: Span }[],
  span: Span,
): Duration {
  let whole = 0n;
  let fraction = 0;
  for (const k of kwargs) {
    const unit = TIMEDELTA_UNITS.get(k.name)!;
    if (!isNumeric(k.value)) {
      throw new YareError(
        'YARE_TYPE',
        `timedelta(${k.name}=...) needs a number, not a ${typeName(k.value)}`,
        k.span,
      );
    }
    const n = k.value;
    if (typeof n === 'number' && Number.isSafeInteger(n)) whole += BigInt(n) * BigInt(unit);
    else if (typeof n === 'boolean') whole += n ? BigInt(unit) : 0n;
    else fraction += (typeof n === 'number' ? n : n.value) * unit;
  }
  const rounded = roundHalfEven(fraction);
  if (!Number.isFinite(rounded)) {
    throw new YareError('YARE_OVERFLOW', 'timedelta of an infinite or nan length', span);
  }
  return checkedDuration(whole + BigInt(rounded), span);
}

/**
 * Python `int(x)`: an int as it is, a bool as 0/1, a float truncated toward zero, integer text (`' 42 '`,
 * `'1_000'`). Text that is no integer (`'1.5'`), nan and infinity are errors, as in Python; so is a
 * whole number beyond ±2^53 (the overflow rule).
 */
export function pyIntCall(v: Value, span: Span): number {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number' || v instanceof PyFloat) {
    const n = typeof v === 'number' ? v : v.value;
    if (Number.isNaN(n)) throw new YareError('YARE_BAD_VALUE', 'cannot convert float nan to integer', span);
    if (!Number.isFinite(n)) {
      throw new YareError('YARE_OVERFLOW', 'cannot convert float infinity to integer', span);
    }
    const whole = Math.trunc(n) + 0;
    if (!Number.isSafeInteger(whole)) {
      throw new YareError(
        'YARE_OVERFLOW',
        `int(${formatFloat(n)}) is beyond the largest exact integer ${Number.MAX_SAFE_INTEGER}`,
        span,
      );
    }
    return whole;
  }
  if (typeof v === 'string') {
    const n = parseIntText(v, span);
    if (n === undefined) {
      throw new YareError('YARE_BAD_VALUE', `invalid literal for int() with base 10: ${pyStrRepr(v)}`, span);
    }
    return n;
  }
  throw new YareError('YARE_TYPE', `int() argument must be a string or a number, not '${typeName(v)}'`, span);
}

function summable(v: Value): 'number' | 'duration' | 'list' | undefined {
  if (typeof v === 'number' || typeof v === 'boolean' || v instanceof PyFloat) return 'number';
  if (v instanceof Duration) return 'duration';
  if (Array.isArray(v)) return 'list';
  return undefined;
}

/**
 * Python `sum(items, start=0)`, left to right as Python 3.11 adds (3.12 compensates float rounding):
 * numbers with numbers, durations with durations (`sum(ds, timedelta())`), lists with lists. Text is
 * refused, as Python refuses it; so is any mix `+` would not take.
 */
export function pySum(items: Value, start: Value, span: Span): Value {
  if (typeof start === 'string') {
    throw new YareError('YARE_TYPE', "sum() can't sum strings (join them with + instead)", span);
  }
  let total: Value = start;
  for (const item of iterationItems(items, span)) {
    const kind = summable(total);
    if (kind === undefined || kind !== summable(item)) {
      throw new YareError(
        'YARE_TYPE',
        `unsupported operand types for + in sum(): '${typeName(total)}' and '${typeName(item)}'`,
        span,
      );
    }
    total = binaryOp('+', total, item, span);
  }
  return total;
}
