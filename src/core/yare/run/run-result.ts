// What one run of an event returns, and the bounds a caller may put on it beyond the language's own limits.
// Kept apart from interpreter.ts so the machine (run/machine.ts) can name them without importing the
// interpreter that drives it.

import type { RollRecord } from '../dice.ts';
import type { Dict } from '../values.ts';
import type { RunError } from './errors.ts';

/**
 * A note that shows a private value (src/core/yare/run/privacy.ts): `spans` are the [start, end) offsets of
 * each such value in the note's text, flat and in order.
 */
export interface PrivateNote {
  /** Its index in the run's `notes`. */
  readonly index: number;
  readonly spans: readonly number[];
}

export type RunResult =
  | {
      readonly ok: true;
      readonly state: Dict;
      readonly notes: readonly string[];
      /** The notes that show a private value, and where (none for most runs). */
      readonly privateNotes: readonly PrivateNote[];
      readonly rolls: readonly RollRecord[];
      /** Steps this run executed (nested calls and loop iterations included), for per-turn budgets. */
      readonly stepsUsed: number;
    }
  | {
      readonly ok: false;
      readonly error: RunError;
      readonly notes: readonly string[];
      readonly privateNotes: readonly PrivateNote[];
      readonly rolls: readonly RollRecord[];
      /** Steps executed before the error (a step refused by a budget is not counted). */
      readonly stepsUsed: number;
    };

/**
 * Bounds of one run beyond the language's own limits: a caller spreading a budget over several runs (a
 * turn's tool calls) passes what is left of it.
 */
export interface RunBudget {
  /** Steps this run may execute (default `MAX_STEPS_PER_RUN`); one more fails with `YARE_STEP_LIMIT`. */
  readonly maxSteps?: number;
  /**
   * A wall-clock deadline on the `now` clock (milliseconds, monotonic: `performance.now()` by default).
   * Checked before the first step and then every `CLOCK_CHECK_INTERVAL` steps; past it the run fails with
   * `YARE_TIME_LIMIT` and is rolled back. Results never depend on the clock unless the deadline is hit.
   */
  readonly deadline?: number;
  /** The clock `deadline` is read on (tests inject one; the core reads no clock unless given a deadline). */
  readonly now?: () => number;
}
