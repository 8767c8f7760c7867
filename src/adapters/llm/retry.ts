// Retries with exponential backoff, a per-attempt timeout, and cancellation. The AI SDK's own retry
// loop is switched off (`maxRetries: 0`) because its delays are fixed and it does not retry timeouts;
// this one policy covers every provider and is configurable.

import {
  DEFAULT_BACKOFF_FACTOR,
  DEFAULT_BACKOFF_INITIAL_MS,
  DEFAULT_BACKOFF_MAX_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
} from './limits.ts';
import { ModelError } from './errors.ts';

export interface RetryPolicy {
  /** Per attempt: the whole `generate` call, or the longest gap between parts of a stream. */
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly backoffInitialMs: number;
  readonly backoffFactor: number;
  readonly backoffMaxMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  timeoutMs: DEFAULT_TIMEOUT_MS,
  maxRetries: DEFAULT_MAX_RETRIES,
  backoffInitialMs: DEFAULT_BACKOFF_INITIAL_MS,
  backoffFactor: DEFAULT_BACKOFF_FACTOR,
  backoffMaxMs: DEFAULT_BACKOFF_MAX_MS,
});

/** Wait before retry number `retry` (1 = the first retry). A server's Retry-After wins, within the cap. */
export function backoffDelayMs(retry: number, policy: RetryPolicy, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) {
    return Math.min(retryAfterMs, policy.backoffMaxMs);
  }
  const exponential = policy.backoffInitialMs * policy.backoffFactor ** Math.max(0, retry - 1);
  return Math.min(exponential, policy.backoffMaxMs);
}

export function abortedError(modelId?: string): ModelError {
  return new ModelError('aborted', 'model call cancelled by the caller', modelId ? { modelId } : {});
}

/** Resolves after `ms`, or rejects with kind `aborted` as soon as `signal` fires. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortedError());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The signal for one attempt: fires when the caller cancels or when the timeout runs out. `reset()`
 * restarts the timeout (streams call it on every part, so the timeout bounds silence, not length).
 */
export class AttemptSignal {
  readonly #controller = new AbortController();
  readonly #timeoutMs: number;
  readonly #caller: AbortSignal | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timedOut = false;
  readonly #onCallerAbort = (): void => {
    this.#controller.abort(this.#caller?.reason);
  };

  constructor(timeoutMs: number, caller?: AbortSignal) {
    this.#timeoutMs = timeoutMs;
    this.#caller = caller;
    if (caller?.aborted) this.#controller.abort(caller.reason);
    else caller?.addEventListener('abort', this.#onCallerAbort, { once: true });
    this.reset();
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get timedOut(): boolean {
    return this.#timedOut;
  }

  get callerAborted(): boolean {
    return this.#caller?.aborted === true;
  }

  reset(): void {
    if (this.#controller.signal.aborted) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timedOut = true;
      this.#controller.abort(new Error('model call timed out'));
    }, this.#timeoutMs);
  }

  /** Stops the timer and aborts whatever is still running on this attempt's signal. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#caller?.removeEventListener('abort', this.#onCallerAbort);
    if (!this.#controller.signal.aborted) this.#controller.abort(new Error('attempt finished'));
  }

  /** Turns whatever an attempt threw into a ModelError, giving cancellation and timeout precedence. */
  classify(error: unknown, classifyOther: (error: unknown) => ModelError, modelId: string): ModelError {
    if (this.callerAborted) return abortedError(modelId);
    if (this.#timedOut) {
      return new ModelError('timeout', `model ${modelId} did not answer within ${this.#timeoutMs} ms`, {
        modelId,
        cause: error,
      });
    }
    return classifyOther(error);
  }
}

export interface RetryContext {
  readonly policy: RetryPolicy;
  readonly modelId: string;
  readonly signal?: AbortSignal;
  readonly classify: (error: unknown) => ModelError;
}

function withAttempts(error: ModelError, attempts: number): ModelError {
  return new ModelError(error.kind, error.message, {
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.modelId === undefined ? {} : { modelId: error.modelId }),
    attempts,
    cause: error.cause,
  });
}

/**
 * A streamed call under the retry policy: each attempt gets its own `AttemptSignal` (the attempt calls
 * `reset()` on every piece it reads, so the timeout bounds silence) and its parts are passed on. A stream
 * that already delivered a part is never retried: the consumer has seen part of it. When the consumer stops
 * iterating early, the attempt's signal is disposed, which aborts the HTTP request still in flight.
 */
export async function* withStreamRetries<T>(
  ctx: RetryContext,
  attempt: (signal: AttemptSignal) => AsyncIterable<T>,
): AsyncGenerator<T> {
  for (let attemptNo = 1; ; attemptNo++) {
    if (ctx.signal?.aborted) throw abortedError(ctx.modelId);
    const attemptSignal = new AttemptSignal(ctx.policy.timeoutMs, ctx.signal);
    let delivered = false;
    let failure: ModelError;
    try {
      for await (const part of attempt(attemptSignal)) {
        delivered = true;
        yield part;
      }
      return;
    } catch (thrown) {
      failure = attemptSignal.classify(thrown, ctx.classify, ctx.modelId);
    } finally {
      attemptSignal.dispose();
    }
    if (delivered || !failure.retryable || attemptNo > ctx.policy.maxRetries) {
      throw new ModelError(failure.kind, failure.message, {
        ...(failure.status === undefined ? {} : { status: failure.status }),
        modelId: ctx.modelId,
        attempts: attemptNo,
        cause: failure.cause,
      });
    }
    await abortableSleep(backoffDelayMs(attemptNo, ctx.policy, failure.retryAfterMs), ctx.signal);
  }
}

/** Runs `attempt` until it succeeds, fails for good, or the retries run out. */
export async function withRetries<T>(
  ctx: RetryContext,
  attempt: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  for (let attemptNo = 1; ; attemptNo++) {
    if (ctx.signal?.aborted) throw abortedError(ctx.modelId);
    const attemptSignal = new AttemptSignal(ctx.policy.timeoutMs, ctx.signal);
    try {
      return await attempt(attemptSignal.signal);
    } catch (thrown) {
      const error = attemptSignal.classify(thrown, ctx.classify, ctx.modelId);
      if (!error.retryable || attemptNo > ctx.policy.maxRetries) throw withAttempts(error, attemptNo);
      await abortableSleep(backoffDelayMs(attemptNo, ctx.policy, error.retryAfterMs), ctx.signal);
    } finally {
      attemptSignal.dispose();
    }
  }
}
