// The turn's one compute budget (src/core/turn-budget.ts, src/engine/turn/limits.ts `maxTurnSteps`,
// `maxTurnMs`): every part of a turn charges it — World Info entries, lore lookups, rule runs, prompt
// assembly, offline narration — and a turn past it ends with TurnError `budget` naming the part, no record.
// Each part at the limit and just past it; clocks are scripted, so nothing here depends on the machine.
import { describe, expect, it } from 'vitest';
import { loadCartridgeFromFiles } from '../../../src/adapters/files/index.ts';
import type { Cartridge } from '../../../src/core/cartridge/index.ts';
import {
  describePart,
  runSliced,
  TurnBudget,
  TurnBudgetExceeded,
  UNMETERED,
} from '../../../src/core/turn-budget.ts';
import { activateWorldInfo, activationSteps } from '../../../src/core/lore/index.ts';
import { TurnError } from '../../../src/engine/turn/errors.ts';
import {
  DEFAULT_MAX_TURN_MS,
  DEFAULT_MAX_TURN_STEPS,
  MAX_TURN_MS_LIMIT,
  MAX_TURN_STEPS_LIMIT,
  resolveTurnLimits,
} from '../../../src/engine/turn/limits.ts';
import type { TurnOptions } from '../../../src/engine/turn/types.ts';
import { collect, failure, initialState, scripted } from './helpers.ts';

const noYield = () => Promise.resolve();
const limits = (maxSteps: number, maxMs: number, sliceMs = 10) => ({ maxSteps, maxMs, sliceMs });

describe('TurnBudget', () => {
  it('steps: at the limit spending goes on; one step past it throws, naming the part', () => {
    const budget = new TurnBudget(limits(10, 1_000), () => 0, noYield);
    budget.spend({ kind: 'event', name: 'tick' }, 10);
    expect(budget.steps).toBe(10);
    expect(budget.stepsLeft).toBe(0);
    let thrown: unknown;
    try {
      budget.spend({ kind: 'event', name: 'tick' }, 1);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TurnBudgetExceeded);
    expect((thrown as TurnBudgetExceeded).limit).toBe('steps');
    expect((thrown as Error).message).toBe(
      "event 'tick' exceeded the turn budget: 10 steps / 1,000 ms of computing (the steps ran out); nothing was saved",
    );
  });

  it('milliseconds: only time inside measured sections counts; at the limit it holds, past it the section throws', () => {
    let t = 0;
    const budget = new TurnBudget(limits(1_000, 100), () => t, noYield);
    budget.measure({ kind: 'prompt', role: 'director' }, () => {
      t += 60;
    });
    t += 5_000; // a model call: not computing
    budget.measure({ kind: 'prompt', role: 'narrator' }, () => {
      t += 40;
    });
    expect(budget.ms).toBe(100);
    expect(() =>
      budget.measure({ kind: 'offline', what: 'narration' }, () => {
        t += 1;
      }),
    ).toThrow(
      'offline narration exceeded the turn budget: 1,000 steps / 100 ms of computing (the milliseconds ran out)',
    );
  });

  it('nested sections count once; a section that throws reports its own error', () => {
    let t = 0;
    const budget = new TurnBudget(limits(1_000, 100), () => t, noYield);
    budget.measure({ kind: 'offline', what: 'matcher' }, () =>
      budget.measure({ kind: 'event', name: 'inner' }, () => {
        t += 30;
      }),
    );
    expect(budget.ms).toBe(30);
    expect(() =>
      budget.measure({ kind: 'event', name: 'broken' }, () => {
        t += 500;
        throw new Error('its own failure');
      }),
    ).toThrow('its own failure');
  });

  it("a nested section is named when it crossed the limit itself; time its enclosing section spent first is the enclosing one's", () => {
    let t = 0;
    const crossing = new TurnBudget(limits(1_000, 100), () => t, noYield);
    expect(() =>
      crossing.measure({ kind: 'prompt', role: 'narrator' }, () => {
        t += 50;
        crossing.measure({ kind: 'lore', what: 'sections in play' }, () => {
          t += 51;
        });
      }),
    ).toThrow('lore sections in play exceeded');
    t = 0;
    const before = new TurnBudget(limits(1_000, 100), () => t, noYield);
    expect(() =>
      before.measure({ kind: 'prompt', role: 'narrator' }, () => {
        t += 101;
        before.measure({ kind: 'lore', what: 'sections in play' }, () => {
          t += 1;
        });
      }),
    ).toThrow("the narrator prompt's assembly exceeded");
  });

  it('breathe gives the event loop back only when the slice is due, and the pause is not counted', async () => {
    let t = 0;
    let yields = 0;
    const budget = new TurnBudget(
      limits(1_000, 100),
      () => t,
      async () => {
        yields++;
        t += 1_000; // other requests run meanwhile
      },
    );
    await budget.measureAsync({ kind: 'world-info' }, async () => {
      t += 9;
      await budget.breathe(); // 9 ms into a 10 ms slice: not yet
      expect(yields).toBe(0);
      t += 1;
      await budget.breathe(); // due
      expect(yields).toBe(1);
      t += 5;
    });
    expect(budget.ms).toBe(15);
  });

  it('the budget counts the compute clock, the slices the wall clock: a machine that takes the core away spends nothing', async () => {
    let wall = 0;
    let cpu = 0;
    let yields = 0;
    const budget = new TurnBudget(
      limits(1_000, 100),
      () => wall,
      async () => {
        yields++;
      },
      () => cpu,
    );
    budget.measure({ kind: 'event', name: 'tick' }, () => {
      wall += 10_000; // descheduled: the wall clock runs, the process's CPU does not
      cpu += 100;
    });
    expect(budget.ms).toBe(100);
    expect(budget.due()).toBe(true);
    await budget.breathe();
    expect(yields).toBe(1);
    expect(() =>
      budget.measure({ kind: 'event', name: 'tock' }, () => {
        cpu += 1;
      }),
    ).toThrow("event 'tock' exceeded the turn budget");
  });

  it('names every part as a reader reads it', () => {
    expect(describePart({ kind: 'world-info', uid: 3, comment: 'Dragons' })).toBe(
      "World Info entry 'Dragons' (uid 3)",
    );
    expect(describePart({ kind: 'world-info', uid: 4, comment: '' })).toBe('World Info entry 4');
    expect(describePart({ kind: 'world-info' })).toBe('World Info activation');
    expect(describePart({ kind: 'lore', what: 'lookup "bell"' })).toBe('lore lookup "bell"');
    expect(describePart({ kind: 'event', name: 'tick' })).toBe("event 'tick'");
    expect(describePart({ kind: 'prompt', role: 'narrator' })).toBe("the narrator prompt's assembly");
    expect(describePart({ kind: 'offline', what: 'narration' })).toBe('offline narration');
  });

  it('the limits are turn limits with a default and a ceiling, refused by name past it', () => {
    const resolved = resolveTurnLimits(undefined);
    expect('error' in resolved).toBe(false);
    expect(resolved).toMatchObject({ maxTurnSteps: DEFAULT_MAX_TURN_STEPS, maxTurnMs: DEFAULT_MAX_TURN_MS });
    expect(
      resolveTurnLimits({ maxTurnSteps: MAX_TURN_STEPS_LIMIT, maxTurnMs: MAX_TURN_MS_LIMIT }),
    ).not.toHaveProperty('error');
    expect(resolveTurnLimits({ maxTurnSteps: MAX_TURN_STEPS_LIMIT + 1 })).toEqual({
      error: expect.stringContaining('MAX_TURN_STEPS_LIMIT'),
    });
    expect(resolveTurnLimits({ maxTurnMs: MAX_TURN_MS_LIMIT + 1 })).toEqual({
      error: expect.stringContaining('MAX_TURN_MS_LIMIT'),
    });
    expect(resolveTurnLimits({ maxTurnMs: 0 })).toEqual({ error: expect.stringContaining('maxTurnMs') });
  });
});

// --- a turn's parts ---

const ENTRIES = 10;
const KEYS = 4;
/** One step per entry and one per key, for every entry of the one scan pass (no key matches). */
const WI_STEPS = ENTRIES * (1 + KEYS);

function worldInfo(entries = ENTRIES): string {
  const book: Record<string, unknown> = {};
  for (let uid = 0; uid < entries; uid++)
    book[uid] = {
      uid,
      comment: `Entry ${uid}`,
      key: Array.from({ length: KEYS }, (_, k) => `nowhere${uid}x${k}`),
      content: `Fact ${uid}.`,
    };
  return JSON.stringify({ entries: book });
}

const YARE = `version: "1.0"
state_schema:
  n: { type: int, default: 0 }
  items: { type: list, default: [${Array.from({ length: 100 }, () => 1).join(', ')}] }
events:
  ponder:
    description: Ponder.
    steps:
      - { action: note, message: "You wait." }
  brood:
    description: Brood at length.
    steps:
      - action: foreach
        array: "@ state.items"
        steps:
          - { action: mutate, var: state.n, op: add, value: 1 }
`;

function cartridgeOf(files: Record<string, string>): Cartridge {
  const result = loadCartridgeFromFiles(
    new Map(
      Object.entries({ 'yare.yaml': YARE, 'bot_lore.md': '# Budget\n\nA test cartridge.\n', ...files }),
    ),
    'budget',
  );
  if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('\n'));
  return result.cartridge;
}

function offline(cartridge: Cartridge, input: string, extra: Partial<TurnOptions> = {}): TurnOptions {
  return {
    cartridge,
    state: initialState(cartridge),
    messages: [],
    input,
    seed: 1,
    models: null,
    now: () => 0,
    ...extra,
  };
}

async function budgetFailure(options: TurnOptions): Promise<TurnError> {
  const { events, error } = await failure(options);
  expect(error).toBeInstanceOf(TurnError);
  const turnError = error as TurnError;
  expect(turnError.kind).toBe('budget');
  expect(events.some((e) => e.type === 'done')).toBe(false);
  expect(events.at(-1)).toMatchObject({ type: 'error', kind: 'budget', message: turnError.message });
  return turnError;
}

describe('the turn budget over a turn', () => {
  it('World Info and an event in steps: at the limit the turn completes; one step short the event is named, more the last entry', async () => {
    const cartridge = cartridgeOf({ 'world_info.json': worldInfo() });
    // The book's one scan pass, then `ponder`'s one step.
    const at = await collect(offline(cartridge, '/ponder', { limits: { maxTurnSteps: WI_STEPS + 1 } }));
    expect(at.record.ruleCalls).toMatchObject([{ event: 'ponder', ok: true, steps: 1 }]);

    const event = await budgetFailure(offline(cartridge, '/ponder', { limits: { maxTurnSteps: WI_STEPS } }));
    expect(event.part).toEqual({ kind: 'event', name: 'ponder' });
    expect(event.message).toMatch(/^event 'ponder' exceeded the turn budget: 50 steps \/ 2,000 ms/);

    const entry = await budgetFailure(
      offline(cartridge, '/ponder', { limits: { maxTurnSteps: WI_STEPS - 1 } }),
    );
    expect(entry.part).toEqual({ kind: 'world-info', uid: ENTRIES - 1, comment: `Entry ${ENTRIES - 1}` });
    expect(entry.message).toContain("World Info entry 'Entry 9' (uid 9) exceeded the turn budget");
  });

  it('World Info in milliseconds: a book whose activation takes too long is named by the entry that ran out', async () => {
    const cartridge = cartridgeOf({ 'world_info.json': worldInfo(200) });
    // A clock that moves 1 ms at each reading: the activation reads it at every entry.
    let t = 0;
    const now = () => ++t;
    const error = await budgetFailure(offline(cartridge, '/ponder', { now, limits: { maxTurnMs: 100 } }));
    expect(error.part?.kind).toBe('world-info');
    expect(error.message).toMatch(
      /^World Info entry 'Entry \d+' \(uid \d+\) exceeded the turn budget: .* 100 ms .*milliseconds ran out/,
    );
  });

  it('a rule run in milliseconds: the run the budget stops ends the turn, named, and changes nothing', async () => {
    const cartridge = cartridgeOf({});
    let t = 0;
    const now = () => ++t;
    // `brood` is ~200 steps; the machine reads the clock every 64 steps, the budget at each section.
    const error = await budgetFailure(offline(cartridge, '/brood', { now, limits: { maxTurnMs: 4 } }));
    expect(error.part).toEqual({ kind: 'event', name: 'brood' });
    expect(error.message).toContain('milliseconds ran out');
    // With room the same turn plays.
    const played = await collect(offline(cartridge, '/brood', { now, limits: { maxTurnMs: 1_000 } }));
    expect((played.record.stateAfter as { n: number }).n).toBe(100);
  });

  it('a lore lookup in steps: one step per section a query may score, at the limit and past it', async () => {
    const lore =
      '# The bell\n\nThe bell rings at dusk.\n\n# The fen\n\nMist.\n\n# The lamps\n\nLamplighters.\n';
    const cartridge = cartridgeOf({ 'bot_lore.md': lore });
    const online = (maxTurnSteps: number): TurnOptions => ({
      cartridge,
      state: initialState(cartridge),
      messages: [],
      input: 'I listen for the bell',
      seed: 1,
      now: () => 0,
      models: scripted({ director: [{ text: 'The bell rings.' }], narrator: [{ text: 'It rings.' }] }),
      limits: { maxTurnSteps },
    });
    const at = await collect(online(3));
    expect(at.record.narration).toBe('It rings.');
    const past = await budgetFailure(online(2));
    expect(past.part).toEqual({ kind: 'lore', what: 'lookup "I listen for the bell"' });
  });

  it('prompt assembly and offline work are measured: a cartridge part whose reading costs time names the part that read it', async () => {
    // A scripted cost: reading one of the cartridge's directives takes 5 s on the turn's clock. The Director's
    // directive is read only to write the Director's prompt, the Narrator's only to write the Narrator's.
    const base = cartridgeOf({});
    let t = 0;
    const costlyDirectives: Cartridge = {
      ...base,
      directives: {
        ...base.directives,
        get director() {
          t += 5_000;
          return 'Be brief.';
        },
        get narrator() {
          t += 5_000;
          return 'Be vivid.';
        },
      },
    };
    const online = (maxTurnMs: number): TurnOptions => ({
      cartridge: costlyDirectives,
      state: initialState(costlyDirectives),
      messages: [],
      input: 'I wait',
      seed: 1,
      now: () => t,
      models: scripted({ director: [{ text: 'Wait.' }], narrator: [{ text: 'You wait.' }] }),
      limits: { maxTurnMs },
    });
    // The Director's prompt and the Narrator's each read theirs once: 10 s of computing in all.
    t = 0;
    const at = await collect(online(10_000));
    expect(at.record.narration).toBe('You wait.');
    expect(t).toBe(10_000);
    t = 0;
    const narrator = await budgetFailure(online(9_999));
    expect(narrator.part).toEqual({ kind: 'prompt', role: 'narrator' });
    t = 0;
    const prompt = await budgetFailure(online(4_999));
    expect(prompt.part).toEqual({ kind: 'prompt', role: 'director' });

    // Offline, once the lore is indexed (a first turn), the narration reads the lore text (to spell places
    // as it does) under the turn's budget: at 5 s the turn plays, a millisecond less it does not.
    let costly = false;
    const costlyLore: Cartridge = Object.defineProperty({ ...base }, 'lore', {
      get() {
        if (costly) t += 5_000;
        return base.lore;
      },
    });
    await collect(offline(costlyLore, '/ponder'));
    costly = true;
    t = 0;
    const offAt = await collect(
      offline(costlyLore, '/ponder', { now: () => t, limits: { maxTurnMs: 5_000 } }),
    );
    expect(offAt.record.ruleCalls).toMatchObject([{ event: 'ponder', ok: true }]);
    t = 0;
    const off = await budgetFailure(
      offline(costlyLore, '/ponder', { now: () => t, limits: { maxTurnMs: 4_999 } }),
    );
    expect(off.part).toEqual({ kind: 'offline', what: 'narration' });
  });

  it('a turn cancelled while it computes stops at its next pause', async () => {
    const cartridge = cartridgeOf({ 'world_info.json': worldInfo(200) });
    const control = new AbortController();
    let t = 0;
    let pauses = 0;
    const { error } = await failure(
      offline(cartridge, '/ponder', {
        // Every entry's reading moves the clock past a slice: the activation pauses at once.
        now: () => (t += 20),
        limits: { maxTurnMs: 60_000 },
        signal: control.signal,
        yieldNow: async () => {
          pauses++;
          control.abort();
        },
      }),
    );
    expect(error).toMatchObject({ kind: 'aborted' });
    expect(pauses).toBe(1);
  });

  it('sliced activation gives the same result as the one-piece activation, and pauses when the meter is due', async () => {
    const cartridge = cartridgeOf({ 'world_info.json': worldInfo(50) });
    const book = cartridge.worldInfo!;
    const input = { messages: ['nowhere3x1 and more'], chatLength: 1, timed: [], seed: 1 };
    let pauses = 0;
    let dueEvery = 0;
    const meter = { spend: () => {}, due: () => ++dueEvery % 7 === 0 };
    const sliced = await runSliced(activationSteps(book, input, meter), async () => {
      pauses++;
    });
    // One `due` per entry considered and one before each of its key tests, per pass (50 entries, then a
    // recursion pass over the 49 left): 99 × (1 + 4).
    expect(dueEvery).toBe(99 * (1 + KEYS));
    expect(pauses).toBe(Math.floor((99 * (1 + KEYS)) / 7));
    expect(sliced).toEqual(activateWorldInfo(book, input, UNMETERED));
    expect(sliced.activated.map((a) => a.entry.uid)).toEqual([3]);
  });
});
