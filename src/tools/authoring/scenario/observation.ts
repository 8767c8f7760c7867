// What one step of a scenario produced: the state after it, its notes and rolls, what it refused, the
// world ledger, and (for turns) the narration. Expectations are checked against it; transcripts print it.

import type { World } from '../../../core/ledger/index.ts';
import type { SourcePlace } from '../../../core/diagnostics.ts';
import type { GameState } from '../../../engine/turn/index.ts';
import type { RollRecord } from '../../../core/yare/index.ts';

export interface Refusal {
  readonly event: string;
  readonly code: string;
  readonly message: string;
  readonly place?: SourcePlace;
}

export interface StepObservation {
  readonly before: GameState;
  readonly state: GameState;
  readonly notes: readonly string[];
  readonly rolls: readonly RollRecord[];
  /** Refused rule runs: the event step's own, or a turn's failed rule calls. */
  readonly refusals: readonly Refusal[];
  /** Events run at the top level (the step's event; a turn's rule calls). */
  readonly ran: readonly string[];
  readonly world: World;
  readonly narration: string | undefined;
  /** Lines describing the step for the transcript (tool calls, ledger status, events proposed). */
  readonly detail: readonly string[];
}
