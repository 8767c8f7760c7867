// Durations, the game clock, and which cartridges the engine keeps time for.
import { describe, expect, it } from 'vitest';
import {
  addSeconds,
  checkAdvance,
  clockMode,
  DEFAULT_GAME_TIME,
  MAX_DURATION_CHARS,
  parseDuration,
  parseGameTime,
} from '../../../src/engine/turn/game-time.ts';
import { MAX_TIME_ADVANCE_SECONDS } from '../../../src/engine/turn/limits.ts';
import { rulesOf } from '../../helpers/yare.ts';
import { fixture, lanternmere } from './helpers.ts';

const seconds = (text: unknown) => {
  const parsed = parseDuration(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
};
const refusal = (text: unknown) => {
  const parsed = parseDuration(text);
  if (parsed.ok) throw new Error(`expected ${JSON.stringify(text)} to be refused`);
  return parsed.message;
};

describe('parseDuration', () => {
  it('reads ISO-8601 durations with days, weeks and time parts', () => {
    expect(seconds('PT15M')).toBe(900);
    expect(seconds('PT2H')).toBe(7200);
    expect(seconds('PT45S')).toBe(45);
    expect(seconds('PT1H30M')).toBe(5400);
    expect(seconds('PT2H15M10S')).toBe(8110);
    expect(seconds('P1DT2H')).toBe(93_600);
    expect(seconds('P1W')).toBe(604_800);
    expect(seconds('pt10m')).toBe(600);
    expect(seconds('PT0S')).toBe(0);
  });

  it('reads shorthand, alone or combined, with surrounding space', () => {
    expect(seconds('15m')).toBe(900);
    expect(seconds('2h')).toBe(7200);
    expect(seconds('1d')).toBe(86_400);
    expect(seconds('90s')).toBe(90);
    expect(seconds('  10m  ')).toBe(600);
    expect(seconds('1h30m')).toBe(5400);
  });

  it('refuses what it cannot read, saying which formats work', () => {
    expect(refusal('forever')).toMatch(/not understood.*PT15M.*15m/);
    expect(refusal('')).toMatch(/not understood/);
    expect(refusal('PT')).toMatch(/not understood/);
    expect(refusal('P')).toMatch(/not understood/);
    expect(refusal('P1DT')).toMatch(/not understood/);
    expect(refusal(15)).toMatch(/must be a string/);
    expect(refusal('-5m')).toMatch(/not understood/);
  });

  it('refuses years and months, which have no fixed length', () => {
    expect(refusal('P1M')).toMatch(/years or months/);
    expect(refusal('P2Y')).toMatch(/years or months/);
  });

  it('accepts MAX_TIME_ADVANCE_SECONDS and refuses one second more', () => {
    expect(seconds(`PT${MAX_TIME_ADVANCE_SECONDS}S`)).toBe(MAX_TIME_ADVANCE_SECONDS);
    expect(refusal(`PT${MAX_TIME_ADVANCE_SECONDS + 1}S`)).toMatch(/MAX_TIME_ADVANCE_SECONDS/);
    expect(refusal('99999999999999999999h')).toMatch(/MAX_TIME_ADVANCE_SECONDS/);
  });

  it('accepts a duration of MAX_DURATION_CHARS characters and refuses a longer one', () => {
    const atLimit = `PT${'0'.repeat(MAX_DURATION_CHARS - 4)}1S`;
    expect(atLimit).toHaveLength(MAX_DURATION_CHARS);
    expect(seconds(atLimit)).toBe(1);
    expect(refusal(`PT${'0'.repeat(MAX_DURATION_CHARS - 3)}1S`)).toMatch(/MAX_DURATION_CHARS/);
  });
});

describe('the game clock', () => {
  const advance = (time: string, s: number) => {
    const r = addSeconds(time, s);
    if (!r.ok) throw new Error(r.message);
    return r.value;
  };

  it('adds seconds across days, months, leap years and the year end, keeping the written style', () => {
    expect(advance('2026-04-10T08:00:00+00:00', 3600)).toBe('2026-04-10T09:00:00+00:00');
    expect(advance('2026-04-10T23:30:00', 3600)).toBe('2026-04-11T00:30:00');
    expect(advance('2024-02-28T12:00:00Z', 86_400)).toBe('2024-02-29T12:00:00Z');
    expect(advance('2023-02-28T12:00:00', 86_400)).toBe('2023-03-01T12:00:00');
    expect(advance('1999-12-31 23:59:59', 1)).toBe('2000-01-01 00:00:00');
    expect(advance('2026-04-01T10:30:00.250', 60)).toBe('2026-04-01T10:31:00.250');
  });

  it('works in fictional years (Lanternmere is in 1147)', () => {
    expect(advance('1147-03-09T18:00:00', 20 * 60)).toBe('1147-03-09T18:20:00');
    expect(advance('0001-01-01T00:00:00', 86_400 * 365)).toBe('0002-01-01T00:00:00');
  });

  it('refuses a clock it cannot read instead of jumping to an invented date', () => {
    for (const bad of [
      'not a date at all',
      '2026-13-01T00:00:00',
      '2026-02-30T00:00:00',
      '2026-04-01T24:00:00',
      12345,
      null,
    ]) {
      const parsed = parseGameTime(bad);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.message).toMatch(/state\.game_time/);
    }
    expect(addSeconds('9999-12-31T23:00:00', 7200).ok).toBe(false);
  });

  it('starts from DEFAULT_GAME_TIME when the state has no game_time yet', () => {
    expect(DEFAULT_GAME_TIME).toBe('2026-04-01T00:00:00');
    expect(checkAdvance({}, 60)).toEqual({ ok: true, value: '2026-04-01T00:01:00' });
    expect(checkAdvance({ game_time: 'soon' }, 60).ok).toBe(false);
  });

  it('is kept by the engine unless the schema declares game_time as something other than a string', async () => {
    expect(clockMode((await lanternmere()).rules)).toBe('engine');
    expect(clockMode((await fixture('vault')).rules)).toBe('engine');
    expect(clockMode((await fixture('keep-time')).rules)).toBe('cartridge');
    expect(clockMode(rulesOf('state_schema:\n  game_time: { type: int, default: 0 }\n'))).toBe('cartridge');
  });
});
