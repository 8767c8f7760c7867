import { describe, expect, it } from 'vitest';
import { DiceRoller } from '../../../../src/core/yare/dice.ts';
import { MAX_DICE_COUNT, MAX_DICE_SIDES } from '../../../../src/core/yare/limits.ts';
import { yareErrorOf } from './helpers.ts';

function sequence(roller: DiceRoller, n: number, sides = 20): number[] {
  return Array.from({ length: n }, () => roller.roll(1, sides, 'roll(1d20)'));
}

describe('DiceRoller', () => {
  it('gives the same sequence for the same seed ', () => {
    expect(sequence(DiceRoller.fromSeed(1234), 5, 6)).toEqual(sequence(DiceRoller.fromSeed(1234), 5, 6));
    expect(sequence(DiceRoller.fromSeed(42), 50)).toEqual(sequence(DiceRoller.fromSeed(42), 50));
    expect(sequence(DiceRoller.fromSeed(42), 50)).not.toEqual(sequence(DiceRoller.fromSeed(43), 50));
  });

  it('starts neighbouring seeds on unrelated sequences (raw xoroshiro128+ seeds n and n+1 give first rolls one apart)', () => {
    const firsts = Array.from({ length: 40 }, (_, seed) => sequence(DiceRoller.fromSeed(seed), 1)[0]!);
    const steps = firsts.slice(1).map((f, i) => (f - firsts[i]! + 20) % 20);
    // With unrelated starts the step from one seed's first roll to the next is not a constant.
    expect(new Set(steps).size).toBeGreaterThan(5);
    expect(firsts.slice(0, 10)).toEqual([16, 7, 11, 8, 9, 11, 19, 3, 19, 6]);
  });

  it('uses every bit of a large seed', () => {
    const low = 5;
    const high = 2 ** 32 + 5;
    expect(sequence(DiceRoller.fromSeed(low), 20)).not.toEqual(sequence(DiceRoller.fromSeed(high), 20));
    expect(sequence(DiceRoller.fromSeed(Number.MAX_SAFE_INTEGER), 3).every((f) => f >= 1 && f <= 20)).toBe(
      true,
    );
  });

  it('continues the identical sequence from a serialised state', () => {
    const a = DiceRoller.fromSeed(7);
    sequence(a, 13);
    const saved = JSON.parse(JSON.stringify(a.state()));
    const b = DiceRoller.fromState(saved);
    expect(sequence(b, 40)).toEqual(sequence(a, 40));
  });

  it('state() is a copy that later rolls do not change', () => {
    const a = DiceRoller.fromSeed(9);
    const s = a.state();
    const copy = [...s];
    sequence(a, 3);
    expect(s).toEqual(copy);
  });

  it('records every roll with its text, dice, faces and total', () => {
    const r = DiceRoller.fromSeed(1);
    const total = r.roll(3, 6, 'roll(3d6)');
    expect(r.rolls).toHaveLength(1);
    const [rec] = r.rolls;
    expect(rec).toMatchObject({ expr: 'roll(3d6)', dice: '3d6', total });
    expect(rec!.faces).toHaveLength(3);
    expect(rec!.faces.reduce((x, y) => x + y, 0)).toBe(total);
    expect(r.roll(0, 6, 'roll(0d6)')).toBe(0);
    expect(r.rolls[1]).toEqual({ expr: 'roll(0d6)', dice: '0d6', faces: [], total: 0 });
  });

  it('keeps faces within 1..sides', () => {
    const r = DiceRoller.fromSeed(99);
    for (const sides of [1, 2, 3, 6, 7, 20, 100, MAX_DICE_SIDES]) {
      r.roll(MAX_DICE_COUNT, sides, 'x');
      const faces = r.rolls.at(-1)!.faces;
      expect(faces.every((f) => Number.isInteger(f) && f >= 1 && f <= sides)).toBe(true);
    }
    expect(r.roll(5, 1, 'x')).toBe(5);
  });

  it('rolls each face of a d6 between 800 and 1200 times in 6000 rolls', () => {
    const r = DiceRoller.fromSeed(2024);
    const counts = [0, 0, 0, 0, 0, 0];
    for (let i = 0; i < 6000; i++) counts[r.roll(1, 6, 'x') - 1]!++;
    for (const c of counts) {
      expect(c).toBeGreaterThanOrEqual(800);
      expect(c).toBeLessThanOrEqual(1200);
    }
  });

  it('refuses dice beyond the limits, at the limit and just past it', () => {
    const r = DiceRoller.fromSeed(1);
    expect(() => r.roll(MAX_DICE_COUNT, MAX_DICE_SIDES, 'x')).not.toThrow();
    expect(yareErrorOf(() => r.roll(MAX_DICE_COUNT + 1, 6, 'x')).code).toBe('YARE_DICE_LIMIT');
    expect(yareErrorOf(() => r.roll(1, MAX_DICE_SIDES + 1, 'x')).code).toBe('YARE_DICE_LIMIT');
    expect(yareErrorOf(() => r.roll(1, 0, 'x')).code).toBe('YARE_DICE_LIMIT');
    expect(yareErrorOf(() => r.roll(-1, 6, 'x')).code).toBe('YARE_DICE_LIMIT');
    expect(yareErrorOf(() => r.roll(1.5, 6, 'x')).code).toBe('YARE_DICE_LIMIT');
  });

  it('refuses bad seeds and states', () => {
    for (const seed of [-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) {
      expect(yareErrorOf(() => DiceRoller.fromSeed(seed)).code).toBe('YARE_BAD_VALUE');
    }
    expect(() => DiceRoller.fromSeed(0)).not.toThrow();
    for (const state of [
      [],
      [1, 2, 3],
      [1, 2, 3, 2 ** 31],
      [1, 2, 3, 0.5],
      [0, 0, 0, 0],
      'abcd' as unknown as number[],
    ]) {
      expect(yareErrorOf(() => DiceRoller.fromState(state)).code).toBe('YARE_BAD_VALUE');
    }
  });
});
