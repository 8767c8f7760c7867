// What the player can do here: the events whose conditions hold in the current state. An event is tried on
// a copy of the state (fixed seed, nothing kept) with each value of its enum input; it can be done when a
// try changes the state or rolls dice (its conditions let it act), or when it has no conditions at all (it
// always does what it says, like looking in the pack). A try that only leaves a note ("There is no bed
// here") is a refusal. Used by the offline matcher when the player's words match nothing, to ask which
// value is meant, and to say where the player can go.
//
// The listing is remembered per state (states are never changed in place: runs write copy-on-write, so a
// turn's state object is its state), and the work one state's listing may do is bounded in tries and in
// rule steps, whichever runs out first: a cartridge with many or heavy events is listed in part, never
// slowly.

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
  runEvent,
  type Step,
  type Value,
} from '../../../core/yare/index.ts';
import { ENGINE_TOOL_NAMES } from '../tools.ts';

/** Tries of one event (values of its enum input); values past it are not tried and not listed. */
export const MAX_TRIES_PER_EVENT = 16;
/** Tries of all events together in one state, so a cartridge with many events cannot make a reply slow. */
export const MAX_TRIES = 200;
/**
 * Rule steps all the tries in one state may run together (a real event needs a few dozen); a try that
 * would run past what is left fails and is not listed, and so is everything after it.
 */
export const MAX_LISTING_STEPS = 10_000;
/** Steps one try of a chosen event may run (far above what a real event needs). */
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

/** One state's listing so far: each event's entry once tried (null: not doable here), and what is left. */
interface Listing {
  readonly byEvent: Map<string, AvailableAction | null>;
  tries: number;
  steps: number;
  all?: readonly AvailableAction[];
}

const listings = new WeakMap<CompiledRules, WeakMap<Dict, Listing>>();

function listingOf(rules: CompiledRules, state: Dict): Listing {
  let byState = listings.get(rules);
  if (byState === undefined) {
    byState = new WeakMap();
    listings.set(rules, byState);
  }
  let listing = byState.get(state);
  if (listing === undefined) {
    listing = { byEvent: new Map(), tries: MAX_TRIES, steps: MAX_LISTING_STEPS };
    byState.set(state, listing);
  }
  return listing;
}

/** One try on a copy of the state, charged to the listing; true when it acts (changes or rolls). */
function acts(
  listing: Listing,
  rules: CompiledRules,
  state: Dict,
  event: string,
  inputs: Record<string, Value>,
) {
  listing.tries--;
  const result = runEvent(rules, state, event, inputs, { seed: 0, maxSteps: listing.steps });
  listing.steps -= result.stepsUsed;
  if (!result.ok) return false;
  return result.rolls.length > 0 || diffStates(state, result.state).length > 0;
}

function tryListing(
  listing: Listing,
  rules: CompiledRules,
  state: Dict,
  event: EventDef,
): AvailableAction | null {
  const tried = triedInput(event);
  if (!runnable(event, tried) || listing.tries <= 0 || listing.steps <= 0) return null;
  if (tried === undefined) {
    const doable = !hasConditions(event.steps) || acts(listing, rules, state, event.name, {});
    return doable ? { event: event.name, values: [] } : null;
  }
  const values: string[] = [];
  for (const value of (tried.enum ?? []).slice(0, MAX_TRIES_PER_EVENT)) {
    if (listing.tries <= 0 || listing.steps <= 0) break;
    if (acts(listing, rules, state, event.name, { [tried.name]: value })) values.push(formatValue(value));
  }
  return values.length > 0 ? { event: event.name, input: tried.name, values } : null;
}

/** Whether one event can be done here, and with which values (undefined: not here, or past the budget). */
export function availableAction(
  rules: CompiledRules,
  state: Dict,
  event: EventDef,
): AvailableAction | undefined {
  const listing = listingOf(rules, state);
  let entry = listing.byEvent.get(event.name);
  if (entry === undefined) {
    entry = tryListing(listing, rules, state, event);
    listing.byEvent.set(event.name, entry);
  }
  return entry ?? undefined;
}

/** The events a player could do now, in declaration order (within MAX_TRIES tries and MAX_LISTING_STEPS). */
export function availableActions(rules: CompiledRules, state: Dict): readonly AvailableAction[] {
  const listing = listingOf(rules, state);
  if (listing.all !== undefined) return listing.all;
  const out: AvailableAction[] = [];
  for (const event of publicEvents(rules)) {
    if (ENGINE_TOOL_NAMES.has(event.name)) continue;
    const entry = availableAction(rules, state, event);
    if (entry !== undefined) out.push(entry);
  }
  listing.all = out;
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
      case 'create':
        // A record joins a collection of the state.
        return true;
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
