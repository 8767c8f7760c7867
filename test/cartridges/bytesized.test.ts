// Ports of ByteSized32-SP games (test/cartridges/bytesized/README.md), each replaying its game's gold
// playthrough from the facts in its `gold.json`: after every step, the state (every object, where it is and
// the properties the game tracks) and the score, game over and game won must be what the original game had;
// and each step's notes must name the objects the original's observation named. Steps whose observation
// the port reports differently are listed, with why, in `gold.json`'s `observationMisses` — and checked to
// still differ, so the list stays true.

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCartridge } from '../../src/adapters/files/index.ts';
import type { Cartridge } from '../../src/core/cartridge/index.ts';
import { runPlayerEvent } from '../../src/core/yare/index.ts';
import {
  type Gold,
  goldFolder,
  loadPort,
  observationDifferences,
  PLAIN_SUFFIX,
  PORTS_DIR,
  type PortState,
  playGold,
  portNames,
  stateDifferences,
} from '../helpers/bytesized-gold.ts';

const ports = portNames();

describe.each(ports)('ByteSized32 port %s', (port) => {
  let cartridge: Cartridge;
  let gold: Gold;
  beforeAll(async () => {
    ({ cartridge, gold } = await loadPort(port));
  });

  it('every transition of the gold playthrough: the state and the score after each step', () => {
    const { states } = playGold(cartridge, gold);
    const differences = gold.steps.flatMap((step, i) => stateDifferences(i, states[i]!, step));
    expect(differences).toEqual([]);
    expect(gold.steps.at(-1)!.won || gold.steps.at(-1)!.over).toBe(true);
  });

  it('what each observation reports: the objects it names, and their properties it reports', () => {
    const { notes, states } = playGold(cartridge, gold);
    expect(observationDifferences(gold, notes, states)).toEqual([]);
  });
});

// A `<game>-plain` port is the same game written without the new features: its notes at every step of the
// gold playthrough are its game's, word for word, so the two sizes compare the same game.
describe.each(ports.filter((port) => port.endsWith(PLAIN_SUFFIX)))('%s beside its game', (plain) => {
  it('says what its game says at every step', async () => {
    const twin = await loadPort(goldFolder(plain));
    const own = await loadPort(plain);
    expect(playGold(own.cartridge, own.gold).notes).toEqual(playGold(twin.cartridge, twin.gold).notes);
  });
});

describe('the losing ends the gold playthroughs do not reach', () => {
  it.each(['sunburn', 'sunburn-plain'])(
    '%s: the beach without sunscreen burns the player, and the game is lost',
    async (port) => {
      const loaded = await loadCartridge(join(PORTS_DIR, port));
      if (!loaded.ok) throw new Error(`${port} does not load`);
      const rules = loaded.cartridge.rules;
      const ran = runPlayerEvent(rules, rules.initialState, 'move', { to: '3' });
      const state = ran.state as unknown as PortState;
      expect(state.objs['0']!.sunburn).toBe(true);
      expect(state.game).toEqual({ score: 0, over: true, won: false });
    },
  );

  it.each(['make-campfire', 'make-campfire-plain'])(
    '%s: firewood burnt out of the fire pit loses',
    async (port) => {
      const loaded = await loadCartridge(join(PORTS_DIR, port));
      if (!loaded.ok) throw new Error(`${port} does not load`);
      const rules = loaded.cartridge.rules;
      let state: unknown = rules.initialState;
      for (const [event, inputs] of [
        ['take', { obj: '3' }],
        ['use', { tool: '3', target: '5' }],
        ...Array.from({ length: 5 }, () => ['look', {}] as const),
      ] as const) {
        const ran = runPlayerEvent(rules, state, event, inputs);
        if (!ran.result.ok) throw new Error(ran.result.error.message);
        state = ran.state;
      }
      expect((state as PortState).game).toEqual({ score: -1, over: true, won: false });
    },
  );
});
