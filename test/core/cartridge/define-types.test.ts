// The authoring types of defineRules are read from the yare.yaml grammar: these checks run at type level
// (npm run typecheck covers test/), and each `@ts-expect-error` fails the typecheck if the line it marks
// stops being an error.

import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  FieldType,
  InputSpec,
  RulesObject,
  Step,
  Visibility,
} from '../../../src/core/cartridge/js-rules/define.ts';
import { defineRules } from '../../../src/index.ts';
import { FIELD_SHAPE, type STEP_SHAPES } from '../../../src/core/yare/index.ts';

describe('defineRules types from the grammar', () => {
  it('field types, visibilities and actions are the grammar’s values', () => {
    expectTypeOf<FieldType>().toEqualTypeOf<
      'int' | 'float' | 'bool' | 'string' | 'list' | 'dict' | 'collection'
    >();
    expectTypeOf<Visibility>().toEqualTypeOf<'public' | 'private'>();
    expectTypeOf<Step['action']>().toEqualTypeOf<keyof typeof STEP_SHAPES>();
    expect([...FIELD_SHAPE.props.type.enum]).toEqual([
      'int',
      'float',
      'bool',
      'string',
      'list',
      'dict',
      'collection',
    ]);
  });

  it('collections, the create step, macros with parameters and after_event type-check (issue 38)', () => {
    const rules = defineRules({
      state_schema: {
        objs: {
          type: 'collection',
          parent: 'loc',
          record: { name: { type: 'string' }, loc: { type: 'string', default: '' } },
        },
      },
      macros: { label: { params: ['o'], by: '@ o.kind', cases: { dish: '@ o.name' }, value: "@ 'thing'" } },
      events: {
        make: { steps: [{ action: 'create', in: 'state.objs', record: { name: 'cup' }, var: 'temp.id' }] },
        tick: { trigger_on: 'after_event', steps: [] },
      },
    });
    expect(rules.events.make).toBeDefined();
    // @ts-expect-error create needs the collection it adds to
    defineRules({ events: { e: { steps: [{ action: 'create', record: {} }] } } });
  });

  it('a well-formed rules object type-checks, steps nested in branches and loops included', () => {
    const rules = defineRules({
      version: '1.0',
      state_schema: {
        player: { visibility: 'public', hp: { type: 'int', default: 10, min: 0 }, bag: { type: 'list' } },
      },
      macros: { hurt: '@ state.player.hp < 5' },
      events: {
        rest: {
          description: 'Rest.',
          inputs: { hours: { type: 'int', default: 1 }, place: { type: 'string', enum: ['inn', 'camp'] } },
          intents: ['rest'],
          steps: [
            { action: 'mutate', var: 'state.player.hp', op: 'add', value: '@ inputs.hours' },
            {
              action: 'branch',
              conditions: [
                { if: '@ macros.hurt', steps: [{ action: 'note', message: 'Still hurt.' }] },
                { else: true, steps: [] },
              ],
            },
            {
              action: 'foreach',
              array: '@ state.player.bag',
              steps: [{ action: 'note', message: '{item}' }],
            },
            { action: 'list_remove', var: 'state.player.bag', index: 0 },
          ],
        },
      },
      npc_templates: { keeper: { type: 'name', description: 'The toll keeper.', credit: 3 } },
      engine_settings: { max_batched_npcs: 2 },
      invariants: { alive: '@ state.player.hp >= 0' },
    });
    expect(rules.version).toBe('1.0');
  });

  it('what the grammar refuses is a type error', () => {
    // @ts-expect-error: not an action of the grammar
    const badAction: Step = { action: 'teleport', var: 'state.x' };
    // @ts-expect-error: mutate ops are add, sub, mul and div
    const badOp: Step = { action: 'mutate', var: 'state.x', op: 'pow', value: 2 };
    // @ts-expect-error: set requires value
    const missing: Step = { action: 'set', var: 'state.x' };
    // @ts-expect-error: an input has no `min`
    const badInput: InputSpec = { type: 'int', min: 0 };
    // @ts-expect-error: trigger_on is only cycle_tick
    const badTrigger: RulesObject = { events: { e: { steps: [], trigger_on: 'dawn' } } };
    expect([badAction, badOp, missing, badInput, badTrigger]).toHaveLength(5);
  });
});
