// Runs compiled events against a state: the public face of the run stage. Each run is a transaction: the
// input state is never mutated and a failed run leaves no trace. Dice come from a seeded generator and
// every roll is recorded, so a run can be replayed exactly. Steps and expressions run as closures lowered
// once per event (run/lower.ts) — the one executable semantics of YARE, pinned by recorded outcomes
// (test/core/yare/recorded.test.ts). The parts: run/machine.ts (frames, transactions), run/lower.ts (steps to
// closures), run/paths.ts (reads and copy-on-write writes), run/coerce.ts and run/inputs.ts (typed
// values), run/budget.ts (steps and deadline), run/errors.ts (what a failure looks like to the caller).

import { DiceRoller, type RngState, type RollRecord } from './dice.ts';
import type { Expression } from './expr/ast.ts';
import { compileClosure } from './expr/closure.ts';
import { MAX_STEPS_PER_RUN } from './limits.ts';
import type { CompiledRules } from './program.ts';
import { LoweredProgram } from './run/lower.ts';
import { type Dice, Machine } from './run/machine.ts';
import type { RunBudget, RunResult } from './run/run-result.ts';
import type { Dict, Value } from './values.ts';

export { CLOCK_CHECK_INTERVAL } from './run/budget.ts';
export { coerceToField } from './run/coerce.ts';
export type { RunError } from './run/errors.ts';
export type { Dice } from './run/machine.ts';

export type { RunBudget, RunResult } from './run/run-result.ts';

export interface RunEventOptions extends RunBudget {
  /** Seed for a fresh dice generator (default 0). Ignored when `dice` is given. */
  readonly seed?: number;
  /** A generator to continue (its rolls so far are not repeated in the result). */
  readonly dice?: Dice;
}

/** Runs one event as a transaction: `{ok, state, notes, rolls}` or `{ok:false, error}` with the input state untouched. */
export function runEvent(
  rules: CompiledRules,
  state: unknown,
  eventName: string,
  inputs: unknown = {},
  options: RunEventOptions = {},
): RunResult {
  const dice = options.dice ?? DiceRoller.fromSeed(options.seed ?? 0);
  const machine = new Machine(programOf(rules), state, dice, MAX_STEPS_PER_RUN);
  return machine.run(eventName, inputs, options);
}

/**
 * Applies events one after another to a working state (the Director's tool calls, cycle ticks). Each
 * `run` is its own transaction: on error the working state is what it was before that run.
 */
export class EventRunner {
  private readonly machine: Machine;

  constructor(
    readonly rules: CompiledRules,
    state: unknown,
    readonly dice: Dice,
    maxSteps: number = MAX_STEPS_PER_RUN,
  ) {
    this.machine = new Machine(programOf(rules), state, dice, maxSteps);
  }

  get state(): Dict {
    return this.machine.root;
  }

  /**
   * Evaluates an expression outside any event (`state`, and an empty `temp` and `inputs`), compiled as the
   * rules' own expressions are: one semantics for `eval` and events.
   */
  evaluate(expr: Expression): Value {
    return compileClosure(expr, this.machine.program.closureOptions)(this.machine.scratch());
  }

  /** Runs one event; `budget` overrides the runner's step limit for this run and may add a deadline. */
  run(eventName: string, inputs: unknown = {}, budget?: RunBudget): RunResult {
    return this.machine.run(eventName, inputs, budget);
  }
}

const programs = new WeakMap<CompiledRules, LoweredProgram>();

/** The rules lowered to closures, once per `CompiledRules` object (shared by every runner of them). */
export function programOf(rules: CompiledRules): LoweredProgram {
  let program = programs.get(rules);
  if (program === undefined) {
    program = new LoweredProgram(rules);
    programs.set(rules, program);
  }
  return program;
}

export type { RngState, RollRecord };
