// The Narrator's one ledger tool, `record_world_changes({events[], time?})`: its input checked as a whole —
// raw argument text or an already-parsed value — before the events go to `proposeBatch`.

import { isIsoDateTime, parseDuration as parseTimeDuration } from '../time/index.ts';
import { type LedgerError, ledgerError } from './errors.ts';
import type { LedgerEvent } from './events.ts';
import { guardJsonValue, parseToolArguments } from './json.ts';
import { DEFAULT_LIMITS, type LedgerLimits, MAX_TIME_TEXT_LENGTH } from './limits.ts';
import type { LedgerPolicy } from './policy.ts';
import { quote } from './text.ts';
import { proposeBatch, type ValidateOptions } from './validate.ts';
import type { World } from './world.ts';

/** Longest single `time.advance`: a year and a day. */
export const MAX_TIME_ADVANCE_SECONDS = 366 * 24 * 3600;

export const RECORD_WORLD_CHANGES_TOOL = 'record_world_changes';

export type TimeChange =
  | { readonly kind: 'advance'; readonly seconds: number }
  | { readonly kind: 'set'; readonly at: string };

export type ToolInputResult =
  | {
      readonly ok: true;
      readonly events: LedgerEvent[];
      readonly time: TimeChange | null;
      readonly world: World;
    }
  | { readonly ok: false; readonly errors: LedgerError[] };

/**
 * Seconds of a duration (`PT15M`, `P1DT2H`, `15m`, `1h30m`, `pt15m`: the one grammar of time/, the same
 * as the Director's clock), or null when it is not one or is longer than MAX_TIME_ADVANCE_SECONDS.
 */
export function parseDuration(text: string): number | null {
  const parsed = parseTimeDuration(text, MAX_TIME_ADVANCE_SECONDS, 'MAX_TIME_ADVANCE_SECONDS');
  return parsed.ok ? parsed.value : null;
}

/** Whether `text` is an ISO-8601 date-time on a day the calendar has (no clock, no Date: any year 0000–9999). */
export { isIsoDateTime } from '../time/index.ts';

function parseTime(raw: unknown): { ok: true; time: TimeChange | null } | { ok: false; error: LedgerError } {
  const bad = (message: string): { ok: false; error: LedgerError } => ({
    ok: false,
    error: ledgerError(-1, 'LEDGER_BAD_TIME', message, 'time'),
  });
  if (raw === undefined || raw === null) return { ok: true, time: null };
  if (typeof raw !== 'object' || Array.isArray(raw)) return bad('time must be an object {advance} or {set}');
  const record = raw as Record<string, unknown>;
  const keys = Object.keys(record).filter((k) => record[k] !== undefined && record[k] !== null);
  const unknown = keys.filter((k) => k !== 'advance' && k !== 'set');
  if (unknown.length > 0) return bad(`time has unknown field ${quote(unknown[0])}; fields: advance, set`);
  if (keys.length !== 1) return bad('time takes exactly one of advance or set');
  const value = record[keys[0]!];
  if (typeof value !== 'string' || value.length > MAX_TIME_TEXT_LENGTH) {
    return bad(`time.${keys[0]} must be a string of at most ${MAX_TIME_TEXT_LENGTH} characters`);
  }
  if (keys[0] === 'advance') {
    const seconds = parseDuration(value);
    if (seconds === null || seconds <= 0 || seconds > MAX_TIME_ADVANCE_SECONDS) {
      return bad(`time.advance ${quote(value)} is not a duration between 1s and 366d (PT15M, 2h, 1d)`);
    }
    return { ok: true, time: { kind: 'advance', seconds } };
  }
  if (!isIsoDateTime(value))
    return bad(`time.set ${quote(value)} is not an ISO-8601 date-time (1199-01-01T08:00:00)`);
  return { ok: true, time: { kind: 'set', at: value } };
}

/**
 * Checks a `record_world_changes` call: raw argument text (parsed with the byte cap and duplicate-key scan)
 * or a value a provider SDK already parsed, then `{events, time?}` closed, then the batch.
 */
export function checkRecordWorldChanges(
  world: World,
  args: unknown,
  policy: LedgerPolicy,
  options: ValidateOptions = {},
): ToolInputResult {
  const limits: LedgerLimits = { ...DEFAULT_LIMITS, ...options.limits };
  let value = args;
  if (typeof args === 'string') {
    const parsed = parseToolArguments(args, limits);
    if (!parsed.ok) return { ok: false, errors: [parsed.error] };
    value = parsed.value;
  }
  const guard = guardJsonValue(value, limits);
  if (guard) return { ok: false, errors: [guard] };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const hint = typeof value === 'string' ? ' (the arguments are a JSON string: double-encoded?)' : '';
    return {
      ok: false,
      errors: [ledgerError(-1, 'LEDGER_NOT_OBJECT', `arguments must be an object {events, time?}${hint}`)],
    };
  }
  const record = value as Record<string, unknown>;
  const errors: LedgerError[] = [];
  for (const key of Object.keys(record)) {
    if (key !== 'events' && key !== 'time') {
      errors.push(
        ledgerError(
          -1,
          'LEDGER_UNKNOWN_FIELD',
          `${quote(key)} is not an argument; arguments: events, time`,
          key,
        ),
      );
    }
  }
  if (!Object.hasOwn(record, 'events'))
    errors.push(ledgerError(-1, 'LEDGER_MISSING_FIELD', 'events is required', 'events'));
  const time = parseTime(Object.hasOwn(record, 'time') ? record.time : undefined);
  if (!time.ok) errors.push(time.error);
  if (errors.length > 0) return { ok: false, errors };
  const batch = proposeBatch(world, record.events, policy, options);
  if (!batch.ok) return batch;
  return { ok: true, events: batch.events, time: time.ok ? time.time : null, world: batch.world };
}
