// In-game time: `state.game_time` is an ISO-8601 date-time; the Director moves it with durations
// (`PT15M`, `P1DT2H`, or shorthand `15m`, `2h`, `1d`). Durations are summed over a turn and applied once.
// Unlike the original (reference §6.3 item 35), nothing here falls back silently: a bad duration or an
// unreadable clock is an error the model sees, and the clock never jumps to an invented date.
//
// Calendar arithmetic is done by hand on proleptic Gregorian days (no `Date`), so fictional years such
// as 1147 work and results are identical everywhere.

import type { CompiledRules } from '../yare/program.ts';
import { MAX_TIME_ADVANCE_SECONDS } from './limits.ts';

/** Where the clock starts when a cartridge never set `game_time` (the original's hydrator default). */
export const DEFAULT_GAME_TIME = '2026-04-01T00:00:00';
/** Characters of a duration as written. */
export const MAX_DURATION_CHARS = 64;

export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly message: string };

const ISO_DURATION =
  /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/i;
const SHORTHAND = /^(?:(\d+)\s*d)?\s*(?:(\d+)\s*h)?\s*(?:(\d+)\s*m)?\s*(?:(\d+)\s*s)?$/i;
const FORMAT_HINT = "use ISO-8601 like 'PT15M' or 'P1DT2H', or shorthand like '15m', '2h', '1d'";

function part(text: string | undefined, unit: number): number {
  return text === undefined ? 0 : Number(text) * unit;
}

/** A duration in whole seconds (0 allowed: `PT0S`). */
export function parseDuration(input: unknown): Parsed<number> {
  if (typeof input !== 'string')
    return { ok: false, message: `a duration must be a string (${FORMAT_HINT})` };
  const text = input.trim();
  if (text.length > MAX_DURATION_CHARS) {
    return {
      ok: false,
      message: `duration is ${text.length} characters; the limit is ${MAX_DURATION_CHARS} (MAX_DURATION_CHARS)`,
    };
  }
  let seconds: number;
  const iso = ISO_DURATION.exec(text);
  if (iso && text.length > 1 && !/T$/i.test(text)) {
    if (iso[1] !== undefined || iso[2] !== undefined) {
      return {
        ok: false,
        message: `duration '${text}' uses years or months, which have no fixed length; use days or weeks (P30D)`,
      };
    }
    seconds =
      part(iso[3], 604_800) + part(iso[4], 86_400) + part(iso[5], 3600) + part(iso[6], 60) + part(iso[7], 1);
  } else {
    const short = text === '' ? null : SHORTHAND.exec(text);
    if (!short) return { ok: false, message: `duration '${text}' is not understood; ${FORMAT_HINT}` };
    seconds = part(short[1], 86_400) + part(short[2], 3600) + part(short[3], 60) + part(short[4], 1);
  }
  if (!Number.isSafeInteger(seconds) || seconds > MAX_TIME_ADVANCE_SECONDS) {
    return {
      ok: false,
      message: `duration '${text}' is longer than ${MAX_TIME_ADVANCE_SECONDS} seconds (MAX_TIME_ADVANCE_SECONDS, a year and a day)`,
    };
  }
  return { ok: true, value: seconds };
}

interface GameTime {
  /** Seconds since 1970-01-01T00:00:00 of the written wall-clock time (the offset is kept, not applied). */
  readonly seconds: number;
  readonly separator: 'T' | ' ';
  readonly fraction: string;
  readonly offset: string;
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:([T ])(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

// Howard Hinnant's days_from_civil / civil_from_days.
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function civilFromDays(days: number): [number, number, number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp + (mp < 10 ? 3 : -9);
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

export function parseGameTime(value: unknown): Parsed<GameTime> {
  const bad = (why: string): Parsed<GameTime> => ({
    ok: false,
    message: `state.game_time ${JSON.stringify(value)} ${why}; expected an ISO-8601 date-time like '1147-03-09T18:00:00'`,
  });
  if (typeof value !== 'string') return bad('is not a string');
  const m = DATE_TIME.exec(value);
  if (!m) return bad('is not an ISO-8601 date-time');
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [hour, minute, second] = [Number(m[5] ?? 0), Number(m[6] ?? 0), Number(m[7] ?? 0)];
  const monthDays = month === 2 && isLeap(year) ? 29 : MONTH_DAYS[month - 1];
  if (monthDays === undefined || day < 1 || day > monthDays) return bad('has no such calendar day');
  if (hour > 23 || minute > 59 || second > 59) return bad('has no such time of day');
  return {
    ok: true,
    value: {
      seconds: daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second,
      separator: (m[4] as 'T' | ' ' | undefined) ?? 'T',
      fraction: m[8] ?? '',
      offset: m[9] ?? '',
    },
  };
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `time` moved forward by `seconds`, written in the same style (separator, fraction, offset). */
export function addSeconds(time: string, seconds: number): Parsed<string> {
  const parsed = parseGameTime(time);
  if (!parsed.ok) return parsed;
  const total = parsed.value.seconds + seconds;
  const days = Math.floor(total / 86_400);
  const rest = total - days * 86_400;
  const [year, month, day] = civilFromDays(days);
  if (year > 9999)
    return { ok: false, message: `advancing state.game_time by ${seconds} seconds passes the year 9999` };
  const { separator, fraction, offset } = parsed.value;
  const clock = `${pad(Math.floor(rest / 3600))}:${pad(Math.floor((rest % 3600) / 60))}:${pad(rest % 60)}`;
  return {
    ok: true,
    value: `${pad(year, 4)}-${pad(month)}-${pad(day)}${separator}${clock}${fraction}${offset}`,
  };
}

/**
 * `engine`: the engine owns `state.game_time` (undeclared, or declared as a string). `cartridge`: the schema
 * declares `game_time` as something else (a domain, as in dark-fantasy, or a number): the engine leaves it
 * alone, offers no time tools and shows no clock.
 */
export type ClockMode = 'engine' | 'cartridge';

export function clockMode(rules: CompiledRules): ClockMode {
  const node = rules.schema.children.get('game_time');
  if (node === undefined) return 'engine';
  return node.kind === 'field' && (node.type === 'string' || node.type === undefined)
    ? 'engine'
    : 'cartridge';
}

/** The clock's current reading, or undefined when the engine does not keep one. */
export function currentGameTime(
  state: { readonly [key: string]: unknown },
  mode: ClockMode,
): string | undefined {
  if (mode === 'cartridge') return undefined;
  const value = state.game_time;
  return typeof value === 'string' ? value : undefined;
}

/**
 * How a cartridge's events say they took time: they add minutes to `state._elapsed_minutes` (declared as an
 * int); at the end of the turn the engine adds them to the clock with the Director's time and resets the
 * field to 0. A field that is absent, not a whole number or not positive adds nothing.
 */
export const ELAPSED_MINUTES_KEY = '_elapsed_minutes';

/** Seconds the turn's events asked for through `_elapsed_minutes`. */
export function elapsedSeconds(state: { readonly [key: string]: unknown }): number {
  const minutes = state[ELAPSED_MINUTES_KEY];
  return typeof minutes === 'number' && Number.isSafeInteger(minutes) && minutes > 0 ? minutes * 60 : 0;
}

/** Whether `seconds` more can be applied to this state's clock; the message says why not. */
export function checkAdvance(state: { readonly [key: string]: unknown }, seconds: number): Parsed<string> {
  const start = Object.hasOwn(state, 'game_time') ? state.game_time : DEFAULT_GAME_TIME;
  return addSeconds(start as string, seconds);
}
