// The cartridge checker is fair: each key has its own queue with a cap (429 with Retry-After past it, 503
// past the server's cap), keys take turns, and a check's deadline starts when the worker starts it. Real
// worker thread, real checks: the slow upload's yare.js loops until the sandbox's time limit stops it.
import { afterEach, describe, expect, it } from 'vitest';
import { RULES_SCRIPT_TIME_MS } from '../../../src/core/cartridge/js-rules/limits.ts';
import { CartridgeChecker, type CheckResult } from '../../../src/apps/server/cartridge-checker.ts';
import { ApiError } from '../../../src/apps/server/errors.ts';

const tiny = new Map<string, string>([
  ['yare.yaml', 'version: 1\nbot_name: "Tiny"\n'],
  ['bot_lore.md', '# Tiny\nA small world.\n'],
]);
// Its check takes the sandbox's whole time limit (and then fails: the loop never ends).
const slow = new Map<string, string>([
  ['yare.js', 'for (;;) {}\nexport default {};\n'],
  ['bot_lore.md', '# Slow\nA slow world.\n'],
]);

let checker: CartridgeChecker | undefined;
afterEach(async () => {
  await checker?.close();
  checker = undefined;
});

describe('CartridgeChecker fairness', () => {
  it("another key's small check runs after at most the one running check, and no deadline counts the wait", async () => {
    // A deadline shorter than the queue ahead (4 slow checks), longer than one check.
    checker = new CartridgeChecker({ timeoutMs: RULES_SCRIPT_TIME_MS * 3 });
    const order: string[] = [];
    const track = (label: string, p: Promise<CheckResult>) =>
      p.then(
        (result) => {
          order.push(label);
          return result;
        },
        (error: Error) => {
          order.push(`${label}!`);
          throw error;
        },
      );
    const hostile = [0, 1, 2, 3].map((i) => track(`a${i}`, checker!.check(slow, `slow${i}`, 'key-a')));
    const other = track('b', checker.check(tiny, 'tiny', 'key-b'));
    const results = await Promise.all([...hostile, other]);
    // Each slow check ran to its own verdict (the sandbox's limit), none hit the checker's deadline.
    for (const result of results.slice(0, 4)) {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.errors[0]!.message).toContain(`${RULES_SCRIPT_TIME_MS} ms`);
    }
    expect(results[4]!.ok).toBe(true);
    expect(order).toEqual(['a0', 'b', 'a1', 'a2', 'a3']);
  }, 60_000);

  it('a key with MAX_QUEUED_CHECKS_PER_KEY checks queued gets 429 with Retry-After; others still get in', async () => {
    checker = new CartridgeChecker({ maxPerKey: 2, maxTotal: 3 });
    const first = [checker.check(slow, 's0', 'key-a'), checker.check(slow, 's1', 'key-a')];
    expect(checker.queued('key-a')).toBe(2);
    let refused: unknown;
    try {
      void checker.check(tiny, 'one more', 'key-a');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ApiError);
    const busy = refused as ApiError;
    expect(busy.status).toBe(429);
    expect(busy.code).toBe('cartridge_checks_queued');
    expect(busy.message).toContain('MAX_QUEUED_CHECKS_PER_KEY');
    expect(Number(busy.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    // At the server's cap (3): key b's first check gets in, key c's is refused with 503.
    const b = checker.check(tiny, 'b', 'key-b');
    expect(() => checker!.check(tiny, 'c', 'key-c')).toThrow(
      expect.objectContaining({ status: 503, code: 'cartridge_checker_busy' }),
    );
    expect((await b).ok).toBe(true);
    await Promise.all(first);
    expect(checker.queued()).toBe(0);
    expect((await checker.check(tiny, 'again', 'key-a')).ok).toBe(true);
  }, 60_000);

  it('a check past the deadline fails alone; the next one runs on a new worker', async () => {
    checker = new CartridgeChecker({ timeoutMs: RULES_SCRIPT_TIME_MS / 4 });
    const stuck = checker.check(slow, 'slow', 'key-a');
    const after = checker.check(tiny, 'tiny', 'key-a');
    await expect(stuck).rejects.toThrow(`took over ${RULES_SCRIPT_TIME_MS / 4} ms`);
    expect((await after).ok).toBe(true);
    expect(checker.queued()).toBe(0);
  }, 60_000);
});
