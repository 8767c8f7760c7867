// In-game time: `state.game_time` is an ISO-8601 date-time; the Director moves it with durations
// (`PT15M`, `P1DT2H`, or shorthand `15m`, `2h`, `1d`). Durations are summed over a turn and applied once.
// Unlike the original, nothing here falls back silently: a bad duration or an
// unreadable clock is an error the model sees, and the clock never jumps to an invented date.
//
// Calendar arithmetic is done by hand on proleptic Gregorian days (no `Date`), so fictional years such
// as 1147 work and results are identical everywhere. The grammars of durations and date-times are the
// ones in time/, shared with the Narrator's ledger tool.

import type { CompiledRules } from '../../core/yare/index.ts';
import {
  civilFromDays,
  type IsoDateTime,
  type Parsed,
  parseIsoDateTime,
  parseDuration as parseTimeDuration,
} from '../../core/time/index.ts';
import { MAX_TIME_ADVANCE_SECONDS } from './limits.ts';

/** Where the clock starts when a cartridge never set `game_time` (the original's hydrator default). */
export const DEFAULT_GAME_TIME = '2026-04-01T00:00:00';
export { MAX_DURATION_CHARS, type Parsed } from '../../core/time/index.ts';

/** A duration in whole seconds (0 allowed: `PT0S`), at most MAX_TIME_ADVANCE_SECONDS (the one grammar: time/). */
export function parseDuration(input: unknown): Parsed<number> {
  return parseTimeDuration(input, MAX_TIME_ADVANCE_SECONDS, 'MAX_TIME_ADVANCE_SECONDS, a year and a day');
}

type GameTime = IsoDateTime;

export function parseGameTime(value: unknown): Parsed<GameTime> {
  const bad = (why: string): Parsed<GameTime> => ({
    ok: false,
    message: `state.game_time ${JSON.stringify(value)} ${why}; expected an ISO-8601 date-time like '1147-03-09T18:00:00'`,
  });
  const parsed = parseIsoDateTime(value);
  if (parsed.ok) return { ok: true, value: parsed.value };
  switch (parsed.reason) {
    case 'not-a-string':
      return bad('is not a string');
    case 'format':
      return bad('is not an ISO-8601 date-time');
    case 'no-such-day':
      return bad('has no such calendar day');
    case 'no-such-time':
      return bad('has no such time of day');
  }
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
