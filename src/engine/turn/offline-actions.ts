// What the player can do here: the events whose conditions hold in the current state. An event is tried on
// a copy of the state (fixed seed, nothing kept) with each value of its enum input; it can be done when a
// try changes the state or rolls dice (its conditions let it act), or when it has no conditions at all (it
// always does what it says, like looking in the pack). A try that only leaves a note ("There is no bed
// here") is a refusal. Used by the offline matcher when the player's words match nothing.

import {
  type CompiledRules,
  DiceRoller,
  type Dict,
  diffStates,
  type EventDef,
  EventRunner,
  formatValue,
  type InputSpec,
  publicEvents,
  type Step,
  type Value,
} from '../../core/yare/index.ts';
import { ENGINE_TOOL_NAMES } from './tools.ts';

/** Tries of one event (values of its enum input); values past it are not tried and not listed. */
export const MAX_TRIES_PER_EVENT = 16;
/** Tries of all events together, so a cartridge with many events cannot make a reply slow. */
export const MAX_TRIES = 200;
/** Steps one try may run (far above what a real event needs; a runaway event is simply not listed). */
const TRY_STEPS = 5_000;

export interface AvailableAction {
  readonly event: string;
  /** The input whose values were tried, and the values that work here (empty: the event takes none). */
  readonly input?: string;
  readonly values: readonly string[];
}

function hasConditions(steps: readonly Step[]): boolean {
  return steps.some((s) => s.kind === 'branch' || (s.kind === 'foreach' && hasConditions(s.steps)));
}

/** The input to try values of: the first required enum input; undefined when none is needed. */
function triedInput(event: EventDef): InputSpec | undefined {
  return event.inputList.find((s) => s.enum !== undefined && !s.hasDefault);
}

/** Whether an event could run with defaults only for everything but `tried`. */
function runnable(event: EventDef, tried: InputSpec | undefined): boolean {
  return event.inputList.every((s) => s === tried || s.hasDefault || s.type === undefined);
}

function acts(rules: CompiledRules, state: Dict, event: string, inputs: Record<string, Value>): boolean {
  const runner = new EventRunner(rules, state, DiceRoller.fromSeed(0), TRY_STEPS);
  const result = runner.run(event, inputs);
  if (!result.ok) return false;
  return result.rolls.length > 0 || diffStates(state, result.state).length > 0;
}

/** The events a player could do now, in declaration order (at most MAX_TRIES tries in all). */
export function availableActions(rules: CompiledRules, state: Dict): AvailableAction[] {
  const out: AvailableAction[] = [];
  let budget = MAX_TRIES;
  for (const event of publicEvents(rules)) {
    if (ENGINE_TOOL_NAMES.has(event.name) || budget <= 0) continue;
    const tried = triedInput(event);
    if (!runnable(event, tried)) continue;
    if (tried === undefined) {
      budget--;
      if (!hasConditions(event.steps) || acts(rules, state, event.name, {})) {
        out.push({ event: event.name, values: [] });
      }
      continue;
    }
    const values: string[] = [];
    for (const value of (tried.enum ?? []).slice(0, MAX_TRIES_PER_EVENT)) {
      if (budget <= 0) break;
      budget--;
      if (acts(rules, state, event.name, { [tried.name]: value })) values.push(formatValue(value));
    }
    if (values.length > 0) out.push({ event: event.name, input: tried.name, values });
  }
  return out;
}
