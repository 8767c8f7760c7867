// The one check of an ISO-8601 date-time written by a model or a cartridge (the game clock, the Narrator's
// `time.set`): `YYYY-MM-DD`, then optionally `T` or a space and `HH:MM[:SS[.fraction]]`, then optionally
// `Z` or an offset `±HH:MM`/`±HHMM`. The calendar is strict: 2026-02-31 and 2025-02-29 do not exist.
// (YARE's `time_delta` reads Python's wider `fromisoformat` grammar: yare/expr/timestamps.ts.)

import { daysFromCivil, daysInMonth } from './calendar.ts';

export interface IsoDateTime {
  /** Seconds since 1970-01-01T00:00:00 of the written wall-clock time (the offset is kept, not applied). */
  readonly seconds: number;
  /** Whether a time of day was written (a date alone is midnight). */
  readonly hasTime: boolean;
  readonly separator: 'T' | ' ';
  /** The fraction of a second as written, with its dot (`.5`), or ''. */
  readonly fraction: string;
  /** The zone as written (`Z`, `+02:00`), or ''. */
  readonly offset: string;
}

export type IsoDateTimeResult =
  | { readonly ok: true; readonly value: IsoDateTime }
  | { readonly ok: false; readonly reason: 'not-a-string' | 'format' | 'no-such-day' | 'no-such-time' };

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:([T ])(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

export function parseIsoDateTime(value: unknown): IsoDateTimeResult {
  if (typeof value !== 'string') return { ok: false, reason: 'not-a-string' };
  const m = DATE_TIME.exec(value);
  if (!m) return { ok: false, reason: 'format' };
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [hour, minute, second] = [Number(m[5] ?? 0), Number(m[6] ?? 0), Number(m[7] ?? 0)];
  if (day < 1 || day > daysInMonth(year, month)) return { ok: false, reason: 'no-such-day' };
  if (hour > 23 || minute > 59 || second > 59) return { ok: false, reason: 'no-such-time' };
  const offset = m[9] ?? '';
  if (offset.length > 1 && (Number(offset.slice(1, 3)) > 23 || Number(offset.slice(-2)) > 59))
    return { ok: false, reason: 'no-such-time' };
  return {
    ok: true,
    value: {
      seconds: daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second,
      hasTime: m[4] !== undefined,
      separator: (m[4] as 'T' | ' ' | undefined) ?? 'T',
      fraction: m[8] ?? '',
      offset,
    },
  };
}

/** Whether `text` is a date-time with a time of day, on a day the calendar has. */
export function isIsoDateTime(text: unknown): boolean {
  const parsed = parseIsoDateTime(text);
  return parsed.ok && parsed.value.hasTime;
}
