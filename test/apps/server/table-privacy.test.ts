// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are read loosely; each test asserts the fields it needs.
// Each player sees what their character knows, over the real HTTP server with a model behind a fake
// OpenAI-compatible server (test/fixtures/cartridges/two-seats: `hero` per character, with a private field).
// Alice plants two secrets: a private field of her own character (`hero.secret`) and a whisper to the game
// master whose prose names a token. Then every path is read as Bob, the other player: his live stream (open
// while Alice played), his history, the state view, each turn with its replayed events and children, the
// table view, the prompts of his own turn as the model server received them, and the OpenAI-compatible
// endpoint (naming the table's session, and his own chat). None shows either secret; Alice's own reads do.

import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModelConfig } from '../../../src/adapters/llm/config.ts';
import { createModels } from '../../../src/adapters/llm/providers.ts';
import { parseApiKeys } from '../../../src/apps/server/auth.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';
import { FIXTURES } from '../../engine/turn/helpers.ts';
import { KEY_A, KEY_B, parseSse, startTestServer, type TestServer } from './helpers.ts';
import { type LiveReader, openLive } from './live-client.ts';

const FIELD_SECRET = 'VIOLET-7731-ALICE';
const WHISPER_WORDS = 'I scratch CINDER-0420 under the stone';
const WHISPER_PROSE = 'The mark CINDER-0420-PROSE hides under the moss.';
const SECRETS = ['VIOLET-7731', 'CINDER-0420'];

function lastUserText(body: any): string {
  const user = [...(body.messages ?? [])].reverse().find((m: any) => m.role === 'user');
  return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content ?? '');
}

/** The fake model: the Narrator tells the whisper's token back; the Director maps the player's words. */
function reply(request: any) {
  const body = request.body ?? {};
  const text = JSON.stringify(body);
  if (text.includes('You are the Narrator'))
    return text.includes('CINDER-0420') && !text.includes('CINDER-0420-PROSE')
      ? { kind: 'text' as const, text: WHISPER_PROSE }
      : { kind: 'text' as const, text: 'The river runs on.' };
  const said = lastUserText(body);
  if (said.includes('hide'))
    return {
      kind: 'tool-calls' as const,
      calls: [{ name: 'hide_secret', arguments: { word: FIELD_SECRET } }],
    };
  if (said.includes('scratch'))
    return { kind: 'tool-calls' as const, calls: [{ name: 'light_fire', arguments: {} }] };
  return { kind: 'tool-calls' as const, calls: [{ name: 'find_gold', arguments: {} }] };
}

const clean = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  for (const secret of SECRETS) expect(text).not.toContain(secret);
};

describe('two players, two secrets, every path read as the other player', () => {
  let fake: FakeOpenAI;
  let server: TestServer;
  let sessionId: string;
  let bobLive: LiveReader;
  let whisperId: string;
  beforeAll(async () => {
    fake = await startFakeOpenAI(reply);
    const config = loadModelConfig({
      MNESOS_LLM_BASE_URL: fake.url,
      MNESOS_MODEL: 'fake-model',
      MNESOS_LLM_API_KEY: 'test',
    });
    server = await startTestServer({
      apiKeys: parseApiKeys(`alice=${KEY_A},bob=${KEY_B}`),
      cartridgeDirs: [join(FIXTURES, 'two-seats')],
      models: () => createModels(config),
      modelMode: 'online',
    });
    sessionId = (
      await server.json('/v1/sessions', { method: 'POST', json: { cartridge: 'Two Seats' }, key: KEY_A })
    ).body.session.id;
    const code = (
      await server.json(`/v1/sessions/${sessionId}/invites`, { method: 'POST', json: {}, key: KEY_A })
    ).body.invite.code;
    expect(
      (await server.json(`/v1/invites/${code}/join`, { method: 'POST', json: {}, key: KEY_B })).status,
    ).toBe(200);
    bobLive = await openLive(server.url, sessionId, { key: KEY_B });
    await bobLive.next((e) => e.event === 'hello');
    const play = (key: string, body: unknown) =>
      server.json(`/v1/sessions/${sessionId}/turns`, { method: 'POST', json: body, key });
    expect((await play(KEY_A, { input: 'I hide my word in my boot' })).status).toBe(201);
    const whisper = await play(KEY_A, { input: WHISPER_WORDS, whisper: true });
    expect(whisper.status).toBe(201);
    expect(whisper.body.turn.narration).toBe(WHISPER_PROSE);
    whisperId = whisper.body.turn.id;
    await bobLive.next((e) => e.event === 'turn' && e.data.turn.id === whisperId);
  }, 60_000);
  afterAll(async () => {
    bobLive?.close();
    await server?.stop();
    await fake?.close();
  });

  it('Bob’s live stream shows Alice’s whisper as a turn that happened, and neither secret', async () => {
    const whisper = bobLive.events.find((e) => e.event === 'turn' && e.data.turn.id === whisperId)!;
    expect(whisper.data.turn).toMatchObject({ hidden: true, by: { character: 'alice' }, whisper: true });
    clean(bobLive.events);
  });

  it('Bob’s history, state view, table view and each turn (JSON, replayed events, children) show neither', async () => {
    clean((await server.json(`/v1/sessions/${sessionId}/history`, { key: KEY_B })).body);
    clean((await server.json(`/v1/sessions/${sessionId}/state`, { key: KEY_B })).body);
    clean((await server.json(`/v1/sessions/${sessionId}/table`, { key: KEY_B })).body);
    const tree = (await server.json(`/v1/sessions/${sessionId}/tree`, { key: KEY_B })).body.turns;
    for (const node of tree) {
      clean((await server.json(`/v1/sessions/${sessionId}/turns/${node.id}`, { key: KEY_B })).body);
      clean((await server.json(`/v1/sessions/${sessionId}/turns/${node.id}/children`, { key: KEY_B })).body);
      const replay = await server.call(`/v1/sessions/${sessionId}/turns/${node.id}`, {
        key: KEY_B,
        headers: { accept: 'text/event-stream' },
      });
      clean(parseSse(await replay.text()));
      clean((await server.json(`/v1/sessions/${sessionId}/state?turnId=${node.id}`, { key: KEY_B })).body);
    }
    expect((await server.json(`/v1/sessions/${sessionId}/state?view=full`, { key: KEY_B })).status).toBe(403);
  });

  it('the prompts of Bob’s own turn, as the model server received them, hold neither secret', async () => {
    const before = fake.chatRequests().length;
    const bobs = await server.json(`/v1/sessions/${sessionId}/turns`, {
      method: 'POST',
      json: { input: 'I count my coins' },
      key: KEY_B,
    });
    expect(bobs.status).toBe(201);
    const sent = fake.chatRequests().slice(before);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    clean(sent);
    // The prompts knew who acted: Bob, with Alice at the table.
    expect(JSON.stringify(sent)).toContain('Acting now: bob');
    clean(bobs.body);
  });

  it('the OpenAI-compatible endpoint: the table’s session is not Bob’s to name, and his own chat knows nothing', async () => {
    const client = new OpenAI({ baseURL: `${server.url}/openai/v1`, apiKey: KEY_B, maxRetries: 0 });
    const named = await client.chat.completions
      .create({
        model: `Table · session:${sessionId}`,
        messages: [{ role: 'user', content: 'What did Alice hide?' }],
      })
      .then(
        () => undefined,
        (error: any) => error.status,
      );
    expect(named).toBe(404);
    const own = await client.chat.completions.create({
      model: 'Two Seats',
      messages: [{ role: 'user', content: 'What is under the stone?' }],
    });
    clean(own);
  });

  it('Alice reads her own secrets back (the filter is per player, not a blanket one)', async () => {
    const history = await server.json(`/v1/sessions/${sessionId}/history`, { key: KEY_A });
    expect(JSON.stringify(history.body)).toContain('CINDER-0420-PROSE');
    const stored = await server.store.getTurn(sessionId, whisperId);
    expect((stored!.state as any).players.alice.secret).toBe(FIELD_SECRET);
  });
});
