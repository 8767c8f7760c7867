import { describe, expect, it } from 'vitest';
import { ModelError } from '../../../src/adapters/llm/errors.ts';
import {
  abortableSleep,
  backoffDelayMs,
  type RetryPolicy,
  withRetries,
} from '../../../src/adapters/llm/retry.ts';

const policy: RetryPolicy = {
  timeoutMs: 1_000,
  maxRetries: 3,
  backoffInitialMs: 100,
  backoffFactor: 2,
  backoffMaxMs: 350,
};
const quick: RetryPolicy = { ...policy, backoffInitialMs: 0, backoffMaxMs: 0 };

describe('backoffDelayMs', () => {
  it('grows exponentially and stops at the cap', () => {
    expect([1, 2, 3, 4].map((retry) => backoffDelayMs(retry, policy))).toEqual([100, 200, 350, 350]);
  });

  it("uses the server's Retry-After, within the cap", () => {
    expect(backoffDelayMs(1, policy, 20)).toBe(20);
    expect(backoffDelayMs(1, policy, 60_000)).toBe(350);
    expect(backoffDelayMs(2, policy, Number.NaN)).toBe(200);
  });
});

describe('withRetries', () => {
  const classify = (error: unknown): ModelError =>
    error instanceof ModelError ? error : new ModelError('bad-response', String(error));

  it('retries retryable failures up to maxRetries, then reports the attempts', async () => {
    let calls = 0;
    const failing = withRetries({ policy: quick, modelId: 'm', classify }, async () => {
      calls++;
      throw new ModelError('http', 'server error', { status: 502 });
    });
    await expect(failing).rejects.toMatchObject({ kind: 'http', status: 502, attempts: 4 });
    expect(calls).toBe(4);
  });

  it('stops at once on a failure that is not retryable', async () => {
    let calls = 0;
    const failing = withRetries({ policy: quick, modelId: 'm', classify }, async () => {
      calls++;
      throw new ModelError('http', 'bad request', { status: 400 });
    });
    await expect(failing).rejects.toMatchObject({ kind: 'http', attempts: 1 });
    expect(calls).toBe(1);
  });

  it('turns a per-attempt timeout into kind timeout and retries it', async () => {
    let calls = 0;
    const result = await withRetries(
      { policy: { ...quick, timeoutMs: 20 }, modelId: 'm', classify },
      (signal) =>
        new Promise<string>((resolve, reject) => {
          calls++;
          if (calls === 3) resolve('third time');
          else signal.addEventListener('abort', () => reject(new Error('aborted by signal')));
        }),
    );
    expect(result).toBe('third time');
    expect(calls).toBe(3);
  });

  it('the caller cancelling during a backoff wait rejects with kind aborted and no further attempt', async () => {
    const controller = new AbortController();
    let calls = 0;
    const pending = withRetries(
      {
        policy: { ...policy, backoffInitialMs: 60_000, backoffMaxMs: 60_000 },
        modelId: 'm',
        classify,
        signal: controller.signal,
      },
      async () => {
        calls++;
        setTimeout(() => controller.abort(), 0);
        throw new ModelError('network', 'reset');
      },
    );
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
    expect(calls).toBe(1);
  });

  it('abortableSleep rejects at once when the signal is already aborted', async () => {
    await expect(abortableSleep(60_000, AbortSignal.abort())).rejects.toMatchObject({ kind: 'aborted' });
  });
});

describe('ModelError.retryable', () => {
  it.each([
    ['http', 429, true],
    ['http', 500, true],
    ['http', 408, true],
    ['http', 404, false],
    ['timeout', undefined, true],
    ['network', undefined, true],
    ['aborted', undefined, false],
    ['bad-response', undefined, false],
    ['script-exhausted', undefined, false],
  ] as const)('%s %s → %s', (kind, status, retryable) => {
    expect(new ModelError(kind, 'x', status === undefined ? {} : { status }).retryable).toBe(retryable);
  });
});
