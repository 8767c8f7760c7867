// The interpreter's call path (run/root-state.ts, run/roll-labels.ts): a state frozen all the way down is
// converted once and reused, frozen, by every run given it, and no run changes it; a state that is not (or
// not entirely) frozen is converted on each run, so a change between runs is seen. Rolls the generator
// records take their label in place, with the keys in the order records always had (a stored record's text
// does not change).
import { describe, expect, it } from 'vitest';
import { DiceRoller } from '../../../src/core/yare/dice.ts';
import { runEvent } from '../../../src/core/yare/interpreter.ts';
import { rootState } from '../../../src/core/yare/run/root-state.ts';
import { rulesOf } from '../../helpers/yare.ts';

const RULES = rulesOf(`
state_schema:
  hero:
    hp: { type: int, default: 10 }
    armor: { type: int, default: 12 }
  secret: { type: int, default: 3, visibility: private }
  secret_dice: { type: string, default: "2d6", visibility: private }
events:
  hit:
    steps:
      - action: set
        var: temp.to_hit
        value: "@ roll(1d20)"
      - action: branch
        conditions:
          - if: "@ temp.to_hit >= state.hero.armor"
            steps:
              - action: mutate
                var: state.hero.hp
                op: sub
                value: 1
      - action: note
        message: "hp {state.hero.hp}"
  peek:
    steps:
      - action: set
        var: temp.n
        value: "@ roll(state.secret_dice)"
`);

function deepFrozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFrozen(child);
    Object.freeze(value);
  }
  return value;
}

describe('the root state of a run', () => {
  it('is converted once for a state frozen all the way down, and reused frozen; runs never change it', () => {
    const state = deepFrozen({ hero: { hp: 10, armor: 1 }, secret: 3 });
    const first = rootState(state);
    expect(rootState(state)).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.hero)).toBe(true);
    expect(Object.getPrototypeOf(first)).not.toBe(Object.prototype);
    for (let seed = 0; seed < 5; seed++) {
      const ran = runEvent(RULES, state, 'hit', {}, { seed });
      expect(ran.ok).toBe(true);
      if (ran.ok) expect((ran.state.hero as { hp: number }).hp).toBe(9);
    }
    expect(first).toEqual({ hero: { hp: 10, armor: 1 }, secret: 3 });
    expect(state).toEqual({ hero: { hp: 10, armor: 1 }, secret: 3 });
  });

  it('is converted on every run for a state frozen only on top, or not at all: a change between runs counts', () => {
    const inner = { hp: 10, armor: 1 };
    const shallow = Object.freeze({ hero: inner, secret: 3 });
    expect(rootState(shallow)).not.toBe(rootState(shallow));
    inner.hp = 5;
    const ran = runEvent(RULES, shallow, 'hit', {}, { seed: 1 });
    expect(ran.ok && (ran.state.hero as { hp: number }).hp).toBe(4);
    const open = { hero: { hp: 10, armor: 1 }, secret: 3 };
    expect(rootState(open)).not.toBe(rootState(open));
  });

  it('refuses what JSON cannot hold the same whether or not the state is frozen', () => {
    expect(() => rootState(deepFrozen({ hero: { hp: Number.NaN } }))).toThrow(/non-finite/);
    expect(() => rootState({ hero: { hp: Number.NaN } })).toThrow(/non-finite/);
  });
});

describe('roll records', () => {
  it('take their label in place, the label last; a roll with private dice is marked after it, as before', () => {
    const dice = DiceRoller.fromSeed(7);
    const ran = runEvent(RULES, deepFrozen({ hero: { hp: 10, armor: 1 }, secret: 3 }), 'hit', {}, { dice });
    expect(ran.ok).toBe(true);
    expect(Object.keys(ran.rolls[0]!)).toEqual(['expr', 'dice', 'faces', 'total', 'label']);
    expect(ran.rolls[0]!.label).toMatchObject({ event: 'hit', writes: 'temp.to_hit' });
    const peek = runEvent(RULES, RULES.initialState, 'peek', {}, { seed: 2 });
    expect(peek.ok).toBe(true);
    expect(Object.keys(peek.rolls[0]!)).toEqual(['expr', 'dice', 'faces', 'total', 'label', 'private']);
  });
});
