// The one pump of a turn: every caller that plays a prepared turn (the session routes, the OpenAI endpoint,
// the terminal game, `playTurn`) hands it to driveTurn with a sink for its events, instead of stepping the
// generator itself. A sink that throws, or a caller that stops early, still ends the run (its claim given
// back, nothing committed), because the generator is always finished here.

import type { Turn } from '../../../adapters/store/index.ts';
import type { TurnEvent } from '../../turn/index.ts';
import type { PreparedTurn } from './types.ts';

/** Where a driven turn's events go, and the signal of whoever reads them. */
export interface TurnSink {
  /** The reader going away (a closed stream, Ctrl-C): the turn is cancelled and nothing is committed. */
  readonly signal?: AbortSignal;
  /** Each event as the engine streams it; awaited, so a slow sink slows the turn but never loses an event. */
  readonly onEvent?: (event: TurnEvent) => void | Promise<void>;
}

export interface DrivenTurn {
  readonly turn: Turn;
  /** The request's Idempotency-Key named a stored turn: nothing was played (and no event was sent). */
  readonly replayed: boolean;
}

/** Plays a prepared turn to its end (a replayed one at once). Throws SessionError when nothing was committed. */
export async function driveTurn(prepared: PreparedTurn, sink: TurnSink = {}): Promise<DrivenTurn> {
  if (prepared.kind === 'replayed') return { turn: prepared.turn, replayed: true };
  const turn = await pump(
    prepared.run(sink.signal === undefined ? {} : { signal: sink.signal }),
    sink.onEvent,
  );
  return { turn, replayed: false };
}

/** Steps a run to its result, each event to `onEvent`; a run left early is finished (its `finally` runs). */
export async function pump<E, R>(
  run: AsyncGenerator<E, R, undefined>,
  onEvent?: (event: E) => void | Promise<void>,
): Promise<R> {
  let finished = false;
  try {
    for (;;) {
      const step = await run.next();
      if (step.done) {
        finished = true;
        return step.value;
      }
      if (onEvent !== undefined) await onEvent(step.value);
    }
  } finally {
    if (!finished) await run.return(undefined as R);
  }
}
