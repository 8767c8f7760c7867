// Stage 2 of a turn: the turn engine on a prepared context, streamed, under the caller's abort signal and
// the service's turn timeout. Touches no store. Ends with the turn's record, or with the SessionError that
// says why nothing may be committed; an error the engine was not expected to throw propagates as it is.
// `runEngine` is that stage on any engine options: the stateless turn runs under the same timeout and the
// same mapping of engine errors (turnFailure), the one the server answers through (server/errors.ts).

import {
  isTurnError,
  runTurn,
  type TurnEvent,
  type TurnLimits,
  type TurnOptions,
  type TurnRecord,
} from '../../turn/index.ts';
import { SessionError } from '../errors.ts';
import type { StageOptions, TurnContext } from './types.ts';

/** `failed` keeps the record when the engine finished before the abort, for metrics. */
export type RunResult =
  | { readonly kind: 'finished'; readonly record: TurnRecord }
  | { readonly kind: 'failed'; readonly error: SessionError; readonly record?: TurnRecord };

export function runStage(
  context: TurnContext,
  options: StageOptions = {},
  limits?: Partial<TurnLimits>,
): AsyncGenerator<TurnEvent, RunResult, undefined> {
  return runEngine(turnOptions(context, limits), options);
}

/** The engine on `engine`, under the caller's signal and `timeoutMs`. */
export async function* runEngine(
  engine: Omit<TurnOptions, 'signal'>,
  options: StageOptions = {},
): AsyncGenerator<TurnEvent, RunResult, undefined> {
  const control = new AbortController();
  let timedOut = false;
  const onAbort = (): void => control.abort(options.signal?.reason);
  if (options.signal?.aborted) control.abort(options.signal.reason);
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  const timer =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          control.abort(new Error('turn timeout'));
        }, options.timeoutMs);
  let record: TurnRecord | undefined;
  const failed = (error: SessionError): RunResult => ({
    kind: 'failed',
    error,
    ...(record === undefined ? {} : { record }),
  });
  try {
    try {
      const pacing = options.yieldNow === undefined ? {} : { yieldNow: options.yieldNow };
      for await (const event of runTurn({ ...engine, ...pacing, signal: control.signal })) {
        if (event.type === 'done') record = event.record;
        yield event;
      }
    } catch (error) {
      const expected = turnFailure(error, control.signal, timedOut);
      if (expected === undefined) throw error;
      return failed(expected);
    }
    if (control.signal.aborted) return failed(stopped(timedOut));
    if (record === undefined) return failed(new SessionError('invalid', 'the turn ended without a record'));
    return { kind: 'finished', record };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

function turnOptions(
  context: TurnContext,
  limits: Partial<TurnLimits> | undefined,
): Omit<TurnOptions, 'signal'> {
  const { request, persona } = context;
  return {
    cartridge: context.cartridge,
    state: context.state,
    world: context.before.world,
    ledgerTurn: context.ledgerTurn,
    messages: context.messages,
    ...('input' in request.turn ? { input: request.turn.input } : { interaction: request.turn.interaction }),
    seed: context.seed,
    models: context.models,
    ...(persona ? { persona } : {}),
    ...(request.playerContext ? { playerContext: request.playerContext } : {}),
    ...(request.trigger ? { worldInfoTrigger: request.trigger } : {}),
    ...(request.strict === true ? { strict: true } : {}),
    ...(request.table === undefined ? {} : { table: request.table.turn }),
    ...(limits ? { limits } : {}),
  };
}

function stopped(timedOut: boolean): SessionError {
  return timedOut
    ? new SessionError('timeout', 'the turn took too long and was abandoned; nothing was saved')
    : new SessionError('aborted', 'the turn was cancelled; nothing was saved');
}

/** What an engine error means for the session, or undefined for an error the engine should never throw. */
function turnFailure(error: unknown, signal: AbortSignal, timedOut: boolean): SessionError | undefined {
  if (timedOut || signal.aborted) return stopped(timedOut);
  if (error instanceof SessionError) return error;
  if (!isTurnError(error)) return undefined;
  switch (error.kind) {
    case 'input':
    case 'interaction':
    case 'invariant': // strict mode: an event broke an invariant of the cartridge
      return new SessionError('invalid', error.message, {
        kind: error.kind,
        ...(error.reason === undefined ? {} : { reason: error.reason }),
      });
    case 'reply': // offline: the engine answered the player instead of playing — an answer, not a failure
      return new SessionError('answered', error.message, {
        kind: error.kind,
        ...(error.reason === undefined ? {} : { reason: error.reason }),
      });
    case 'model':
      return new SessionError('model', error.message);
    case 'budget':
      return new SessionError('too-costly', error.message, {
        ...(error.partName === undefined ? {} : { part: error.partName }),
      });
    case 'aborted':
      return new SessionError('aborted', 'the turn was cancelled; nothing was saved');
    default: {
      const unreachable: never = error.kind;
      return new SessionError('invalid', String(unreachable));
    }
  }
}
