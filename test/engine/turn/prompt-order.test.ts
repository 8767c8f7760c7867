// Stable first, volatile last, over consecutive turns: each role's request is the previous
// turn's system prompt, tools and history with the new story messages appended, and everything that
// changes from turn to turn (state, time, notes, directives, the player's words) is in the final message.
// The history's start moves only in whole steps, also when long narrations overflow a role's token cap.
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ModelRequest } from '../../../src/adapters/llm/types.ts';
import { DIRECTOR_HISTORY_TOKENS } from '../../../src/engine/turn/director.ts';
import type { GameState, StoryMessage } from '../../../src/engine/turn/types.ts';
import { collect, initialState, lanternmere, scripted } from './helpers.ts';

const DIRECTIVES = '### 1. Outcomes\nThe player checks the pack.\n### 3. Scene\nFog over the water.';

/** The messages as a provider reads them (the engine's cache-breakpoint flag is not content). */
const content = (messages: readonly ChatMessage[]): unknown[] =>
  messages.map((m) => {
    const { cacheBreakpoint: _flag, ...rest } = m as ChatMessage & { cacheBreakpoint?: boolean };
    return rest;
  });

async function play(turns: number, narration: (turn: number) => string) {
  const cartridge = await lanternmere();
  let state: GameState = initialState(cartridge);
  const messages: StoryMessage[] = [{ role: 'assistant', content: cartridge.firstMessage ?? 'Welcome.' }];
  const requests: Array<{ director: ModelRequest; narrator: ModelRequest; input: string }> = [];
  for (let t = 1; t <= turns; t++) {
    const models = scripted({
      director: [{ text: DIRECTIVES, toolCalls: [{ name: 'check_pack', args: {} }] }],
      narrator: [{ text: narration(t) }],
    });
    const input = `I check my pack again (${t})`;
    const { record } = await collect({ cartridge, state, messages, input, seed: t, models, ledgerTurn: t });
    expect(models.calls.map((c) => c.role)).toEqual(['director', 'narrator']);
    requests.push({ director: models.director.requests[0]!, narrator: models.narrator.requests[0]!, input });
    state = record.stateAfter;
    messages.push(...record.messages);
  }
  return requests;
}

/** Turns (2-based) whose request does not start with the previous request minus its final message. */
function breaks(requests: readonly ModelRequest[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < requests.length; i++) {
    const before = content(requests[i - 1]!.messages.slice(0, -1));
    const now = content(requests[i]!.messages);
    const prefix = now.slice(0, before.length);
    if (JSON.stringify(prefix) !== JSON.stringify(before)) out.push(i + 1);
  }
  return out;
}

describe('prompt order across turns', () => {
  it('keeps system, tools and history byte-identical and puts the volatile context in the final message', async () => {
    const requests = await play(10, (t) => `Turn ${t}: you open the pack by lamplight. `.repeat(3));
    for (const role of ['director', 'narrator'] as const) {
      const mine = requests.map((r) => r[role]);
      for (const request of mine) {
        expect(request.system).toBe(mine[0]!.system);
        expect(JSON.stringify(request.tools)).toBe(JSON.stringify(mine[0]!.tools));
        // Nothing volatile before the history: no state in the system prompt or in a history message.
        expect(request.system).not.toMatch(/GAME STATE|ENGINE NOTES|THE PLAYER NOW/);
        for (const message of request.messages.slice(0, -1))
          expect(message.content).not.toMatch(/GAME STATE|ENGINE NOTES|THE PLAYER NOW/);
      }
      requests.forEach((r, i) => {
        const final = r[role].messages.at(-1)!;
        expect(final.role).toBe('user');
        expect(final.content).toMatch(role === 'director' ? /FULL GAME STATE/ : /PUBLIC GAME STATE/);
        expect(final.content.endsWith(`--- THE PLAYER NOW ---\n${r.input}`)).toBe(true);
        // The cache breakpoint marks the end of the history, never the volatile final message.
        const flagged = r[role].messages.flatMap((m, j) => ('cacheBreakpoint' in m ? [j] : []));
        expect(flagged).toEqual([r[role].messages.length - 2]);
        if (role === 'narrator') expect(final.content).toContain(`I check my pack again (${i + 1})`);
      });
      // 1 greeting + 2 messages a turn, window 12 moving in steps of 6: the history's start moves every
      // third turn (turns 7 and 10, when the story reaches 13 and 19 messages); other turns only append.
      expect(breaks(mine)).toEqual([7, 10]);
    }
  });

  it('leaves the clock block out of the first Director call while the state (with game_time) is whole', async () => {
    const [first] = await play(1, () => 'You rummage.');
    const final = first!.director.messages.at(-1)!.content;
    expect(final).toContain('"game_time":"');
    expect(final).not.toContain('IN-GAME TIME');
  });

  it('shows the clock block once time moved this turn (a later Director round)', async () => {
    const cartridge = await lanternmere();
    const models = scripted({
      director: [
        {
          toolCalls: [
            { name: 'lore_lookup', args: { queries: ['reedmaze'] } },
            { name: 'travel', args: { destination: 'brine market', engine_time_delta: 'PT20M' } },
          ],
        },
        { text: DIRECTIVES },
      ],
      narrator: [{ text: 'You cross the plank-ways.' }],
    });
    await collect({
      cartridge,
      state: initialState(cartridge),
      messages: [],
      input: 'to market',
      seed: 3,
      models,
    });
    const [first, second] = models.director.requests.map((r) => r.messages.find((m) => m.role === 'user')!);
    expect(first!.content).not.toContain('IN-GAME TIME');
    expect(second!.content).toContain('--- IN-GAME TIME ---');
    expect(second!.content).toContain('time accepted so far this turn: 1200 seconds');
  });

  it('moves the history start in whole steps when long narrations overflow the token cap', async () => {
    // Each narration is 1,600 characters (400 tokens): five fill the Director's 2,000-token cap, so without
    // steps the oldest message would drop every turn and no turn would reuse the previous history.
    const long = (t: number) =>
      `Turn ${String(t).padStart(2, '0')}. ${'The fog presses at the shutters. '.repeat(48)}`;
    expect(long(1).length).toBeGreaterThan(1_580);
    expect(DIRECTOR_HISTORY_TOKENS).toBe(2_000);
    const requests = await play(14, long);
    for (const role of ['director', 'narrator'] as const) {
      const broken = breaks(requests.map((r) => r[role]));
      // Turns 2–14: the start moves when the window or the token cap pushes it to the next step, four
      // times in 13 turns (one message a turn, the start would move on every turn from the 4th on).
      expect(broken).toEqual([6, 8, 11, 14]);
      for (const r of requests) {
        const history = r[role].messages.slice(0, -1);
        const tokens = history.reduce((n, m) => n + Math.ceil(m.content.length / 4) + 1, 0);
        expect(tokens).toBeLessThanOrEqual(DIRECTOR_HISTORY_TOKENS);
      }
    }
  });
});
