// The ledger's boundary: model output is untrusted input, and this is the only way into a ledger event.
// Each event is checked in order — shape first (closed schema from the table), then against a scratch
// copy of the world that already holds the effects of the earlier events in the batch (reference §4.1),
// then against the write policy. The batch is all-or-nothing: one error anywhere and nothing applies.

import { applyEvent, engineFactId, WorldDraft } from './apply.ts';
import { type LedgerError, type LedgerErrorCode, ledgerError } from './errors.ts';
import type { LedgerEvent, LedgerScalar } from './events.ts';
import { guardJsonValue } from './json.ts';
import {
  DEFAULT_LIMITS,
  ENGINE_FACT_ID_PATTERN,
  KEY_PATTERN,
  type LedgerLimits,
  MAX_LABEL_LENGTH,
  MAX_LABELS,
  MAX_REPORTED_ERRORS,
  MAX_VALUE_TEXT_LENGTH,
  RESERVED_KEYS,
  MAX_WORLD_EVENTS,
} from './limits.ts';
import { checkLedgerSection, DEFAULT_POLICY, type LedgerPolicy, type SectionResult } from './policy.ts';
import {
  type FieldSpec,
  fieldMaxLength,
  LEDGER_SPECS,
  type LedgerEventType,
  type SpecTable,
  specTypes,
} from './spec.ts';
import { assertNever, describeTextProblem, nameFold, nameSkeleton, quote, textProblem } from './text.ts';
import {
  emptyWorld,
  getFact,
  isRelationshipActive,
  lookup,
  relationshipId,
  type Stamp,
  type World,
} from './world.ts';

/**
 * Who proposes the batch. The plausibility rules (L-30, L-31) and per-turn change caps bind the narrator;
 * a cartridge's starting world is authored, not proposed, so only shape, references and rules ownership
 * bind it.
 */
export type BatchSource = 'narrator' | 'cartridge';

export interface ValidateOptions {
  readonly limits?: Partial<LedgerLimits>;
  /** A reduced vocabulary (L-51); the full table by default. */
  readonly specs?: SpecTable;
  /**
   * The turn (and clock) the batch would commit at. With it, engine-assigned fact ids are checked for
   * collisions exactly; without it the scratch uses a turn no log reaches.
   */
  readonly at?: Stamp;
  readonly source?: BatchSource;
}

export type ValidateResult =
  | { readonly ok: true; readonly events: LedgerEvent[] }
  | { readonly ok: false; readonly errors: LedgerError[] };

export type ProposeResult =
  | { readonly ok: true; readonly events: LedgerEvent[]; readonly world: World }
  | { readonly ok: false; readonly errors: LedgerError[] };

const SCRATCH_TURN = Number.MAX_SAFE_INTEGER;

/** Validates a batch from untrusted JSON; nothing is applied. */
export function validateBatch(
  world: World,
  rawEvents: unknown,
  policy: LedgerPolicy = DEFAULT_POLICY,
  options: ValidateOptions = {},
): ValidateResult {
  const result = proposeBatch(world, rawEvents, policy, options);
  return result.ok ? { ok: true, events: result.events } : result;
}

/**
 * Validates a batch and, when every event passes, returns the world with the batch applied at
 * `options.at` — the scratch copy validation built, so the turn layer can commit it without a second pass.
 */
export function proposeBatch(
  world: World,
  rawEvents: unknown,
  policy: LedgerPolicy = DEFAULT_POLICY,
  options: ValidateOptions = {},
): ProposeResult {
  const limits: LedgerLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const specs = options.specs ?? LEDGER_SPECS;
  const at: Stamp = options.at ?? { turn: SCRATCH_TURN };
  const source = options.source ?? 'narrator';

  const guard = guardJsonValue(rawEvents, limits);
  if (guard) return { ok: false, errors: [guard] };
  if (!Array.isArray(rawEvents)) {
    return {
      ok: false,
      errors: [ledgerError(-1, 'LEDGER_NOT_ARRAY', 'events must be a JSON array of events')],
    };
  }
  if (rawEvents.length > limits.maxBatchEvents) {
    const message = `a batch holds at most ${limits.maxBatchEvents} events; this one has ${rawEvents.length}`;
    return { ok: false, errors: [ledgerError(-1, 'LEDGER_BATCH_TOO_LARGE', message)] };
  }

  const errors: LedgerError[] = [];
  const events: LedgerEvent[] = [];
  const draft = new WorldDraft(world);
  const ctx: CheckContext = { draft, policy, before: world, at, source };
  rawEvents.forEach((raw, index) => {
    const parsed = parseEvent(raw, index, specs);
    if (!parsed.ok) {
      errors.push(...parsed.errors);
      return;
    }
    const problem = checkEvent(ctx, parsed.event, index);
    if (problem) {
      errors.push(problem);
      return;
    }
    applyEvent(draft, parsed.event, index, at);
    events.push(parsed.event);
  });
  if (errors.length > 0) return { ok: false, errors: capErrors(errors) };
  return { ok: true, events, world: draft.finish() };
}

function capErrors(errors: LedgerError[]): LedgerError[] {
  if (errors.length <= MAX_REPORTED_ERRORS) return errors;
  const kept = errors.slice(0, MAX_REPORTED_ERRORS - 1);
  kept.push(
    ledgerError(-1, 'LEDGER_TOO_MANY_ERRORS', `${errors.length - kept.length} more errors not listed`),
  );
  return kept;
}

// ---------------------------------------------------------------------------------------------------
// Shape

type Parsed = { ok: true; event: LedgerEvent } | { ok: false; errors: LedgerError[] };

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses one wire event into the union, or says every way its shape is wrong. */
export function parseEvent(raw: unknown, index: number, specs: SpecTable = LEDGER_SPECS): Parsed {
  const fail = (code: LedgerErrorCode, message: string, field?: string): Parsed => ({
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
  // Map-free membership on a null-prototype table plus an own-property check: `constructor`, `__proto__`
  // and `toString` are simply unknown (L-01…L-03).
  const spec = Object.hasOwn(specs, typeValue) ? specs[typeValue as LedgerEventType] : undefined;
  if (!spec) {
    return fail(
      'LEDGER_UNKNOWN_EVENT',
      `unknown event type ${quote(typeValue)}; known: ${specTypes(specs).join(', ')}`,
      'event_type',
    );
  }
  const type = typeValue as LedgerEventType;
  const errors: LedgerError[] = [];
  const out: Record<string, unknown> = { type };
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
    if (checked.ok) out[field] = checked.value;
    else errors.push(checked.error);
  }
  for (const [field, fieldSpec] of Object.entries(spec.optional)) {
    const value = Object.hasOwn(raw, field) ? raw[field] : undefined;
    if (value === undefined || value === null) continue;
    const checked = checkField(field, fieldSpec, value, index);
    if (checked.ok) out[field] = checked.value;
    else errors.push(checked.error);
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, event: out as unknown as LedgerEvent };
}

type FieldResult = { ok: true; value: unknown } | { ok: false; error: LedgerError };

function checkKey(field: string, value: unknown, index: number): FieldResult {
  const bad = (code: LedgerErrorCode, message: string): FieldResult => ({
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
): FieldResult {
  const bad = (code: LedgerErrorCode, message: string): FieldResult => ({
    ok: false,
    error: ledgerError(index, code, message, field),
  });
  if (typeof value !== 'string')
    return bad('LEDGER_BAD_TYPE', `${field} must be a string, not ${quote(value)}`);
  // The cap is checked before anything else reads the string, and longer text is refused, never cut (L-10).
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

function checkScalar(field: string, value: unknown, index: number): FieldResult {
  const bad = (code: LedgerErrorCode, message: string): FieldResult => ({
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

function checkLabels(field: string, value: unknown, items: 'text' | 'key', index: number): FieldResult {
  const bad = (code: LedgerErrorCode, message: string): FieldResult => ({
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
    const label = checked.value as string;
    // Decision: a repeated label (after NFC) is refused, not silently merged (L-09, L-21).
    if (seen.has(label)) return bad('LEDGER_DUPLICATE_LABEL', `${name} repeats ${quote(label)}`);
    seen.add(label);
    out.push(label);
  }
  return { ok: true, value: out };
}

function checkField(field: string, spec: FieldSpec, value: unknown, index: number): FieldResult {
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

// ---------------------------------------------------------------------------------------------------
// References, uniqueness and policy: one exhaustive switch, against the scratch world.

interface CheckContext {
  readonly draft: WorldDraft;
  readonly policy: LedgerPolicy;
  /** The committed world before this batch (per-turn change caps compare against it). */
  readonly before: World;
  readonly at: Stamp;
  readonly source: BatchSource;
}

function checkEvent(ctx: CheckContext, event: LedgerEvent, index: number): LedgerError | null {
  const { draft, policy } = ctx;
  const err = (code: LedgerErrorCode, field: string, message: string): LedgerError =>
    ledgerError(index, code, message, field);
  const needEntity = (field: string, key: string): LedgerError | null =>
    draft.entity(key)
      ? null
      : err(
          'LEDGER_UNKNOWN_REF',
          field,
          `${field} ${quote(key)} does not exist; create it first with create_entity`,
        );

  switch (event.type) {
    case 'create_entity': {
      if (draft.entity(event.entity)) {
        return err(
          'LEDGER_DUPLICATE',
          'entity',
          `entity ${quote(event.entity)} already exists; refer to it instead`,
        );
      }
      if (draft.fact(event.entity)) {
        return err(
          'LEDGER_KEY_COLLISION',
          'entity',
          `${quote(event.entity)} is already a fact id; pick another key`,
        );
      }
      if (ENGINE_FACT_ID_PATTERN.test(event.entity)) {
        return err(
          'LEDGER_BAD_KEY',
          'entity',
          `${quote(event.entity)} has the shape of an engine fact id (f_<n>_<n>)`,
        );
      }
      return checkConfusable(ctx, event, index);
    }
    case 'set_entity_status':
    case 'set_entity_conditions':
      return needEntity('entity', event.entity);
    case 'set_entity_attribute':
      return (
        needEntity('entity', event.entity) ??
        checkAttribute(ctx, event.entity, event.attribute, event.value, index)
      );
    case 'set_current_location':
      return (
        needEntity('entity', event.entity) ??
        needEntity('location', event.location) ??
        (event.entity === event.location
          ? err('LEDGER_SELF_REFERENCE', 'location', `${quote(event.entity)} cannot be located inside itself`)
          : null)
      );
    case 'set_possession': {
      const problem = needEntity('item', event.item) ?? needEntity('owner', event.owner);
      if (problem) return problem;
      if (event.item === event.owner) {
        return err('LEDGER_SELF_REFERENCE', 'owner', `${quote(event.item)} cannot hold itself`);
      }
      // Walk the owner's holders: giving a bag to the coin inside it would make possession circular.
      let holder = draft.entity(event.owner)?.holder;
      for (let steps = 0; holder !== undefined && steps < 10_000; steps++) {
        if (holder === event.item) {
          return err(
            'LEDGER_POSSESSION_CYCLE',
            'owner',
            `${quote(event.owner)} is itself held by ${quote(event.item)}`,
          );
        }
        holder = draft.entity(holder)?.holder;
      }
      return checkPlausibleGrant(ctx, event.item, event.owner, index);
    }
    case 'clear_possession':
      return needEntity('item', event.item);
    case 'add_fact': {
      if (event.subject !== undefined) {
        const problem = needEntity('subject', event.subject);
        if (problem) return problem;
      }
      if (event.fact_id !== undefined) {
        if (draft.fact(event.fact_id)) {
          return err(
            'LEDGER_DUPLICATE',
            'fact_id',
            `fact ${quote(event.fact_id)} already exists; use a new fact_id`,
          );
        }
        if (draft.entity(event.fact_id)) {
          return err(
            'LEDGER_KEY_COLLISION',
            'fact_id',
            `${quote(event.fact_id)} is an entity key; fact ids and entity keys share one namespace`,
          );
        }
        if (ENGINE_FACT_ID_PATTERN.test(event.fact_id)) {
          return err(
            'LEDGER_BAD_KEY',
            'fact_id',
            `${quote(event.fact_id)} has the shape of an engine fact id (f_<n>_<n>); omit fact_id to get one`,
          );
        }
      } else if (draft.fact(engineFactId(ctx.at.turn, index))) {
        return err(
          'LEDGER_DUPLICATE',
          'fact_id',
          `turn ${ctx.at.turn} already assigned fact ${engineFactId(ctx.at.turn, index)}`,
        );
      }
      if (event.object !== undefined) {
        if (event.object === event.fact_id) {
          return err(
            'LEDGER_SELF_REFERENCE',
            'object',
            `fact ${quote(event.object)} cannot be its own object`,
          );
        }
        if (!draft.entity(event.object) && !draft.fact(event.object)) {
          return err(
            'LEDGER_UNKNOWN_REF',
            'object',
            `object ${quote(event.object)} is neither an entity nor a fact`,
          );
        }
      }
      return null;
    }
    case 'invalidate_fact': {
      const fact = draft.fact(event.fact_id);
      if (!fact) return err('LEDGER_UNKNOWN_REF', 'fact_id', `fact ${quote(event.fact_id)} does not exist`);
      if (fact.invalidated) {
        return err(
          'LEDGER_ALREADY_CLOSED',
          'fact_id',
          `fact ${quote(event.fact_id)} was already invalidated at turn ${fact.invalidated.turn}`,
        );
      }
      return null;
    }
    case 'add_relationship': {
      const problem = needEntity('source', event.source) ?? needEntity('target', event.target);
      if (problem) return problem;
      if (event.source === event.target && !policy.allowSelfRelationships) {
        return err('LEDGER_SELF_REFERENCE', 'target', 'a relationship needs two different entities');
      }
      const existing = draft.relationship(relationshipId(event.source, event.target, event.relationship));
      if (existing && isRelationshipActive(existing)) {
        return err(
          'LEDGER_DUPLICATE',
          'relationship',
          `${quote(event.source)} already ${quote(event.relationship)} ${quote(event.target)}`,
        );
      }
      return null;
    }
    case 'end_relationship': {
      const problem = needEntity('source', event.source) ?? needEntity('target', event.target);
      if (problem) return problem;
      const existing = draft.relationship(relationshipId(event.source, event.target, event.relationship));
      if (!existing) {
        return err(
          'LEDGER_UNKNOWN_REF',
          'relationship',
          `no relationship ${quote(event.relationship)} from ${quote(event.source)} to ${quote(event.target)}`,
        );
      }
      if (!isRelationshipActive(existing)) {
        return err(
          'LEDGER_ALREADY_CLOSED',
          'relationship',
          `relationship ${quote(event.relationship)} already ended`,
        );
      }
      return null;
    }
    case 'open_story_thread':
      return draft.thread(event.thread)
        ? err('LEDGER_DUPLICATE', 'thread', `thread ${quote(event.thread)} already exists`)
        : null;
    case 'resolve_story_thread': {
      const thread = draft.thread(event.thread);
      if (!thread) return err('LEDGER_UNKNOWN_REF', 'thread', `thread ${quote(event.thread)} does not exist`);
      if (thread.resolved) {
        return err(
          'LEDGER_ALREADY_CLOSED',
          'thread',
          `thread ${quote(event.thread)} was resolved at turn ${thread.resolved.turn}`,
        );
      }
      return checkThreadConditions(ctx, event.thread, index);
    }
    case 'set_scene': {
      if (event.location !== undefined) {
        const problem = needEntity('location', event.location);
        if (problem) return problem;
      }
      for (const key of event.present ?? []) {
        if (!draft.entity(key)) {
          return err(
            'LEDGER_UNKNOWN_REF',
            'present',
            `present ${quote(key)} does not exist; create it first with create_entity`,
          );
        }
      }
      return null;
    }
    default:
      return assertNever(event);
  }
}

/** B-25: a new name that only *looks* like an existing one ("Mаra" with a Cyrillic а) is refused. */
function checkConfusable(
  ctx: CheckContext,
  event: Extract<LedgerEvent, { type: 'create_entity' }>,
  index: number,
): LedgerError | null {
  // Kept with the world and current with this batch's earlier creates (name-index.ts).
  const names = ctx.draft.nameIndex();
  const mine = [event.name, ...(event.aliases ?? [])];
  for (const name of mine) {
    const fold = nameFold(name);
    for (const other of names.lookalikes(nameSkeleton(name))) {
      // The same name written the same way (two "Guard"s) is allowed; a look-alike spelling is not.
      if (other.fold !== fold) {
        return ledgerError(
          index,
          'LEDGER_CONFUSABLE_NAME',
          `${quote(name)} looks like ${quote(other.name)} of entity ${quote(other.key)} but is spelled with different characters; reuse key ${quote(other.key)}`,
          name === event.name ? 'name' : 'aliases',
        );
      }
    }
  }
  return null;
}

function attributeTypeOf(value: LedgerScalar): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'boolean') return 'bool';
  return 'string';
}

/** The write policy for `set_entity_attribute` (L-28, L-29). */
function checkAttribute(
  ctx: CheckContext,
  entity: string,
  attribute: string,
  value: LedgerScalar,
  index: number,
): LedgerError | null {
  const { policy } = ctx;
  const err = (code: LedgerErrorCode, message: string): LedgerError =>
    ledgerError(index, code, message, 'attribute');
  if (policy.rulesOwned.has(attribute)) {
    return err(
      'LEDGER_RULES_OWNED',
      `attribute ${quote(attribute)} is owned by the game rules; the narrator cannot set it`,
    );
  }
  const decl = policy.attributes.get(attribute);
  if (!decl) {
    return policy.undeclaredAttributes === 'reject'
      ? err(
          'LEDGER_UNDECLARED_ATTRIBUTE',
          `attribute ${quote(attribute)} is not declared; declared: ${[...policy.attributes.keys()].join(', ') || 'none'}`,
        )
      : null;
  }
  const valueErr = (code: LedgerErrorCode, message: string): LedgerError =>
    ledgerError(index, code, message, 'value');
  // null clears a declared attribute whatever its type.
  if (value === null) return null;
  const actual = attributeTypeOf(value);
  const fits = decl.type === actual || (decl.type === 'float' && actual === 'int');
  if (!fits)
    return valueErr('LEDGER_ATTRIBUTE_TYPE', `attribute ${attribute} holds ${decl.type}, not ${actual}`);
  if (typeof value === 'string' && decl.enum && !decl.enum.includes(value)) {
    return valueErr('LEDGER_OUT_OF_RANGE', `attribute ${attribute} must be one of: ${decl.enum.join(', ')}`);
  }
  if (typeof value === 'number') {
    if ((decl.min !== undefined && value < decl.min) || (decl.max !== undefined && value > decl.max)) {
      return valueErr(
        'LEDGER_OUT_OF_RANGE',
        `attribute ${attribute} must be within [${decl.min ?? '-∞'}, ${decl.max ?? '∞'}]`,
      );
    }
    if (decl.maxChange !== undefined && ctx.source === 'narrator') {
      // Validation of an absolute value against the committed one, not a delta protocol (L-29).
      const previous = lookup(ctx.before.entities, entity);
      const old = previous ? lookup(previous.attributes, attribute) : undefined;
      if (typeof old === 'number' && Math.abs(value - old) > decl.maxChange) {
        return valueErr(
          'LEDGER_CHANGE_TOO_LARGE',
          `attribute ${attribute} may change by at most ${decl.maxChange} in one turn (was ${old})`,
        );
      }
    }
  }
  return null;
}

/**
 * L-30: an item reaches the player only from the scene — it is where the scene is (or where the player
 * is), it is listed as present, its holder is present or beside the player — or the cartridge marked it
 * grantable. This answers "(Suddenly the Duke hands me the Crown of Kings)".
 *
 * Judged on the world as of the batch's start (issue 16): a batch cannot first put the crown (or the Duke)
 * in the scene, or move the scene to them, and then use that to hand it over. An item the batch itself
 * creates is judged by where it was created, against the scene and the player as they were.
 */
function checkPlausibleGrant(
  ctx: CheckContext,
  item: string,
  owner: string,
  index: number,
): LedgerError | null {
  const { draft, policy } = ctx;
  if (ctx.source !== 'narrator' || policy.player === null || owner !== policy.player) return null;
  if (policy.grantableItems.has(item)) return null;
  const { before } = ctx;
  const record = lookup(before.entities, item) ?? draft.entity(item)!;
  if (record.holder === owner) return null;
  const player = lookup(before.entities, owner);
  const scene = before.scene;
  const present = new Set(scene?.present ?? []);
  const places = new Set<string>();
  if (scene?.location !== undefined) places.add(scene.location);
  if (player?.location !== undefined) places.add(player.location);
  const holder = record.holder === undefined ? undefined : lookup(before.entities, record.holder);
  const plausible =
    present.has(item) ||
    (record.location !== undefined && places.has(record.location)) ||
    (holder !== undefined &&
      (present.has(holder.key) || (holder.location !== undefined && places.has(holder.location))));
  if (plausible) return null;
  return ledgerError(
    index,
    'LEDGER_IMPLAUSIBLE',
    `${quote(item)} is not in the scene (not present, not at the scene's location, its holder is not there), so it cannot pass to ${quote(owner)}`,
    'item',
  );
}

/**
 * L-31: a thread the cartridge gave conditions resolves only when they hold in the ledger, as of the
 * batch's start: a batch cannot add the fact (or set the status) it needs and resolve the thread with it.
 */
function checkThreadConditions(ctx: CheckContext, thread: string, index: number): LedgerError | null {
  if (ctx.source !== 'narrator') return null;
  const requirements = ctx.policy.threadRequirements.get(thread);
  if (!requirements) return null;
  for (const req of requirements) {
    switch (req.kind) {
      case 'fact': {
        const fact = getFact(ctx.before, req.fact);
        if (!fact || fact.invalidated) {
          return ledgerError(
            index,
            'LEDGER_CONDITIONS_UNMET',
            `thread ${thread} needs the fact ${req.fact} to hold`,
            'thread',
          );
        }
        break;
      }
      case 'status':
        if (lookup(ctx.before.entities, req.entity)?.status !== req.status) {
          return ledgerError(
            index,
            'LEDGER_CONDITIONS_UNMET',
            `thread ${thread} needs ${req.entity} to have status ${quote(req.status)}`,
            'thread',
          );
        }
        break;
      default:
        return assertNever(req);
    }
  }
  return null;
}

/**
 * The optional `ledger:` section of yare.yaml: its policy, and its starting world validated from an empty
 * world (as the cartridge, with rules ownership still enforced). Issue paths start at the yare.yaml root.
 */
export function validateLedgerSection(raw: unknown, options: { stateSchema?: unknown } = {}): SectionResult {
  return checkLedgerSection(raw, options.stateSchema, (events, policy) => {
    const result = validateBatch(emptyWorld(), events, policy, {
      source: 'cartridge',
      at: { turn: 0 },
      limits: {
        maxBatchEvents: MAX_WORLD_EVENTS,
        maxJsonNodes: MAX_WORLD_EVENTS * 64,
        maxJsonBytes: MAX_WORLD_EVENTS * 4096,
      },
    });
    return result;
  });
}
