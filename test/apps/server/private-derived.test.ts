// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are read loosely; each test asserts the fields it needs.
// The planted secret of test/fixtures/cartridges/dial-secret (`dial.code`, private) copied by the rules through
// a temp, a loop item, a call's argument, text built from it and a macro, over the real HTTP server: another
// key playing the uploader's public cartridge over `/v1/turn` and over a session (prose and the outcome under
// it), and the OpenAI-compatible endpoint offline and with a model behind a fake OpenAI-compatible server
// (the prose, the details block, and the Narrator's prompt as the model server received it).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModelConfig } from '../../../src/adapters/llm/config.ts';
import { createModels } from '../../../src/adapters/llm/providers.ts';
import { parseApiKeys } from '../../../src/apps/server/auth.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';
import { FIXTURES } from '../../engine/turn/helpers.ts';
import { DERIVED_PATHS, SECRET } from '../../engine/turn/private-derived-fixture.ts';
import { zip } from './archives.ts';
import { KEY_A, KEY_B, startTestServer, type TestServer } from './helpers.ts';

const SECRET_DIGITS = SECRET.slice(-4);
const DIR = join(FIXTURES, 'dial-secret');
const files = ['yare.yaml', 'bot_lore.md'].map((name) => ({
  name: `dial-secret/${name}`,
  data: readFileSync(join(DIR, name), 'utf8'),
}));

describe('another key plays the public cartridge', () => {
  let server: TestServer;
  let versionId: string;
  beforeAll(async () => {
    server = await startTestServer({ apiKeys: parseApiKeys(`alice=${KEY_A},bob=${KEY_B}`) });
    const uploaded = await server.json('/v1/cartridges', {
      method: 'POST',
      headers: { 'content-type': 'application/zip' },
      body: Buffer.from(zip(files)),
      key: KEY_A,
    });
    expect(uploaded.status).toBe(201);
    versionId = uploaded.body.version.id;
    const id = (await server.json('/v1/cartridges/Dial%20Secret', { key: KEY_A })).body.cartridge.id;
    const made = await server.json(`/v1/cartridges/${id}`, {
      method: 'PATCH',
      json: { visibility: 'public' },
      key: KEY_A,
    });
    expect(made.body.cartridge.visibility).toBe('public');
  });
  afterAll(() => server.stop());

  it.each(DERIVED_PATHS)('POST /v1/turn %s: the public sentence, never the secret', async (event, told) => {
    const turn = await server.json('/v1/turn', {
      method: 'POST',
      json: { cartridge: versionId, input: `/${event}` },
      key: KEY_B,
    });
    expect(turn.status).toBe(200);
    expect(turn.body.view).toBe('public');
    expect(turn.body.narration).toContain(told);
    expect(JSON.stringify(turn.body)).not.toContain(SECRET_DIGITS);
  });

  // Generated ids are random hex and may hold "3d5" by chance: the secret is looked for in everything else.
  const withoutIds = (value: unknown) =>
    JSON.stringify(value).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>');

  it('a session turn: prose and outcome show the dice total, not the dice read from the secret', async () => {
    const started = await server.json('/v1/sessions', {
      method: 'POST',
      json: { cartridge: versionId },
      key: KEY_B,
    });
    expect(started.status).toBe(201);
    const turn = await server.json(`/v1/sessions/${started.body.session.id}/turns`, {
      method: 'POST',
      json: { input: '/via_dice' },
      key: KEY_B,
    });
    expect(turn.status).toBe(201);
    const shown = turn.body.turn;
    expect(shown.outcome.rolls).toHaveLength(1);
    const { total } = shown.outcome.rolls[0];
    expect(shown.outcome.rolls[0]).toEqual(expect.objectContaining({ dice: null, faces: null, total }));
    expect(JSON.stringify(shown.outcome.rolls)).not.toContain('3d5');
    expect(shown.narration).toContain(`The dial spins to ${total}.`);
    expect(withoutIds(turn.body)).not.toContain('3d5');
    // Read back later, the stored turn says the same.
    const again = await server.json(`/v1/sessions/${started.body.session.id}`, { key: KEY_B });
    expect(withoutIds(again.body)).not.toContain('3d5');
  });
});

describe('the OpenAI-compatible endpoint', () => {
  let offline: TestServer;
  let online: TestServer;
  let fake: FakeOpenAI;
  /** The event the fake Director calls next. */
  let calling = 'via_temp';
  beforeAll(async () => {
    offline = await startTestServer({ cartridgeDirs: [DIR] });
    fake = await startFakeOpenAI((request) =>
      JSON.stringify(request.body ?? {}).includes('You are the Narrator')
        ? { kind: 'text', text: 'The dial turns under your fingers.' }
        : { kind: 'tool-calls', text: 'Describe the dial.', calls: [{ name: calling, arguments: {} }] },
    );
    const config = loadModelConfig({
      MNESOS_LLM_BASE_URL: fake.url,
      MNESOS_MODEL: 'fake-model',
      MNESOS_LLM_API_KEY: 'test',
    });
    online = await startTestServer({
      cartridgeDirs: [DIR],
      models: () => createModels(config),
      modelMode: 'online',
    });
  });
  afterAll(async () => {
    await offline?.stop();
    await online?.stop();
    await fake?.close();
  });

  const client = (s: TestServer) =>
    new OpenAI({ baseURL: `${s.url}/openai/v1`, apiKey: 'unused-in-local-mode', maxRetries: 0 });

  it.each(DERIVED_PATHS)(
    'offline %s: the reply and its details block never show the secret',
    async (event, told) => {
      const reply = await client(offline).chat.completions.create({
        model: 'Dial Secret',
        messages: [{ role: 'user', content: `/${event}` }],
        // @ts-expect-error the endpoint's own extension: the turn's public outcome after the prose
        mnesos_details: true,
      });
      const content = reply.choices[0]!.message.content ?? '';
      expect(content).toContain(told);
      expect(content).toContain('[MnesOS');
      expect(content).not.toContain(SECRET_DIGITS);
    },
  );

  it.each(DERIVED_PATHS)('with a model %s: the Narrator’s prompt hides the value', async (event, told) => {
    calling = event;
    const before = fake.chatRequests().length;
    const reply = await client(online).chat.completions.create({
      model: 'Dial Secret',
      messages: [{ role: 'user', content: `I turn the dial (${event})` }],
    });
    expect(reply.choices[0]!.message.content).toContain('The dial turns under your fingers.');
    const sent = fake
      .chatRequests()
      .slice(before)
      .map((body) => JSON.stringify(body));
    const narrator = sent.filter((text) => text.includes('You are the Narrator'));
    const director = sent.filter((text) => !text.includes('You are the Narrator'));
    expect(narrator).toHaveLength(1);
    expect(director.join('\n')).toContain(SECRET); // the Director sees private state
    expect(narrator[0]).toContain(told);
    expect(narrator[0]).toContain('(hidden)');
    expect(narrator[0]).not.toContain(SECRET_DIGITS);
  });
});
