// A shrunk violation as a scenario file `mnesos test` runs (docs/authoring.md): the start state, the
// steps with their seeds, and the expectation the violation breaks, so the scenario fails while the bug
// is there and passes once it is fixed. An event that fails fails its step by itself; a cycle tick that
// fails inside a turn is caught by `not_refused`; a broken invariant or bound by a `check:`.

import { Document } from 'yaml';
import type { CompiledRules } from '../../../core/yare/index.ts';
import type { ExploreReport, ExploreStep, Violation } from './types.ts';

function stepEntry(step: ExploreStep): Record<string, unknown> {
  switch (step.kind) {
    case 'event':
      return Object.keys(step.inputs).length === 0
        ? { event: step.event, seed: step.seed }
        : { event: step.event, seed: step.seed, inputs: { ...step.inputs } };
    case 'minigame':
      return {
        minigame: {
          id: step.result.minigame_id,
          status: step.result.status,
          ...(step.result.metrics === undefined ? {} : { metrics: { ...step.result.metrics } }),
        },
        seed: step.seed,
      };
    case 'wait':
      return { turn: `/wait ${step.duration}`, seed: step.seed };
  }
}

function expectation(rules: CompiledRules, v: Violation): Record<string, unknown> | undefined {
  switch (v.kind) {
    case 'invariant': {
      const inv = rules.invariants.find((i) => i.name === v.subject);
      return inv === undefined ? undefined : { check: `@ ${inv.expr.source.trim()}` };
    }
    case 'bounds': {
      const b = v.bounds!;
      const tests = [
        ...(b.min === undefined ? [] : [`${v.subject} >= ${b.min}`]),
        ...(b.max === undefined ? [] : [`${v.subject} <= ${b.max}`]),
      ];
      return { check: `@ ${tests.join(' and ')}` };
    }
    case 'note':
      if (v.shown !== undefined) return { no_note: v.shown };
      return v.inTurn === true && v.code !== undefined ? { not_refused: v.code } : undefined;
    case 'error':
    case 'budget':
      return v.inTurn === true && v.code !== undefined && v.code !== 'TURN_INTERACTION'
        ? { not_refused: v.code }
        : undefined;
  }
}

/** A file name for the violation: its number, kind and subject, safe in any file system. */
export function failureFileName(index: number, v: Violation): string {
  const subject = (v.subject ?? v.event ?? 'turn').replace(/[^A-Za-z0-9_]+/g, '_').slice(0, 40);
  return `explore-${String(index + 1).padStart(3, '0')}-${v.kind}-${subject}.yaml`;
}

/** How a file `explore --write-failures` wrote begins: such a file is its own, replaced on the next run. */
export const EXPLORE_FAILURE_MARK = '# Written by mnesos explore';

export function violationScenario(
  rules: CompiledRules,
  report: Pick<ExploreReport, 'seed'>,
  v: Violation,
  start: Readonly<Record<string, unknown>> | undefined,
): string {
  const steps = v.steps.map(stepEntry);
  const expect = expectation(rules, v);
  const doc = {
    scenarios: [
      {
        name: `explore ${v.kind}: ${v.message}`.slice(0, 200),
        ...(start === undefined ? {} : { state: start }),
        steps,
        ...(expect === undefined ? {} : { expect: [expect] }),
      },
    ],
  };
  const head = `${EXPLORE_FAILURE_MARK} (seed ${report.seed}): the shortest sequence found that shows this\n# violation. It fails while the violation is there; fix the rules and it passes.\n`;
  return head + new Document(doc).toString({ lineWidth: 0 });
}
