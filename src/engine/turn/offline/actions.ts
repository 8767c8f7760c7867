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
} from '../../../core/yare/index.ts';
import { ENGINE_TOOL_NAMES } from '../tools.ts';

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

/** Calls followed when deciding whether an event costs something (deeper counts as costly). */
const MAX_COST_DEPTH = 16;

function stepsWrite(rules: CompiledRules, steps: readonly Step[], depth: number): boolean {
  if (depth > MAX_COST_DEPTH) return true;
  return steps.some((step) => {
    switch (step.kind) {
      case 'set':
      case 'mutate':
      case 'list_push':
      case 'list_remove':
      case 'dict_set':
      case 'dict_delete':
      case 'table_roll':
        return step.target.kind === 'dynamic' || step.target.root === 'state';
      case 'branch':
        return step.arms.some((arm) => stepsWrite(rules, arm.steps, depth));
      case 'foreach':
        return stepsWrite(rules, step.steps, depth);
      case 'call': {
        const called = rules.events.get(step.event);
        return called === undefined || stepsWrite(rules, called.steps, depth + 1);
      }
      case 'note':
        return false;
      default: {
        const unreachable: never = step;
        return unreachable;
      }
    }
  });
}

const costOf = new WeakMap<EventDef, boolean>();

/**
 * Whether running an event can cost the player something: it writes the state (gold, HP, time, items,
 * place), directly or through an event it calls. An event that only tells (notes) costs nothing.
 */
export function costlyEvent(rules: CompiledRules, event: EventDef): boolean {
  let costly = costOf.get(event);
  if (costly === undefined) {
    costly = stepsWrite(rules, event.steps, 0);
    costOf.set(event, costly);
  }
  return costly;
}

export type EventTry =
  | { readonly kind: 'acts' }
  /** The conditions refused it here: nothing would change; the notes say why. */
  | {
      readonly kind: 'refused';
      readonly notes: readonly string[];
      /** Where the notes show private values, by note index (`RunResult.privateNotes`). */
      readonly privateSpans: ReadonlyMap<number, readonly number[]>;
    }
  | { readonly kind: 'fails' };

/**
 * Runs an event on a copy of the state (nothing kept) to see whether its conditions let it act here. An
 * event that changes nothing and rolls nothing while having conditions is a refusal; its notes (which no
 * dice decided) are what the rules say about it.
 */
export function tryEvent(
  rules: CompiledRules,
  state: Dict,
  event: EventDef,
  inputs: Record<string, Value>,
): EventTry {
  const runner = new EventRunner(rules, state, DiceRoller.fromSeed(0), TRY_STEPS);
  const result = runner.run(event.name, inputs);
  if (!result.ok) return { kind: 'fails' };
  if (result.rolls.length > 0 || diffStates(state, result.state).length > 0) return { kind: 'acts' };
  if (!hasConditions(event.steps)) return { kind: 'acts' };
  const privateSpans = new Map(result.privateNotes.map((p) => [p.index, p.spans] as const));
  return { kind: 'refused', notes: result.notes, privateSpans };
}
