// Streaming over real HTTP: the typed events of a turn as Server-Sent Events with ids, the same turn as one
// JSON answer, reconnecting after a lost stream (the committed turn, and its events after Last-Event-ID),
// a client that disconnects mid-stream (the model call is cancelled and nothing is committed), errors as
// the stream's last event, and a "real" model behind an OpenAI-compatible HTTP endpoint.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModelConfig } from '../../../src/adapters/llm/config.ts';
import { createModels } from '../../../src/adapters/llm/providers.ts';
import { createScriptedModels } from '../../../src/adapters/llm/scripted.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';
import { newSession, parseSse, readSse, startTestServer, type TestServer } from './helpers.ts';

const SSE = { accept: 'text/event-stream' };

describe('SSE turns (offline)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('streams start, phases, tool events, narration and committed, each with an increasing id', async () => {
    const { id } = await newSession(server);
    const response = await server.call(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      headers: SSE,
      json: { input: '/travel brine market' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('x-mnesos-model-mode')).toBe('offline');
    const events = await readSse(response);
    const names = events.map((e) => e.event);
    expect(names[0]).toBe('start');
    expect(names.at(-1)).toBe('committed');
    expect(names).toContain('tool_call');
    expect(names).toContain('narration');
    const turnId = events[0]!.data.turnId as string;
    expect(events.map((e) => e.id)).toEqual(events.map((_, seq) => `${turnId}:${seq}`));
    const committed = events.at(-1)!.data.turn;
    expect(committed.id).toBe(turnId);
    expect(committed.state.player.location).toBe('brine market');
    // The player view: no private fields, no tool arguments.
    expect(committed.state.player.armor).toBeUndefined();
    expect(events.find((e) => e.event === 'tool_call')!.data.args).toBeUndefined();
    // Offline is said by the header (x-mnesos-model-mode above), not inside the story.
    // The note, then one sentence (chosen by the turn's seed) of the lore's Brine Market section.
    expect(committed.narration).toMatch(
      /^The player walks the plank-ways to the Brine Market; it is evening when they arrive\. (A ring of barges lashed together and roofed with sailcloth|Salt, eel, lamp oil, candles and whatever the water gives up change hands here|The Eel Syndicate sets the prices, and nobody argues with the Syndicate for long)\.$/,
    );
  });

  it('reconnect: the committed turn as JSON, and its events after Last-Event-ID', async () => {
    const { id } = await newSession(server);
    const events = await readSse(
      await server.call(`/v1/sessions/${id}/turns`, {
        method: 'POST',
        headers: SSE,
        json: { input: '/check_pack' },
      }),
    );
    const turnId = events[0]!.data.turnId as string;
    const json = await server.json(`/v1/sessions/${id}/turns/${turnId}`);
    expect(json.status).toBe(200);
    expect(json.body.turn.narration).toBe(events.at(-1)!.data.turn.narration);
    const rest = await readSse(
      await server.call(`/v1/sessions/${id}/turns/${turnId}`, {
        headers: { ...SSE, 'last-event-id': `${turnId}:1` },
      }),
    );
    expect(rest[0]!.id).toBe(`${turnId}:2`);
    expect(rest.at(-1)!.event).toBe('committed');
    const all = await readSse(await server.call(`/v1/sessions/${id}/turns/${turnId}`, { headers: SSE }));
    expect(all[0]!.event).toBe('start');
    expect(all.length).toBe(rest.length + 2);
    // A turn that never committed is not found.
    expect((await server.call(`/v1/sessions/${id}/turns/00000000-0000-0000-0000-000000000000`)).status).toBe(
      404,
    );
  });

  it('a refused input ends the stream with one error event and commits nothing', async () => {
    const { id } = await newSession(server);
    const response = await server.call(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      headers: SSE,
      json: { interaction: { minigame_id: 'lights_out', status: 'completed' } },
    });
    const events = await readSse(response);
    expect(events.at(-1)!.event).toBe('error');
    expect(events.at(-1)!.data.status).toBe(422);
    expect(events.filter((e) => e.event === 'error')).toHaveLength(1);
    expect((await server.store.listTree(id)).length).toBe(1);
  });
});

describe('SSE disconnect', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      models: () =>
        createScriptedModels({
          director: [{ text: 'The bell tolls.', delayMs: 10_000 }],
          narrator: [{ text: 'never' }],
        }),
    });
  });
  afterAll(() => server.stop());

  it('a client that disconnects mid-stream aborts the model call and commits nothing', async () => {
    const { id } = await newSession(server);
    const controller = new AbortController();
    const response = await server.call(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      headers: SSE,
      json: { input: 'ring the bell' },
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(parseSse(first)[0]!.event).toBe('start');
    controller.abort();
    // The scripted Director would answer after 10 s; the turn must end long before that.
    const started = Date.now();
    while (server.deps.service.turnsInFlight > 0 && Date.now() - started < 5_000)
      await new Promise((r) => setTimeout(r, 20));
    expect(server.deps.service.turnsInFlight).toBe(0);
    expect((await server.store.listTree(id)).length).toBe(1);
    expect(server.deps.metrics.turns.get({ outcome: 'aborted' })).toBe(1);
    // The session is free again.
    const head = await server.json(`/v1/sessions/${id}`);
    expect(head.body.session.turnCount).toBe(1);
  });
});

describe('SSE with a model behind OpenAI-compatible HTTP', () => {
  let fake: FakeOpenAI;
  let server: TestServer;
  beforeAll(async () => {
    fake = await startFakeOpenAI((request) =>
      request.body && JSON.stringify(request.body).includes('You are the Narrator')
        ? {
            kind: 'text',
            text: 'Mist curls around the lamps.',
            chunks: ['Mist curls ', 'around ', 'the lamps.'],
          }
        : { kind: 'text', text: 'A quiet evening. Narrate the mist.' },
    );
    const config = loadModelConfig({
      MNESOS_LLM_BASE_URL: fake.url,
      MNESOS_MODEL: 'fake-model',
      MNESOS_LLM_API_KEY: 'test',
    });
    server = await startTestServer({ models: () => createModels(config), modelMode: 'online' });
  });
  afterAll(async () => {
    await server.stop();
    await fake.close();
  });

  it('streams the narration deltas as they arrive and records usage in the metrics', async () => {
    const { id } = await newSession(server);
    const events = await readSse(
      await server.call(`/v1/sessions/${id}/turns`, {
        method: 'POST',
        headers: SSE,
        json: { input: 'I watch the lamps' },
      }),
    );
    const narration = events.filter((e) => e.event === 'narration').map((e) => e.data.text);
    expect(narration).toEqual(['Mist curls ', 'around ', 'the lamps.']);
    expect(events.at(-1)!.data.turn.narration).toBe('Mist curls around the lamps.');
    expect(events.at(-1)!.data.turn.mode).toBe('online');
    const metrics = await (await server.call('/metrics')).text();
    expect(metrics).toMatch(/mnesos_model_call_duration_seconds_count\{role="narrator"\} 1/);
    expect(metrics).toMatch(/mnesos_model_tokens_total\{role="narrator",kind="output"\} \d+/);
    expect(metrics).toMatch(/mnesos_turns_total\{outcome="committed"\} 1/);
  });
});
