// The step budget and wall-clock deadline of a run. `countStep` is on every step's path, so it does one
// comparison; the limit and the clock are looked at only when the count reaches `checkAt`.

import { YareError } from '../errors.ts';
import { MAX_STEPS_PER_RUN } from '../limits.ts';

/** Steps between two readings of the clock when a run has a deadline. */
export const CLOCK_CHECK_INTERVAL = 64;

/** A run's budget as it is being spent. */
export interface BudgetState {
  steps: number;
  /** This run's step limit. */
  runMaxSteps: number;
  deadline: number | undefined;
  now: () => number;
  /**
   * The step count at which `countStep` leaves its fast path: the step limit, or sooner the next clock
   * reading when the run has a deadline.
   */
  checkAt: number;
}

/** Every step and every loop iteration counts against the run's step budget. */
export function countStep(m: BudgetState): void {
  if (++m.steps > m.checkAt) checkBudget(m);
}

/** The slow path of `countStep`: the step limit, and the deadline every `CLOCK_CHECK_INTERVAL` steps. */
function checkBudget(m: BudgetState): void {
  if (m.steps > m.runMaxSteps) {
    m.steps--; // the refused step did not run
    throw new YareError(
      'YARE_STEP_LIMIT',
      `Event run exceeded ${m.runMaxSteps} steps (MAX_STEPS_PER_RUN ${MAX_STEPS_PER_RUN}, or what is left of the turn's budget); check loops and calls.`,
    );
  }
  if (m.deadline !== undefined) {
    if (m.now() >= m.deadline) {
      m.steps--;
      throw new YareError(
        'YARE_TIME_LIMIT',
        `Event run passed its time limit after ${m.steps} steps; check loops and calls.`,
      );
    }
    m.checkAt = Math.min(m.runMaxSteps, m.steps + CLOCK_CHECK_INTERVAL - 1);
  } else m.checkAt = m.runMaxSteps;
}

export function monotonicNow(): number {
  return performance.now();
}
