// The invariants of a cartridge (`invariants:` in yare.yaml) checked against a state: each condition
// evaluated as the rules' own expressions are (the same closures, macros and float fields), under one
// step budget for all of them, with dice that no state depends on. Pure: play runs it after every event
// (engine/turn/context.ts), the explorer after every event it tries (tools/authoring/explore).

import type { SourcePlace } from '../diagnostics.ts';
import { DiceRoller } from './dice.ts';
import { YareError } from './errors.ts';
import { type Closure, compileClosure } from './expr/closure.ts';
import { programOf } from './interpreter.ts';
import { MAX_STEPS_PER_RUN } from './limits.ts';
import type { CompiledRules } from './program.ts';
import { formatValue, truthy } from './python.ts';
import { isStackOverflow } from './run/errors.ts';
import { Machine } from './run/machine.ts';

/** An invariant that does not hold: its condition was false, or evaluating it failed. */
export interface InvariantFailure {
  readonly invariant: string;
  /** `false`: the condition evaluated to a false value; `error`: it could not be evaluated. */
  readonly kind: 'false' | 'error';
  /** The YARE error code of an `error` failure (a budget hit is `YARE_STEP_LIMIT`). */
  readonly code?: string;
  readonly message: string;
  /** Where the condition is written: `yare.yaml:line:col`. */
  readonly place: SourcePlace;
}

export interface CheckInvariantsOptions {
  /** Steps all the conditions together may use (default MAX_STEPS_PER_RUN): comprehensions count. */
  readonly maxSteps?: number;
}

const compiled = new WeakMap<CompiledRules, readonly Closure[]>();

function closuresOf(rules: CompiledRules): readonly Closure[] {
  let closures = compiled.get(rules);
  if (closures === undefined) {
    const options = programOf(rules).closureOptions;
    closures = rules.invariants.map((inv) => compileClosure(inv.expr, options));
    compiled.set(rules, closures);
  }
  return closures;
}

/** Every invariant that does not hold on `state`, in declaration order (empty when all hold). */
export function checkInvariants(
  rules: CompiledRules,
  state: unknown,
  options: CheckInvariantsOptions = {},
): InvariantFailure[] {
  const invariants = rules.invariants;
  if (invariants.length === 0) return [];
  const closures = closuresOf(rules);
  const machine = new Machine(
    programOf(rules),
    state,
    DiceRoller.fromSeed(0),
    options.maxSteps ?? MAX_STEPS_PER_RUN,
  );
  // One scratch frame for all: the step count runs on from one condition to the next.
  const ctx = machine.scratch();
  const failures: InvariantFailure[] = [];
  for (let i = 0; i < invariants.length; i++) {
    const inv = invariants[i]!;
    try {
      const value = closures[i]!(ctx);
      if (!truthy(value)) {
        failures.push({
          invariant: inv.name,
          kind: 'false',
          message: `invariant '${inv.name}' does not hold: ${inv.expr.source.trim()} is ${formatValue(value)}`,
          place: inv.place,
        });
      }
    } catch (error) {
      if (!(error instanceof YareError) && !isStackOverflow(error)) throw error;
      const code = error instanceof YareError ? error.code : 'YARE_STEP_LIMIT';
      failures.push({
        invariant: inv.name,
        kind: 'error',
        code,
        message: `invariant '${inv.name}' could not be checked (${code}): ${(error as Error).message}`,
        place: inv.place,
      });
    }
  }
  return failures;
}
