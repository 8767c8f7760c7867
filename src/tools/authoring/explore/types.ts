// The explorer's vocabulary: the steps of a playthrough, what a step can break, and the report.

import type { SourcePlace } from '../../../core/diagnostics.ts';
import type { InteractionInput } from '../../../engine/turn/index.ts';

/** One step of a playthrough, with the seed it ran with: replaying it gives the same outcome. */
export type ExploreStep =
  | {
      readonly kind: 'event';
      readonly event: string;
      readonly inputs: Readonly<Record<string, unknown>>;
      readonly seed: number;
    }
  /** A mini-game result sent for the pending interaction (an offline turn runs its resolver). */
  | { readonly kind: 'minigame'; readonly result: InteractionInput; readonly seed: number }
  /** Time passing: an offline `/wait` turn (cycle ticks run, the clock moves). */
  | { readonly kind: 'wait'; readonly duration: string; readonly seed: number };

export type ViolationKind =
  /** A rule run failed (an event's own error, or a cycle tick's or resolver's inside a turn). */
  | 'error'
  /** A run hit the step or time budget. */
  | 'budget'
  /** A note's `{placeholder}` could not be rendered: the run failed inside it, or it showed None. */
  | 'note'
  /** An invariant of `invariants:` did not hold after the step. */
  | 'invariant'
  /** A field held a number outside its declared `min`/`max`. */
  | 'bounds';

/** What one step broke, told apart from other breaks by `key`. */
export interface Finding {
  readonly kind: ViolationKind;
  /** Identity for deduplication and shrinking: the same key is the same violation. */
  readonly key: string;
  readonly message: string;
  readonly place?: SourcePlace;
  /** The event that failed or that the step ran. */
  readonly event?: string;
  /** The YARE (or turn) error code, for errors. */
  readonly code?: string;
  /** The invariant broken (`invariant`) or the field out of bounds (`bounds`, `state.a.b`). */
  readonly subject?: string;
  /** `bounds`: the declared range and the value seen. */
  readonly bounds?: { readonly min?: number; readonly max?: number; readonly value: number };
  /** `note`: the note as it was shown, with None where a placeholder had nothing to show. */
  readonly shown?: string;
  /** Found inside a turn (a wait or a mini-game result), not in an event run on its own. */
  readonly inTurn?: boolean;
}

export interface Violation extends Finding {
  /** The run (0-based) and step (1-based) where it was first seen. */
  readonly foundIn: { readonly run: number; readonly step: number };
  /** The shortest sequence found that reproduces it from the start state (its last step shows it). */
  readonly steps: readonly ExploreStep[];
  /** Steps of the first sequence that showed it, before shrinking. */
  readonly originalLength: number;
}

export interface Located {
  readonly place: SourcePlace;
  readonly what: string;
}

export interface Coverage {
  readonly events: { readonly reached: number; readonly total: number; readonly missed: readonly Located[] };
  readonly steps: { readonly reached: number; readonly total: number; readonly missed: readonly Located[] };
  readonly branches: {
    readonly taken: number;
    readonly total: number;
    readonly missed: readonly Located[];
  };
  readonly notes: { readonly shown: number; readonly total: number; readonly missed: readonly Located[] };
  readonly lore: {
    readonly activated: number;
    readonly total: number;
    readonly missed: readonly Located[];
  };
  readonly worldInfo: {
    readonly activated: number;
    readonly total: number;
    readonly missed: readonly { readonly uid: number; readonly what: string }[];
  };
}

export interface ExploreReport {
  readonly cartridge: string;
  readonly seed: number;
  readonly runs: number;
  readonly depth: number;
  /** Steps played (events, mini-game results and waits), shrinking replays not counted. */
  readonly stepsPlayed: number;
  /** Events run (top-level events, cycle ticks and resolvers), shrinking replays not counted. */
  readonly eventsRun: number;
  /** Runs that ended early: no event could be chosen, or the deadline passed. */
  readonly stoppedEarly: boolean;
  readonly violations: readonly Violation[];
  /** Distinct violations seen beyond MAX_VIOLATIONS (not kept). */
  readonly violationsDropped: number;
  readonly coverage: Coverage;
}
