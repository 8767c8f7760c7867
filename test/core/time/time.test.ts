// The one duration grammar and the one date-time check, and the two tools that use them agreeing: what the
// Director's clock accepts, the Narrator's `time.advance` accepts; no calendar day that does not exist.
import { describe, expect, it } from 'vitest';
import {
  isIsoDateTime as ledgerIsIsoDateTime,
  parseDuration as ledgerDuration,
} from '../../../src/core/ledger/tool.ts';
import {
  civilFromDays,
  daysFromCivil,
  isIsoDateTime,
  MAX_DURATION_CHARS,
  parseDuration,
  parseIsoDateTime,
} from '../../../src/core/time/index.ts';
import { parseDuration as clockDuration, parseGameTime } from '../../../src/engine/turn/game-time.ts';
import { MAX_TIME_ADVANCE_SECONDS } from '../../../src/engine/turn/limits.ts';

const seconds = (text: unknown) => {
  const r = parseDuration(text, 10_000_000, 'LIMIT');
  return r.ok ? r.value : r.message;
};

describe('parseDuration', () => {
  it.each([
    ['PT15M', 900],
    ['pt15m', 900],
    ['P1DT2H', 93_600],
    ['P1W', 604_800],
    ['PT0S', 0],
    ['15m', 900],
    ['1H', 3600],
    ['1h30m', 5400],
    ['1 h 30 m', 5400],
    ['  2d  ', 172_800],
    ['90s', 90],
  ])('%s is %d seconds', (text, expected) => {
    expect(seconds(text)).toBe(expected);
  });

  it.each(['', 'P', 'PT', 'P1DT', '15', 'm', '-5m', '1.5h', 'PT1.5H', '15 minutes', 'forever'])(
    '%j is not a duration',
    (text) => {
      expect(seconds(text)).toMatch(/not understood; use ISO-8601/);
    },
  );

  it('refuses years and months, and anything that is not a string', () => {
    expect(seconds('P1M')).toMatch(/years or months/);
    expect(seconds('P1Y')).toMatch(/years or months/);
    expect(seconds(15)).toMatch(/must be a string/);
  });

  it('takes the limit it is given, at the limit and one second past', () => {
    expect(parseDuration('PT100S', 100, 'LIMIT')).toEqual({ ok: true, value: 100 });
    expect(parseDuration('PT101S', 100, 'LIMIT')).toEqual({
      ok: false,
      message: "duration 'PT101S' is longer than 100 seconds (LIMIT)",
    });
    expect(seconds('99999999999999999999h')).toMatch(/longer than/);
  });

  it(`accepts ${MAX_DURATION_CHARS} characters and refuses one more`, () => {
    expect(seconds(`PT${'0'.repeat(MAX_DURATION_CHARS - 4)}1S`)).toBe(1);
    expect(seconds(`PT${'0'.repeat(MAX_DURATION_CHARS - 3)}1S`)).toMatch(/MAX_DURATION_CHARS/);
  });
});

describe('the Director and the Narrator read durations alike', () => {
  it.each(['1h30m', '1H', 'pt15m', 'PT15M', '2h', '1 d', 'P1W'])('%s', (text) => {
    const clock = clockDuration(text);
    expect(clock.ok).toBe(true);
    expect(ledgerDuration(text)).toBe(clock.ok ? clock.value : undefined);
  });

  it('both stop at MAX_TIME_ADVANCE_SECONDS', () => {
    expect(ledgerDuration(`PT${MAX_TIME_ADVANCE_SECONDS}S`)).toBe(MAX_TIME_ADVANCE_SECONDS);
    expect(ledgerDuration(`PT${MAX_TIME_ADVANCE_SECONDS + 1}S`)).toBeNull();
    expect(clockDuration(`PT${MAX_TIME_ADVANCE_SECONDS + 1}S`).ok).toBe(false);
  });
});

describe('parseIsoDateTime: a strict calendar', () => {
  it.each([
    '2026-04-01T12:30',
    '2026-04-01 12:30:15',
    '2026-04-01T12:30:15.250',
    '1147-03-09T18:00:00Z',
    '2024-02-29T00:00',
    '2000-02-29T00:00',
    '0001-01-01T00:00+02:00',
    '2026-04-01T12:30-0530',
  ])('%s is a date-time', (text) => {
    expect(isIsoDateTime(text)).toBe(true);
    expect(ledgerIsIsoDateTime(text)).toBe(true);
    expect(parseGameTime(text).ok).toBe(true);
  });

  it.each([
    ['2026-02-31T00:00', 'no-such-day'],
    ['2025-02-29T00:00', 'no-such-day'],
    ['1900-02-29T00:00', 'no-such-day'],
    ['2026-04-31T00:00', 'no-such-day'],
    ['2026-13-01T00:00', 'no-such-day'],
    ['2026-00-10T00:00', 'no-such-day'],
    ['2026-04-00T00:00', 'no-such-day'],
    ['2026-04-01T24:00', 'no-such-time'],
    ['2026-04-01T12:60', 'no-such-time'],
    ['2026-04-01T12:00:60', 'no-such-time'],
    ['2026-04-01T12:00+24:00', 'no-such-time'],
    ['tomorrow', 'format'],
    ['2026-4-01T00:00', 'format'],
    ['2026-04-01T1200', 'format'],
  ])('%s is refused (%s), by the clock and the ledger alike', (text, reason) => {
    expect(parseIsoDateTime(text)).toEqual({ ok: false, reason });
    expect(ledgerIsIsoDateTime(text)).toBe(false);
    expect(parseGameTime(text).ok).toBe(false);
  });

  it('a date alone is a clock reading (midnight) but not a date-time for time.set', () => {
    const parsed = parseIsoDateTime('1199-01-01');
    expect(parsed.ok && parsed.value.hasTime).toBe(false);
    expect(isIsoDateTime('1199-01-01')).toBe(false);
  });

  it('counts days without a Date object, both ways', () => {
    for (const [y, m, d] of [
      [1970, 1, 1],
      [2026, 4, 1],
      [1147, 3, 9],
      [1, 1, 1],
      [9999, 12, 31],
      [2000, 2, 29],
    ] as const)
      expect(civilFromDays(daysFromCivil(y, m, d))).toEqual([y, m, d]);
    expect(daysFromCivil(1970, 1, 1)).toBe(0);
    expect(daysFromCivil(2026, 4, 1) - daysFromCivil(2026, 1, 1)).toBe(90);
  });
});
