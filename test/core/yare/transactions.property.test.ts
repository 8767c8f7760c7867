// Property tests of event runs: a failing event never changes the input state, whatever it wrote before
// failing; and the same state, inputs and seed always give the same result.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runEvent } from '../../../src/core/yare/interpreter.ts';
import { rulesOf } from '../../helpers/yare.ts';

const SCHEMA = `state_schema:
  player:
    hp: { type: int, default: 50, min: 0, max: 100 }
    gold: { type: int, default: 10, min: 0 }
    bag: { type: list, default: ["rope"] }
    flags: { type: dict, default: { seen: true } }
  mood: { type: string, default: "calm" }
`;

const writeStep = fc.oneof(
  fc
    .record({ v: fc.integer({ min: -500, max: 500 }) })
    .map(({ v }) => `{ action: set, var: state.player.hp, value: ${v} }`),
  fc
    .record({ op: fc.constantFrom('add', 'sub', 'mul'), v: fc.integer({ min: -20, max: 20 }) })
    .map(({ op, v }) => `{ action: mutate, var: state.player.gold, op: ${op}, value: ${v} }`),
  fc.constantFrom(
    `{ action: list_push, var: state.player.bag, item: "'torch'" }`,
    `{ action: list_remove, var: state.player.bag, index: 0 }`,
    `{ action: dict_set, var: state.player.flags, key: "'door'", value: "@ roll(1d6)" }`,
    `{ action: dict_delete, var: state.player.flags, key: "'seen'" }`,
    `{ action: set, var: state.mood, value: "@ 'roll ' + str_roll" }`.replace('str_roll', "'2d6'"),
    `{ action: set, var: temp.x, value: "@ roll(2d6) + state.player.hp" }`,
  ),
);

const failingStep = fc.constantFrom(
  `{ action: set, var: temp.boom, value: "@ 1 // 0" }`,
  `{ action: mutate, var: temp.never_set, op: add, value: 1 }`,
  `{ action: set, var: state.player.hp, value: "@ 'lots'" }`,
  `{ action: list_push, var: state.mood, item: 1 }`,
  `{ action: set, var: "@ 'state.nowhere'", value: 1 }`,
);

function eventYaml(steps: string[]): string {
  return `${SCHEMA}events:\n  probe:\n    steps:\n${steps.map((s) => `      - ${s}\n`).join('')}`;
}

describe('transactions (property)', () => {
  it('a failing event never changes the input state, whatever it wrote first', () => {
    fc.assert(
      fc.property(fc.array(writeStep, { maxLength: 8 }), failingStep, fc.nat(1000), (writes, fail, seed) => {
        const rules = rulesOf(eventYaml([...writes, fail]));
        const state = JSON.parse(JSON.stringify(rules.initialState));
        const snapshot = JSON.stringify(state);
        const result = runEvent(rules, state, 'probe', {}, { seed });
        expect(result.ok).toBe(false);
        expect(JSON.stringify(state)).toBe(snapshot);
      }),
      { numRuns: 150 },
    );
  });

  it('a successful event never mutates its input, and the same seed gives the same result', () => {
    fc.assert(
      fc.property(fc.array(writeStep, { minLength: 1, maxLength: 8 }), fc.nat(1000), (writes, seed) => {
        const rules = rulesOf(eventYaml(writes));
        const state = JSON.parse(JSON.stringify(rules.initialState));
        const snapshot = JSON.stringify(state);
        const a = runEvent(rules, state, 'probe', {}, { seed });
        const b = runEvent(rules, state, 'probe', {}, { seed });
        expect(JSON.stringify(state)).toBe(snapshot);
        expect(a.ok).toBe(true);
        expect(JSON.stringify(a)).toBe(JSON.stringify(b));
      }),
      { numRuns: 150 },
    );
  });
});
