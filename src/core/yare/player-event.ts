// A player's event and the `after_event` hooks that follow it (docs/yare.md, "After each event"): every
// event with `trigger_on: after_event` runs after each event the player makes happen — the Director's or
// the offline matcher's tool call, a mini-game's resolver, a scenario's or explore's event step — in
// declaration order, each its own transaction on the state the one before left. The place for the world's
// tick and the score, which no event then has to remember to call. A hook may declare one input, `event`:
// the name of the event it follows. The turn runs hooks through its own rule budget (engine/turn/tools.ts);
// `runPlayerEvent` is the same for the authoring tools that run events directly.

import type { RollRecord } from './dice.ts';
import { DiceRoller } from './dice.ts';
import { EventRunner, type RunEventOptions } from './interpreter.ts';
import { MAX_STEPS_PER_RUN } from './limits.ts';
import type { CompiledRules, EventDef } from './program.ts';
import type { RunResult } from './run/run-result.ts';
import { isPublicEvent } from './tools.ts';
import type { Dict } from './values.ts';

/** The input an `after_event` hook may declare: the name of the event it follows. */
export const HOOK_EVENT_INPUT = 'event';

const hooksByRules = new WeakMap<CompiledRules, readonly EventDef[]>();

/** The events with `trigger_on: after_event`, in declaration order. */
export function afterEventHooks(rules: CompiledRules): readonly EventDef[] {
  let hooks = hooksByRules.get(rules);
  if (hooks === undefined) {
    hooks = rules.eventNames
      .map((name) => rules.events.get(name)!)
      .filter((event) => event.triggerOn === 'after_event');
    hooksByRules.set(rules, hooks);
  }
  return hooks;
}

/** The inputs a hook runs with after `event`: `{event}` when it declares that input, else none. */
export function hookInputs(hook: EventDef, event: string): Record<string, string> {
  return hook.inputs.has(HOOK_EVENT_INPUT) ? { [HOOK_EVENT_INPUT]: event } : {};
}

/** Whether events after which the hooks run: what a player can make happen (public events, resolvers). */
export function isPlayerEvent(event: EventDef): boolean {
  return isPublicEvent(event) || event.resolver;
}

export interface HookRun {
  readonly event: string;
  readonly result: RunResult;
}

export interface PlayerEventRun {
  /** The player's event itself. */
  readonly result: RunResult;
  /** The hooks that ran after it (none when it failed, or is not a player's event), each with its result. */
  readonly hooks: readonly HookRun[];
  /** The state after the event and every hook that succeeded (the state given, when the event failed). */
  readonly state: Dict;
  /** Notes and rolls of the event and the hooks that succeeded, in order. */
  readonly notes: readonly string[];
  readonly rolls: readonly RollRecord[];
  readonly stepsUsed: number;
}

/**
 * Runs `event` as the player's, then (when it succeeded and is a player's event) each `after_event` hook,
 * on one dice generator. A failing hook changes nothing and the next still runs, as in a turn.
 */
export function runPlayerEvent(
  rules: CompiledRules,
  state: unknown,
  event: string,
  inputs: unknown = {},
  options: RunEventOptions = {},
): PlayerEventRun {
  const dice = options.dice ?? DiceRoller.fromSeed(options.seed ?? 0);
  const runner = new EventRunner(rules, state, dice, MAX_STEPS_PER_RUN);
  const result = runner.run(event, inputs, options);
  const notes = [...result.notes];
  const rolls = [...result.rolls];
  let stepsUsed = result.stepsUsed;
  const hooks: HookRun[] = [];
  const def = rules.events.get(event);
  if (result.ok && def !== undefined && isPlayerEvent(def)) {
    for (const hook of afterEventHooks(rules)) {
      const ran = runner.run(hook.name, hookInputs(hook, event));
      hooks.push({ event: hook.name, result: ran });
      stepsUsed += ran.stepsUsed;
      if (!ran.ok) continue;
      notes.push(...ran.notes);
      rolls.push(...ran.rolls);
    }
  }
  return { result, hooks, state: runner.state, notes, rolls, stepsUsed };
}
