// The vocabulary is one table: prompt, schema, validator and apply agree with it.
import { describe, expect, it } from 'vitest';
import {
  applyBatch,
  emptyWorld,
  isLedgerEventType,
  LEDGER_EVENT_TYPES,
  LEDGER_SPECS,
  type LedgerEvent,
  type LedgerEventType,
  parseEvent,
  recordWorldChangesJsonSchema,
  restrictSpecs,
  VOCABULARY_EXAMPLE,
  validateBatch,
  vocabularyExample,
  vocabularyForPrompt,
} from '../../../src/core/ledger/index.ts';

const SEED_TYPES = [
  'create_entity',
  'set_entity_status',
  'set_entity_attribute',
  'set_entity_conditions',
  'set_current_location',
  'set_possession',
  'clear_possession',
  'add_fact',
  'invalidate_fact',
  'add_relationship',
  'end_relationship',
  'open_story_thread',
  'resolve_story_thread',
  'set_scene',
];

function schemaVariants(
  schema: Record<string, unknown>,
): Array<{ properties: Record<string, { const?: string }>; required: string[] }> {
  const events = (schema.properties as Record<string, { items: { anyOf: unknown[] } }>).events;
  return events!.items.anyOf as Array<{ properties: Record<string, { const?: string }>; required: string[] }>;
}

describe('the vocabulary table', () => {
  it('prompt, JSON Schema, validator and apply cover exactly the event table', () => {
    expect([...LEDGER_EVENT_TYPES]).toEqual(SEED_TYPES);
    const prompt = vocabularyForPrompt()
      .split('\n')
      .map((line) => line.trim().split('(')[0]);
    expect(prompt).toEqual(SEED_TYPES);
    const schemaTypes = schemaVariants(recordWorldChangesJsonSchema()).map(
      (v) => v.properties.event_type!.const,
    );
    expect(schemaTypes).toEqual(SEED_TYPES);
    // The validator accepts every type (through the example) and apply handles every type it returns.
    const result = validateBatch(emptyWorld(), VOCABULARY_EXAMPLE);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(new Set(result.events.map((e) => e.type))).toEqual(new Set(SEED_TYPES));
    expect(() => applyBatch(emptyWorld(), result.events, { turn: 1 })).not.toThrow();
  });

  it("the event union and the table cannot drift: every variant has exactly its row's fields", () => {
    // Compile time: events.ts fails to build when a variant and its row disagree. Run time: the parsed
    // example events carry only fields their row names, and each row's fields appear in the schema.
    for (const type of SEED_TYPES as LedgerEventType[]) {
      const spec = LEDGER_SPECS[type]!;
      const fields = new Set([...Object.keys(spec.required), ...Object.keys(spec.optional)]);
      const variant = schemaVariants(recordWorldChangesJsonSchema()).find(
        (v) => v.properties.event_type!.const === type,
      )!;
      expect(new Set(Object.keys(variant.properties))).toEqual(new Set(['event_type', ...fields]));
      expect(variant.required).toEqual(['event_type', ...Object.keys(spec.required)]);
      for (const wire of VOCABULARY_EXAMPLE.filter((e) => e.event_type === type)) {
        const parsed = parseEvent(wire, 0);
        if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
        for (const key of Object.keys(parsed.event)) if (key !== 'type') expect(fields.has(key)).toBe(true);
      }
    }
  });

  it("every row's refs are checked: each ref field naming a missing entity is refused on that field", () => {
    // The reference pass takes its entity references from the table row (event-checks.ts checkRefs), so a
    // row's `refs` are the fields that must name an existing entity — every one of them, in every row.
    const checked = new Set<string>();
    VOCABULARY_EXAMPLE.forEach((wire, at) => {
      const type = wire.event_type as LedgerEventType;
      for (const field of LEDGER_SPECS[type]!.refs) {
        if (wire[field] === undefined) continue;
        const ghost = Array.isArray(wire[field]) ? ['ghost'] : 'ghost';
        const batch = [...VOCABULARY_EXAMPLE.slice(0, at), { ...wire, [field]: ghost }];
        const result = validateBatch(emptyWorld(), batch);
        if (result.ok) throw new Error(`${type}.${field} naming a missing entity passed`);
        expect(result.errors).toEqual([
          expect.objectContaining({ index: at, code: 'LEDGER_UNKNOWN_REF', field }),
        ]);
        expect(result.errors[0]!.message).toBe(
          `${field} "ghost" does not exist; create it first with create_entity`,
        );
        checked.add(`${type}.${field}`);
      }
    });
    // Every ref field of every row appears in the example, so none went unchecked.
    const refFields = SEED_TYPES.flatMap((t) =>
      LEDGER_SPECS[t as LedgerEventType]!.refs.map((f) => `${t}.${f}`),
    );
    expect(checked).toEqual(new Set(refFields));
    expect(checked.size).toBe(17);
  });

  it('every example in the prompt passes the validator, and the prompt text is stable', () => {
    expect(validateBatch(emptyWorld(), vocabularyExample()).ok).toBe(true);
    expect(vocabularyForPrompt()).toBe(vocabularyForPrompt());
    expect(vocabularyForPrompt()).toMatchInlineSnapshot(`
      "  create_entity(entity, name, entity_type?, description?, aliases?) — brings a person, place, thing or group into the story
        set_entity_status(entity, status) — sets whether an entity is active, gone, destroyed …
        set_entity_attribute(entity, attribute, value) — sets a named value on an entity, absolutely
        set_entity_conditions(entity, conditions) — replaces the conditions an entity is under
        set_current_location(entity, location) — moves an entity to a location
        set_possession(item, owner) — gives an item to an owner
        clear_possession(item) — leaves an item held by nobody
        add_fact(predicate, subject?, object?, value?, fact_id?, learned_by?, told_to?) — asserts something about the world; learned by those present (learned_by: exactly these; told_to: these too)
        invalidate_fact(fact_id, reason?) — withdraws a fact without deleting the record of it
        add_relationship(source, target, relationship, description?) — ties two entities together
        end_relationship(source, target, relationship) — ends a tie without erasing that it existed
        open_story_thread(thread, title, description?) — records narrative business left open
        resolve_story_thread(thread, resolution?) — closes narrative business
        set_scene(summary?, location?, present?) — records the immediate situation"
    `);
  });

  it('removing a type from the table removes it from prompt, schema and validator at once', () => {
    const reduced = restrictSpecs(SEED_TYPES.filter((t) => t !== 'set_possession') as LedgerEventType[]);
    expect(vocabularyForPrompt(reduced)).not.toContain('set_possession');
    expect(
      schemaVariants(recordWorldChangesJsonSchema(undefined, reduced)).map(
        (v) => v.properties.event_type!.const,
      ),
    ).not.toContain('set_possession');
    expect(vocabularyExample(reduced).some((e) => e.event_type === 'set_possession')).toBe(false);
    const out = validateBatch(
      emptyWorld(),
      [{ event_type: 'set_possession', item: 'a', owner: 'b' }],
      undefined,
      { specs: reduced },
    );
    expect(out).toMatchObject({ ok: false, errors: [{ code: 'LEDGER_UNKNOWN_EVENT' }] });
    expect(validateBatch(emptyWorld(), vocabularyExample(reduced), undefined, { specs: reduced }).ok).toBe(
      true,
    );
  });

  it('the table is frozen with a null prototype, and isLedgerEventType is byte-exact', () => {
    expect(Object.isFrozen(LEDGER_SPECS)).toBe(true);
    expect(Object.getPrototypeOf(LEDGER_SPECS)).toBeNull();
    expect((LEDGER_SPECS as Record<string, unknown>).constructor).toBeUndefined();
    expect(isLedgerEventType('set_scene')).toBe(true);
    for (const x of ['Set_scene', 'set_scene ', 'constructor', '__proto__', null, 1, ['set_scene']])
      expect(isLedgerEventType(x)).toBe(false);
  });

  it('the JSON Schema is closed everywhere and carries the policy hints', () => {
    const schema = recordWorldChangesJsonSchema({
      rulesOwnedAttributes: ['gold', 'hp'],
      declaredAttributes: ['mood'],
    });
    expect(schema.additionalProperties).toBe(false);
    for (const v of schemaVariants(schema))
      expect((v as unknown as { additionalProperties: boolean }).additionalProperties).toBe(false);
    const attr = schemaVariants(schema).find(
      (v) => v.properties.event_type!.const === 'set_entity_attribute',
    )!;
    expect(JSON.stringify(attr.properties.attribute)).toContain('never (owned by the rules): gold, hp');
    expect(JSON.stringify(schema)).toBe(
      JSON.stringify(
        recordWorldChangesJsonSchema({ rulesOwnedAttributes: ['gold', 'hp'], declaredAttributes: ['mood'] }),
      ),
    );
  });

  it('validated events use `type`, never `event_type`, and absent optionals are omitted', () => {
    const parsed = parseEvent(
      { event_type: 'create_entity', entity: 'mara', name: 'Mara', description: null },
      0,
    );
    expect(parsed).toEqual({
      ok: true,
      event: { type: 'create_entity', entity: 'mara', name: 'Mara' } satisfies LedgerEvent,
    });
  });
});
