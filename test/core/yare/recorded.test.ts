// Recorded outcomes: the semantics of expressions and steps pinned by cases with their expected results
// (test/yare/recorded/*.json, written by test/core/yare/recorded/generate.ts and reviewed case by case), in place
// of a hand-kept second interpreter. Values are recorded as Python's `repr`, so a case reads against
// MnesOS 0.6; where ours differs on purpose, docs/yare-differences.md says so.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DiceRoller } from '../../../src/core/yare/dice.ts';
import { diffStates } from '../../../src/core/yare/diff.ts';
import { evaluate } from '../../../src/core/yare/expr/evaluate.ts';
import { parseExpression } from '../../../src/core/yare/expr/parser.ts';
import { EventRunner, runEvent } from '../../../src/core/yare/interpreter.ts';
import type { CompiledRules } from '../../../src/core/yare/program.ts';
import { compileYaml } from '../../helpers/yare.ts';
import {
  type EventOutcome,
  type ExpressionOutcome,
  eventOutcome,
  expressionOutcome,
  LOCALS_EVENT,
  lanternmereRules,
  plain,
  rulesYaml,
  type StepDoc,
} from './recorded/fixtures.ts';

const HERE = join(dirname(fileURLToPath(import.meta.url)), 'recorded');

function load<T>(name: string): T[] {
  return JSON.parse(readFileSync(join(HERE, name), 'utf8')) as T[];
}

interface ExpressionCase {
  readonly text: string;
  readonly seed: number;
  readonly outcome: ExpressionOutcome;
}

type EventCase =
  | {
      readonly kind: 'probe';
      readonly steps: StepDoc[];
      readonly state?: unknown;
      readonly inputs: unknown;
      readonly seed: number;
      readonly outcome: EventOutcome;
    }
  | {
      readonly kind: 'locals';
      readonly inner: StepDoc[];
      readonly after: StepDoc[];
      readonly seed: number;
      readonly outcome: EventOutcome;
    }
  | {
      readonly kind: 'sequence';
      readonly steps: StepDoc[];
      readonly calls: [string, unknown][];
      readonly seed: number;
      readonly outcomes: EventOutcome[];
      readonly final: unknown;
    };

interface CartridgeCase {
  readonly event: string;
  readonly inputs: unknown;
  readonly seed: number;
  readonly outcome: EventOutcome;
  readonly changes: unknown;
}

function rulesOfSteps(steps: StepDoc[]): CompiledRules {
  const { rules, diagnostics } = compileYaml(rulesYaml(steps));
  if (!rules)
    throw new Error(`recorded rules no longer compile: ${diagnostics.map((d) => d.message).join('; ')}`);
  return rules;
}

describe('recorded expression outcomes', () => {
  const cases = load<ExpressionCase>('expressions.json');

  it('the corpus is large and varied: values and errors, rolls and macro calls', () => {
    expect(cases.length).toBeGreaterThanOrEqual(1000);
    const values = cases.filter((c) => c.outcome.value !== undefined).length;
    expect(values).toBeGreaterThan(cases.length / 3);
    expect(cases.length - values).toBeGreaterThan(cases.length / 3);
    expect(cases.filter((c) => c.outcome.rolls.length > 0).length).toBeGreaterThan(50);
    expect(cases.filter((c) => c.outcome.macroCalls.length > 0).length).toBeGreaterThan(20);
  });

  it('every case gives its recorded value, or its error with the same span, after the same rolls', () => {
    const mismatches: string[] = [];
    for (const c of cases) {
      const parsed = parseExpression(c.text);
      const got = expressionOutcome((ctx) => evaluate(parsed, ctx), c.seed);
      try {
        expect(got).toStrictEqual(c.outcome);
      } catch {
        mismatches.push(
          `${c.text} (seed ${c.seed}): got ${JSON.stringify(got)}, recorded ${JSON.stringify(c.outcome)}`,
        );
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
  });
});

describe('recorded event outcomes', () => {
  const cases = load<EventCase>('events.json');

  it('the corpus covers every kind of case, runs that succeed and runs that fail', () => {
    const kinds = new Set(cases.map((c) => c.kind));
    expect([...kinds].sort()).toEqual(['locals', 'probe', 'sequence']);
    const single = cases.filter((c) => c.kind !== 'sequence') as Extract<EventCase, { outcome: unknown }>[];
    expect(single.length).toBeGreaterThan(300);
    const failed = single.filter((c) => !c.outcome.ok).length;
    expect(failed).toBeGreaterThan(single.length / 5);
    expect(failed).toBeLessThan((single.length * 4) / 5);
  });

  it('each generated run gives its recorded state, notes, rolls, steps, and error with its file:line:col', () => {
    let checked = 0;
    for (const c of cases) {
      if (c.kind === 'sequence') continue;
      const steps = c.kind === 'probe' ? c.steps : LOCALS_EVENT(c.inner, c.after);
      const rules = rulesOfSteps(steps);
      const state = c.kind === 'probe' && c.state !== undefined ? c.state : rules.initialState;
      const snapshot = JSON.stringify(state);
      const inputs = c.kind === 'probe' ? c.inputs : {};
      const got = eventOutcome(runEvent(rules, state, 'probe', inputs, { seed: c.seed }));
      expect(got, JSON.stringify(steps)).toStrictEqual(c.outcome);
      // The input state is never touched.
      expect(JSON.stringify(state)).toBe(snapshot);
      checked++;
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('a long-lived runner applies each recorded sequence the same way (working state, dice, places)', () => {
    let checked = 0;
    for (const c of cases) {
      if (c.kind !== 'sequence') continue;
      const rules = rulesOfSteps(c.steps);
      const runner = new EventRunner(rules, rules.initialState, DiceRoller.fromSeed(c.seed));
      const results = c.calls.map(([event, inputs]) => runner.run(event, inputs));
      expect(results.map((r) => eventOutcome(r))).toStrictEqual(c.outcomes);
      expect(JSON.parse(JSON.stringify(runner.state))).toStrictEqual(c.final);
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });
});

describe("recorded outcomes of Lanternmere's rules", () => {
  it('every event, with several inputs and seeds, changes the state as recorded', () => {
    const cases = load<CartridgeCase>('lanternmere.json');
    expect(cases.length).toBeGreaterThan(150);
    expect(cases.filter((c) => c.outcome.ok).length).toBeGreaterThan(50);
    const rules = lanternmereRules();
    for (const c of cases) {
      const r = runEvent(rules, rules.initialState, c.event, c.inputs, { seed: c.seed });
      const where = `${c.event} ${JSON.stringify(c.inputs)} seed ${c.seed}`;
      expect(eventOutcome(r, false), where).toStrictEqual(c.outcome);
      expect(plain(r.ok ? diffStates(rules.initialState, r.state) : []), where).toStrictEqual(c.changes);
    }
  });
});
