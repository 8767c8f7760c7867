// What a failure inside a run becomes: a rules failure (`YareError`) is a RunError with its place; a real
// stack overflow is YARE_STEP_LIMIT; any other exception is an engine bug and reaches the caller as
// itself, after the working state has been rolled back.
import { describe, expect, it } from 'vitest';
import type { RollRecord } from '../../../src/core/yare/dice.ts';
import { YareError } from '../../../src/core/yare/errors.ts';
import { type Dice, EventRunner } from '../../../src/core/yare/interpreter.ts';
import { isStackOverflow, toRunError } from '../../../src/core/yare/run/errors.ts';
import { rulesOf } from '../../helpers/yare.ts';

const RULES = rulesOf(`state_schema:
  n: { type: int, default: 0 }
events:
  hit:
    steps:
      - { action: set, var: state.n, value: 5 }
      - { action: set, var: state.n, value: "@ roll(1d6)" }
`);

/** Dice whose every roll throws `error`. */
function throwingDice(error: unknown): Dice {
  const rolls: RollRecord[] = [];
  return {
    rolls,
    roll() {
      throw error;
    },
  };
}

const PLACE = { file: 'yare.yaml', line: 3, col: 7 };

describe('toRunError', () => {
  it('a YareError keeps its own place, or takes the running step’s', () => {
    const own = Object.assign(new YareError('YARE_TYPE', 'bad'), { place: { ...PLACE, line: 9 } });
    expect(toRunError(own, 'e', PLACE)).toEqual({
      code: 'YARE_TYPE',
      message: 'bad',
      event: 'e',
      place: { ...PLACE, line: 9 },
    });
    expect(toRunError(new YareError('YARE_TYPE', 'bad'), 'e', PLACE).place).toEqual(PLACE);
  });

  it('only V8’s stack overflow is YARE_STEP_LIMIT', () => {
    const overflow = new RangeError('Maximum call stack size exceeded');
    expect(isStackOverflow(overflow)).toBe(true);
    expect(toRunError(overflow, 'e', PLACE)).toEqual({
      code: 'YARE_STEP_LIMIT',
      message: 'Event run too deep: Maximum call stack size exceeded',
      event: 'e',
      place: PLACE,
    });
  });

  it.each([
    new RangeError('Invalid array length'),
    new TypeError('x is not a function'),
    new Error('boom'),
    'a string',
  ])('%s is an engine bug: rethrown as itself', (error) => {
    expect(isStackOverflow(error)).toBe(false);
    expect(() => toRunError(error, 'e', PLACE)).toThrow();
    try {
      toRunError(error, 'e', PLACE);
    } catch (thrown) {
      expect(thrown).toBe(error);
    }
  });

  it('a real stack overflow is recognised', () => {
    const recurse = (n: number): number => recurse(n + 1) + 1;
    let caught: unknown;
    try {
      recurse(0);
    } catch (error) {
      caught = error;
    }
    expect(isStackOverflow(caught)).toBe(true);
  });
});

describe('a run that meets an engine bug', () => {
  it('throws the bug itself, not a rules error, and leaves the working state as it was', () => {
    const bug = new RangeError('Invalid array length');
    const runner = new EventRunner(RULES, RULES.initialState, throwingDice(bug));
    expect(() => runner.run('hit')).toThrow(bug);
    expect((runner.state as { n: number }).n).toBe(0);
  });

  it('a stack overflow inside a run is a failed run with YARE_STEP_LIMIT at the failing expression', () => {
    const runner = new EventRunner(
      RULES,
      RULES.initialState,
      throwingDice(new RangeError('Maximum call stack size exceeded')),
    );
    const r = runner.run('hit');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('YARE_STEP_LIMIT');
      expect(r.error.place).toMatchObject({ line: 7 });
    }
    expect(r.stepsUsed).toBe(2);
    expect((runner.state as { n: number }).n).toBe(0);
  });
});

describe('inputs that are not plain data', () => {
  const rules = rulesOf(`state_schema:
  n: { type: int, default: 0 }
events:
  take:
    inputs: [thing]
    steps:
      - { action: note, message: "{inputs.thing}" }
`);
  let deep: unknown = 1;
  for (let i = 0; i < 70; i++) deep = [deep];

  it.each([
    ['a function', [() => 1], 'unsupported value of type function'],
    ['a NaN inside a list', [1, Number.NaN], 'non-finite number NaN'],
    ['a value nested 70 deep', deep, 'value nested deeper than 64 levels'],
  ])('%s is YARE_BAD_INPUT naming the input', (_what, thing, why) => {
    const runner = new EventRunner(rules, rules.initialState, throwingDice(new Error('no dice')));
    const r = runner.run('take', { thing });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('YARE_BAD_INPUT');
      expect(r.error.message).toBe(`Input 'thing' of 'take' is not plain data: ${why}.`);
    }
  });
});
