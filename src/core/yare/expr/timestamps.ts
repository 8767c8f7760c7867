// ISO-8601 timestamps for `time_delta(a, b)`, as Python 3.11's `datetime.fromisoformat` reads them
// (dates `YYYY-MM-DD`/`YYYYMMDD` and week dates `YYYY-Www-D`, times `HH[:MM[:SS]][.ffffff]` or compact,
// offsets `Z`/`±HH[:MM[:SS]]`).
// Pure integer arithmetic: no Date object, no clock, no local time zone. Numbers are refused on
// purpose — the original read them as local-time POSIX timestamps, which depends on the machine.

import { daysFromCivil, daysInMonth, isLeapYear, weekdayOf } from '../../time/index.ts';
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

// Calendar dates: `YYYY-MM-DD`/`YYYYMMDD`, and ISO week dates `YYYY-Www[-D]`/`YYYYWww[D]` (day 1 when
// omitted). Ordinal dates (`YYYY-DDD`) are refused, as Python 3.11 refuses them.
const CALENDAR_DATE = /^(\d{4})(?:-(\d{2})-(\d{2})|(\d{2})(\d{2}))/;
// In `2026-W14-10:00` the `-` after the week is the date/time separator (two digits follow), as in Python.
const WEEK_DATE = /^(\d{4})(?:-W(\d{2})(?:-(\d)(?!\d))?|W(\d{2})(\d)?)/;
// `HH[:MM[:SS]]` or `HH[MM[SS]]`, each optionally followed by a fraction. Python's C parser reads a
// fraction after HH or HH:MM too, as a fraction of a second (`10:30.5` is 10:30:00.5); so do we.
const TIME = /^(\d{2})(?::(\d{2})(?::(\d{2}))?|(\d{2})(\d{2})?)?(?:[.,](\d+))?$/;

/** Python's `iso_to_ymd`, as a day count: week 53 only in years that have one, days 1–7. */
function isoWeekDay(year: number, week: number, weekday: number): number | undefined {
  const jan1 = daysFromCivil(year, 1, 1);
  const jan1Weekday = weekdayOf(jan1);
  if (week < 1 || week > 53) return undefined;
  if (week === 53 && !(jan1Weekday === 3 || (jan1Weekday === 2 && isLeapYear(year)))) return undefined;
  if (weekday < 1 || weekday > 7) return undefined;
  const week1Monday = jan1 - jan1Weekday + (jan1Weekday > 3 ? 7 : 0);
  return week1Monday + (week - 1) * 7 + weekday - 1;
}

/** Python's datetime range: years 1 to 9999. */
const FIRST_DAY = daysFromCivil(1, 1, 1);
const LAST_DAY = daysFromCivil(9999, 12, 31);

function parseDate(text: string): { day: number; length: number } | undefined {
  const week = WEEK_DATE.exec(text);
  if (week) {
    const day = isoWeekDay(Number(week[1]), Number(week[2] ?? week[4]), Number(week[3] ?? week[5] ?? 1));
    if (day === undefined || day < FIRST_DAY || day > LAST_DAY) return undefined;
    return { day, length: week[0].length };
  }
  const date = CALENDAR_DATE.exec(text);
  if (!date) return undefined;
  const year = Number(date[1]);
  const month = Number(date[2] ?? date[4]);
  const dayOfMonth = Number(date[3] ?? date[5]);
  if (year < 1 || month < 1 || month > 12 || dayOfMonth < 1 || dayOfMonth > daysInMonth(year, month))
    return undefined;
  return { day: daysFromCivil(year, month, dayOfMonth), length: date[0].length };
}

function fractionMicros(digits: string | undefined): number {
  // Python keeps six digits and drops the rest.
  return digits === undefined ? 0 : Number(digits.slice(0, 6).padEnd(6, '0'));
}

/** `HH[:MM[:SS]][.ffffff]` (or compact) as microseconds since midnight; also an offset's magnitude. */
function parseTime(text: string): number | undefined {
  const m = TIME.exec(text);
  if (!m) return undefined;
  const h = Number(m[1]);
  const min = Number(m[2] ?? m[4] ?? 0);
  const s = Number(m[3] ?? m[5] ?? 0);
  if (h > 23 || min > 59 || s > 59) return undefined;
  return ((h * 60 + min) * 60 + s) * MICROS_PER_SECOND + fractionMicros(m[6]);
}

function parseOffset(text: string): number | undefined {
  if (text === 'Z') return 0;
  const sign = text[0];
  if (sign !== '+' && sign !== '-') return undefined;
  const micros = parseTime(text.slice(1));
  if (micros === undefined) return undefined;
  return sign === '-' ? -micros : micros;
}

function parseIso(text: string): Timestamp | undefined {
  const date = parseDate(text);
  if (!date) return undefined;
  const { day } = date;
  const rest = text.slice(date.length);
  if (rest === '') return { day, micros: 0, offset: null };
  // Any single character separates date and time (Python 3.11), usually 'T' or a space.
  const afterSeparator = rest.slice(String.fromCodePoint(rest.codePointAt(0)!).length);
  const zoneAt = afterSeparator.search(/[Z+-]/);
  const timeText = zoneAt < 0 ? afterSeparator : afterSeparator.slice(0, zoneAt);
  const micros = parseTime(timeText);
  if (micros === undefined) return undefined;
  if (zoneAt < 0) return { day, micros, offset: null };
  const offset = parseOffset(afterSeparator.slice(zoneAt));
  if (offset === undefined) return undefined;
  return { day, micros, offset };
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
