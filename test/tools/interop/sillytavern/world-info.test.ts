// World Info activation, one test (or more) per SillyTavern activation rule.
import { describe, expect, it } from 'vitest';
import {
  type ActivationInput,
  activateWorldInfo,
  advanceTimedEffects,
} from '../../../../src/core/lore/world-info-activation.ts';
import { book } from './helpers.ts';

function run(b: ReturnType<typeof book>, messages: string[], extra: Partial<ActivationInput> = {}) {
  return activateWorldInfo(b, { messages, chatLength: messages.length, timed: [], seed: 1, ...extra });
}
const uids = (r: ReturnType<typeof run>) => r.activated.map((a) => a.entry.uid).sort((a, b) => a - b);
const reason = (r: ReturnType<typeof run>, uid: number) => r.decisions.find((d) => d.uid === uid)?.reason;

describe('keys', () => {
  it('activates on any primary key, case-insensitively by default', () => {
    const b = book([{ key: ['dragon', 'wyrm'], content: 'Dragons hoard gold.' }]);
    expect(uids(run(b, ['A WYRM circles overhead']))).toEqual([0]);
    expect(uids(run(b, ['a quiet morning']))).toEqual([]);
    expect(reason(run(b, ['a quiet morning']), 0)).toBe('no key matched');
  });

  it('honours case-sensitive entries', () => {
    const b = book([{ key: ['Rose'], content: 'x', caseSensitive: true }]);
    expect(uids(run(b, ['a rose']))).toEqual([]);
    expect(uids(run(b, ['Rose enters']))).toEqual([0]);
  });

  it('matches whole words (the default) or substrings', () => {
    const whole = book([{ key: ['cat'], content: 'x' }]);
    expect(uids(run(whole, ['a category']))).toEqual([]);
    expect(uids(run(whole, ['the cat.']))).toEqual([0]);
    const sub = book([{ key: ['cat'], content: 'x', matchWholeWords: false }]);
    expect(uids(run(sub, ['a category']))).toEqual([0]);
    // A key with a space is a plain substring test even with whole words on.
    const spaced = book([{ key: ['old man'], content: 'x' }]);
    expect(uids(run(spaced, ['the bold mankind']))).toEqual([0]);
  });

  it('treats /pattern/flags as a regular expression, ignoring the case setting', () => {
    const b = book([
      { key: ['/test\\d+/'], content: 'x' },
      { key: ['/ORC/i'], content: 'y' },
    ]);
    expect(uids(run(b, ['see test42 and an orc']))).toEqual([0, 1]);
    expect(uids(run(b, ['test only']))).toEqual([]);
  });

  it('runs a regex that would backtrack catastrophically in one pass, with the right answer', () => {
    const b = book([{ key: ['/(a+)+$/'], content: 'x' }]);
    expect(uids(run(b, [`${'a'.repeat(1500)}!`]))).toEqual([]);
    expect(uids(run(b, ['a'.repeat(1500)]))).toEqual([0]);
    const bounded = book([{ key: ['/a{0,50}a{0,50}a{0,50}a{0,50}b/i'], content: 'x' }]);
    expect(uids(run(bounded, ['a'.repeat(1999)]))).toEqual([]);
    expect(uids(run(bounded, [`${'a'.repeat(1990)}B`]))).toEqual([0]);
  });

  it('never runs a refused regex (a backreference) and says so', () => {
    const b = book([{ key: ['/(a)\\1/'], content: 'x' }]);
    expect(uids(run(b, ['aa']))).toEqual([]);
  });

  it('scans only the newest scanDepth messages (book setting and entry override)', () => {
    const b = book([{ key: ['sword'], content: 'x' }], { scan_depth: 1 });
    expect(uids(run(b, ['now', 'a sword earlier']))).toEqual([]);
    const deep = book([{ key: ['sword'], content: 'x', scanDepth: 2 }], { scan_depth: 1 });
    expect(uids(run(deep, ['now', 'a sword earlier']))).toEqual([0]);
    const none = book([{ key: ['sword'], content: 'x', scanDepth: 0 }]);
    expect(uids(run(none, ['sword']))).toEqual([]);
  });
});

describe('secondary keys', () => {
  const logic = (selectiveLogic: number) =>
    book([
      { key: ['king'], keysecondary: ['crown', 'throne'], selective: true, selectiveLogic, content: 'x' },
    ]);
  it('AND ANY needs one secondary key', () => {
    expect(uids(run(logic(0), ['the king and his crown']))).toEqual([0]);
    expect(uids(run(logic(0), ['the king alone']))).toEqual([]);
  });
  it('NOT ALL needs at least one secondary key absent', () => {
    expect(uids(run(logic(1), ['the king and his crown']))).toEqual([0]);
    expect(uids(run(logic(1), ['the king, crown and throne']))).toEqual([]);
  });
  it('NOT ANY needs every secondary key absent', () => {
    expect(uids(run(logic(2), ['the king alone']))).toEqual([0]);
    expect(uids(run(logic(2), ['the king on his throne']))).toEqual([]);
  });
  it('AND ALL needs every secondary key', () => {
    expect(uids(run(logic(3), ['the king, crown and throne']))).toEqual([0]);
    expect(uids(run(logic(3), ['the king and his crown']))).toEqual([]);
  });
  it('ignores secondary keys when the entry is not selective', () => {
    const b = book([{ key: ['king'], keysecondary: ['crown'], selective: false, content: 'x' }]);
    expect(uids(run(b, ['the king']))).toEqual([0]);
  });
});

describe('constant, disable, decorators, order and position', () => {
  it('activates constant entries without keys and skips disabled ones', () => {
    const b = book([
      { constant: true, content: 'always' },
      { key: ['x'], disable: true, content: 'never' },
    ]);
    const r = run(b, ['x']);
    expect(uids(r)).toEqual([0]);
    expect(reason(r, 0)).toBe('constant');
    expect(reason(r, 1)).toBe('disabled');
  });

  it('honours @@activate and @@dont_activate and strips them from the content', () => {
    const b = book([{ content: '@@activate\nforced' }, { key: ['x'], content: '@@dont_activate\nnever' }]);
    const r = run(b, ['x']);
    expect(uids(r)).toEqual([0]);
    expect(r.after).toBe('');
    expect(r.before).toBe('forced');
  });

  it('places entries by position, lowest order first, @depth grouped by depth and role', () => {
    const b = book([
      { constant: true, content: 'B-high', order: 200, position: 0 },
      { constant: true, content: 'B-low', order: 10, position: 0 },
      { constant: true, content: 'A', order: 50, position: 1 },
      { constant: true, content: 'D1', position: 4, depth: 2, role: 1 },
      { constant: true, content: 'D2', position: 4, depth: 2, role: 1, order: 101 },
      { constant: true, content: 'D0', position: 4, depth: 0, role: 0 },
    ]);
    const r = run(b, ['hello']);
    expect(r.before).toBe('B-low\nB-high');
    expect(r.after).toBe('A');
    expect(r.atDepth).toEqual([
      { depth: 0, role: 'system', content: 'D0' },
      { depth: 2, role: 'user', content: 'D1\nD2' },
    ]);
  });

  it('limits entries to their generation triggers', () => {
    const b = book([{ constant: true, content: 'x', triggers: ['continue'] }]);
    expect(uids(run(b, ['a']))).toEqual([]);
    expect(uids(run(b, ['a'], { trigger: 'continue' }))).toEqual([0]);
  });
});

describe('probability', () => {
  it('is seeded: the same seed gives the same result, and about the right share activates', () => {
    const b = book([{ constant: true, content: 'x', probability: 30 }]);
    const first = run(b, ['a'], { seed: 7 });
    expect(uids(run(b, ['a'], { seed: 7 }))).toEqual(uids(first));
    let hits = 0;
    for (let seed = 0; seed < 1000; seed++) hits += run(b, ['a'], { seed }).activated.length;
    expect(hits).toBeGreaterThan(220);
    expect(hits).toBeLessThan(380);
  });

  it('is ignored when useProbability is off, and 0 never activates', () => {
    const off = book([{ constant: true, content: 'x', probability: 0, useProbability: false }]);
    expect(uids(run(off, ['a']))).toEqual([0]);
    const zero = book([{ constant: true, content: 'x', probability: 0 }]);
    expect(reason(run(zero, ['a']), 0)).toMatch(/^probability roll \d+ > 0$/);
  });
});

describe('recursion', () => {
  it("scans activated entries' content for more keys", () => {
    const b = book([
      { key: ['castle'], content: 'The castle belongs to the duke.' },
      { key: ['duke'], content: 'The duke is old.' },
    ]);
    const r = run(b, ['we reach the castle']);
    expect(uids(r)).toEqual([0, 1]);
    expect(reason(r, 1)).toBe('key "duke" (recursion)');
  });

  it('stops when recursion is off', () => {
    const b = book(
      [
        { key: ['castle'], content: 'duke' },
        { key: ['duke'], content: 'x' },
      ],
      { recursive_scanning: false },
    );
    expect(uids(run(b, ['castle']))).toEqual([0]);
  });

  it('preventRecursion keeps content out of the recursion buffer', () => {
    const b = book([
      { key: ['castle'], content: 'duke', preventRecursion: true },
      { key: ['duke'], content: 'x' },
    ]);
    expect(uids(run(b, ['castle']))).toEqual([0]);
  });

  it('excludeRecursion entries activate only from the messages', () => {
    const b = book([
      { key: ['castle'], content: 'duke' },
      { key: ['duke'], content: 'x', excludeRecursion: true },
    ]);
    expect(uids(run(b, ['castle']))).toEqual([0]);
    expect(uids(run(b, ['castle and duke']))).toEqual([0, 1]);
  });

  it('delayUntilRecursion entries activate only in recursion passes, by level', () => {
    const b = book([
      { key: ['castle'], content: 'duke' },
      { key: ['duke'], content: 'x', delayUntilRecursion: true },
      { key: ['duke'], content: 'y', delayUntilRecursion: 2 },
    ]);
    const direct = run(b, ['duke']);
    expect(uids(direct)).toEqual([1, 2]); // first pass: none; levels 1 and 2 each open a recursion pass
    expect(reason(direct, 1)).toBe('key "duke" (recursion)');
    const viaCastle = run(b, ['castle']);
    expect(uids(viaCastle)).toEqual([0, 1, 2]);
  });
});

describe('inclusion groups', () => {
  it('keeps one member per group: override picks the highest order', () => {
    const b = book([
      { key: ['x'], content: 'a', group: 'weather', order: 10, groupOverride: true },
      { key: ['x'], content: 'b', group: 'weather', order: 90, groupOverride: true },
      { key: ['x'], content: 'c', group: 'weather', order: 50 },
    ]);
    expect(uids(run(b, ['x']))).toEqual([1]);
  });

  it('otherwise rolls by weight, seeded', () => {
    const b = book([
      { key: ['x'], content: 'a', group: 'g', groupWeight: 90 },
      { key: ['x'], content: 'b', group: 'g', groupWeight: 10 },
    ]);
    const counts = [0, 0];
    for (let seed = 0; seed < 500; seed++) {
      const r = run(b, ['x'], { seed });
      expect(r.activated).toHaveLength(1);
      counts[r.activated[0]!.entry.uid]!++;
    }
    expect(counts[0]).toBeGreaterThan(400);
    expect(counts[1]).toBeGreaterThan(20);
  });

  it('with group scoring keeps the members matching the most keys', () => {
    const b = book([
      { key: ['x'], content: 'a', group: 'g', useGroupScoring: true, groupOverride: true, order: 99 },
      { key: ['x', 'y'], content: 'b', group: 'g', useGroupScoring: true },
    ]);
    expect(uids(run(b, ['x y']))).toEqual([1]);
  });

  it('an entry in two groups can win both; a sticky member beats the others', () => {
    const b = book([
      { key: ['x'], content: 'a', group: 'g', sticky: 3, groupOverride: true, order: 1 },
      { key: ['x'], content: 'b', group: 'g', groupOverride: true, order: 99 },
    ]);
    const timed = [{ kind: 'sticky' as const, uid: 0, start: 1, end: 4, protected: false }];
    expect(uids(run(b, ['x', 'y'], { timed }))).toEqual([0]);
  });
});

describe('token budget', () => {
  it('fits entries in order until the budget is used, at the limit and one past it', () => {
    // 40 characters = 10 estimated tokens each.
    const content = 'x'.repeat(40);
    const b = book([
      { constant: true, content, order: 3 },
      { constant: true, content, order: 2 },
      { constant: true, content, order: 1, ignoreBudget: true },
    ]);
    expect(uids(run(b, ['a'], { tokenBudget: 20 }))).toEqual([0, 1, 2]);
    const over = run(b, ['a'], { tokenBudget: 19 });
    expect(uids(over)).toEqual([0, 2]);
    expect(over.overflowed).toBe(true);
    expect(reason(over, 1)).toBe('token budget: 10 + 10 > 19');
  });
});

describe('timed effects', () => {
  it('sticky keeps an entry active for N messages after it matched', () => {
    const b = book([{ key: ['ghost'], content: 'x', sticky: 2 }]);
    const first = run(b, ['a ghost'], { chatLength: 2 });
    expect(uids(first)).toEqual([0]);
    const second = run(b, ['nothing'], { chatLength: 3, timed: first.timed });
    expect(reason(second, 0)).toBe('sticky');
    const third = run(b, ['nothing'], { chatLength: 4, timed: second.timed });
    expect(uids(third)).toEqual([]);
  });

  it('cooldown blocks an entry for N messages after it activated', () => {
    const b = book([{ key: ['ghost'], content: 'x', cooldown: 2 }]);
    const first = run(b, ['ghost'], { chatLength: 2 });
    const blocked = run(b, ['ghost'], { chatLength: 3, timed: first.timed });
    expect(reason(blocked, 0)).toBe('on cooldown until message 4');
    expect(uids(run(b, ['ghost'], { chatLength: 4, timed: blocked.timed }))).toEqual([0]);
  });

  it('a cooldown starts when a sticky ends', () => {
    const b = book([{ key: ['ghost'], content: 'x', sticky: 1, cooldown: 3 }]);
    const first = run(b, ['ghost'], { chatLength: 2 });
    const after = advanceTimedEffects(b, first.timed, 3);
    expect(after).toEqual([{ kind: 'cooldown', uid: 0, start: 3, end: 6, protected: true }]);
    expect(reason(run(b, ['ghost'], { chatLength: 3, timed: first.timed }), 0)).toBe(
      'on cooldown until message 6',
    );
  });

  it('delay keeps an entry off until the chat has N messages', () => {
    const b = book([{ key: ['ghost'], content: 'x', delay: 5 }]);
    expect(reason(run(b, ['ghost'], { chatLength: 4 }), 0)).toBe('delayed until message 5 (chat has 4)');
    expect(uids(run(b, ['ghost'], { chatLength: 5 }))).toEqual([0]);
  });

  it('drops effects the chat has not reached (a rolled-back chat)', () => {
    const b = book([{ key: ['ghost'], content: 'x', sticky: 5 }]);
    const first = run(b, ['ghost'], { chatLength: 6 });
    expect(advanceTimedEffects(b, first.timed, 4)).toEqual([]);
  });
});
