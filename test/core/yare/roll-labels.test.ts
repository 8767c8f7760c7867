// Roll labels: each recorded roll says what it was for (event, macro, the path written, the value with
// its modifier, a table entry, the test it met), the dice drawn are exactly those an unlabelled run
// draws, and the player's line for a roll shows only what no private field gives away.
import { describe, expect, it } from 'vitest';
import { DiceRoller, unlabelled } from '../../../src/core/yare/dice.ts';
import { EventRunner, runEvent } from '../../../src/core/yare/interpreter.ts';
import { describeOutcome, publicOutcome } from '../../../src/engine/turn/public-outcome.ts';
import { buildInitialState } from '../../../src/core/yare/schema.ts';
import { rulesOf, scriptedDice } from '../../helpers/yare.ts';

const yaml = `
version: "1.0"
state_schema:
  hero:
    visibility: public
    hp: { type: int, default: 10, min: 0 }
    bonus: { type: int, default: 3 }
    secret_bonus: { type: int, default: 2, visibility: private }
  foe:
    visibility: public
    armor: { type: int, default: 12 }
    ward: { type: int, default: 15, visibility: private }
    hp: { type: int, default: 8, min: 0 }
  stash: { type: string, default: "", visibility: public }
macros:
  attack_roll: "@ roll(1d20) + state.hero.bonus"
  sneaky_roll: "@ roll(1d20) + state.hero.secret_bonus"
events:
  attack:
    description: "Attack."
    steps:
      - action: set
        var: temp.to_hit
        value: "@ macros.attack_roll"
      - action: branch
        conditions:
          - if: "@ temp.to_hit >= state.foe.armor"
            steps:
              - action: mutate
                var: state.foe.hp
                op: sub
                value: "@ roll(1d6) + 1"
          - else: true
            steps: []
  sneak:
    description: "A test rolled in the condition itself, against a private field, written the other way round."
    steps:
      - action: branch
        if: "@ state.foe.ward < macros.sneaky_roll"
        steps: []
  loot:
    description: "A table roll."
    steps:
      - action: table_roll
        roll: "@ roll(1d6)"
        var: state.stash
        table:
          "1-3": copper
          "4-6": silver
  bad:
    description: "A test that fails to compare: its error keeps its place."
    steps:
      - action: set
        var: temp.r
        value: "@ roll(1d6)"
      - action: branch
        if: "@ temp.r >= 'x'"
        steps: []
`;
const rules = rulesOf(yaml);
const start = buildInitialState(rules.schema);

describe('roll labels', () => {
  it('a to-hit roll carries its event, macro, the variable it set, its value with the modifier, and the test it met', () => {
    const hit = runEvent(rules, start, 'attack', {}, { dice: scriptedDice([10, 4]) });
    expect(hit.ok).toBe(true);
    expect(hit.rolls).toEqual([
      {
        expr: 'roll(1d20)',
        dice: '1d20',
        faces: [10],
        total: 10,
        label: {
          event: 'attack',
          macro: 'attack_roll',
          writes: 'temp.to_hit',
          value: 13,
          of: 'macros.attack_roll',
          check: { op: '>=', against: 12, of: 'state.foe.armor', passed: true },
        },
      },
      {
        expr: 'roll(1d6)',
        dice: '1d6',
        faces: [4],
        total: 4,
        label: { event: 'attack', writes: 'state.foe.hp', value: 5, of: 'roll(1d6) + 1' },
      },
    ]);
    const miss = runEvent(rules, start, 'attack', {}, { dice: scriptedDice([8]) });
    expect(miss.rolls[0]!.label?.check).toEqual({
      op: '>=',
      against: 12,
      of: 'state.foe.armor',
      passed: false,
    });
  });

  it('a roll in the test itself, written on the right, is labelled with the comparison turned round', () => {
    const run = runEvent(rules, start, 'sneak', {}, { dice: scriptedDice([14]) });
    expect(run.rolls[0]!.label).toEqual({
      event: 'sneak',
      macro: 'sneaky_roll',
      value: 16,
      of: 'macros.sneaky_roll',
      check: { op: '>', against: 15, of: 'state.foe.ward', passed: true },
    });
  });

  it('a table roll carries the entry it picked', () => {
    const run = runEvent(rules, start, 'loot', {}, { dice: scriptedDice([5]) });
    expect(run.rolls[0]!.label).toEqual({
      event: 'loot',
      writes: 'state.stash',
      value: 5,
      of: 'roll(1d6)',
      entry: 'silver',
    });
  });

  it('labels never change the dice: the faces are those the seed gives, roll for roll', () => {
    for (const seed of [0, 1, 7, 123_456]) {
      const runner = new EventRunner(rules, start, DiceRoller.fromSeed(seed));
      const labelled = [runner.run('attack', {}), runner.run('sneak', {}), runner.run('loot', {})].flatMap(
        (r) => r.rolls,
      );
      const bare = DiceRoller.fromSeed(seed);
      for (const roll of labelled) {
        const [count, sides] = roll.dice.split('d').map(Number) as [number, number];
        bare.roll(count, sides, roll.expr);
      }
      expect(labelled.map(unlabelled)).toEqual(bare.rolls);
      expect(labelled.every((r) => r.label?.event !== undefined)).toBe(true);
    }
  });

  it('a test that fails to compare still fails with its place', () => {
    const run = runEvent(rules, start, 'bad', {}, { dice: scriptedDice([3]) });
    expect(run.ok).toBe(false);
    if (run.ok) return;
    expect(run.error.code).toBe('YARE_TYPE');
    expect(run.error.place?.line).toBe(yaml.split('\n').findIndex((l) => l.includes("temp.r >= 'x'")) + 1);
  });

  it('the player reads what each roll was for, and nothing private', () => {
    const attack = runEvent(rules, start, 'attack', {}, { dice: scriptedDice([10, 4]) });
    const sneak = runEvent(rules, start, 'sneak', {}, { dice: scriptedDice([14]) });
    const loot = runEvent(rules, start, 'loot', {}, { dice: scriptedDice([2]) });
    const rolls = [...attack.rolls, ...sneak.rolls, ...loot.rolls];
    const lines = describeOutcome(publicOutcome(rules, { rolls, delta: [], time: undefined as never }));
    expect(lines).toEqual([
      'attack roll 1d20+3: 10 + 3 = 13 vs 12 — hit',
      'foe hp 1d6+1: 4 + 1 = 5',
      // The bonus and the ward are private: the modifier is named, the target left out.
      'sneaky roll 1d20 + modifier: 14 — success',
      'stash 1d6: 2 → copper',
    ]);
  });

  it('a record without labels reads as before', () => {
    const lines = describeOutcome(
      publicOutcome(rules, {
        rolls: [{ expr: 'roll(2d4)', dice: '2d4', faces: [3, 1], total: 4 }],
        delta: [],
        time: undefined as never,
      }),
    );
    expect(lines).toEqual(['roll 2d4: 3 + 1 = 4']);
  });
});

describe('mayRoll through macros, at MAX_MACRO_DEPTH', () => {
  /** Macros m0 … m<n-1>, each reading the next; the last is `last`. */
  const chain = (n: number, last: string) => {
    const lines = Array.from({ length: n }, (_, i) =>
      i === n - 1 ? `  m${i}: "@ ${last}"` : `  m${i}: "@ macros.m${i + 1} + 0"`,
    );
    return rulesOf(`version: "1.0"\nstate_schema: {}\nmacros:\n${lines.join('\n')}\nevents: {}\n`);
  };
  it('finds a roll sixteen macros deep, finds none where there is none, and takes deeper nesting to roll', async () => {
    const { mayRoll } = await import('../../../src/core/yare/run/roll-labels.ts');
    const { parseExpression } = await import('../../../src/core/yare/expr/parser.ts');
    const use = parseExpression('macros.m0').ast;
    // macros.m0 is read at depth 1; m<k> at depth k + 1.
    expect(mayRoll(use, chain(16, 'roll(1d6)'))).toBe(true);
    expect(mayRoll(use, chain(15, '1'))).toBe(false);
    expect(mayRoll(use, chain(16, '1'))).toBe(false);
    expect(mayRoll(use, chain(17, '1'))).toBe(true);
  });
});
