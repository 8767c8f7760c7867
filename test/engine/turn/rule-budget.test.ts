// The per-turn rule budget: every rule run of a turn (cycle ticks, Director tools, the
// resolver) shares one budget of steps and one of wall time, so a hostile cartridge cannot hold the
// server for seconds per turn. The budget-stopped runs replay exactly (same step, same dice).
import { describe, expect, it } from 'vitest';
import type { Cartridge } from '../../../src/core/cartridge/index.ts';
import { loadCartridgeFromFiles } from '../../../src/adapters/files/index.ts';
import { DEFAULT_MAX_RULE_STEPS } from '../../../src/engine/turn/limits.ts';
import { replayTurnRules } from '../../../src/engine/turn/record.ts';
import type { TurnRecord } from '../../../src/engine/turn/types.ts';
import { MAX_STEPS_PER_RUN } from '../../../src/core/yare/limits.ts';
import { collect, initialState, scripted } from './helpers.ts';

function cartridgeOf(yare: string): Cartridge {
  const result = loadCartridgeFromFiles(
    new Map([
      ['yare.yaml', yare],
      ['bot_lore.md', '# Budget\n\nA test cartridge.\n'],
    ]),
    'budget',
  );
  if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('\n'));
  return result.cartridge;
}

/**
 * `count` cycle-tick events; each calls `body` (YAML steps, indented 6), the work of one tick. A `ponder`
 * event gives the offline turn something to do after the ticks.
 */
function tickCartridge(count: number, body: string, schema = '  n: { type: int, default: 0 }\n'): Cartridge {
  const ticks = Array.from(
    { length: count },
    (_, i) => `  t${i}: { internal: true, trigger_on: cycle_tick, steps: [{ action: call, event: work }] }\n`,
  ).join('');
  const work = `  work:\n    internal: true\n    steps:\n${body}`;
  const wait =
    '  ponder:\n    description: Ponder.\n    steps:\n      - { action: note, message: "You wait." }\n';
  return cartridgeOf(`version: "1.0"\nstate_schema:\n${schema}events:\n${work}${wait}${ticks}`);
}

const THREE_STEPS = `      - { action: mutate, var: state.n, op: add, value: 1 }
      - { action: mutate, var: state.n, op: add, value: 1 }
      - { action: mutate, var: state.n, op: add, value: 1 }
`;

const STOPPED_CLOCK = (): number => 0;

/** A turn whose Director calls `ponder` once (a tool run after the ticks, on the same budget). */
async function turnWith(cartridge: Cartridge, limits: object = {}, now?: () => number) {
  return collect({
    cartridge,
    state: initialState(cartridge),
    messages: [],
    input: 'I think it over',
    seed: 5,
    models: scripted({
      director: [{ toolCalls: [{ name: 'ponder', args: {} }] }, { text: 'Describe the wait.' }],
      narrator: [{ text: 'Time passes.' }],
    }),
    limits,
    ...(now ? { now } : {}),
  });
}

function expectReplays(cartridge: Cartridge, record: TurnRecord): void {
  const replay = replayTurnRules(cartridge, initialState(cartridge), record);
  expect(replay.divergences).toEqual([]);
  expect(replay.state).toEqual(record.stateAfter);
}

describe('the per-turn rule budget', () => {
  it('the reported attack: 1,000 cycle ticks of a 10,000-step loop stop at the turn budget, and the turn completes', async () => {
    // 100 × 100 nested iterations: far past MAX_STEPS_PER_RUN, so every tick would burn a full run.
    const items = `[${Array.from({ length: 100 }, (_, i) => i).join(', ')}]`;
    const cartridge = tickCartridge(
      1_000,
      `      - action: foreach
        array: "@ state.items"
        steps:
          - action: foreach
            array: "@ state.items"
            steps:
              - { action: mutate, var: state.n, op: add, value: 1 }
`,
      `  n: { type: int, default: 0 }\n  items: { type: list, default: ${items} }\n`,
    );
    // A clock that never moves: the step budget alone decides, however loaded the machine (200,000 steps
    // can take longer than the 1 s time budget there; the time budget has its own test below).
    const { record } = await turnWith(cartridge, {}, STOPPED_CLOCK);
    const ticks = record.ruleCalls.filter((c) => c.source === 'cycle_tick');
    expect(ticks).toHaveLength(1_000);
    const steps = record.ruleCalls.reduce((sum, c) => sum + (c.steps ?? 0), 0);
    expect(steps).toBe(DEFAULT_MAX_RULE_STEPS);
    const fullRuns = DEFAULT_MAX_RULE_STEPS / MAX_STEPS_PER_RUN;
    for (const call of ticks.slice(0, fullRuns)) {
      expect(call.error?.code).toBe('YARE_STEP_LIMIT');
      expect(call.steps).toBe(MAX_STEPS_PER_RUN);
    }
    for (const call of ticks.slice(fullRuns)) {
      expect(call.error?.code).toBe('TURN_RULE_BUDGET');
      expect(call.steps).toBe(0);
    }
    expect(ticks[fullRuns]?.error?.message).toContain('maxRuleSteps');
    // The Director's tool shares the budget: it gets the error as its tool result, and the turn goes on.
    expect(record.ruleCalls.at(-1)).toMatchObject({
      source: 'director',
      event: 'ponder',
      ok: false,
      steps: 0,
    });
    expect(record.narration).toBe('Time passes.');
    expect((record.stateAfter as { n: number }).n).toBe(0);
    expectReplays(cartridge, record);
  });

  it('at the limit every run completes; past it the run that crosses it fails and changes nothing', async () => {
    // Each tick is 4 steps (the call and three mutations); the Director's `ponder` is 1: 41 in all.
    const cartridge = tickCartridge(10, THREE_STEPS);
    const atLimit = (await turnWith(cartridge, { maxRuleSteps: 41 }, STOPPED_CLOCK)).record;
    expect(atLimit.ruleCalls.map((c) => c.ok)).toEqual(Array(11).fill(true));
    expect(atLimit.ruleCalls.reduce((sum, c) => sum + (c.steps ?? 0), 0)).toBe(41);
    expect((atLimit.stateAfter as { n: number }).n).toBe(30);

    const past = (await turnWith(cartridge, { maxRuleSteps: 39 }, STOPPED_CLOCK)).record;
    expect(past.ruleCalls.slice(0, 9).every((c) => c.ok)).toBe(true);
    expect(past.ruleCalls[9]).toMatchObject({ ok: false, error: { code: 'TURN_RULE_BUDGET' }, steps: 3 });
    expect(past.ruleCalls[10]).toMatchObject({ event: 'ponder', ok: false, steps: 0 });
    expect((past.stateAfter as { n: number }).n).toBe(27);
    expect(past.warnings.some((w) => w.includes('maxRuleSteps'))).toBe(true);
    expectReplays(cartridge, past);
  });

  it('wall time across all runs of the turn: past maxRuleMs the runs stop, and replay stops them at the same step', async () => {
    // A clock that advances 1 ms per reading: the turn's 40 ms run out part-way through the ticks.
    let t = 0;
    const now = () => {
      t += 1;
      return t;
    };
    const cartridge = tickCartridge(
      50,
      `      - action: foreach
        array: "@ state.items"
        steps:
          - { action: mutate, var: state.n, op: add, value: 1 }
`,
      `  n: { type: int, default: 0 }\n  items: { type: list, default: [${Array.from({ length: 100 }, () => 1).join(', ')}] }\n`,
    );
    const { record } = await turnWith(cartridge, { maxRuleMs: 40 }, now);
    const stopped = record.ruleCalls.filter((c) => c.error?.code === 'YARE_TIME_LIMIT');
    expect(stopped.length).toBeGreaterThan(0);
    expect(record.ruleCalls.filter((c) => c.ok).length).toBeGreaterThan(0);
    expect(record.ruleCalls.at(-1)?.ok).toBe(false);
    expectReplays(cartridge, record);
  });

  it('limits out of range are refused by name', async () => {
    const cartridge = tickCartridge(1, THREE_STEPS);
    await expect(turnWith(cartridge, { maxRuleMs: 0 })).rejects.toThrow(/maxRuleMs.*MAX_RULE_MS_LIMIT/);
    await expect(turnWith(cartridge, { maxRuleSteps: 10_000_001 })).rejects.toThrow(/MAX_RULE_STEPS_LIMIT/);
  });
});
