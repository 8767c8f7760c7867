// Every turn limit at the limit and just past it.
import { describe, expect, it } from 'vitest';
import type { TurnError } from '../../../src/engine/turn/errors.ts';
import {
  DEFAULT_TURN_LIMITS,
  MAX_DIRECTIVES_CHARS,
  MAX_HISTORY_MESSAGES_LIMIT,
  MAX_INPUT_CHARS,
  MAX_INTERACTION_STRING_CHARS,
  MAX_NARRATION_CHARS,
  MAX_NPC_FIELD_CHARS,
  MAX_NPC_HISTORY_TURNS,
  MAX_NPC_TAGS,
  MAX_NPC_QUERIES_LIMIT,
  MAX_PRESENT_NPCS,
  MAX_PROMPT_TOKENS,
  MAX_SEED,
  MAX_TIME_ADVANCE_SECONDS,
  MAX_TOOL_ARGS_CHARS,
  MAX_TOOL_RESULT_CHARS,
  MAX_TOOL_ROUNDS_LIMIT,
  MIN_PROMPT_TOKENS,
  resolveTurnLimits,
} from '../../../src/engine/turn/limits.ts';
import { checkArgs } from '../../../src/engine/turn/args.ts';
import { checkInteractionInput } from '../../../src/engine/turn/interaction.ts';
import { directorTools, toolOk } from '../../../src/engine/turn/tools.ts';
import { collect, failure, initialState, lanternmere, scripted } from './helpers.ts';

const DIRECTIVES = '### 1. Outcomes\nfine';

describe('resolveTurnLimits', () => {
  it('fills in the defaults (5 tool rounds, 3 NPC queries)', () => {
    expect(resolveTurnLimits(undefined)).toEqual(DEFAULT_TURN_LIMITS);
    expect(DEFAULT_TURN_LIMITS.maxToolRounds).toBe(5);
    expect(DEFAULT_TURN_LIMITS.maxNpcQueries).toBe(3);
  });

  const cases: [string, number, number, string][] = [
    ['maxToolRounds', 1, MAX_TOOL_ROUNDS_LIMIT, 'MAX_TOOL_ROUNDS_LIMIT'],
    ['maxNpcQueries', 0, MAX_NPC_QUERIES_LIMIT, 'MAX_NPC_QUERIES_LIMIT'],
    ['historyMessages', 0, MAX_HISTORY_MESSAGES_LIMIT, 'MAX_HISTORY_MESSAGES_LIMIT'],
    ['directorPromptTokens', MIN_PROMPT_TOKENS, MAX_PROMPT_TOKENS, 'MAX_PROMPT_TOKENS'],
    ['narratorPromptTokens', MIN_PROMPT_TOKENS, MAX_PROMPT_TOKENS, 'MAX_PROMPT_TOKENS'],
    ['npcPromptTokens', MIN_PROMPT_TOKENS, MAX_PROMPT_TOKENS, 'MAX_PROMPT_TOKENS'],
  ];
  for (const [key, min, max, name] of cases) {
    it(`accepts ${key} from ${min} to ${max} and refuses one past either end`, () => {
      expect(resolveTurnLimits({ [key]: min })).toMatchObject({ [key]: min });
      expect(resolveTurnLimits({ [key]: max })).toMatchObject({ [key]: max });
      expect(resolveTurnLimits({ [key]: max + 1 })).toEqual({
        error: `limits.${key} must be an integer from ${min} to ${max} (${name}), got ${max + 1}`,
      });
      expect(resolveTurnLimits({ [key]: min - 1 })).toHaveProperty('error');
      expect(resolveTurnLimits({ [key]: 2.5 })).toHaveProperty('error');
    });
  }
});

describe('turn limits in play', () => {
  it(`accepts input of MAX_INPUT_CHARS (${MAX_INPUT_CHARS}) characters and refuses one more`, async () => {
    const cartridge = await lanternmere();
    const base = { cartridge, state: initialState(cartridge), messages: [], seed: 1, models: null };
    // Words the offline matcher knows, padded to the length: input it cannot place spends no turn.
    const input = (length: number) => `check my pack ${'x'.repeat(length - 14)}`;
    const ok = await collect({ ...base, input: input(MAX_INPUT_CHARS) });
    expect(ok.record.input.text).toHaveLength(MAX_INPUT_CHARS);
    const { error } = await failure({ ...base, input: input(MAX_INPUT_CHARS + 1) });
    expect((error as TurnError).message).toMatch(/MAX_INPUT_CHARS/);
  });

  it('accepts tool arguments of MAX_TOOL_ARGS_CHARS characters and refuses one more', async () => {
    const cartridge = await lanternmere();
    const padded = (length: number) => {
      const head = '{"destination":"reedmaze"';
      return `${head}${' '.repeat(length - head.length - 1)}}`;
    };
    const models = scripted({
      director: [
        {
          text: DIRECTIVES,
          toolCalls: [
            { name: 'travel', rawArgs: padded(MAX_TOOL_ARGS_CHARS + 1) },
            { name: 'travel', rawArgs: padded(MAX_TOOL_ARGS_CHARS) },
          ],
        },
        { text: DIRECTIVES },
      ],
      narrator: [{ text: '.' }],
    });
    const { record } = await collect({
      cartridge,
      state: initialState(cartridge),
      messages: [],
      input: 'go',
      seed: 1,
      models,
    });
    expect(record.tools.map((t) => t.ok)).toEqual([false, true]);
    expect(record.tools[0]!.content).toMatch(/MAX_TOOL_ARGS_CHARS/);
  });

  it('keeps directives of MAX_DIRECTIVES_CHARS and cuts longer ones', async () => {
    const cartridge = await lanternmere();
    for (const [length, cut] of [
      [MAX_DIRECTIVES_CHARS, false],
      [MAX_DIRECTIVES_CHARS + 1, true],
    ] as const) {
      // Counting words, not one letter repeated: a run of one letter is a looping answer (text-calls.ts).
      const text = Array.from({ length }, (_, i) => String(i))
        .join('-')
        .slice(0, length);
      const models = scripted({ director: [{ text }], narrator: [{ text: '.' }] });
      const { record } = await collect({
        cartridge,
        state: initialState(cartridge),
        messages: [],
        input: 'x',
        seed: 1,
        models,
      });
      expect(record.directives).toHaveLength(MAX_DIRECTIVES_CHARS);
      expect(record.warnings.some((w) => w.includes('MAX_DIRECTIVES_CHARS'))).toBe(cut);
    }
  });

  it('keeps narration of MAX_NARRATION_CHARS and stops the stream past it', async () => {
    const cartridge = await lanternmere();
    for (const [length, cut] of [
      [MAX_NARRATION_CHARS, false],
      [MAX_NARRATION_CHARS + 1, true],
    ] as const) {
      const half = Math.floor(length / 2);
      const models = scripted({
        director: [{ text: DIRECTIVES }],
        narrator: [{ chunks: ['n'.repeat(half), 'n'.repeat(length - half)] }],
      });
      const { record } = await collect({
        cartridge,
        state: initialState(cartridge),
        messages: [],
        input: 'x',
        seed: 1,
        models,
      });
      expect(record.narration).toHaveLength(MAX_NARRATION_CHARS);
      expect(record.warnings.some((w) => w.includes('MAX_NARRATION_CHARS'))).toBe(cut);
    }
  });

  it('accepts MAX_PRESENT_NPCS characters in one query and refuses one more', async () => {
    const cartridge = await lanternmere();
    const query = (n: number) => ({
      name: 'query_npc_intent',
      args: { present_npcs: Array.from({ length: n }, (_, i) => ({ id: `n${i}` })), scene_context: 'crowd' },
    });
    const models = scripted({
      director: [{ toolCalls: [query(MAX_PRESENT_NPCS), query(MAX_PRESENT_NPCS + 1)] }, { text: DIRECTIVES }],
      narrator: [{ text: '.' }],
    });
    const { record } = await collect({
      cartridge,
      state: initialState(cartridge),
      messages: [],
      input: 'x',
      seed: 1,
      models,
    });
    expect(record.tools.map((t) => t.ok)).toEqual([true, false]);
    expect(record.tools[0]!.content).toMatch(/No qualifying NPCs/);
    expect(record.tools[1]!.content).toMatch(
      new RegExp(`has ${MAX_PRESENT_NPCS + 1} items; the limit is ${MAX_PRESENT_NPCS}`),
    );
    expect(models.npc.requests).toHaveLength(0);
  });

  it('sends a tool result of MAX_TOOL_RESULT_CHARS whole and cuts a longer one, saying so', () => {
    const overhead = JSON.stringify({ ok: true, s: '' }).length;
    const exact = toolOk({ s: 'x'.repeat(MAX_TOOL_RESULT_CHARS - overhead) }).content;
    expect(exact).toHaveLength(MAX_TOOL_RESULT_CHARS);
    expect(JSON.parse(exact).ok).toBe(true);
    const over = toolOk({ s: 'x'.repeat(MAX_TOOL_RESULT_CHARS - overhead + 1) }).content;
    expect(over.slice(0, MAX_TOOL_RESULT_CHARS - 2)).toBe(exact.slice(0, MAX_TOOL_RESULT_CHARS - 2));
    expect(over.length).toBeGreaterThan(MAX_TOOL_RESULT_CHARS);
    expect(over).toMatch(/\[cut at \d+ characters \(MAX_TOOL_RESULT_CHARS\)\]$/);
  });

  it('shows the Director and the Narrator at most historyMessages recent messages', async () => {
    const cartridge = await lanternmere();
    const messages = Array.from({ length: 6 }, (_, i) => ({
      role: i % 2 ? ('assistant' as const) : ('user' as const),
      content: `m${i}`,
    }));
    const models = scripted({ director: [{ text: DIRECTIVES }], narrator: [{ text: '.' }] });
    await collect({
      cartridge,
      state: initialState(cartridge),
      messages,
      input: 'now',
      seed: 1,
      models,
      limits: { historyMessages: 2 },
    });
    // The history, then the final message: the volatile context and the player's words.
    for (const request of [models.director.requests[0]!, models.narrator.requests[0]!]) {
      expect(request.messages.slice(0, -1).map((m) => m.content)).toEqual(['m4', 'm5']);
      expect(request.messages.at(-1)!.content.endsWith('now')).toBe(true);
    }
  });
});

describe('more fixed limits', () => {
  it('accepts MAX_TIME_ADVANCE_SECONDS in one turn and refuses a second more, summed over calls', async () => {
    const cartridge = await lanternmere();
    const half = MAX_TIME_ADVANCE_SECONDS / 2;
    const models = scripted({
      director: [
        {
          text: DIRECTIVES,
          toolCalls: [
            { name: 'advance_game_time', args: { duration: `PT${half}S` } },
            { name: 'advance_game_time', args: { duration: `PT${half}S` } },
            { name: 'advance_game_time', args: { duration: 'PT1S' } },
          ],
        },
        { text: DIRECTIVES },
      ],
      narrator: [{ text: '.' }],
    });
    const { record } = await collect({
      cartridge,
      state: initialState(cartridge),
      messages: [],
      input: 'sleep',
      seed: 1,
      models,
    });
    expect(record.tools.map((t) => t.ok)).toEqual([true, true, false]);
    expect(record.tools[2]!.content).toMatch(/MAX_TIME_ADVANCE_SECONDS/);
    expect(record.time.advancedSeconds).toBe(MAX_TIME_ADVANCE_SECONDS);
  });

  it('accepts the largest seed (MAX_SEED) and refuses one past it', async () => {
    const cartridge = await lanternmere();
    const base = { cartridge, state: initialState(cartridge), messages: [], input: '/attack', models: null };
    expect((await collect({ ...base, seed: MAX_SEED })).record.seed).toBe(MAX_SEED);
    const { error } = await failure({ ...base, seed: MAX_SEED + 1 });
    expect((error as TurnError).message).toMatch(/MAX_SEED/);
  });

  it(`accepts a minigame_id and metric strings of MAX_INTERACTION_STRING_CHARS and refuses longer`, () => {
    const at = 'x'.repeat(MAX_INTERACTION_STRING_CHARS);
    const past = `${at}x`;
    expect(checkInteractionInput({ minigame_id: at, status: 'completed', metrics: { rank: at } }).ok).toBe(
      true,
    );
    expect(checkInteractionInput({ minigame_id: past, status: 'completed' })).toMatchObject({ ok: false });
    const metric = checkInteractionInput({ minigame_id: 'a', status: 'completed', metrics: { rank: past } });
    expect(metric.ok ? '' : metric.message).toMatch(/MAX_INTERACTION_STRING_CHARS/);
  });

  it(`accepts MAX_NPC_TAGS tags and history_turns of MAX_NPC_HISTORY_TURNS, refusing one more`, async () => {
    const schema = directorTools(await lanternmere()).byName.get('query_npc_intent')!.spec.inputSchema;
    const query = (tags: number, history: number) => ({
      present_npcs: [{ id: 'a', tags: Array.from({ length: tags }, (_, i) => `t${i}`) }],
      scene_context: 's',
      history_turns: history,
    });
    expect(checkArgs(schema, query(MAX_NPC_TAGS, MAX_NPC_HISTORY_TURNS)).ok).toBe(true);
    expect(checkArgs(schema, query(MAX_NPC_TAGS + 1, 0)).ok).toBe(false);
    expect(checkArgs(schema, query(0, MAX_NPC_HISTORY_TURNS + 1)).ok).toBe(false);
  });

  it('accepts NPC answers with fields of MAX_NPC_FIELD_CHARS and refuses longer ones', async () => {
    const cartridge = await lanternmere();
    for (const [length, ok] of [
      [MAX_NPC_FIELD_CHARS, true],
      [MAX_NPC_FIELD_CHARS + 1, false],
    ] as const) {
      const intent = {
        npc_id: 'mother_hesk',
        dialogue: 'd'.repeat(length),
        action_intent: 'a',
        internal_monologue: 'm',
      };
      const models = scripted({
        director: [
          {
            toolCalls: [
              {
                name: 'query_npc_intent',
                args: { present_npcs: [{ id: 'mother_hesk' }], scene_context: 's' },
              },
            ],
          },
          { text: DIRECTIVES },
        ],
        npc: [{ toolCalls: [{ name: 'npc_intents', args: { intents: [intent] } }] }],
        narrator: [{ text: '.' }],
      });
      const { record } = await collect({
        cartridge,
        state: initialState(cartridge),
        messages: [],
        input: 'hi',
        seed: 1,
        models,
      });
      expect(record.tools[0]!.ok).toBe(ok);
    }
  });
});
