// Python value semantics for YARE values: truthiness, `str()`/`repr()`, numeric coercion, equality,
// ordering and membership. The rules language was defined by a Python evaluator, so cartridges rely
// on these exact behaviours (`'npc_' + 1` is 'npc_1', `7 / 7` prints `1.0`, `0 or 'x'` is 'x').
//
// Numbers: an int is a JS number holding a safe integer; a float is a `PyFloat`, or any plain JS number
// that is not a safe integer (state is JSON, so a float read from state arrives as a plain number).

import type { Span } from './expr/ast.ts';
import { YareError } from './errors.ts';
import { MAX_STRING_LENGTH } from './limits.ts';
import { type Dict, Duration, isDict, newDict, PyFloat, type StateValue, type Value } from './values.ts';

/**
 * Nesting depth of a value that printing, comparing or converting will walk. State dicts are bounded
 * by MAX_DICT_DEPTH, but lists are not, and a hostile state file must not overflow the JS stack.
 */
export const MAX_VALUE_NESTING = 100;

const MICROS_PER_SECOND = 1_000_000;
const MICROS_PER_DAY = 86_400_000_000;

// ---------------------------------------------------------------------------------------------
// Types and truthiness

/** Python's name for the type of a value, as used in its error messages. */
export function typeName(v: Value): string {
  if (v === null) return 'NoneType';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isSafeInteger(v) ? 'int' : 'float';
    case 'string':
      return 'str';
    default:
      if (Array.isArray(v)) return 'list';
      if (v instanceof PyFloat) return 'float';
      if (v instanceof Duration) return 'timedelta';
      return 'dict';
  }
}

/** True for int, float and bool (Python's bool is an int). */
export function isNumeric(v: Value): v is number | boolean | PyFloat {
  return typeof v === 'number' || typeof v === 'boolean' || v instanceof PyFloat;
}

/** Python truthiness. */
export function truthy(v: Value): boolean {
  if (v === null) return false;
  switch (typeof v) {
    case 'boolean':
      return v;
    case 'number':
      return v !== 0; // NaN is truthy in Python, and `NaN !== 0` is true
    case 'string':
      return v.length > 0;
    default:
      if (Array.isArray(v)) return v.length > 0;
      if (v instanceof PyFloat) return v.value !== 0;
      if (v instanceof Duration) return v.micros !== 0;
      for (const key in v) if (Object.hasOwn(v, key)) return true;
      return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Numeric coercion

const INT_TEXT = /^[+-]?\d(?:_?\d)*$/;
const FLOAT_TEXT = /^[+-]?(?:(?:\d(?:_?\d)*)?\.\d(?:_?\d)*|\d(?:_?\d)*\.?)(?:[eE][+-]?\d(?:_?\d)*)?$/;
const SPECIAL_FLOAT_TEXT = /^([+-]?)(inf|infinity|nan)$/i;

/**
 * Python `int(s)` then `float(s)` on a string, as the original `to_numeric` did. Returns undefined
 * when the text is neither (the caller decides: `to_numeric` maps that to 0).
 */
export function parseNumericText(text: string, span?: Span): number | PyFloat | undefined {
  const int = parseIntText(text, span);
  if (int !== undefined) return int;
  const s = text.trim();
  if (FLOAT_TEXT.test(s)) return new PyFloat(Number(s.replaceAll('_', '')));
  const special = SPECIAL_FLOAT_TEXT.exec(s);
  if (special) {
    const word = special[2]!.toLowerCase();
    if (word === 'nan') return new PyFloat(Number.NaN);
    return new PyFloat(special[1] === '-' ? -Infinity : Infinity);
  }
  return undefined;
}

/**
 * Python `int(s)` on a string: optional sign, digits with single underscores between them, surrounding
 * whitespace. Undefined when `int()` would raise; `YARE_OVERFLOW` beyond ±2^53.
 */
export function parseIntText(text: string, span?: Span): number | undefined {
  const s = text.trim();
  if (!INT_TEXT.test(s)) return undefined;
  const n = Number(s.replaceAll('_', ''));
  if (!Number.isSafeInteger(n)) {
    throw new YareError(
      'YARE_OVERFLOW',
      `integer text ${pyStrRepr(s)} is beyond ±${Number.MAX_SAFE_INTEGER}`,
      span,
    );
  }
  return n + 0;
}

/**
 * Python `int(v)` for a scalar: an int as it is, a float truncated toward zero, a bool as 0/1, integer
 * text as in `parseIntText`. Undefined when `int()` would raise (None, a list, `'1.5'`, `inf`, `nan`);
 * `YARE_OVERFLOW` when the whole number is beyond ±2^53 (`int(1e16)` is exact in Python, not here).
 */
export function pyInt(v: Value, span?: Span): number | undefined {
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'boolean') return v ? 1 : 0;
  else if (v instanceof PyFloat) n = v.value;
  else if (typeof v === 'string') return parseIntText(v, span);
  else return undefined;
  if (!Number.isFinite(n)) return undefined;
  const whole = Math.trunc(n) + 0;
  if (!Number.isSafeInteger(whole)) {
    throw new YareError(
      'YARE_OVERFLOW',
      `${formatFloat(n)} is beyond ±${Number.MAX_SAFE_INTEGER} and cannot be held exactly as an int`,
      span,
    );
  }
  return whole;
}

/**
 * Python `float(s)` on a string, finite values only: decimal text with optional exponent and single
 * underscores between digits. Undefined for anything else — `'0x10'` (which `Number()` would read as
 * 16), and `'inf'`/`'nan'`, which Python accepts but no JSON state can hold.
 */
export function parseFloatText(text: string): number | undefined {
  const s = text.trim();
  if (!INT_TEXT.test(s) && !FLOAT_TEXT.test(s)) return undefined;
  const n = Number(s.replaceAll('_', ''));
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Python-like `to_numeric` used by arithmetic when one operand is a number: int/float unchanged,
 * bool → 0/1, None → 0, numeric string → its number, other string → 0. Lists, dicts and durations
 * are refused (the original silently turned them into 0, which hid authoring mistakes).
 */
export function toNumeric(v: Value, span?: Span): number | PyFloat {
  if (v === null) return 0;
  switch (typeof v) {
    case 'number':
      return v;
    case 'boolean':
      return v ? 1 : 0;
    case 'string':
      return parseNumericText(v, span) ?? 0;
    default:
      if (v instanceof PyFloat) return v;
      throw new YareError('YARE_TYPE', `a ${typeName(v)} cannot be used as a number`, span);
  }
}

/** True when a coerced numeric value has float semantics. */
export function isFloatNumber(n: number | PyFloat): boolean {
  return typeof n !== 'number' || !Number.isSafeInteger(n);
}

/** The JS number inside a coerced numeric value. */
export function numberOf(n: number | PyFloat): number {
  return typeof n === 'number' ? n : n.value;
}

// ---------------------------------------------------------------------------------------------
// Equality, ordering, membership

function numericOf(v: number | boolean | PyFloat): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v.value;
}

/** Python `==` (deep for lists and dicts; `1 == 1.0 == True`). */
export function valueEquals(a: Value, b: Value): boolean {
  return equalsAt(a, b, 0);
}

function equalsAt(a: Value, b: Value, depth: number): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  if (isNumeric(a)) return isNumeric(b) && numericOf(a) === numericOf(b);
  if (typeof a === 'string' || typeof b === 'string' || isNumeric(b)) return false;
  if (depth >= MAX_VALUE_NESTING) throw tooDeep();
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equalsAt(a[i]!, b[i]!, depth + 1)) return false;
    return true;
  }
  if (a instanceof Duration) return b instanceof Duration && a.micros === b.micros;
  if (Array.isArray(b) || b instanceof Duration) return false;
  const aKeys = ownKeys(a);
  if (aKeys.length !== ownKeys(b).length) return false;
  for (const key of aKeys) {
    if (!Object.hasOwn(b, key) || !equalsAt(a[key] ?? null, b[key] ?? null, depth + 1)) return false;
  }
  return true;
}

function ownKeys(d: Dict): string[] {
  return Object.keys(d);
}

/** Compare strings by code point, as Python does (JS `<` compares UTF-16 code units). */
export function compareStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      // Surrogates (D800–DFFF) encode code points above FFFF, so they must sort after E000–FFFF.
      if (x >= 0xd800 && y >= 0xd800) {
        x += x >= 0xe000 ? -0x800 : 0x2000;
        y += y >= 0xe000 ? -0x800 : 0x2000;
      }
      return x < y ? -1 : 1;
    }
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

export type OrderOp = '<' | '<=' | '>' | '>=';

function applyOrder(op: OrderOp, x: number, y: number): boolean {
  switch (op) {
    case '<':
      return x < y;
    case '<=':
      return x <= y;
    case '>':
      return x > y;
    case '>=':
      return x >= y;
  }
}

/** Python ordering: numbers with numbers, strings with strings, lists lexicographically, durations. */
export function compareOrder(op: OrderOp, a: Value, b: Value, span?: Span): boolean {
  return orderAt(op, a, b, span, 0);
}

function orderAt(op: OrderOp, a: Value, b: Value, span: Span | undefined, depth: number): boolean {
  if (isNumeric(a) && isNumeric(b)) return applyOrder(op, numericOf(a), numericOf(b));
  if (typeof a === 'string' && typeof b === 'string') return applyOrder(op, compareStrings(a, b), 0);
  if (a instanceof Duration && b instanceof Duration) return applyOrder(op, a.micros, b.micros);
  if (Array.isArray(a) && Array.isArray(b)) {
    if (depth >= MAX_VALUE_NESTING) throw tooDeep(span);
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      if (!equalsAt(a[i]!, b[i]!, depth + 1)) return orderAt(op, a[i]!, b[i]!, span, depth + 1);
    }
    return applyOrder(op, a.length, b.length);
  }
  throw new YareError(
    'YARE_TYPE',
    `'${op}' is not supported between a ${typeName(a)} and a ${typeName(b)}`,
    span,
  );
}

/** Python `item in container`: substring, list membership, dict key. */
export function contains(container: Value, item: Value, span?: Span): boolean {
  if (typeof container === 'string') {
    if (typeof item !== 'string') {
      throw new YareError(
        'YARE_TYPE',
        `'in <string>' needs a string on the left, not a ${typeName(item)}`,
        span,
      );
    }
    return container.includes(item);
  }
  if (Array.isArray(container)) {
    for (const x of container) if (equalsAt(x, item, 0)) return true;
    return false;
  }
  if (isDict(container)) {
    if (Array.isArray(item) || isDict(item)) {
      throw new YareError('YARE_TYPE', `a ${typeName(item)} cannot be a dict key`, span);
    }
    // Dict keys are strings: a whole number is looked up as its text, as `d[1]` reads it.
    const key = dictKeyText(item);
    return key !== undefined && Object.hasOwn(container, key);
  }
  throw new YareError(
    'YARE_TYPE',
    `'in' needs a string, list or dict on the right, not a ${typeName(container)}`,
    span,
  );
}

/**
 * The key a value names in a dict: dict keys are strings, and a whole number names the key that is its
 * text (a dict literal `{1: 'x'}` has the key `'1'`). Anything else names no key.
 */
export function dictKeyText(v: Value): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// str() and repr()

/** Python `repr(float)`: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export function formatFloat(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const exponential = x.toExponential(); // shortest digits that round-trip, e.g. "-1.5e-7"
  const e = exponential.indexOf('e');
  const sign = x < 0 ? '-' : '';
  const digits = exponential.slice(sign.length, e).replace('.', '');
  const exp = Number(exponential.slice(e + 1));
  if (exp >= -4 && exp < 16) {
    if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
    if (digits.length <= exp + 1) return `${sign}${digits}${'0'.repeat(exp + 1 - digits.length)}.0`;
    return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  }
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const expText = String(Math.abs(exp)).padStart(2, '0');
  return `${sign}${mantissa}e${exp < 0 ? '-' : '+'}${expText}`;
}

const PLAIN_ASCII = /^[\x20-\x26\x28-\x5b\x5d-\x7e]*$/; // printable ASCII without `'` and `\`
const NOT_PRINTABLE = /[\p{C}\p{Z}]/u;

/** Python `repr(str)`. */
export function pyStrRepr(s: string): string {
  if (PLAIN_ASCII.test(s)) return `'${s}'`;
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    switch (ch) {
      case '\\':
        out += '\\\\';
        continue;
      case '\n':
        out += '\\n';
        continue;
      case '\r':
        out += '\\r';
        continue;
      case '\t':
        out += '\\t';
        continue;
    }
    if (ch === quote) {
      out += `\\${ch}`;
    } else if (ch !== ' ' && NOT_PRINTABLE.test(ch)) {
      const cp = ch.codePointAt(0)!;
      if (cp < 0x100) out += `\\x${cp.toString(16).padStart(2, '0')}`;
      else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
      else out += `\\U${cp.toString(16).padStart(8, '0')}`;
    } else {
      out += ch;
    }
  }
  return out + quote;
}

interface DurationParts {
  days: number;
  seconds: number;
  microseconds: number;
}

/** Python's normalised timedelta fields: 0 <= seconds < 86400, 0 <= microseconds < 1e6. */
export function durationParts(d: Duration): DurationParts {
  const days = Math.floor(d.micros / MICROS_PER_DAY);
  const rest = d.micros - days * MICROS_PER_DAY;
  const seconds = Math.floor(rest / MICROS_PER_SECOND);
  return { days: days + 0, seconds, microseconds: rest - seconds * MICROS_PER_SECOND };
}

/** Python `str(timedelta)`: `1 day, 2:03:04`, `0:00:00.500000`. */
export function formatDuration(d: Duration): string {
  const { days, seconds, microseconds } = durationParts(d);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  let out = days !== 0 ? `${days} day${Math.abs(days) === 1 ? '' : 's'}, ` : '';
  out += `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
  if (microseconds !== 0) out += `.${String(microseconds).padStart(6, '0')}`;
  return out;
}

function durationRepr(d: Duration): string {
  const { days, seconds, microseconds } = durationParts(d);
  const fields: string[] = [];
  if (days !== 0) fields.push(`days=${days}`);
  if (seconds !== 0) fields.push(`seconds=${seconds}`);
  if (microseconds !== 0) fields.push(`microseconds=${microseconds}`);
  return `datetime.timedelta(${fields.length === 0 ? '0' : fields.join(', ')})`;
}

/** Python `str(v)`. */
export function formatValue(v: Value): string {
  if (typeof v === 'string') return v;
  if (v instanceof Duration) return formatDuration(v);
  return reprAt(v, 0);
}

/** Python `repr(v)`. */
export function pyRepr(v: Value): string {
  return reprAt(v, 0);
}

function reprAt(v: Value, depth: number): string {
  if (v === null) return 'None';
  switch (typeof v) {
    case 'boolean':
      return v ? 'True' : 'False';
    case 'number':
      return Number.isSafeInteger(v) ? String(v) : formatFloat(v);
    case 'string':
      return pyStrRepr(v);
  }
  if (v instanceof PyFloat) return formatFloat(v.value);
  if (v instanceof Duration) return durationRepr(v);
  if (depth >= MAX_VALUE_NESTING) throw tooDeep();
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i === 0 ? '' : ', ') + reprAt(v[i]!, depth + 1);
    return out + ']';
  }
  let out = '{';
  let first = true;
  for (const key of Object.keys(v)) {
    out += `${first ? '' : ', '}${pyStrRepr(key)}: ${reprAt(v[key] ?? null, depth + 1)}`;
    first = false;
  }
  return out + '}';
}

/** Refuse a string result longer than MAX_STRING_LENGTH. */
export function checkStringLength(s: string, span?: Span): string {
  if (s.length > MAX_STRING_LENGTH) {
    throw new YareError(
      'YARE_CONTAINER_LIMIT',
      `string of ${s.length} characters is longer than the limit of ${MAX_STRING_LENGTH} (MAX_STRING_LENGTH)`,
      span,
    );
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Conversion to state (plain JSON)

/** ISO-8601 duration, e.g. `P1DT2H3M4S`, `-PT0.5S`, `PT0S`. */
export function durationToIso(d: Duration): string {
  const sign = d.micros < 0 ? '-' : '';
  let rest = Math.abs(d.micros);
  const days = Math.floor(rest / MICROS_PER_DAY);
  rest -= days * MICROS_PER_DAY;
  const hours = Math.floor(rest / 3_600_000_000);
  rest -= hours * 3_600_000_000;
  const minutes = Math.floor(rest / 60_000_000);
  rest -= minutes * 60_000_000;
  const seconds = Math.floor(rest / MICROS_PER_SECOND);
  const micros = rest - seconds * MICROS_PER_SECOND;
  let time = '';
  if (hours !== 0) time += `${hours}H`;
  if (minutes !== 0) time += `${minutes}M`;
  if (seconds !== 0 || micros !== 0) {
    const fraction = micros !== 0 ? `.${String(micros).padStart(6, '0').replace(/0+$/, '')}` : '';
    time += `${seconds}${fraction}S`;
  }
  if (days === 0 && time === '') return 'PT0S';
  return `${sign}P${days !== 0 ? `${days}D` : ''}${time !== '' ? `T${time}` : ''}`;
}

/** Plain JSON for state: floats become numbers, durations ISO-8601 strings, dicts null-prototype objects. */
export function toStateValue(v: Value): StateValue {
  return stateAt(v, 0);
}

function stateAt(v: Value, depth: number): StateValue {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'number') return finiteForState(v);
  if (v instanceof PyFloat) return finiteForState(v.value);
  if (v instanceof Duration) return durationToIso(v);
  if (depth >= MAX_VALUE_NESTING) throw tooDeep();
  if (Array.isArray(v)) return v.map((x) => stateAt(x, depth + 1));
  const out = newDict() as { [key: string]: StateValue };
  for (const key of Object.keys(v)) out[key] = stateAt(v[key] ?? null, depth + 1);
  return out;
}

function finiteForState(n: number): number {
  if (!Number.isFinite(n)) {
    throw new YareError(
      'YARE_BAD_VALUE',
      `${formatFloat(n)} cannot be stored in state (JSON has no such number)`,
    );
  }
  return n;
}

function tooDeep(span?: Span): YareError {
  return new YareError(
    'YARE_BAD_VALUE',
    `value is nested deeper than ${MAX_VALUE_NESTING} (MAX_VALUE_NESTING)`,
    span,
  );
}
