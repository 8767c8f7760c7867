// The ledger's shape pass: one untrusted wire event (`event_type` beside its fields) against its row of
// the vocabulary table, into the event union. Closed schema: an unknown event type or field is refused,
// every required field must be present, and each value is checked by its row's FieldSpec (keys, text
// caps, scalars, labels). References, uniqueness and policy come after, in event-checks.ts.

import { type LedgerError, type LedgerErrorCode, ledgerError } from './errors.ts';
import type { DerivedEvent, FieldValue, LedgerEvent, LedgerScalar } from './events.ts';
import { KEY_PATTERN, MAX_LABEL_LENGTH, MAX_LABELS, MAX_VALUE_TEXT_LENGTH, RESERVED_KEYS } from './limits.ts';
import {
  type FieldSpec,
  fieldMaxLength,
  isLedgerEventType,
  LEDGER_SPECS,
  type LedgerEventType,
  type SpecTable,
  specTypes,
} from './spec.ts';
import { assertNever, describeTextProblem, quote, textProblem } from './text.ts';
import { isRecord as isPlainRecord } from '../is-record.ts';

export type ParsedEvent = { ok: true; event: LedgerEvent } | { ok: false; errors: LedgerError[] };

/** A checked field value: what some FieldSpec holds (a key or text string, a scalar, a list of labels). */
type CheckedValue = FieldValue<FieldSpec>;

/** Any event a table row describes, typed from the row (events.ts proves each equals its union variant). */
type RowEvent = { [K in LedgerEventType]: DerivedEvent<K> }[LedgerEventType];

/** Parses one wire event into the union, or says every way its shape is wrong. */
export function parseEvent(raw: unknown, index: number, specs: SpecTable = LEDGER_SPECS): ParsedEvent {
  const fail = (code: LedgerErrorCode, message: string, field?: string): ParsedEvent => ({
    ok: false,
    errors: [ledgerError(index, code, message, field)],
  });
  if (!isPlainRecord(raw)) return fail('LEDGER_NOT_OBJECT', `event must be a JSON object, not ${quote(raw)}`);
  const typeValue = Object.hasOwn(raw, 'event_type') ? raw.event_type : undefined;
  if (typeValue === undefined || typeValue === null) {
    return fail('LEDGER_MISSING_FIELD', 'event_type is missing', 'event_type');
  }
  if (typeof typeValue !== 'string') {
    return fail('LEDGER_BAD_TYPE', `event_type must be a string, not ${quote(typeValue)}`, 'event_type');
  }
  // Membership in the vocabulary's own set, then in this (possibly reduced) table: `constructor`,
  // `__proto__` and `toString` are simply unknown.
  const type = isLedgerEventType(typeValue) ? typeValue : undefined;
  const spec = type === undefined ? undefined : specs[type];
  if (type === undefined || !spec) {
    return fail(
      'LEDGER_UNKNOWN_EVENT',
      `unknown event type ${quote(typeValue)}; known: ${specTypes(specs).join(', ')}`,
      'event_type',
    );
  }
  const errors: LedgerError[] = [];
  const fields: Record<string, CheckedValue> = {};
  for (const field of Object.keys(raw)) {
    if (field === 'event_type') continue;
    if (!Object.hasOwn(spec.required, field) && !Object.hasOwn(spec.optional, field)) {
      const allowed = [...Object.keys(spec.required), ...Object.keys(spec.optional)].join(', ') || 'none';
      errors.push(
        ledgerError(
          index,
          'LEDGER_UNKNOWN_FIELD',
          `${quote(field)} is not a field of ${type}; fields: ${allowed}`,
          field,
        ),
      );
    }
  }
  for (const [field, fieldSpec] of Object.entries(spec.required)) {
    const present = Object.hasOwn(raw, field);
    const value = present ? raw[field] : undefined;
    // A required `value` may be null (a JSON scalar); any other required field needs a value.
    if (!present || (value === null && fieldSpec.type !== 'value')) {
      errors.push(ledgerError(index, 'LEDGER_MISSING_FIELD', `${field} is required for ${type}`, field));
      continue;
    }
    const checked = checkField(field, fieldSpec, value, index);
    if (checked.ok) fields[field] = checked.value;
    else errors.push(checked.error);
  }
  for (const [field, fieldSpec] of Object.entries(spec.optional)) {
    const value = Object.hasOwn(raw, field) ? raw[field] : undefined;
    if (value === undefined || value === null) continue;
    const checked = checkField(field, fieldSpec, value, index);
    if (checked.ok) fields[field] = checked.value;
    else errors.push(checked.error);
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, event: eventOfRow(type, fields) };
}

/**
 * The event `type`'s row describes, from fields checked against that row. The one step the compiler cannot
 * follow, so it is stated here once: `fields` holds exactly the row's fields (unknown ones were refused,
 * every required one is present) and each value was checked by the row's own FieldSpec, which is what
 * DerivedEvent maps to. `type` goes first, as the stored events have always written it.
 */
function eventOfRow(type: LedgerEventType, fields: Readonly<Record<string, CheckedValue>>): RowEvent {
  return { type, ...fields } as RowEvent;
}

type FieldFailure = { ok: false; error: LedgerError };
type FieldResult<T> = { ok: true; value: T } | FieldFailure;

function checkKey(field: string, value: unknown, index: number): FieldResult<string> {
  const bad = (code: LedgerErrorCode, message: string): FieldFailure => ({
    ok: false,
    error: ledgerError(index, code, message, field),
  });
  if (typeof value !== 'string')
    return bad('LEDGER_BAD_TYPE', `${field} must be a key string, not ${quote(value)}`);
  if (!KEY_PATTERN.test(value)) {
    return bad(
      'LEDGER_BAD_KEY',
      `${field} ${quote(value)} is not a key: lower-case a-z, 0-9 and _, starting with a letter, at most 64 characters`,
    );
  }
  if (RESERVED_KEYS.has(value)) return bad('LEDGER_BAD_KEY', `${field} ${quote(value)} is a reserved word`);
  return { ok: true, value };
}

function checkText(
  field: string,
  value: unknown,
  max: number,
  multiline: boolean,
  index: number,
): FieldResult<string> {
  const bad = (code: LedgerErrorCode, message: string): FieldFailure => ({
    ok: false,
    error: ledgerError(index, code, message, field),
  });
  if (typeof value !== 'string')
    return bad('LEDGER_BAD_TYPE', `${field} must be a string, not ${quote(value)}`);
  // The cap is checked before anything else reads the string, and longer text is refused, never cut.
  if (value.length > max)
    return bad('LEDGER_TOO_LONG', `${field} has ${value.length} characters; at most ${max}`);
  const problem = textProblem(value, multiline);
  if (problem) {
    return bad(
      problem.kind === 'blank' ? 'LEDGER_EMPTY' : 'LEDGER_CONTROL_CHAR',
      `${field} ${describeTextProblem(problem)}`,
    );
  }
  const normal = value.normalize('NFC');
  if (normal.length > max)
    return bad('LEDGER_TOO_LONG', `${field} has ${normal.length} characters; at most ${max}`);
  return { ok: true, value: normal };
}

function checkScalar(field: string, value: unknown, index: number): FieldResult<LedgerScalar> {
  const bad = (code: LedgerErrorCode, message: string): FieldFailure => ({
    ok: false,
    error: ledgerError(index, code, message, field),
  });
  if (value === null || typeof value === 'boolean') return { ok: true, value };
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return bad('LEDGER_NON_FINITE', `${field} must be a finite number`);
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
      return bad('LEDGER_UNSAFE_INTEGER', `${field} is an integer beyond ±${Number.MAX_SAFE_INTEGER}`);
    }
    // -0 would not survive a JSON round trip, and replay must equal the live world exactly.
    return { ok: true, value: Object.is(value, -0) ? 0 : value };
  }
  if (typeof value === 'string') return checkText(field, value, MAX_VALUE_TEXT_LENGTH, false, index);
  return bad('LEDGER_NOT_SCALAR', `${field} must be a string, number, boolean or null, not ${quote(value)}`);
}

function checkLabels(
  field: string,
  value: unknown,
  items: 'text' | 'key',
  index: number,
): FieldResult<readonly string[]> {
  const bad = (code: LedgerErrorCode, message: string): FieldFailure => ({
    ok: false,
    error: ledgerError(index, code, message, field),
  });
  if (!Array.isArray(value)) return bad('LEDGER_BAD_TYPE', `${field} must be a list of strings`);
  if (value.length > MAX_LABELS) {
    return bad('LEDGER_TOO_MANY_LABELS', `${field} has ${value.length} items; at most ${MAX_LABELS}`);
  }
  const out: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    const name = `${field}[${i}]`;
    const checked =
      items === 'key' ? checkKey(name, item, index) : checkText(name, item, MAX_LABEL_LENGTH, false, index);
    if (!checked.ok) return { ok: false, error: { ...checked.error, field } };
    const label = checked.value;
    // Decision: a repeated label (after NFC) is refused, not silently merged.
    if (seen.has(label)) return bad('LEDGER_DUPLICATE_LABEL', `${name} repeats ${quote(label)}`);
    seen.add(label);
    out.push(label);
  }
  return { ok: true, value: out };
}

function checkField(
  field: string,
  spec: FieldSpec,
  value: unknown,
  index: number,
): FieldResult<CheckedValue> {
  switch (spec.type) {
    case 'key':
      return checkKey(field, value, index);
    case 'text':
      return checkText(field, value, fieldMaxLength(spec) ?? 0, spec.kind === 'prose', index);
    case 'value':
      return checkScalar(field, value, index);
    case 'labels':
      return checkLabels(field, value, spec.items, index);
    default:
      return assertNever(spec);
  }
}
