// The ledger vocabulary: the whole set of world changes a model may propose. Nothing
// outside this table is ever validated as an event, applied or offered to a model. The prompt's event
// list, the tool's JSON Schema, the validator's shape checks and `apply`'s exhaustive switch are all
// generated from, or type-checked against, this one literal.

import {
  KEY_PATTERN,
  MAX_BATCH_EVENTS,
  MAX_KEY_LENGTH,
  MAX_LABEL_LENGTH,
  MAX_LABELS,
  MAX_LINE_TEXT_LENGTH,
  MAX_PROSE_TEXT_LENGTH,
  MAX_TIME_TEXT_LENGTH,
  MAX_VALUE_TEXT_LENGTH,
} from './limits.ts';

/** The four field types of the seed. `text` comes in two sizes; `labels` hold either text or keys. */
export type FieldType = 'text' | 'key' | 'value' | 'labels';
export type TextKind = 'line' | 'prose';

export type FieldSpec =
  | { readonly type: 'text'; readonly kind: TextKind }
  | { readonly type: 'key' }
  | { readonly type: 'value' }
  | { readonly type: 'labels'; readonly items: 'text' | 'key' };

export interface EventSpec {
  /** Fields that must be present and non-empty. */
  readonly required: Readonly<Record<string, FieldSpec>>;
  /** Fields that may be absent or null, with the same meaning either way. */
  readonly optional: Readonly<Record<string, FieldSpec>>;
  /** Fields naming an entity that must exist at that point in the batch (each item, for a `labels` field). */
  readonly refs: readonly string[];
  /** Fields that may name an entity *or* a known fact (a fact may be about another fact). */
  readonly refsEntityOrFact: readonly string[];
  /** The field naming what this event brings into being; only `create_entity` creates an entity. */
  readonly creates: 'entity' | null;
  readonly summary: string;
}

const LINE = { type: 'text', kind: 'line' } as const;
const PROSE = { type: 'text', kind: 'prose' } as const;
const KEY = { type: 'key' } as const;
const VALUE = { type: 'value' } as const;
const TEXT_LABELS = { type: 'labels', items: 'text' } as const;
const KEY_LABELS = { type: 'labels', items: 'key' } as const;

// Differences from the seed's table, each because the seed's own semantics need it (docs/ledger.md):
// `fact_id` is a key, since `add_fact.object` (a key) may name a fact; `attribute` is a key, so the write
// policy compares exact names ("Gold", "gold " and "player.gold" cannot slip past `gold`); `present` is in
// `refs`.
const TABLE = {
  create_entity: {
    required: { entity: KEY, name: LINE },
    optional: { entity_type: LINE, description: PROSE, aliases: TEXT_LABELS },
    refs: [],
    refsEntityOrFact: [],
    creates: 'entity',
    summary: 'brings a person, place, thing or group into the story',
  },
  set_entity_status: {
    required: { entity: KEY, status: LINE },
    optional: {},
    refs: ['entity'],
    refsEntityOrFact: [],
    creates: null,
    summary: 'sets whether an entity is active, gone, destroyed …',
  },
  set_entity_attribute: {
    required: { entity: KEY, attribute: KEY, value: VALUE },
    optional: {},
    refs: ['entity'],
    refsEntityOrFact: [],
    creates: null,
    summary: 'sets a named value on an entity, absolutely',
  },
  set_entity_conditions: {
    required: { entity: KEY, conditions: TEXT_LABELS },
    optional: {},
    refs: ['entity'],
    refsEntityOrFact: [],
    creates: null,
    summary: 'replaces the conditions an entity is under',
  },
  set_current_location: {
    required: { entity: KEY, location: KEY },
    optional: {},
    refs: ['entity', 'location'],
    refsEntityOrFact: [],
    creates: null,
    summary: 'moves an entity to a location',
  },
  set_possession: {
    required: { item: KEY, owner: KEY },
    optional: {},
    refs: ['item', 'owner'],
    refsEntityOrFact: [],
    creates: null,
    summary: 'gives an item to an owner',
  },
  clear_possession: {
    required: { item: KEY },
    optional: {},
    refs: ['item'],
    refsEntityOrFact: [],
    creates: null,
    summary: 'leaves an item held by nobody',
  },
  add_fact: {
    required: { predicate: LINE },
    optional: {
      subject: KEY,
      object: KEY,
      value: VALUE,
      fact_id: KEY,
      learned_by: KEY_LABELS,
      told_to: KEY_LABELS,
    },
    refs: ['subject', 'learned_by', 'told_to'],
    refsEntityOrFact: ['object'],
    creates: null,
    summary:
      'asserts something about the world; learned by those present (learned_by: exactly these; told_to: these too)',
  },
  invalidate_fact: {
    required: { fact_id: KEY },
    optional: { reason: PROSE },
    refs: [],
    refsEntityOrFact: [],
    creates: null,
    summary: 'withdraws a fact without deleting the record of it',
  },
  add_relationship: {
    required: { source: KEY, target: KEY, relationship: LINE },
    optional: { description: PROSE },
    refs: ['source', 'target'],
    refsEntityOrFact: [],
    creates: null,
    summary: 'ties two entities together',
  },
  end_relationship: {
    required: { source: KEY, target: KEY, relationship: LINE },
    optional: {},
    refs: ['source', 'target'],
    refsEntityOrFact: [],
    creates: null,
    summary: 'ends a tie without erasing that it existed',
  },
  open_story_thread: {
    required: { thread: KEY, title: LINE },
    optional: { description: PROSE },
    refs: [],
    refsEntityOrFact: [],
    creates: null,
    summary: 'records narrative business left open',
  },
  resolve_story_thread: {
    required: { thread: KEY },
    optional: { resolution: PROSE },
    refs: [],
    refsEntityOrFact: [],
    creates: null,
    summary: 'closes narrative business',
  },
  set_scene: {
    required: {},
    optional: { summary: PROSE, location: KEY, present: KEY_LABELS },
    refs: ['location', 'present'],
    refsEntityOrFact: [],
    creates: null,
    summary: 'records the immediate situation',
  },
} as const satisfies Record<string, EventSpec>;

export type LedgerSpecTable = typeof TABLE;
export type LedgerEventType = keyof LedgerSpecTable;

/** A table of specs: the full vocabulary, or a reduced one. Null prototype: keyed by type names. */
export type SpecTable = Readonly<Partial<Record<LedgerEventType, EventSpec>>>;

function freezeTable(table: Record<string, EventSpec>): SpecTable {
  const out: Record<string, EventSpec> = Object.create(null);
  for (const [type, spec] of Object.entries(table)) {
    out[type] = Object.freeze({
      ...spec,
      required: Object.freeze({ ...spec.required }),
      optional: Object.freeze({ ...spec.optional }),
      refs: Object.freeze([...spec.refs]),
      refsEntityOrFact: Object.freeze([...spec.refsEntityOrFact]),
    });
  }
  return Object.freeze(out) as SpecTable;
}

/** The vocabulary. Frozen, null prototype: `LEDGER_SPECS['constructor']` is undefined. */
export const LEDGER_SPECS: SpecTable = freezeTable(TABLE);

/** Event types in table order (the order of the prompt and the schema). */
export const LEDGER_EVENT_TYPES: readonly LedgerEventType[] = Object.freeze(
  Object.keys(TABLE) as LedgerEventType[],
);

const TYPE_SET: ReadonlySet<string> = new Set(LEDGER_EVENT_TYPES);

/**
 * Whether `x` names an event this engine applies. Byte-exact: no trimming, no case folding, no Unicode
 * normalisation, and a non-string is never coerced.
 */
export function isLedgerEventType(x: unknown): x is LedgerEventType {
  return typeof x === 'string' && TYPE_SET.has(x);
}

/**
 * A reduced table with only `types`: removing a type from the table removes it from the prompt, the
 * schema and the validator at once (cartridges may narrow the vocabulary this way later).
 */
export function restrictSpecs(types: readonly LedgerEventType[]): SpecTable {
  const picked: Record<string, EventSpec> = Object.create(null);
  for (const type of types) {
    const spec = LEDGER_SPECS[type];
    if (spec) picked[type] = spec;
  }
  return freezeTable(picked);
}

export function specTypes(specs: SpecTable): LedgerEventType[] {
  return LEDGER_EVENT_TYPES.filter((type) => specs[type] !== undefined);
}

export function fieldMaxLength(field: FieldSpec): number | null {
  switch (field.type) {
    case 'text':
      return field.kind === 'line' ? MAX_LINE_TEXT_LENGTH : MAX_PROSE_TEXT_LENGTH;
    case 'key':
      return MAX_KEY_LENGTH;
    case 'value':
      return MAX_VALUE_TEXT_LENGTH;
    case 'labels':
      return null;
  }
}

/**
 * One batch that uses every event type, valid in this order against an empty world. It is the example the
 * prompt shows, and a test proves it passes the validator.
 */
export const VOCABULARY_EXAMPLE: ReadonlyArray<Readonly<Record<string, unknown>>> = Object.freeze([
  {
    event_type: 'create_entity',
    entity: 'mara',
    name: 'Mara',
    entity_type: 'person',
    aliases: ['the smith'],
  },
  { event_type: 'create_entity', entity: 'forge', name: 'The Forge', entity_type: 'place' },
  { event_type: 'create_entity', entity: 'iron_key', name: 'Iron key', entity_type: 'item' },
  { event_type: 'set_entity_status', entity: 'mara', status: 'active' },
  { event_type: 'set_entity_attribute', entity: 'mara', attribute: 'mood', value: 'wary' },
  { event_type: 'set_entity_conditions', entity: 'mara', conditions: ['tired'] },
  { event_type: 'set_current_location', entity: 'mara', location: 'forge' },
  { event_type: 'set_possession', item: 'iron_key', owner: 'mara' },
  {
    event_type: 'add_fact',
    fact_id: 'key_hidden',
    subject: 'iron_key',
    predicate: 'was hidden under the anvil',
    learned_by: ['mara'],
  },
  {
    event_type: 'add_fact',
    subject: 'mara',
    predicate: 'knows',
    object: 'key_hidden',
    told_to: ['mara'],
  },
  { event_type: 'invalidate_fact', fact_id: 'key_hidden', reason: 'Mara moved it' },
  { event_type: 'clear_possession', item: 'iron_key' },
  { event_type: 'add_relationship', source: 'mara', target: 'forge', relationship: 'works at' },
  { event_type: 'end_relationship', source: 'mara', target: 'forge', relationship: 'works at' },
  { event_type: 'open_story_thread', thread: 'lost_key', title: 'Where is the iron key?' },
  { event_type: 'resolve_story_thread', thread: 'lost_key', resolution: 'Mara hid it' },
  { event_type: 'set_scene', summary: 'Mara works the forge', location: 'forge', present: ['mara'] },
]);

/** The event list as a prompt describes it, generated from the table so it can never name a missing event. */
export function vocabularyForPrompt(specs: SpecTable = LEDGER_SPECS): string {
  const lines: string[] = [];
  for (const type of specTypes(specs)) {
    const spec = specs[type]!;
    const fields = [...Object.keys(spec.required), ...Object.keys(spec.optional).map((f) => `${f}?`)];
    lines.push(`  ${type}(${fields.join(', ')}) — ${spec.summary}`);
  }
  return lines.join('\n');
}

/** The example batch restricted to `specs` (a reduced table drops its events from the example too). */
export function vocabularyExample(specs: SpecTable = LEDGER_SPECS): Array<Readonly<Record<string, unknown>>> {
  return VOCABULARY_EXAMPLE.filter(
    (e) => isLedgerEventType(e.event_type) && specs[e.event_type] !== undefined,
  );
}

/** What a policy adds to the schema: names the narrator may not write, and declared attribute names. */
export interface SchemaPolicyHints {
  readonly rulesOwnedAttributes: readonly string[];
  readonly declaredAttributes: readonly string[];
}

type JsonSchema = Record<string, unknown>;

function fieldSchema(field: FieldSpec, optional: boolean): JsonSchema {
  const nullable = (t: string | string[]): string | string[] =>
    optional ? [...(Array.isArray(t) ? t : [t]), 'null'] : t;
  switch (field.type) {
    case 'text':
      return { type: nullable('string'), minLength: 1, maxLength: fieldMaxLength(field) };
    case 'key':
      return { type: nullable('string'), pattern: KEY_PATTERN.source };
    case 'value':
      return {
        type: ['string', 'number', 'boolean', 'null'],
        description: 'an absolute value (a number means that number, never "add this")',
      };
    case 'labels':
      return {
        type: nullable('array'),
        maxItems: MAX_LABELS,
        uniqueItems: true,
        items:
          field.items === 'key'
            ? { type: 'string', pattern: KEY_PATTERN.source }
            : { type: 'string', minLength: 1, maxLength: MAX_LABEL_LENGTH },
      };
  }
}

/**
 * The JSON Schema of the Narrator's `record_world_changes` tool input: `{events: [...], time?: {advance?,
 * set?}}`, one closed variant per event type, discriminated by a `const` `event_type`.
 * The schema constrains shape at best; `validateBatch` stays the boundary.
 */
export function recordWorldChangesJsonSchema(
  policy?: SchemaPolicyHints,
  specs: SpecTable = LEDGER_SPECS,
): JsonSchema {
  const variants: JsonSchema[] = [];
  for (const type of specTypes(specs)) {
    const spec = specs[type]!;
    const properties: Record<string, JsonSchema> = { event_type: { const: type } };
    for (const [name, field] of Object.entries(spec.required)) properties[name] = fieldSchema(field, false);
    for (const [name, field] of Object.entries(spec.optional)) properties[name] = fieldSchema(field, true);
    if (policy && type === 'set_entity_attribute' && properties.attribute) {
      const parts: string[] = [];
      if (policy.declaredAttributes.length > 0)
        parts.push(`declared: ${policy.declaredAttributes.join(', ')}`);
      if (policy.rulesOwnedAttributes.length > 0) {
        parts.push(`never (owned by the rules): ${policy.rulesOwnedAttributes.join(', ')}`);
      }
      if (parts.length > 0) properties.attribute = { ...properties.attribute, description: parts.join('; ') };
    }
    variants.push({
      type: 'object',
      description: spec.summary,
      additionalProperties: false,
      required: ['event_type', ...Object.keys(spec.required)],
      properties,
    });
  }
  return {
    type: 'object',
    additionalProperties: false,
    required: ['events'],
    properties: {
      events: { type: 'array', maxItems: MAX_BATCH_EVENTS, items: { anyOf: variants } },
      time: {
        type: 'object',
        additionalProperties: false,
        description: 'how the story clock moves this turn: advance by a duration, or set an absolute time',
        properties: {
          advance: {
            type: 'string',
            maxLength: MAX_TIME_TEXT_LENGTH,
            description: 'an ISO-8601 duration (PT15M, P1D) or 15m / 2h / 1d',
          },
          set: { type: 'string', maxLength: MAX_TIME_TEXT_LENGTH, description: 'an ISO-8601 date-time' },
        },
      },
    },
  };
}
