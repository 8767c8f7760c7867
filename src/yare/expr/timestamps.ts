// ISO-8601 timestamps for `time_delta(a, b)`, as Python 3.11's `datetime.fromisoformat` reads them
// (dates `YYYY-MM-DD`/`YYYYMMDD`, times `HH[:MM[:SS[.ffffff]]]` or compact, offsets `Z`/`±HH[:MM[:SS]]`).
// Pure integer arithmetic: no Date object, no clock, no local time zone. Numbers are refused on
// purpose — the original read them as local-time POSIX timestamps, which depends on the machine.

import { YareError } from '../errors.ts';
import { pyStrRepr, typeName } from '../python.ts';
import { Duration, type Value } from '../values.ts';
import type { Span } from './ast.ts';

const MICROS_PER_SECOND = 1_000_000;
const MICROS_PER_DAY = 86_400_000_000;

interface Timestamp {
  /** Days since 1970-01-01 of the wall-clock date. */
  readonly day: number;
  /** Microseconds since midnight of the wall-clock time. */
  readonly micros: number;
  /** UTC offset in microseconds, or null for a naive timestamp. */
  readonly offset: number | null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})|^(\d{4})(\d{2})(\d{2})/;
const TIME = /^(\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?$/;
const EXTENDED_TIME = /^(\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?$/;
const OFFSET = /^([+-])(\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?$/;

/** Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function fractionMicros(digits: string | undefined): number {
  // Python keeps six digits and drops the rest.
  return digits === undefined ? 0 : Number(digits.slice(0, 6).padEnd(6, '0'));
}

function parseTime(text: string, compactAllowed: boolean): { micros: number } | undefined {
  const m = (compactAllowed ? TIME : EXTENDED_TIME).exec(text);
  if (!m) return undefined;
  const h = Number(m[1]);
  const min = m[2] === undefined ? 0 : Number(m[2]);
  const s = m[3] === undefined ? 0 : Number(m[3]);
  if (h > 23 || min > 59 || s > 59) return undefined;
  return { micros: ((h * 60 + min) * 60 + s) * MICROS_PER_SECOND + fractionMicros(m[4]) };
}

function parseOffset(text: string): number | undefined {
  if (text === 'Z') return 0;
  const m = OFFSET.exec(text);
  if (!m) return undefined;
  const h = Number(m[2]);
  const min = m[3] === undefined ? 0 : Number(m[3]);
  const s = m[4] === undefined ? 0 : Number(m[4]);
  if (h > 23 || min > 59 || s > 59) return undefined;
  const micros = ((h * 60 + min) * 60 + s) * MICROS_PER_SECOND + fractionMicros(m[5]);
  return m[1] === '-' ? -micros : micros;
}

function parseIso(text: string): Timestamp | undefined {
  const date = DATE.exec(text);
  if (!date) return undefined;
  const year = Number(date[1] ?? date[4]);
  const month = Number(date[2] ?? date[5]);
  const dayOfMonth = Number(date[3] ?? date[6]);
  if (year < 1 || month < 1 || month > 12 || dayOfMonth < 1 || dayOfMonth > daysInMonth(year, month))
    return undefined;
  const day = daysFromCivil(year, month, dayOfMonth);
  const rest = text.slice(date[0].length);
  if (rest === '') return { day, micros: 0, offset: null };
  // Any single character separates date and time (Python 3.11), usually 'T' or a space.
  const afterSeparator = rest.slice(String.fromCodePoint(rest.codePointAt(0)!).length);
  const zoneAt = afterSeparator.search(/[Z+-]/);
  const timeText = zoneAt < 0 ? afterSeparator : afterSeparator.slice(0, zoneAt);
  const time = parseTime(timeText, !timeText.includes(':'));
  if (!time) return undefined;
  if (zoneAt < 0) return { day, micros: time.micros, offset: null };
  const offset = parseOffset(afterSeparator.slice(zoneAt));
  if (offset === undefined) return undefined;
  return { day, micros: time.micros, offset };
}

function toTimestamp(v: Value, span: Span): Timestamp {
  if (typeof v === 'string') {
    const ts = parseIso(v.trim());
    if (ts === undefined) {
      throw new YareError('YARE_BAD_VALUE', `Unsupported timestamp format: ${pyStrRepr(v)}`, span);
    }
    return ts;
  }
  if (typeof v === 'number' || typeof v === 'boolean') {
    throw new YareError(
      'YARE_TYPE',
      'time_delta needs ISO-8601 timestamps such as "2026-04-01T10:00:00"; numbers are not accepted because the rules never read a clock or time zone',
      span,
    );
  }
  throw new YareError('YARE_TYPE', `time_delta unsupported type: ${typeName(v)}`, span);
}

/** `time_delta(a, b)`: the Duration `b - a`. */
export function timeDelta(a: Value, b: Value, spanA: Span, spanB: Span, span: Span): Duration {
  const from = toTimestamp(a, spanA);
  const to = toTimestamp(b, spanB);
  if ((from.offset === null) !== (to.offset === null)) {
    throw new YareError(
      'YARE_TYPE',
      "can't subtract offset-naive and offset-aware datetimes (give both timestamps a zone, or neither)",
      span,
    );
  }
  const days = to.day - from.day;
  const micros = to.micros - (to.offset ?? 0) - (from.micros - (from.offset ?? 0));
  const total = days * MICROS_PER_DAY + micros;
  if (!Number.isSafeInteger(total)) {
    throw new YareError(
      'YARE_OVERFLOW',
      'time difference is too large to measure in microseconds exactly',
      span,
    );
  }
  return new Duration(total + 0);
}
