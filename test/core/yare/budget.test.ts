// Per-run budgets a caller can spread over a turn: `stepsUsed` on every result, a step limit per run, and a
// wall-clock deadline read on an injected clock (so the test controls time exactly).
import { describe, expect, it } from 'vitest';
import { CLOCK_CHECK_INTERVAL, EventRunner, runEvent } from '../../../src/core/yare/index.ts';
import { rulesOf, scriptedDice } from '../../helpers/yare.ts';

const RULES = rulesOf(`state_schema:
  n: { type: int, default: 0 }
  items: { type: list, default: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] }
events:
  three:
    steps:
      - { action: mutate, var: state.n, op: add, value: 1 }
      - { action: mutate, var: state.n, op: add, value: 1 }
      - { action: mutate, var: state.n, op: add, value: 1 }
  loop:
    steps:
      - action: foreach
        array: "@ state.items"
        steps:
          - { action: mutate, var: state.n, op: add, value: 1 }
  broken:
    steps:
      - { action: set, var: state.n, value: 5 }
      - { action: set, var: temp.x, value: "@ 1 / 0" }
  caller:
    steps:
      - { action: call, event: three }
`);

/** A clock that advances by `tick` milliseconds at each reading, and counts its readings. */
function fakeClock(tick: number) {
  let t = 0;
  const clock = () => {
    clock.readings++;
    t += tick;
    return t;
  };
  clock.readings = 0;
  return clock;
}

describe('stepsUsed', () => {
  it('counts every step, loop iteration and nested call', () => {
    expect(runEvent(RULES, RULES.initialState, 'three').stepsUsed).toBe(3);
    // 1 foreach + 10 × (1 iteration + 1 mutate)
    expect(runEvent(RULES, RULES.initialState, 'loop').stepsUsed).toBe(21);
    // 1 call + 3 steps of the callee
    expect(runEvent(RULES, RULES.initialState, 'caller').stepsUsed).toBe(4);
  });

  it('is on error results too: the steps started before the error', () => {
    const r = runEvent(RULES, RULES.initialState, 'broken');
    expect(r.ok).toBe(false);
    expect(r.stepsUsed).toBe(2);
    const unknown = runEvent(RULES, RULES.initialState, 'nope');
    expect(unknown.ok).toBe(false);
    expect(unknown.stepsUsed).toBe(0);
  });

  it('each EventRunner run reports its own count', () => {
    const runner = new EventRunner(RULES, RULES.initialState, scriptedDice([]));
    expect(runner.run('three').stepsUsed).toBe(3);
    expect(runner.run('caller').stepsUsed).toBe(4);
  });
});

describe('maxSteps per run', () => {
  it('a run of exactly maxSteps works and one fewer allowed is refused, with the refused step not counted', () => {
    expect(runEvent(RULES, RULES.initialState, 'three', {}, { maxSteps: 3 }).ok).toBe(true);
    const past = runEvent(RULES, RULES.initialState, 'three', {}, { maxSteps: 2 });
    expect(past.ok).toBe(false);
    if (!past.ok) expect(past.error.code).toBe('YARE_STEP_LIMIT');
    expect(past.stepsUsed).toBe(2);
  });

  it('EventRunner.run takes a budget for one run only', () => {
    const runner = new EventRunner(RULES, RULES.initialState, scriptedDice([]));
    const r = runner.run('three', {}, { maxSteps: 1 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('YARE_STEP_LIMIT');
    expect((runner.state as { n: number }).n).toBe(0);
    expect(runner.run('three').ok).toBe(true);
    expect((runner.state as { n: number }).n).toBe(3);
  });
});

describe('deadline', () => {
  it('a run that ends before its deadline is unaffected', () => {
    const clock = fakeClock(1);
    const r = runEvent(RULES, RULES.initialState, 'loop', {}, { deadline: 1_000, now: clock });
    expect(r.ok).toBe(true);
    expect((r.ok && (r.state as { n: number }).n) || 0).toBe(10);
    // Read before the first step only: 21 steps is under one CLOCK_CHECK_INTERVAL.
    expect(clock.readings).toBe(1);
  });

  it('a run started at or after its deadline does nothing and fails with YARE_TIME_LIMIT', () => {
    const clock = fakeClock(0);
    const r = runEvent(RULES, RULES.initialState, 'three', {}, { deadline: 0, now: clock });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('YARE_TIME_LIMIT');
      expect(r.error.message).toMatch(/time limit/);
    }
    expect(r.stepsUsed).toBe(0);
  });

  it(`the clock is read every ${CLOCK_CHECK_INTERVAL} steps and a run past its deadline is rolled back`, () => {
    const rules = rulesOf(`state_schema:
  n: { type: int, default: 0 }
events:
  long:
    steps:
${'      - { action: mutate, var: state.n, op: add, value: 1 }\n'.repeat(3 * CLOCK_CHECK_INTERVAL)}`);
    // Readings at steps 1, 1 + I, 1 + 2I: the third reading (time 3) is at the deadline.
    const clock = fakeClock(1);
    const r = runEvent(rules, rules.initialState, 'long', {}, { deadline: 3, now: clock });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('YARE_TIME_LIMIT');
    expect(clock.readings).toBe(3);
    expect(r.stepsUsed).toBe(2 * CLOCK_CHECK_INTERVAL);
    expect((rules.initialState as { n: number }).n).toBe(0);
    // Just short of it (deadline 4), the same run completes: three readings, all before the deadline.
    const enough = fakeClock(1);
    const ok = runEvent(rules, rules.initialState, 'long', {}, { deadline: 4, now: enough });
    expect(ok.ok).toBe(true);
    expect(ok.stepsUsed).toBe(3 * CLOCK_CHECK_INTERVAL);
    expect(enough.readings).toBe(3);
  });

  it('the step limit still applies with a deadline', () => {
    const r = runEvent(
      RULES,
      RULES.initialState,
      'loop',
      {},
      { deadline: 1e12, now: fakeClock(0), maxSteps: 5 },
    );
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('YARE_STEP_LIMIT');
    expect(r.stepsUsed).toBe(5);
  });
});
