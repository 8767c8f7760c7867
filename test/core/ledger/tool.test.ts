// The record_world_changes tool input and its time field.
import { describe, expect, it } from 'vitest';
import {
  checkRecordWorldChanges,
  DEFAULT_POLICY,
  emptyWorld,
  isIsoDateTime,
  parseDuration,
} from '../../../src/core/ledger/index.ts';

describe('record_world_changes', () => {
  it('accepts {events, time} and returns the events, the time change and the next world', () => {
    const out = checkRecordWorldChanges(
      emptyWorld(),
      { events: [{ event_type: 'create_entity', entity: 'mara', name: 'Mara' }], time: { advance: '15m' } },
      DEFAULT_POLICY,
      { at: { turn: 3 } },
    );
    expect(out).toMatchObject({
      ok: true,
      time: { kind: 'advance', seconds: 900 },
      events: [{ type: 'create_entity' }],
    });
    expect(out.ok && out.world.entities.mara!.created).toEqual({ turn: 3 });
  });

  it('refuses unknown arguments, a missing events list and both time forms at once', () => {
    expect(checkRecordWorldChanges(emptyWorld(), { events: [], note: 'x' }, DEFAULT_POLICY)).toMatchObject({
      ok: false,
      errors: [{ code: 'LEDGER_UNKNOWN_FIELD', field: 'note' }],
    });
    expect(checkRecordWorldChanges(emptyWorld(), {}, DEFAULT_POLICY)).toMatchObject({
      ok: false,
      errors: [{ code: 'LEDGER_MISSING_FIELD' }],
    });
    expect(
      checkRecordWorldChanges(
        emptyWorld(),
        { events: [], time: { advance: '1h', set: '1199-01-01T00:00' } },
        DEFAULT_POLICY,
      ),
    ).toMatchObject({
      ok: false,
      errors: [{ code: 'LEDGER_BAD_TIME' }],
    });
    expect(checkRecordWorldChanges(emptyWorld(), [], DEFAULT_POLICY)).toMatchObject({
      ok: false,
      errors: [{ code: 'LEDGER_NOT_OBJECT' }],
    });
  });

  it('parses durations: ISO-8601 and short forms', () => {
    expect(parseDuration('PT15M')).toBe(900);
    expect(parseDuration('P1DT2H')).toBe(93_600);
    expect(parseDuration('P1W')).toBe(604_800);
    expect(parseDuration('2h')).toBe(7200);
    expect(parseDuration('1d')).toBe(86_400);
    for (const bad of ['', 'P', 'PT', '15', 'm', '-5m', '1.5h', 'PT1.5H', '15 minutes'])
      expect(parseDuration(bad)).toBeNull();
  });

  it('checks date-times without a clock, any year', () => {
    for (const ok of [
      '1199-01-01T00:00:00',
      '2026-04-01T12:30',
      '0001-12-31T23:59:59Z',
      '2026-04-01T12:30:00+02:00',
    ])
      expect(isIsoDateTime(ok)).toBe(true);
    for (const bad of [
      '1199-13-01T00:00:00',
      '1199-01-01',
      '1199-01-01T24:00:00',
      'tomorrow',
      '1199-01-01T00:60',
    ])
      expect(isIsoDateTime(bad)).toBe(false);
  });
});
