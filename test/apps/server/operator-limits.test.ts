// Operator limits from the environment and `serve` flags.
import { describe, expect, it } from 'vitest';
import { OPERATOR_LIMITS, operatorLimits } from '../../../src/apps/server/operator-limits.ts';
import { MAX_WORKERS, parseWorkers } from '../../../src/apps/server/workers.ts';

describe('operator limits', () => {
  it('reads every limit from its variable; a flag wins over the variable', () => {
    const env = Object.fromEntries(OPERATOR_LIMITS.map((l, i) => [l.env, String(100 + i)]));
    const fromEnv = operatorLimits(env);
    for (const [i, l] of OPERATOR_LIMITS.entries()) expect(fromEnv[l.key]).toBe(100 + i);
    expect(operatorLimits({ MNESOS_RATE_LIMIT: '50' }, { rateLimit: '0' }).rateLimit).toBe(0);
    expect(operatorLimits({ MNESOS_RATE_LIMIT: ' ' })).toEqual({});
    expect(operatorLimits({})).toEqual({});
  });

  it('refuses what is not a whole number, naming the variable or the flag', () => {
    expect(() => operatorLimits({ MNESOS_RATE_LIMIT: '1e3' })).toThrow(
      "MNESOS_RATE_LIMIT must be a whole number, got '1e3'",
    );
    expect(() => operatorLimits({}, { maxBodyBytes: '-1' })).toThrow(
      '--max-body-bytes must be a whole number',
    );
    expect(() => operatorLimits({ MNESOS_RATE_WINDOW_MS: '9'.repeat(16) })).toThrow(/MNESOS_RATE_WINDOW_MS/);
  });

  it(`takes 1 to ${MAX_WORKERS} workers`, () => {
    expect(parseWorkers(undefined, '--workers')).toBe(1);
    expect(parseWorkers('1', '--workers')).toBe(1);
    expect(parseWorkers(String(MAX_WORKERS), '--workers')).toBe(MAX_WORKERS);
    expect(() => parseWorkers(String(MAX_WORKERS + 1), 'MNESOS_WORKERS')).toThrow(/MNESOS_WORKERS must be/);
    expect(() => parseWorkers('0', '--workers')).toThrow(/from 1 to/);
    expect(() => parseWorkers('two', '--workers')).toThrow(/got 'two'/);
  });
});
