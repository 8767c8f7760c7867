// The narration fidelity check: prose that states a number, an item or a death the turn's facts contradict
// is found, repaired by one round with the Narrator, or corrected by the engine; prose that agrees passes.

import { describe, expect, it } from 'vitest';
import {
  checkNarration,
  type FidelityFacts,
  MAX_FIDELITY_FINDINGS,
} from '../../../src/engine/turn/fidelity.ts';
import { diffStates } from '../../../src/core/yare/index.ts';
import { runCliInProcess as runCli, SPAWN_TIMEOUT_MS, workspaces } from '../../apps/cli/helpers.ts';
import { collect, initialState, type Loose, lanternmere, plain, scripted } from './helpers.ts';
import type { GameState } from '../../../src/engine/turn/types.ts';

async function factsFor(
  change: (state: Loose) => void,
  extra: Partial<FidelityFacts> = {},
): Promise<FidelityFacts> {
  const cartridge = await lanternmere();
  const before = initialState(cartridge) as Loose;
  const after = JSON.parse(JSON.stringify(before)) as Loose;
  change(after);
  return {
    rules: cartridge.rules,
    stateBefore: before,
    stateAfter: after,
    delta: diffStates(before as GameState, after as GameState),
    rolls: [],
    notes: [],
    advancedSeconds: 0,
    ...extra,
  };
}

describe('checkNarration', () => {
  it('passes prose whose numbers are the field before, after, or the change', async () => {
    const facts = await factsFor((s) => {
      s.player.gold = 15;
    });
    for (const text of [
      'You pay 5 gold.',
      'You have 15 gold left.',
      'Your purse held 20 gold coins.',
      'Gold: 15.',
    ])
      expect(checkNarration(text, facts).found).toEqual([]);
  });

  it('finds a number next to a field name that no fact gives, and corrects it', async () => {
    const facts = await factsFor((s) => {
      s.player.gold = 15;
    });
    const check = checkNarration('The merchant smiles. You now have 12 gold. The fen is quiet.', facts);
    expect(plain(check.found)).toEqual([
      {
        kind: 'number',
        sentence: 'You now have 12 gold.',
        said: '12 gold',
        fact: 'player.gold is 15 (was 20)',
      },
    ]);
    expect(check.corrected).toBe('The merchant smiles. You now have 15 gold. The fen is quiet.');
    // A stated change is corrected to the change.
    expect(checkNarration('You pay 7 gold for it.', facts).corrected).toBe('You pay 5 gold for it.');
  });

  it('reads synonyms and numbers before the name: "hit points", "hp drops to"', async () => {
    const facts = await factsFor((s) => {
      s.player.hp = 20;
    });
    expect(checkNarration('You are down to 20 hit points.', facts).found).toEqual([]);
    expect(checkNarration('Your hp drops to 3.', facts).found).toHaveLength(1);
  });

  it('finds rolls narrated on a turn without dice, and roll numbers the dice did not show', async () => {
    const none = await factsFor(() => {});
    expect(checkNarration('You rolled a 17 and the lock gives.', none).found[0]).toMatchObject({
      fact: 'no dice were rolled this turn',
    });
    const rolled = await factsFor(() => {}, {
      rolls: [{ expr: '1d20', dice: '1d20', faces: [11], total: 15 }],
    });
    expect(checkNarration('You roll a 15.', rolled).found).toEqual([]);
    expect(checkNarration('You roll a 19.', rolled).found).toHaveLength(1);
  });

  it('accepts numbers the engine notes state, and damage the changes show', async () => {
    const facts = await factsFor(
      (s) => {
        s.foe.name = 'mire wisp';
        s.foe.hp = 2;
      },
      { notes: ['[SYSTEM LOG: The hook deals 4 damage.]'] },
    );
    expect(checkNarration('The hook deals 4 damage.', facts).found).toEqual([]);
    expect(checkNarration('The hook deals 9 damage.', facts).found).toHaveLength(1);
  });

  it('finds a minute count on a turn whose clock moved by another', async () => {
    const facts = await factsFor(() => {}, { advancedSeconds: 1800 });
    expect(checkNarration('After 30 minutes you arrive.', facts).found).toEqual([]);
    expect(checkNarration('After 2 hours you arrive.', facts).found).toHaveLength(1);
  });

  it('finds an item said gained that the player does not have, and one said lost that they still hold; drops the sentence', async () => {
    const facts = await factsFor((s) => {
      s.player.inventory = ['iron hook', 'tallow candle', 'lamp oil'];
    });
    expect(checkNarration('You pick up the lamp oil.', facts).found).toEqual([]);
    const check = checkNarration('The stall is busy. You pick up an eelskin cloak. You drop the iron hook.', {
      ...facts,
      stateBefore: {
        ...(facts.stateBefore as object),
        player: {
          ...(facts.stateBefore as Loose).player,
          inventory: ['iron hook', 'tallow candle', 'lamp oil', 'eelskin cloak'],
        },
      },
      stateAfter: {
        ...(facts.stateAfter as object),
        player: {
          ...(facts.stateAfter as Loose).player,
          inventory: ['iron hook', 'tallow candle', 'lamp oil'],
        },
      },
    });
    expect(check.found.map((c) => c.said)).toEqual([
      'the player gains eelskin cloak',
      'the player loses iron hook',
    ]);
    expect(check.corrected).toBe('The stall is busy.');
  });

  it('finds a creature said dead while its hit points are above zero', async () => {
    const facts = await factsFor((s) => {
      s.foe.name = 'mire wisp';
      s.foe.hp = 3;
    });
    expect(checkNarration('The mire wisp dies with a hiss.', facts).found[0]).toMatchObject({
      kind: 'death',
      fact: 'mire wisp has 3 hit points left',
    });
    const dead = await factsFor((s) => {
      s.foe.name = 'mire wisp';
      s.foe.hp = 0;
    });
    expect(checkNarration('The mire wisp dies with a hiss.', dead).found).toEqual([]);
  });

  it(`reports at most ${MAX_FIDELITY_FINDINGS} findings and still corrects every sentence`, async () => {
    const facts = await factsFor(() => {});
    const text = 'You have 99 gold. '.repeat(MAX_FIDELITY_FINDINGS + 1);
    const check = checkNarration(text, facts);
    expect(check.found).toHaveLength(MAX_FIDELITY_FINDINGS);
    expect(check.changedSentences).toBe(MAX_FIDELITY_FINDINGS + 1);
    expect(check.corrected).not.toContain('99');
  });
});

describe('the fidelity step of a turn', () => {
  const buy = { toolCalls: [{ name: 'buy_item', args: { item: 'brine tonic' } }] };
  async function turn(narrator: object[], narrationCheck?: 'repair' | 'correct' | 'off') {
    const cartridge = await lanternmere();
    const state = initialState(cartridge) as Loose;
    state.player.location = 'brine market';
    const models = scripted({ director: [buy], narrator: narrator as never });
    const { record } = await collect({
      cartridge,
      state,
      messages: [],
      input: 'buy a tonic',
      seed: 1,
      models,
      ledgerMode: 'off',
      ...(narrationCheck ? { narrationCheck } : {}),
    });
    return { record, models };
  }

  it('keeps clean prose and records the check', async () => {
    const { record } = await turn([{ text: 'You buy a brine tonic.' }]);
    expect(record.fidelity).toEqual({ outcome: 'clean', found: [], corrected: 0 });
    expect(record.narration).toBe('You buy a brine tonic.');
  });

  it('repairs a contradiction in one round with the specific correction', async () => {
    const { record, models } = await turn([
      { text: 'You pay 40 gold for a tonic.' },
      { text: 'You pay for a tonic.' },
    ]);
    expect(record.fidelity?.outcome).toBe('repaired');
    expect(record.fidelity?.found[0]).toMatchObject({ said: '40 gold' });
    expect(record.narration).toBe('You pay for a tonic.');
    expect(record.messages.at(-1)?.content).toBe('You pay for a tonic.');
    const repair = models.narrator.requests[1]!.messages.at(-1);
    expect(repair?.content).toContain('says 40 gold, but player.gold is');
  });

  it('corrects the prose itself when the repair still contradicts, or at once in correct mode', async () => {
    const { record } = await turn([{ text: 'You pay 40 gold for a tonic.' }, { text: 'You pay 41 gold.' }]);
    expect(record.fidelity?.outcome).toBe('corrected');
    expect(record.narration).not.toContain('40');
    const direct = await turn([{ text: 'You pay 40 gold for a tonic.' }], 'correct');
    expect(direct.record.fidelity).toMatchObject({ outcome: 'corrected', corrected: 1 });
    expect(direct.models.narrator.requests).toHaveLength(1);
  });

  it('corrects the prose when the repair call fails, and is skipped when off', async () => {
    const failed = await turn([{ text: 'You pay 40 gold.' }, { error: { kind: 'http', status: 500 } }]);
    expect(failed.record.fidelity?.outcome).toBe('corrected');
    expect(failed.record.warnings.some((w) => w.includes('repair call failed (http)'))).toBe(true);
    const off = await turn([{ text: 'You pay 40 gold.' }], 'off');
    expect(off.record.fidelity).toBeUndefined();
    expect(off.record.narration).toBe('You pay 40 gold.');
  });
});

const workspace = workspaces();

describe('mnesos turn with a narration the rules contradict', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it('prints the streamed prose, then says it was corrected and shows what is kept', async () => {
    const { dir, file } = workspace();
    const state = file('state.json', JSON.stringify({ player: { location: 'brine market' } }));
    const script = file(
      'script.json',
      JSON.stringify({
        director: [{ toolCalls: [{ name: 'buy_item', args: { item: 'brine tonic' } }] }],
        narrator: [{ text: 'You pay 40 gold for a tonic.' }, { text: 'You pay 41 gold.' }, { toolCalls: [] }],
      }),
    );
    const result = await runCli(
      ['turn', 'lanternmere', '--input', 'buy a tonic', '--state', state, '--llm-script', script],
      {
        cwd: dir,
      },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('You pay 40 gold for a tonic.');
    expect(result.stdout).toContain(
      '[the narration stated 1 thing(s) the rules contradict; corrected by the engine:]\nYou pay 8 gold for a tonic.',
    );
  });
});
