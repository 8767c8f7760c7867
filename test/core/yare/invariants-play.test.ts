// Invariants in play: checked after every event of a turn; a breach is a typed entry of the turn record
// (and the turn goes on), or, in strict mode, the turn is refused with nothing changed.
import { describe, expect, it } from 'vitest';
import type { Cartridge } from '../../../src/core/cartridge/index.ts';
import { loadCartridgeFromFiles } from '../../../src/adapters/files/index.ts';
import { TurnError } from '../../../src/engine/turn/errors.ts';
import { collect, failure, initialState, scripted } from '../../engine/turn/helpers.ts';

const YARE = `version: "1.0"
state_schema:
  keeper:
    debt: { type: int, default: 0 }
  ticks: { type: int, default: 0 }
events:
  tick:
    internal: true
    trigger_on: cycle_tick
    steps:
      - { action: mutate, var: state.ticks, op: add, value: 1 }
  borrow:
    description: Borrow coins from the keeper.
    inputs: { n: { type: int, default: 1 } }
    steps:
      - { action: mutate, var: state.keeper.debt, op: sub, value: "@ inputs.n" }
      - { action: note, message: "You borrow {inputs.n}." }
  repay:
    description: Repay the keeper.
    steps:
      - { action: set, var: state.keeper.debt, value: 0 }
invariants:
  debt_never_negative: "@ state.keeper.debt >= 0"
`;

function cartridge(): Cartridge {
  const result = loadCartridgeFromFiles(
    new Map([
      ['yare.yaml', YARE],
      ['bot_lore.md', '# Keeper\n\nA keeper lends coins.\n'],
    ]),
    'keeper',
  );
  if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('\n'));
  return result.cartridge;
}

const models = () =>
  scripted({
    director: [
      {
        toolCalls: [
          { name: 'borrow', args: { n: 3 } },
          { name: 'repay', args: {} },
        ],
      },
      { text: 'Tell it.' },
    ],
    narrator: [{ text: 'Coins change hands.' }],
  });

describe('invariants in play', () => {
  it('a turn whose event breaks an invariant records the breach after that event, typed and placed', async () => {
    const c = cartridge();
    const { record } = await collect({
      cartridge: c,
      state: initialState(c),
      messages: [],
      input: 'borrow three, then pay it back',
      seed: 1,
      models: models(),
    });
    // The tick (call 1) kept it; borrow (call 2) broke it; repay (call 3) mended it.
    expect(record.ruleCalls.map((r) => r.event)).toEqual(['tick', 'borrow', 'repay']);
    expect(record.invariants).toEqual([
      {
        invariant: 'debt_never_negative',
        kind: 'false',
        message: "invariant 'debt_never_negative' does not hold: state.keeper.debt >= 0 is False",
        place: { file: 'yare.yaml', line: 23, col: 24 },
        event: 'borrow',
        source: 'director',
        call: 2,
      },
    ]);
    expect((record.stateAfter.keeper as { debt: number }).debt).toBe(0);
  });

  it('a turn that keeps every invariant has no invariants entry', async () => {
    const c = cartridge();
    const { record } = await collect({
      cartridge: c,
      state: initialState(c),
      messages: [],
      input: 'pay up',
      seed: 1,
      models: scripted({
        director: [{ toolCalls: [{ name: 'repay', args: {} }] }, { text: 'Tell it.' }],
        narrator: [{ text: 'Paid.' }],
      }),
    });
    expect(record.invariants).toBeUndefined();
  });

  it('in strict mode the breaking event refuses the turn: an invariant error naming the place, no record', async () => {
    const c = cartridge();
    const { events, error } = await failure({
      cartridge: c,
      state: initialState(c),
      messages: [],
      input: 'borrow three, then pay it back',
      seed: 1,
      models: models(),
      strict: true,
    });
    expect(error).toBeInstanceOf(TurnError);
    expect((error as TurnError).kind).toBe('invariant');
    expect((error as TurnError).message).toContain("yare.yaml:23:24: invariant 'debt_never_negative'");
    expect((error as TurnError).message).toContain("after event 'borrow'");
    expect(events.at(-1)).toMatchObject({ type: 'error', kind: 'invariant' });
    expect(events.some((e) => e.type === 'done')).toBe(false);
  });

  it('strict mode plays a turn that keeps every invariant as usual', async () => {
    const c = cartridge();
    const { record } = await collect({
      cartridge: c,
      state: initialState(c),
      messages: [],
      input: 'pay up',
      seed: 1,
      models: scripted({
        director: [{ toolCalls: [{ name: 'repay', args: {} }] }, { text: 'Tell it.' }],
        narrator: [{ text: 'Paid.' }],
      }),
      strict: true,
    });
    expect(record.ruleCalls.map((r) => r.ok)).toEqual([true, true]);
  });
});
