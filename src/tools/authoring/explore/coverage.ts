// The coverage part of the report, from what the sink saw: events never run, branch arms never taken,
// steps never reached inside a block that did run, notes never shown — each at its `yare.yaml:line:col`.

import type { SourcePlace } from '../../../core/diagnostics.ts';
import type { BranchArm, CompiledRules, CoverageSink, Step } from '../../../core/yare/index.ts';
import type { Coverage, Located } from './types.ts';

type RulesCoverage = Pick<Coverage, 'events' | 'steps' | 'branches' | 'notes'>;

/** Where an arm is written: its test, else its first step, else its branch (an empty else). */
function armPlace(branch: Step, arm: BranchArm): SourcePlace {
  if (arm.test?.kind === 'expr') return arm.test.place;
  return arm.steps[0]?.place ?? branch.place;
}

function armText(arm: BranchArm, index: number): string {
  if (arm.test === undefined) return 'the else arm';
  if (arm.test.kind === 'expr') return `the arm if ${arm.test.expr.source.trim()}`;
  return `arm ${index + 1}`;
}

export function rulesCoverage(
  rules: CompiledRules,
  sink: CoverageSink,
  mapPlace: (place: SourcePlace) => SourcePlace,
): RulesCoverage {
  const events: Located[] = [];
  const steps: Located[] = [];
  const arms: Located[] = [];
  const notes: Located[] = [];
  let stepTotal = 0;
  let stepReached = 0;
  let armTotal = 0;
  let armTaken = 0;
  let noteTotal = 0;
  let noteShown = 0;
  // `entered`: the block these steps belong to ran; a step missed there is worth naming on its own.
  const walk = (list: readonly Step[], event: string, entered: boolean): void => {
    for (const step of list) {
      stepTotal++;
      const reached = sink.steps.has(step);
      if (reached) stepReached++;
      else if (entered)
        steps.push({ place: mapPlace(step.place), what: `${event}: a ${step.kind} step never reached` });
      if (step.kind === 'note') {
        noteTotal++;
        if (reached) noteShown++;
        else
          notes.push({ place: mapPlace(step.place), what: `${event}: note "${step.template}" never shown` });
      }
      if (step.kind === 'branch') {
        step.arms.forEach((arm, i) => {
          armTotal++;
          const taken = sink.arms.has(arm);
          if (taken) armTaken++;
          else if (reached)
            arms.push({
              place: mapPlace(armPlace(step, arm)),
              what: `${event}: ${armText(arm, i)} never taken`,
            });
          walk(arm.steps, event, taken);
        });
      } else if (step.kind === 'foreach') walk(step.steps, event, reached);
    }
  };
  for (const name of rules.eventNames) {
    const event = rules.events.get(name)!;
    const ran = sink.events.has(name);
    if (!ran) events.push({ place: mapPlace(event.place), what: `event '${name}' never run` });
    walk(event.steps, name, ran);
  }
  return {
    events: {
      reached: rules.eventNames.length - events.length,
      total: rules.eventNames.length,
      missed: events,
    },
    steps: { reached: stepReached, total: stepTotal, missed: steps },
    branches: { taken: armTaken, total: armTotal, missed: arms },
    notes: { shown: noteShown, total: noteTotal, missed: notes },
  };
}
