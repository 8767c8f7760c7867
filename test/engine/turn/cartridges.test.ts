// Scripted-model turns for every shared MnesOS cartridge (compatibility: ../shared, when present), and the
// engine's own behaviour on the project's test cartridges (test/fixtures/cartridges): a mini-game played end
// to end, a cartridge that keeps its own game_time, and NPC templates without credit.
import { describe, expect, it } from 'vitest';
import { sharedAvailable } from '../../helpers/shared.ts';
import type { TurnError } from '../../../src/engine/turn/errors.ts';
import { openingMessages } from '../../../src/engine/turn/narrator.ts';
import { replayTurnRules } from '../../../src/engine/turn/record.ts';
import { directorTools } from '../../../src/engine/turn/tools.ts';
import type { GameState, TurnOptions } from '../../../src/engine/turn/types.ts';
import {
  collect,
  failure,
  fixture,
  initialState,
  plain,
  promptsOf,
  SHARED_CARTRIDGES,
  scripted,
  shared,
  type Loose,
} from './helpers.ts';

const DIRECTIVES = '### 1. Outcomes\nThe deed is done.';

describe.skipIf(!sharedAvailable('scripted turns of the shared MnesOS cartridges', 'cartridges'))(
  'every shared cartridge plays a scripted turn',
  () => {
    const cases: Record<
      (typeof SHARED_CARTRIDGES)[number],
      { call: { name: string; args: object }; note: RegExp; check: (s: Loose) => void }
    > = {
      'seed-eldoria': {
        call: { name: 'cast_heal', args: {} },
        note: /Player casts Heal! Consumed 10 mana\. Restored 20 HP\. Player HP: 100 \| Mana: 40\./,
        check: (s) => expect(s.player.mana).toBe(40),
      },
      'mnesos/generic-rpg': {
        call: { name: 'combat_strike', args: { power: 20 } },
        note: /^player strikes npc successfully for 8 damage! \(Rolled \d+\)$/,
        check: (s) => expect(s.npc.hp).toBe(12),
      },
      'mnesos/dark-fantasy': {
        call: { name: 'pray_at_shrine', args: {} },
        note: /^Player prays at a bleak ruined shrine\. Corruption falls to 0\.$/,
        check: (s) => expect(s.player.corruption).toBe(0),
      },
      'mnesos/lights-out-demo': {
        call: { name: 'disable_alarm', args: {} },
        note: /^\[SYSTEM LOG: Alarm disabled\.\]$/,
        check: (s) => expect(s.world_alarm_active).toBe(false),
      },
      'mnesos/web-client-e2e': {
        call: { name: 'combat_strike', args: { attacker: 'npc', defender: 'player', power: 20 } },
        note: /^npc strikes player for 8 damage\.$/,
        check: (s) => expect(s.player.hp).toBe(92),
      },
    };

    for (const name of SHARED_CARTRIDGES) {
      it(name, async () => {
        const cartridge = await shared(name);
        const { call, note, check } = cases[name];
        const state = initialState(cartridge);
        const models = scripted({
          director: [{ text: DIRECTIVES, toolCalls: [call] }],
          narrator: [{ text: `Prose for ${name}.` }],
        });
        const { record } = await collect({
          cartridge,
          state,
          messages: openingMessages(cartridge),
          input: 'I act.',
          seed: 3,
          models,
        });
        expect(record.notes.at(-1)).toMatch(note);
        check(record.stateAfter as Loose);
        expect(record.narration).toBe(`Prose for ${name}.`);
        expect(record.tools.map((t) => [t.name, t.ok])).toEqual([[call.name, true]]);
        expect(models.calls).toHaveLength(2);
        expect(record.directorStop).toBe('directives');
        expect(plain(replayTurnRules(cartridge, state, record).state)).toEqual(plain(record.stateAfter));
        // The Narrator is told the notes.
        expect(promptsOf(models, 'narrator')[0]).toContain(record.notes.at(-1));
      });
    }
  },
);

describe('a cartridge that declares game_time as a section of its state', () => {
  it('keeps its game_time untouched, offers no time tools and refuses engine_time_delta', async () => {
    const cartridge = await fixture('keep-time');
    const tools = directorTools(cartridge);
    expect(tools.byName.has('advance_game_time')).toBe(false);
    expect(JSON.stringify(tools.specs)).not.toContain('engine_time_delta');
    const state = initialState(cartridge);
    const models = scripted({
      director: [
        { text: DIRECTIVES, toolCalls: [{ name: 'light_candle', args: { engine_time_delta: 'PT1H' } }] },
        { text: DIRECTIVES, toolCalls: [{ name: 'light_candle', args: {} }] },
      ],
      narrator: [{ text: 'Bells.' }],
    });
    const { record } = await collect({
      cartridge,
      state,
      messages: [],
      input: 'I light a candle and wait an hour',
      seed: 1,
      models,
    });
    expect(record.tools[0]!.ok).toBe(false);
    expect(record.tools[0]!.content).toMatch(
      /'light_candle' has no input 'engine_time_delta' \(it takes none\)/,
    );
    expect((record.stateAfter as Loose).game_time).toEqual({ now: '1350-03-01T06:00:00' });
    expect((record.stateAfter as Loose).pilgrim.faith).toBe(35);
    expect(record.time).toEqual({ before: '', after: '', advancedSeconds: 0, mode: 'cartridge' });
    expect(promptsOf(models, 'narrator')[0]).not.toContain('IN-GAME TIME');
  });
});

describe('NPC templates without credit', () => {
  it('treats a missing credit as meeting the threshold, so its characters are voiced', async () => {
    const cartridge = await fixture('goblin-camp');
    const models = scripted({
      director: [
        {
          toolCalls: [
            {
              name: 'query_npc_intent',
              args: {
                present_npcs: [
                  { id: 'boss', template: 'Chief_Gnash' },
                  { id: 'grunt', tags: ['goblin', 'archer'] },
                  { id: 'nobody' },
                ],
                scene_context: 'The player draws a sword.',
                history_turns: 2,
                dm_directives: 'They are nervous.',
              },
            },
          ],
        },
        { text: DIRECTIVES },
      ],
      npc: [
        {
          text: JSON.stringify({
            intents: [
              {
                npc_id: 'boss',
                dialogue: 'Guards!',
                action_intent: 'backs away',
                internal_monologue: 'Not today.',
              },
              {
                npc_id: 'stranger',
                dialogue: 'I was never asked.',
                action_intent: '-',
                internal_monologue: '-',
              },
            ],
          }),
        },
      ],
      narrator: [{ text: 'Steel rings.' }],
    });
    const messages = ['msg0', 'msg1', 'msg2', 'msg3'].map((content, i) => ({
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content,
    }));
    const { record } = await collect({
      cartridge,
      state: initialState(cartridge),
      messages,
      input: 'I draw my sword',
      seed: 1,
      models,
    });
    const npcPrompt = promptsOf(models, 'npc')[0]!;
    expect(npcPrompt).toContain('NPC: boss | Profile: Warlord of the camp, scarred and loud.');
    expect(npcPrompt).toContain(
      'NPC: grunt | Profile: Wiry and quick to flee. Keeps to the palisade with a short bow.',
    );
    expect(npcPrompt).not.toContain('nobody');
    expect(npcPrompt).toContain('msg3');
    expect(npcPrompt).toContain('msg2');
    expect(npcPrompt).not.toContain('msg1');
    expect(npcPrompt).toContain('They are nervous.');
    expect(npcPrompt).toContain('The player draws a sword.');
    expect(npcPrompt).toContain('Goblins bicker among themselves'); // the cartridge's npc directive
    const result = JSON.parse(record.tools[0]!.content) as { ok: boolean; intents: { npc_id: string }[] };
    expect(result.ok).toBe(true);
    expect(result.intents.map((i) => i.npc_id)).toEqual(['boss']); // unknown ids are dropped
  });
});

describe('a mini-game, end to end', () => {
  const interaction = {
    minigame_id: 'dial_puzzle',
    status: 'completed' as const,
    metrics: { time_taken_ms: 1234, rank: 'A' },
    data: { turns: 7 },
  };

  async function startHack(): Promise<{ state: GameState; options: Omit<TurnOptions, 'input' | 'models'> }> {
    const cartridge = await fixture('vault');
    const models = scripted({
      director: [{ text: DIRECTIVES, toolCalls: [{ name: 'crack_safe', args: {} }] }],
      narrator: [{ text: 'The wheels turn.' }],
    });
    const opening = openingMessages(cartridge);
    expect(opening[0]!.content).toMatch(/^The shutters are down/);
    const { record } = await collect({
      cartridge,
      state: initialState(cartridge),
      messages: opening,
      input: 'I crack the safe',
      seed: 1,
      models,
    });
    expect(models.narrator.requests[0]!.messages[0]).toMatchObject({
      role: 'assistant',
      content: opening[0]!.content,
    });
    const pending = (record.stateAfter as Loose)._pending_interaction;
    expect(pending).toMatchObject({
      interaction_type: 'minigame',
      minigame_id: 'dial_puzzle',
      resolver_event: 'resolve_safe',
    });
    return {
      state: plain(record.stateAfter),
      options: {
        cartridge,
        state: plain(record.stateAfter),
        messages: [...opening, ...record.messages],
        seed: 2,
      },
    };
  }

  it('starts, refuses free text while pending, resolves without the Director, and the Narrator tells it', async () => {
    const { state, options } = await startHack();
    const refused = await failure({ ...options, input: 'I just walk away', models: scripted({}) });
    expect((refused.error as TurnError).kind).toBe('interaction');
    expect((refused.error as TurnError).message).toMatch(/mini-game is pending \("dial_puzzle"\)/);
    expect(refused.events.at(-1)).toMatchObject({ type: 'error', kind: 'interaction' });

    const models = scripted({ narrator: [{ text: 'The door swings wide.' }] });
    const { record, events } = await collect({ ...options, interaction, models });
    expect(models.calls.map((c) => c.role)).toEqual(['narrator']);
    expect(events.some((e) => e.type === 'phase' && e.phase === 'interaction')).toBe(true);
    const after = record.stateAfter as Loose;
    expect(after.safe_locked).toBe(false);
    expect(after.coins).toBe(95);
    expect(after._pending_interaction).toEqual({});
    expect(record.notes).toEqual([
      'Minigame resolved: dial_puzzle (completed).',
      '[SYSTEM LOG: The safe swings open! +75 coins. Turns used: 7]',
    ]);
    expect(record.input).toEqual({
      kind: 'interaction',
      interaction,
      text: '[minigame:dial_puzzle status=completed time_taken_ms=1234 rank=A]',
    });
    expect(record.ruleCalls.map((c) => [c.source, c.event])).toEqual([['resolver', 'resolve_safe']]);
    expect(record.narration).toBe('The door swings wide.');
    expect(promptsOf(models, 'narrator')[0]).toContain('The safe swings open');
    expect(plain(replayTurnRules(options.cartridge, state, record).state)).toEqual(plain(after));
  });

  it('refuses a result for another mini-game, or when nothing is pending', async () => {
    const { options } = await startHack();
    const wrong = await failure({
      ...options,
      interaction: { ...interaction, minigame_id: 'snake' },
      models: scripted({}),
    });
    expect((wrong.error as TurnError).message).toMatch(/minigame_id mismatch/);
    const cartridge = options.cartridge;
    const none = await failure({
      cartridge,
      state: initialState(cartridge),
      messages: [],
      seed: 1,
      interaction,
      models: scripted({}),
    });
    expect((none.error as TurnError).kind).toBe('interaction');
    expect((none.error as TurnError).message).toMatch(/no pending mini-game/);
  });

  it('refuses a malformed payload from the client', async () => {
    const { options } = await startHack();
    const bad = await failure({
      ...options,
      interaction: { ...interaction, status: 'won' } as never,
      models: scripted({}),
    });
    expect((bad.error as TurnError).message).toMatch(/'status' must be one of/);
    const hostile = await failure({
      ...options,
      interaction: { ...interaction, metrics: { x: { nested: true } } } as never,
      models: scripted({}),
    });
    expect((hostile.error as TurnError).message).toMatch(/metric 'x' must be a string/);
  });

  it('does not offer the resolver to the Director', async () => {
    const tools = directorTools(await fixture('vault'));
    expect(tools.byName.has('resolve_safe')).toBe(false);
    expect(tools.byName.has('crack_safe')).toBe(true);
  });

  it('plays offline too: words start the mini-game, the client result resolves it', async () => {
    const cartridge = await fixture('vault');
    const first = await collect({
      cartridge,
      state: initialState(cartridge),
      messages: [],
      input: 'I crack the safe',
      seed: 1,
      models: null,
    });
    expect(first.record.mode).toBe('offline');
    expect((first.record.stateAfter as Loose)._pending_interaction.minigame_id).toBe('dial_puzzle');
    const second = await collect({
      cartridge,
      state: plain(first.record.stateAfter),
      messages: [],
      seed: 2,
      interaction,
      models: null,
    });
    expect((second.record.stateAfter as Loose).safe_locked).toBe(false);
    expect(second.record.narration).toContain('The safe swings open! +75 coins. Turns used: 7');
    expect(second.record.narration).not.toContain('[SYSTEM LOG');
  });
});
