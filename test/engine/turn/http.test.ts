// Turns against the fake OpenAI-compatible server: real HTTP, real SSE, through the model layer's
// openai-compatible provider (retries, timeouts and tool-call parsing included).
import { afterEach, describe, expect, it } from 'vitest';
import { resolveModelConfig } from '../../../src/adapters/llm/config.ts';
import type { ModelError } from '../../../src/adapters/llm/errors.ts';
import { createModels } from '../../../src/adapters/llm/providers.ts';
import type { RetryPolicy } from '../../../src/adapters/llm/retry.ts';
import type { ModelSet } from '../../../src/adapters/llm/types.ts';
import { TurnError } from '../../../src/engine/turn/errors.ts';
import type { TurnOptions } from '../../../src/engine/turn/types.ts';
import {
  type FakeHandler,
  type FakeOpenAI,
  type FakeReply,
  startFakeOpenAI,
} from '../../helpers/fake-openai-server.ts';
import { collect, failure, initialState, lanternmere, type Loose } from './helpers.ts';

const FAST: RetryPolicy = {
  timeoutMs: 5_000,
  maxRetries: 2,
  backoffInitialMs: 1,
  backoffFactor: 2,
  backoffMaxMs: 5,
};
const DIRECTIVES = '### 1. Outcomes\nThe player moves on.';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function modelsFor(
  script: FakeReply[] | FakeHandler,
  policy: Partial<RetryPolicy> = {},
): Promise<ModelSet> {
  fake = await startFakeOpenAI(script);
  const config = resolveModelConfig({ MNESOS_LLM_BASE_URL: fake.url, MNESOS_MODEL: 'test-model' });
  if (config.provider === 'offline') throw new Error('expected an online config');
  const models = createModels({ ...config, retry: { ...FAST, ...policy } });
  if (models === null) throw new Error('expected models');
  return models;
}

async function options(models: ModelSet, input = 'I go to the reedmaze'): Promise<TurnOptions> {
  const cartridge = await lanternmere();
  return { cartridge, state: initialState(cartridge), messages: [], input, seed: 1, models };
}

const travel = (style: 'openai' | 'ollama'): Extract<FakeReply, { kind: 'tool-calls' }> => ({
  kind: 'tool-calls',
  text: DIRECTIVES,
  style,
  fragmentSize: 5,
  calls: [
    { id: 'call_1', name: 'travel', arguments: { destination: 'reedmaze', engine_time_delta: 'PT10M' } },
  ],
});

describe('a turn over HTTP', () => {
  it('streams the narration as it arrives and runs the Director over SSE', async () => {
    const models = await modelsFor([
      { kind: 'text', text: DIRECTIVES },
      { kind: 'text', text: 'Mist curls around you.', chunks: ['Mist ', 'curls ', 'around you.'] },
    ]);
    const { events, record } = await collect(await options(models, 'I look around'));
    expect(
      events.filter((e) => e.type === 'narration_delta').map((e) => (e as { text: string }).text),
    ).toEqual(['Mist ', 'curls ', 'around you.']);
    expect(record.narration).toBe('Mist curls around you.');
    expect(record.directives).toBe(DIRECTIVES);
    const bodies = fake!.chatRequests();
    expect(bodies).toHaveLength(2);
    expect(bodies.every((b) => b.stream === true)).toBe(true);
    expect(Array.isArray(bodies[0]!.tools)).toBe(true);
    // The Narrator is offered one tool only: record_world_changes, for the world ledger (inline mode).
    expect((bodies[1]!.tools as Loose[]).map((t) => t.function.name)).toEqual(['record_world_changes']);
  });

  for (const style of ['openai', 'ollama'] as const) {
    it(`runs tool calls streamed in the ${style} shape`, async () => {
      const models = await modelsFor([travel(style), { kind: 'text', text: 'Reeds close behind you.' }]);
      const { record } = await collect(await options(models));
      expect(record.tools.map((t) => [t.name, t.ok])).toEqual([['travel', true]]);
      expect((record.stateAfter as Loose).player.location).toBe('reedmaze');
      // The turn's own 10 minutes plus the hour's walk from the Tallow Rest out to the reedmaze.
      expect(record.time.advancedSeconds).toBe(600 + 3600);
      expect(fake!.chatRequests()).toHaveLength(2); // two model calls: Director, Narrator
    });
  }

  it('retries a 500 and then succeeds', async () => {
    const models = await modelsFor([
      { kind: 'error', status: 500, message: 'try again' },
      travel('openai'),
      { kind: 'text', text: 'You arrive.' },
    ]);
    const { record } = await collect(await options(models));
    expect(fake!.chatRequests()).toHaveLength(3);
    expect(record.narration).toBe('You arrive.');
    expect(record.usage.director.calls).toBe(1);
  });

  it('fails with kind model (cause: a timeout) when the server never answers', async () => {
    const models = await modelsFor([{ kind: 'hang' }], { timeoutMs: 100, maxRetries: 0 });
    const { events, error } = await failure(await options(models));
    expect(error).toBeInstanceOf(TurnError);
    expect((error as TurnError).kind).toBe('model');
    expect(((error as TurnError).cause as ModelError).kind).toBe('timeout');
    expect(events.at(-1)).toMatchObject({ type: 'error', kind: 'model' });
    expect(events.some((e) => e.type === 'done')).toBe(false);
  });

  it('returns malformed tool-call JSON and an unknown tool to the Director as errors, and goes on', async () => {
    const models = await modelsFor([
      {
        kind: 'tool-calls',
        calls: [
          { id: 'bad', name: 'travel', arguments: '{"destination": "reedm' },
          { id: 'nope', name: 'teleport', arguments: { to: 'anywhere' } },
        ],
      },
      { kind: 'text', text: DIRECTIVES },
      { kind: 'text', text: 'You stay.' },
    ]);
    const { record } = await collect(await options(models));
    expect(record.tools.map((t) => [t.name, t.ok])).toEqual([
      ['travel', false],
      ['teleport', false],
    ]);
    expect(record.tools[0]!.content).toMatch(/not valid JSON/);
    expect(record.tools[1]!.content).toMatch(/no tool named \\"teleport\\"/);
    expect((record.stateAfter as Loose).player.location).toBe('tallow rest');
    // The Director's second request carried both errors back as tool results.
    const second = fake!.chatRequests()[1]!.messages as { role: string; content: string }[];
    expect(second.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content).ok)).toEqual([
      false,
      false,
    ]);
    expect(record.narration).toBe('You stay.');
  });

  it('ends a tool loop that never stops at the round limit and still narrates', async () => {
    const models = await modelsFor((request) => {
      const body = request.body as Loose;
      return body.tools
        ? { kind: 'tool-calls', calls: [{ name: 'lore_lookup', arguments: { queries: ['reeds'] } }] }
        : { kind: 'text', text: 'You give up counting.' };
    });
    // The world ledger is off so that only the Director's requests carry tools.
    const { record } = await collect({
      ...(await options(models)),
      limits: { maxToolRounds: 2 },
      ledgerMode: 'off',
    });
    expect(fake!.chatRequests().filter((b) => b.tools)).toHaveLength(2);
    expect(record.directorStop).toBe('round-limit');
    expect(record.narration).toBe('You give up counting.');
  });

  it('reports usage per role, cached tokens included', async () => {
    const models = await modelsFor([
      { ...travel('openai'), usage: { prompt_tokens: 1200, completion_tokens: 30, cached_tokens: 1000 } },
      { kind: 'text', text: 'On.', usage: { prompt_tokens: 400, completion_tokens: 2 } },
    ]);
    const { record } = await collect(await options(models));
    expect(record.usage.director).toEqual({
      calls: 1,
      inputTokens: 1200,
      outputTokens: 30,
      cachedInputTokens: 1000,
    });
    expect(record.usage.narrator).toEqual({
      calls: 1,
      inputTokens: 400,
      outputTokens: 2,
      cachedInputTokens: 0,
    });
    // The id the server says answered (it may differ from the one asked for, e.g. behind a router).
    expect(record.models).toEqual({ director: 'fake-model', narrator: 'fake-model' });
  });
});
