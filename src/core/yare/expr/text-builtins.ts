// The built-in functions on text (docs/yare.md, "Built-in functions"), with Python's meaning: `str`,
// `join`, `split`, `replace`, `upper`, `lower`, `capitalize`, `strip`, `startswith`, `endswith`, `format`,
// and slices of strings and lists (`x[a:b:c]`). Every result is bounded: a string by MAX_STRING_LENGTH
// (a `replace` or `format` that would pass it is refused before it is built), a list by MAX_CONTAINER_SIZE.

import { YareError } from '../errors.ts';
import { MAX_CONTAINER_SIZE, MAX_STRING_LENGTH } from '../limits.ts';
import { checkStringLength, formatValue, isNumeric, pyInt, typeName } from '../python.ts';
import { PyFloat, type Value } from '../values.ts';
import type { Span } from './ast.ts';
import { fixedDigits } from './builtins.ts';
import { iterationItems } from './runtime.ts';

/** Decimals a `format()` spec may ask for (`{:.100f}`); more are refused as a bad spec. */
export const MAX_FORMAT_PRECISION = 100;

function text(fn: string, v: Value, span: Span, what = 'a string'): string {
  if (typeof v === 'string') return v;
  throw new YareError('YARE_TYPE', `${fn}() needs ${what}, not a ${typeName(v)}`, span);
}

/** Python `str(x)`: text as it is, everything else as Python prints it (`None`, `True`, `2.0`, `['a']`). */
export function pyStr(v: Value, span: Span): string {
  return checkStringLength(formatValue(v), span);
}

/**
 * `join(items, sep)`: Python's `sep.join(items)`, the items text only. A third argument joins the last
 * two items (`join(['a', 'b', 'c'], ', ', ' and ')` is `'a, b and c'`), for lists written as English.
 */
export function pyJoin(items: Value, sep: Value, last: Value | undefined, span: Span): string {
  const parts = iterationItems(items, span);
  const separator = text('join', sep, span, 'a string separator');
  const lastSeparator = last === undefined ? separator : text('join', last, span, 'a string separator');
  let out = '';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (typeof part !== 'string') {
      throw new YareError(
        'YARE_TYPE',
        `join(): item ${i} is a ${typeName(part)}, not a string (write [str(x) for x in ...] to join other values)`,
        span,
      );
    }
    if (i > 0) out += i === parts.length - 1 ? lastSeparator : separator;
    out += part;
    if (out.length > MAX_STRING_LENGTH) checkStringLength(out, span);
  }
  return out;
}

/** Python `text.split(sep)`; without `sep` (or with None) splits on runs of whitespace. */
export function pySplit(value: Value, sep: Value | undefined, span: Span): string[] {
  const s = text('split', value, span);
  let parts: string[];
  if (sep === undefined || sep === null) {
    const trimmed = s.trim();
    parts = trimmed === '' ? [] : trimmed.split(/\s+/);
  } else {
    const separator = text('split', sep, span, 'a string separator');
    if (separator === '') throw new YareError('YARE_BAD_VALUE', 'split(): empty separator', span);
    parts = s.split(separator, MAX_CONTAINER_SIZE + 1);
  }
  if (parts.length > MAX_CONTAINER_SIZE) {
    throw new YareError(
      'YARE_CONTAINER_LIMIT',
      `split() would make more than ${MAX_CONTAINER_SIZE} items (MAX_CONTAINER_SIZE)`,
      span,
    );
  }
  return parts;
}

/** Python `text.replace(old, new)`: every occurrence; its length is known, and checked, before it is built. */
export function pyReplace(value: Value, old: Value, replacement: Value, span: Span): string {
  const s = text('replace', value, span);
  const from = text('replace', old, span, 'a string to replace');
  const to = text('replace', replacement, span, 'a replacement string');
  const points = from === '' ? Array.from(s) : undefined;
  const count = points !== undefined ? points.length + 1 : s.split(from).length - 1;
  const length = s.length + count * (to.length - from.length);
  if (length > MAX_STRING_LENGTH) checkStringLength(' '.repeat(MAX_STRING_LENGTH + 1), span);
  // An empty `old` puts `new` before every character and at the end, as in Python.
  return points !== undefined ? to + points.join(to) + (points.length > 0 ? to : '') : s.split(from).join(to);
}

export function pyUpper(v: Value, span: Span): string {
  return checkStringLength(text('upper', v, span).toUpperCase(), span);
}

export function pyLower(v: Value, span: Span): string {
  return checkStringLength(text('lower', v, span).toLowerCase(), span);
}

/** Python `text.capitalize()`: the first character upper case, the rest lower case. */
export function pyCapitalize(v: Value, span: Span): string {
  const [first = '', ...rest] = Array.from(text('capitalize', v, span));
  return checkStringLength(first.toUpperCase() + rest.join('').toLowerCase(), span);
}

/** Python `text.strip()` (whitespace) or `text.strip(chars)` (any of those characters), at both ends. */
export function pyStrip(v: Value, chars: Value | undefined, span: Span): string {
  const s = text('strip', v, span);
  if (chars === undefined || chars === null) return s.trim();
  const set = new Set(Array.from(text('strip', chars, span, 'a string of characters')));
  const points = Array.from(s);
  let a = 0;
  let b = points.length;
  while (a < b && set.has(points[a]!)) a++;
  while (b > a && set.has(points[b - 1]!)) b--;
  return points.slice(a, b).join('');
}

export function pyStartsEnds(fn: 'startswith' | 'endswith', v: Value, affix: Value, span: Span): boolean {
  const s = text(fn, v, span);
  const part = text(fn, affix, span, 'a string to look for');
  return fn === 'startswith' ? s.startsWith(part) : s.endsWith(part);
}

// ------------------------------------------------------------------------------------------ slices

/** A slice bound as Python reads it: None, or an int (a bool counts as one). */
function sliceBound(v: Value | undefined, span: Span): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean' || (typeof v === 'number' && Number.isSafeInteger(v))) return pyInt(v, span)!;
  throw new YareError('YARE_TYPE', `slice indices must be integers or None, not ${typeName(v)}`, span);
}

/** Python's `PySlice_AdjustIndices`: start, stop and step for a sequence of `length` items. */
function sliceIndices(
  length: number,
  startValue: Value | undefined,
  stopValue: Value | undefined,
  stepValue: Value | undefined,
  span: Span,
): { start: number; stop: number; step: number } {
  const step = sliceBound(stepValue, span) ?? 1;
  if (step === 0) throw new YareError('YARE_BAD_VALUE', 'slice step cannot be zero', span);
  const lower = step > 0 ? 0 : -1;
  const upper = step > 0 ? length : length - 1;
  const adjust = (v: Value | undefined, fallback: number): number => {
    const n = sliceBound(v, span);
    if (n === undefined) return fallback;
    if (n < 0) return Math.max(n + length, lower);
    return Math.min(n, upper);
  };
  return {
    start: adjust(startValue, step > 0 ? lower : upper),
    stop: adjust(stopValue, step > 0 ? upper : lower),
    step,
  };
}

/** `x[start:stop:step]` of a list or a string (by code point), as in Python. */
export function pySlice(
  value: Value,
  start: Value | undefined,
  stop: Value | undefined,
  step: Value | undefined,
  span: Span,
): Value {
  if (typeof value !== 'string' && !Array.isArray(value)) {
    throw new YareError('YARE_TYPE', `only a list or a string can be sliced, not a ${typeName(value)}`, span);
  }
  const items: readonly Value[] = typeof value === 'string' ? Array.from(value) : value;
  const at = sliceIndices(items.length, start, stop, step, span);
  const out: Value[] = [];
  for (let i = at.start; at.step > 0 ? i < at.stop : i > at.stop; i += at.step) out.push(items[i]!);
  return typeof value === 'string' ? (out as string[]).join('') : out;
}

// ------------------------------------------------------------------------------------------ format

/** A parsed format spec: `[[fill]align][sign][0][width][,][.precision][type]`, Python's mini-language. */
interface FormatSpec {
  fill: string;
  align: '<' | '>' | '^' | undefined;
  sign: '+' | '-' | undefined;
  zero: boolean;
  width: number;
  grouping: boolean;
  precision: number | undefined;
  type: 's' | 'd' | 'f' | '%' | undefined;
}

function specError(spec: string, why: string, span: Span): YareError {
  return new YareError('YARE_BAD_VALUE', `format(): bad format spec '${spec}': ${why}`, span);
}

/** Reads a spec by hand, left to right (no regular expression on the template's text). */
function parseSpec(spec: string, span: Span): FormatSpec {
  const out: FormatSpec = {
    fill: ' ',
    align: undefined,
    sign: undefined,
    zero: false,
    width: 0,
    grouping: false,
    precision: undefined,
    type: undefined,
  };
  const chars = Array.from(spec);
  let i = 0;
  const isAlign = (c: string | undefined) => c === '<' || c === '>' || c === '^';
  if (chars.length >= 2 && isAlign(chars[1])) {
    out.fill = chars[0]!;
    out.align = chars[1] as FormatSpec['align'];
    i = 2;
  } else if (isAlign(chars[0])) {
    out.align = chars[0] as FormatSpec['align'];
    i = 1;
  }
  if (chars[i] === '+' || chars[i] === '-') out.sign = chars[i++] as FormatSpec['sign'];
  if (chars[i] === '0') {
    out.zero = true;
    i++;
  }
  const digits = (): number | undefined => {
    let n = '';
    while (i < chars.length && chars[i]! >= '0' && chars[i]! <= '9') n += chars[i++];
    if (n === '') return undefined;
    const value = Number(n);
    if (value > MAX_STRING_LENGTH) throw specError(spec, `${value} is past MAX_STRING_LENGTH`, span);
    return value;
  };
  out.width = digits() ?? 0;
  if (chars[i] === ',') {
    out.grouping = true;
    i++;
  }
  if (chars[i] === '.') {
    i++;
    out.precision = digits();
    if (out.precision === undefined) throw specError(spec, "'.' needs a precision after it", span);
    if (out.precision > MAX_FORMAT_PRECISION)
      throw specError(spec, `a precision past ${MAX_FORMAT_PRECISION} (MAX_FORMAT_PRECISION)`, span);
  }
  const type = chars[i];
  if (type === 's' || type === 'd' || type === 'f' || type === '%') {
    out.type = type;
    i++;
  }
  if (i !== chars.length)
    throw specError(spec, 'write [[fill]align][sign][0][width][,][.precision][s|d|f|%]', span);
  if (out.precision !== undefined && out.type !== 'f' && out.type !== '%' && out.type !== 's')
    throw specError(spec, "a precision needs the type f, % or s (as in '.2f')", span);
  return out;
}

function groupThousands(digits: string): string {
  const dot = digits.indexOf('.');
  const whole = dot < 0 ? digits : digits.slice(0, dot);
  let grouped = '';
  for (let i = 0; i < whole.length; i++) {
    if (i > 0 && (whole.length - i) % 3 === 0) grouped += ',';
    grouped += whole[i];
  }
  return dot < 0 ? grouped : grouped + digits.slice(dot);
}

/** The text of one value under a spec, before width and alignment. */
function formatOne(v: Value, spec: FormatSpec, raw: string, span: Span): { body: string; numeric: boolean } {
  if (spec.type === undefined || spec.type === 's') {
    if (spec.type === 's' && typeof v !== 'string')
      throw specError(raw, `type s takes a string, not a ${typeName(v)}`, span);
    const s = formatValue(v);
    return {
      body: spec.precision === undefined ? s : Array.from(s).slice(0, spec.precision).join(''),
      numeric: isNumeric(v),
    };
  }
  if (!isNumeric(v)) throw specError(raw, `type ${spec.type} takes a number, not a ${typeName(v)}`, span);
  const x = typeof v === 'boolean' ? (v ? 1 : 0) : v instanceof PyFloat ? v.value : v;
  let body: string;
  if (spec.type === 'd') {
    if (!Number.isSafeInteger(x) || v instanceof PyFloat)
      throw specError(raw, `type d takes an int, not a ${typeName(v)}`, span);
    body = String(Math.abs(x));
  } else {
    if (!Number.isFinite(x)) body = Number.isNaN(x) ? 'nan' : 'inf';
    else {
      const scaled = spec.type === '%' ? x * 100 : x;
      body = fixedDigits(scaled, Math.min(spec.precision ?? 6, MAX_FORMAT_PRECISION));
    }
    if (spec.type === '%') body += '%';
  }
  if (spec.grouping) body = groupThousands(body);
  const negative = x < 0 || Object.is(x, -0);
  const sign = negative ? '-' : spec.sign === '+' ? '+' : '';
  return { body: sign + body, numeric: true };
}

function pad(body: string, spec: FormatSpec, numeric: boolean): string {
  const length = Array.from(body).length;
  if (spec.width <= length) return body;
  const room = spec.width - length;
  if (spec.zero && spec.align === undefined && numeric) {
    const signed = body[0] === '-' || body[0] === '+';
    return signed ? body[0] + '0'.repeat(room) + body.slice(1) : '0'.repeat(room) + body;
  }
  const fill = spec.zero && spec.align === undefined ? '0' : spec.fill;
  const align = spec.align ?? (numeric ? '>' : '<');
  if (align === '<') return body + fill.repeat(room);
  if (align === '>') return fill.repeat(room) + body;
  const left = Math.floor(room / 2);
  return fill.repeat(left) + body + fill.repeat(room - left);
}

/**
 * Python's `template.format(*args)`: `{}` takes the next argument, `{0}` the one by position, `{:spec}`
 * formats it (`{:.2f}`, `{:>5}`, `{:,d}`); `{{` and `}}` are braces. Named fields are not supported.
 */
export function pyFormat(template: Value, args: readonly Value[], span: Span): string {
  const t = text('format', template, span, 'a template string');
  let out = '';
  let auto = 0;
  let mode: 'auto' | 'manual' | undefined;
  let i = 0;
  while (i < t.length) {
    const c = t[i]!;
    if (c === '}') {
      if (t[i + 1] !== '}')
        throw new YareError('YARE_BAD_VALUE', "format(): single '}' in the template", span);
      out += '}';
      i += 2;
      continue;
    }
    if (c !== '{') {
      out += c;
      i++;
      continue;
    }
    if (t[i + 1] === '{') {
      out += '{';
      i += 2;
      continue;
    }
    const close = t.indexOf('}', i);
    if (close < 0) throw new YareError('YARE_BAD_VALUE', "format(): '{' without its '}'", span);
    const field = t.slice(i + 1, close);
    const colon = field.indexOf(':');
    const name = colon < 0 ? field : field.slice(0, colon);
    const rawSpec = colon < 0 ? '' : field.slice(colon + 1);
    let index: number;
    if (name === '') {
      if (mode === 'manual') throw new YareError('YARE_BAD_VALUE', 'format(): cannot mix {} and {0}', span);
      mode = 'auto';
      index = auto++;
    } else if (/^\d{1,3}$/.test(name)) {
      if (mode === 'auto') throw new YareError('YARE_BAD_VALUE', 'format(): cannot mix {} and {0}', span);
      mode = 'manual';
      index = Number(name);
    } else {
      throw new YareError('YARE_BAD_VALUE', `format(): '{${name}}' is not a field: write {} or {0}`, span);
    }
    if (index >= args.length) {
      throw new YareError(
        'YARE_BAD_VALUE',
        `format(): the template asks for argument ${index}, but only ${args.length} ${args.length === 1 ? 'was' : 'were'} given`,
        span,
      );
    }
    const spec = parseSpec(rawSpec, span);
    const one = formatOne(args[index]!, spec, rawSpec, span);
    out += pad(one.body, spec, one.numeric);
    if (out.length > MAX_STRING_LENGTH) checkStringLength(out, span);
    i = close + 1;
  }
  // The template's own text after the last field counts too.
  return checkStringLength(out, span);
}
