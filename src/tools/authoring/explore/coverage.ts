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
  const walk = new CoverageWalk(sink, mapPlace);
  for (const name of rules.eventNames) {
    const event = rules.events.get(name)!;
    const ran = sink.events.has(name);
    if (!ran) events.push({ place: mapPlace(event.place), what: `event '${name}' never run` });
    walk.steps(event.steps, name, ran);
  }
  return {
    events: {
      reached: rules.eventNames.length - events.length,
      total: rules.eventNames.length,
      missed: events,
    },
    steps: { reached: walk.stepReached, total: walk.stepTotal, missed: walk.missedSteps },
    branches: { taken: walk.armTaken, total: walk.armTotal, missed: walk.missedArms },
    notes: { shown: walk.noteShown, total: walk.noteTotal, missed: walk.missedNotes },
  };
}

/** Counts the steps, branch arms and notes the sink saw, naming each one missed. */
class CoverageWalk {
  readonly missedSteps: Located[] = [];
  readonly missedArms: Located[] = [];
  readonly missedNotes: Located[] = [];
  stepTotal = 0;
  stepReached = 0;
  armTotal = 0;
  armTaken = 0;
  noteTotal = 0;
  noteShown = 0;

  constructor(
    private readonly sink: CoverageSink,
    private readonly mapPlace: (place: SourcePlace) => SourcePlace,
  ) {}

  /** `entered`: the block these steps belong to ran; a step missed there is worth naming on its own. */
  steps(list: readonly Step[], event: string, entered: boolean): void {
    for (const step of list) {
      this.stepTotal++;
      const reached = this.sink.steps.has(step);
      if (reached) this.stepReached++;
      else if (entered)
        this.missedSteps.push({
          place: this.mapPlace(step.place),
          what: `${event}: a ${step.kind} step never reached`,
        });
      if (step.kind === 'note') {
        this.noteTotal++;
        if (reached) this.noteShown++;
        else
          this.missedNotes.push({
            place: this.mapPlace(step.place),
            what: `${event}: note "${step.template}" never shown`,
          });
      }
      if (step.kind === 'branch') this.arms(step, event, reached);
      else if (step.kind === 'foreach') this.steps(step.steps, event, reached);
    }
  }

  private arms(step: Extract<Step, { kind: 'branch' }>, event: string, reached: boolean): void {
    step.arms.forEach((arm, i) => {
      this.armTotal++;
      const taken = this.sink.arms.has(arm);
      if (taken) this.armTaken++;
      else if (reached)
        this.missedArms.push({
          place: this.mapPlace(armPlace(step, arm)),
          what: `${event}: ${armText(arm, i)} never taken`,
        });
      this.steps(arm.steps, event, taken);
    });
  }
}
