// Every named ledger limit, at the limit and just past it.
import { describe, expect, it } from 'vitest';
import {
  checkRecordWorldChanges,
  DEFAULT_LIMITS,
  DEFAULT_POLICY,
  emptyWorld,
  ENGINE_FACT_ID_PATTERN,
  guardJsonValue,
  MAX_BATCH_EVENTS,
  MAX_DECLARED_ATTRIBUTES,
  MAX_JSON_BYTES,
  MAX_JSON_DEPTH,
  MAX_JSON_NODES,
  MAX_KEY_LENGTH,
  MAX_LABEL_LENGTH,
  MAX_LABELS,
  MAX_LINE_TEXT_LENGTH,
  MAX_PROSE_TEXT_LENGTH,
  MAX_QUOTED_TEXT,
  MAX_REPORTED_ERRORS,
  MAX_THREAD_REQUIREMENTS,
  MAX_TIME_ADVANCE_SECONDS,
  MAX_VALUE_TEXT_LENGTH,
  MAX_WORLD_EVENTS,
  parseToolArguments,
  RESERVED_KEYS,
  validateBatch,
  validateLedgerSection,
} from '../../../src/core/ledger/index.ts';
import { accepted, codes, town, when } from './helpers.ts';

const create = (entity: string, extra: Record<string, unknown> = {}) => ({
  event_type: 'create_entity',
  entity,
  name: 'N',
  ...extra,
});

/** `depth` arrays, one inside the other. */
function nested(depth: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
}

describe('ledger limits', () => {
  it(`MAX_BATCH_EVENTS = ${MAX_BATCH_EVENTS}`, () => {
    const batch = Array.from({ length: MAX_BATCH_EVENTS + 1 }, (_, i) => create(`e${i}`));
    accepted(when(emptyWorld(), batch.slice(0, MAX_BATCH_EVENTS)));
    expect(codes(when(emptyWorld(), batch))).toEqual(['LEDGER_BATCH_TOO_LARGE']);
  });

  it(`MAX_KEY_LENGTH = ${MAX_KEY_LENGTH}`, () => {
    accepted(when(emptyWorld(), [create('k'.repeat(MAX_KEY_LENGTH))]));
    expect(codes(when(emptyWorld(), [create('k'.repeat(MAX_KEY_LENGTH + 1))]))).toEqual(['LEDGER_BAD_KEY']);
  });

  it('RESERVED_KEYS are refused as keys; ENGINE_FACT_ID_PATTERN is refused for entities and fact ids', () => {
    for (const key of RESERVED_KEYS)
      expect(codes(when(emptyWorld(), [create(key)]))).toEqual(['LEDGER_BAD_KEY']);
    expect(ENGINE_FACT_ID_PATTERN.test('f_1_2')).toBe(true);
    expect(codes(when(emptyWorld(), [create('f_1_2')]))).toEqual(['LEDGER_BAD_KEY']);
    accepted(when(emptyWorld(), [create('f_1_x'), create('f_1')]));
  });

  it(`MAX_LINE_TEXT_LENGTH = ${MAX_LINE_TEXT_LENGTH}`, () => {
    accepted(when(emptyWorld(), [create('a', { name: 'n'.repeat(MAX_LINE_TEXT_LENGTH) })]));
    expect(codes(when(emptyWorld(), [create('a', { name: 'n'.repeat(MAX_LINE_TEXT_LENGTH + 1) })]))).toEqual([
      'LEDGER_TOO_LONG',
    ]);
  });

  it(`MAX_PROSE_TEXT_LENGTH = ${MAX_PROSE_TEXT_LENGTH}`, () => {
    const scene = (summary: string) => [{ event_type: 'set_scene', summary }];
    accepted(when(emptyWorld(), scene('s'.repeat(MAX_PROSE_TEXT_LENGTH))));
    expect(codes(when(emptyWorld(), scene('s'.repeat(MAX_PROSE_TEXT_LENGTH + 1))))).toEqual([
      'LEDGER_TOO_LONG',
    ]);
  });

  it(`MAX_VALUE_TEXT_LENGTH = ${MAX_VALUE_TEXT_LENGTH}`, () => {
    const set = (value: string) => [
      { event_type: 'set_entity_attribute', entity: 'mara', attribute: 'note', value },
    ];
    accepted(when(town(), set('v'.repeat(MAX_VALUE_TEXT_LENGTH))));
    expect(codes(when(town(), set('v'.repeat(MAX_VALUE_TEXT_LENGTH + 1))))).toEqual(['LEDGER_TOO_LONG']);
  });

  it(`MAX_LABELS = ${MAX_LABELS} and MAX_LABEL_LENGTH = ${MAX_LABEL_LENGTH}`, () => {
    const labels = (n: number, len = 3) => Array.from({ length: n }, (_, i) => `${i}`.padStart(len, 'x'));
    accepted(when(emptyWorld(), [create('a', { aliases: labels(MAX_LABELS) })]));
    expect(codes(when(emptyWorld(), [create('a', { aliases: labels(MAX_LABELS + 1) })]))).toEqual([
      'LEDGER_TOO_MANY_LABELS',
    ]);
    accepted(when(emptyWorld(), [create('a', { aliases: labels(1, MAX_LABEL_LENGTH) })]));
    expect(codes(when(emptyWorld(), [create('a', { aliases: labels(1, MAX_LABEL_LENGTH + 1) })]))).toEqual([
      'LEDGER_TOO_LONG',
    ]);
  });

  it(`MAX_JSON_DEPTH = ${MAX_JSON_DEPTH}`, () => {
    expect(guardJsonValue(nested(MAX_JSON_DEPTH), DEFAULT_LIMITS)).toBeNull();
    expect(guardJsonValue(nested(MAX_JSON_DEPTH + 1), DEFAULT_LIMITS)?.code).toBe('LEDGER_TOO_DEEP');
    const text = (d: number) => `${'['.repeat(d)}${']'.repeat(d)}`;
    expect(parseToolArguments(text(MAX_JSON_DEPTH), DEFAULT_LIMITS).ok).toBe(true);
    expect(parseToolArguments(text(MAX_JSON_DEPTH + 1), DEFAULT_LIMITS)).toMatchObject({
      ok: false,
      error: { code: 'LEDGER_TOO_DEEP' },
    });
  });

  it(`MAX_JSON_NODES = ${MAX_JSON_NODES}`, () => {
    // An array of n - 1 numbers is n values.
    expect(guardJsonValue(new Array(MAX_JSON_NODES - 1).fill(0), DEFAULT_LIMITS)).toBeNull();
    expect(guardJsonValue(new Array(MAX_JSON_NODES).fill(0), DEFAULT_LIMITS)?.code).toBe('LEDGER_TOO_BIG');
  });

  it(`MAX_JSON_BYTES = ${MAX_JSON_BYTES}`, () => {
    const text = (bytes: number) => `"${'a'.repeat(bytes - 2)}"`;
    expect(parseToolArguments(text(MAX_JSON_BYTES), DEFAULT_LIMITS).ok).toBe(true);
    expect(parseToolArguments(text(MAX_JSON_BYTES + 1), DEFAULT_LIMITS)).toMatchObject({
      ok: false,
      error: { code: 'LEDGER_TOO_BIG' },
    });
    // Multi-byte characters count in UTF-8 bytes: 'é' is two.
    const wide = (chars: number) => `"${'é'.repeat(chars)}"`;
    expect(parseToolArguments(wide((MAX_JSON_BYTES - 2) / 2), DEFAULT_LIMITS).ok).toBe(true);
    expect(parseToolArguments(wide((MAX_JSON_BYTES - 2) / 2 + 1), DEFAULT_LIMITS).ok).toBe(false);
    // Parsed values (from a provider SDK) are held to the same bound by their string sizes.
    expect(guardJsonValue(['a'.repeat(MAX_JSON_BYTES)], DEFAULT_LIMITS)).toBeNull();
    expect(guardJsonValue(['a'.repeat(MAX_JSON_BYTES + 1)], DEFAULT_LIMITS)?.code).toBe('LEDGER_TOO_BIG');
  });

  it(`MAX_REPORTED_ERRORS = ${MAX_REPORTED_ERRORS}`, () => {
    // Each event has two shape errors (two unknown fields).
    const bad = (n: number) => Array.from({ length: n }, () => ({ event_type: 'set_scene', a: 1, b: 2 }));
    const atLimit = validateBatch(emptyWorld(), bad(MAX_REPORTED_ERRORS / 2));
    expect(atLimit.ok || atLimit.errors.length).toBe(MAX_REPORTED_ERRORS);
    expect(atLimit.ok || atLimit.errors.every((e) => e.code === 'LEDGER_UNKNOWN_FIELD')).toBe(true);
    const past = validateBatch(emptyWorld(), [
      ...bad(MAX_REPORTED_ERRORS / 2 - 1),
      { event_type: 'set_scene', a: 1, b: 2, c: 3 },
    ]);
    expect(past.ok || past.errors.length).toBe(MAX_REPORTED_ERRORS);
    expect(past.ok || past.errors[MAX_REPORTED_ERRORS - 1]!.code).toBe('LEDGER_TOO_MANY_ERRORS');
  });

  it(`MAX_QUOTED_TEXT = ${MAX_QUOTED_TEXT}: model text in messages is capped and escaped`, () => {
    const at = validateBatch(emptyWorld(), [{ event_type: 'x'.repeat(MAX_QUOTED_TEXT) }]);
    expect(at.ok || at.errors[0]!.message).toContain(`"${'x'.repeat(MAX_QUOTED_TEXT)}"`);
    const past = validateBatch(emptyWorld(), [{ event_type: `${'x'.repeat(MAX_QUOTED_TEXT)}TAIL\u202e` }]);
    expect(past.ok || past.errors[0]!.message).toContain(`"${'x'.repeat(MAX_QUOTED_TEXT)}…"`);
    expect(past.ok || past.errors[0]!.message).not.toContain('TAIL');
    const bidi = validateBatch(emptyWorld(), [{ event_type: 'a\u202eb\nc' }]);
    expect(bidi.ok || bidi.errors[0]!.message).toContain('"a\\u{202e}b\\nc"');
  });

  it(`MAX_TIME_ADVANCE_SECONDS = ${MAX_TIME_ADVANCE_SECONDS} and the time text cap`, () => {
    const run = (time: unknown) =>
      checkRecordWorldChanges(emptyWorld(), { events: [], time }, DEFAULT_POLICY);
    expect(run({ advance: '366d' })).toMatchObject({
      ok: true,
      time: { kind: 'advance', seconds: MAX_TIME_ADVANCE_SECONDS },
    });
    expect(run({ advance: `PT${MAX_TIME_ADVANCE_SECONDS + 1}S` })).toMatchObject({
      ok: false,
      errors: [{ code: 'LEDGER_BAD_TIME' }],
    });
    expect(run({ set: `1199-01-01T00:00:00${' '.repeat(21)}` })).toMatchObject({
      ok: false,
      errors: [{ code: 'LEDGER_BAD_TIME' }],
    });
  });

  it(`MAX_DECLARED_ATTRIBUTES = ${MAX_DECLARED_ATTRIBUTES}`, () => {
    const attrs = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`a${i}`, { type: 'bool' }]));
    expect(validateLedgerSection({ attributes: attrs(MAX_DECLARED_ATTRIBUTES) }).ok).toBe(true);
    expect(validateLedgerSection({ attributes: attrs(MAX_DECLARED_ATTRIBUTES + 1) })).toMatchObject({
      ok: false,
      issues: [{ path: ['ledger', 'attributes'], code: 'LEDGER_TOO_BIG' }],
    });
  });

  it(`MAX_WORLD_EVENTS = ${MAX_WORLD_EVENTS}`, () => {
    const world = (n: number) =>
      Array.from({ length: n }, (_, i) => create(`e${i}`, { name: `Entity ${i}` }));
    const ok = validateLedgerSection({ world: world(MAX_WORLD_EVENTS) });
    expect(ok.ok && ok.value.world.length).toBe(MAX_WORLD_EVENTS);
    expect(validateLedgerSection({ world: world(MAX_WORLD_EVENTS + 1) })).toMatchObject({
      ok: false,
      issues: [{ path: ['ledger', 'world'], code: 'LEDGER_BATCH_TOO_LARGE' }],
    });
  });

  it(`MAX_THREAD_REQUIREMENTS = ${MAX_THREAD_REQUIREMENTS}`, () => {
    const threads = (n: number) => ({
      t: { requires: Array.from({ length: n }, (_, i) => ({ fact: `f${i}` })) },
    });
    expect(validateLedgerSection({ threads: threads(MAX_THREAD_REQUIREMENTS) }).ok).toBe(true);
    expect(validateLedgerSection({ threads: threads(MAX_THREAD_REQUIREMENTS + 1) })).toMatchObject({
      ok: false,
      issues: [{ path: ['ledger', 'threads', 't', 'requires'] }],
    });
  });
});
