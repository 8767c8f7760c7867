// The coverage hook of the rules (src/core/yare/coverage.ts): a copy of the rules made by `withCoverage`
// records which events ran, which steps were reached and which arms were taken, and its runs are the plain
// rules' runs exactly (same state, notes, dice and steps used): the markers count no step.
import { describe, expect, it } from 'vitest';
import { newCoverageSink, runEvent, withCoverage } from '../../../src/core/yare/index.ts';
import { rulesOf } from '../../helpers/yare.ts';

const rules = rulesOf(`state_schema:
  n: { type: int, default: 0 }
  names: { type: list, default: [] }
events:
  go:
    steps:
      - { action: mutate, var: state.n, op: add, value: "@ roll(1d6)" }
      - action: branch
        conditions:
          - if: "@ state.n > 100"
            steps:
              - { action: note, message: "big" }
          - else: true
            steps:
              - { action: note, message: "small {state.names[0]}" }
      - { action: call, event: helper }
  helper:
    internal: true
    steps:
      - { action: note, message: "helped" }
  idle:
    steps:
      - { action: note, message: "idle" }
`);

describe('coverage', () => {
  it('records events, steps and arms, and runs exactly as the plain rules do', () => {
    const sink = newCoverageSink();
    const covered = withCoverage(rules, sink);
    const plain = runEvent(rules, rules.initialState, 'go', {}, { seed: 9 });
    const seen = runEvent(covered, rules.initialState, 'go', {}, { seed: 9 });
    expect(seen).toEqual(plain);
    expect([...sink.events]).toEqual(['go', 'helper']);
    const go = rules.events.get('go')!;
    const branch = go.steps[1]!;
    if (branch.kind !== 'branch') throw new Error('not a branch');
    expect(sink.arms.has(branch.arms[1]!)).toBe(true);
    expect(sink.arms.has(branch.arms[0]!)).toBe(false);
    expect(sink.steps.has(branch.arms[0]!.steps[0]!)).toBe(false);
    expect(sink.steps.has(go.steps[2]!)).toBe(true);
    expect(sink.steps.size).toBe(5);
    // The note's placeholder had nothing to show: recorded with the note as it was shown.
    expect(sink.unrendered.map((u) => [u.placeholder, u.text])).toEqual([['state.names[0]', 'small None']]);
  });

  it('the plain rules record nothing anywhere: only the copy carries the sink', () => {
    const sink = newCoverageSink();
    withCoverage(rules, sink);
    runEvent(rules, rules.initialState, 'idle', {}, { seed: 1 });
    expect(sink.events.size + sink.steps.size).toBe(0);
  });
});
