// The World Info bounds test/tools/interop/sillytavern/limits.test.ts does not reach: recursion passes (a book's
// `max_recursion_steps`, an entry's `delayUntilRecursion`) and the message counts an entry sets (`depth`,
// `sticky`, `cooldown`, `delay`), each at its limit and one past it (src/core/lore/world-info-limits.ts).
import { describe, expect, it } from 'vitest';
import { parseWorldInfoFile } from '../../../../src/core/lore/world-info-format.ts';
import {
  MAX_WI_MESSAGES_SETTING,
  MAX_WI_RECURSION_STEPS,
} from '../../../../src/core/lore/world-info-limits.ts';

function book(settings: Record<string, unknown>, entry: Record<string, unknown> = {}) {
  return parseWorldInfoFile({ ...settings, entries: { 0: { key: ['a'], content: 'x', ...entry } } }, 'b');
}

describe('World Info recursion passes', () => {
  it(`a book's max_recursion_steps takes up to MAX_WI_RECURSION_STEPS (${MAX_WI_RECURSION_STEPS})`, () => {
    const at = book({ max_recursion_steps: MAX_WI_RECURSION_STEPS });
    expect(at.ok && at.book.settings.maxRecursionSteps).toBe(MAX_WI_RECURSION_STEPS);
    const past = book({ max_recursion_steps: MAX_WI_RECURSION_STEPS + 1 });
    expect(past.ok).toBe(false);
    expect(!past.ok && past.issues[0]!.path).toBe('(root).max_recursion_steps');
    expect(!past.ok && past.issues[0]!.message).toContain(`0..${MAX_WI_RECURSION_STEPS}`);
  });

  it('an entry delays until at most that many recursion passes', () => {
    expect(book({}, { delayUntilRecursion: MAX_WI_RECURSION_STEPS }).ok).toBe(true);
    const past = book({}, { delayUntilRecursion: MAX_WI_RECURSION_STEPS + 1 });
    expect(past.ok).toBe(false);
    expect(!past.ok && past.issues[0]!.message).toContain(`0..${MAX_WI_RECURSION_STEPS}`);
  });
});

describe('World Info message counts', () => {
  for (const field of ['depth', 'sticky', 'cooldown', 'delay']) {
    it(`an entry's ${field} is at most MAX_WI_MESSAGES_SETTING (${MAX_WI_MESSAGES_SETTING})`, () => {
      expect(book({}, { [field]: MAX_WI_MESSAGES_SETTING }).ok).toBe(true);
      const past = book({}, { [field]: MAX_WI_MESSAGES_SETTING + 1 });
      expect(past.ok).toBe(false);
      expect(!past.ok && past.issues[0]!.message).toContain(`0..${MAX_WI_MESSAGES_SETTING}`);
    });
  }
});
