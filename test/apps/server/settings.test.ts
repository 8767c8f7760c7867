// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are read loosely; each test asserts the fields it needs.
// Model settings per principal: stored through GET/PUT /v1/settings, and used for that principal's turns.
// Two fake OpenAI-compatible servers on two loopback ports stand for the operator's provider and a
// provider a user chose; the request bodies they receive show which model and temperature each turn used.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveModelConfig } from '../../../src/adapters/llm/config.ts';
import type { ChatModel, ModelRequest, ModelSet } from '../../../src/adapters/llm/types.ts';
import { createScriptedModels } from '../../../src/adapters/llm/scripted.ts';
import { DEFAULT_MAX_JSON_BODY_BYTES } from '../../../src/apps/server/limits.ts';
import {
  ENDPOINT_NOT_ALLOWED_MESSAGE,
  MAX_BASE_URL_CHARS,
  MAX_MODEL_NAME_CHARS,
  MAX_TEMPERATURE,
  MIN_TEMPERATURE,
} from '../../../src/engine/session/model-settings.ts';
import { type FakeOpenAI, type FakeRequest, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';
import { KEY_A, KEY_B, newSession, startTestServer, type TestServer } from './helpers.ts';

const OPERATOR_KEY = 'sk-operator-key-for-tests';

function replies(request: FakeRequest) {
  return JSON.stringify(request.body ?? '').includes('You are the Narrator')
    ? ({ kind: 'text', text: 'The lamps hold.' } as const)
    : ({ kind: 'text', text: 'Nothing to roll. Narrate the quiet.' } as const);
}

function isNarratorBody(body: Record<string, unknown>): boolean {
  return JSON.stringify(body).includes('You are the Narrator');
}

const operatorConfig = (url: string) =>
  resolveModelConfig({
    MNESOS_LLM_BASE_URL: url,
    MNESOS_MODEL: 'operator-model',
    MNESOS_LLM_API_KEY: OPERATOR_KEY,
    MNESOS_LLM_MAX_RETRIES: '0',
  });

async function play(server: TestServer, key: string, input = 'I trim the wick'): Promise<any> {
  const { id } = await newSession(server, key);
  const played = await server.json(`/v1/sessions/${id}/turns`, { method: 'POST', key, json: { input } });
  return played;
}

async function putSettings(server: TestServer, key: string, json: unknown) {
  return server.json('/v1/settings', { method: 'PUT', key, json });
}

describe('settings on a server that allows a user base URL', () => {
  let operator: FakeOpenAI;
  let chosen: FakeOpenAI;
  let server: TestServer;
  beforeAll(async () => {
    operator = await startFakeOpenAI(replies);
    chosen = await startFakeOpenAI(replies);
    server = await startTestServer({
      apiKeys: [
        { label: 'alice', key: KEY_A },
        { label: 'bob', key: KEY_B },
      ],
      modelConfig: operatorConfig(operator.url),
      allowUserBaseUrl: true,
    });
  });
  afterAll(async () => {
    await server.stop();
    await operator.close();
    await chosen.close();
  });

  it('starts empty and describes the server’s own models without its URL or key', async () => {
    const got = await server.json('/v1/settings', { key: KEY_A });
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      settings: {},
      updatedAt: null,
      problem: null,
      server: {
        provider: 'openai-compatible',
        models: { director: 'operator-model', narrator: 'operator-model', npc: 'operator-model' },
        allowUserBaseUrl: true,
      },
    });
    expect(JSON.stringify(got.body)).not.toContain(OPERATOR_KEY);
    expect(JSON.stringify(got.body)).not.toContain(operator.url);
  });

  it('sends one principal’s turns to the base URL, model and temperature it chose, and another’s to the server’s', async () => {
    const saved = await putSettings(server, KEY_A, {
      baseUrl: chosen.url,
      models: { narrator: 'alice-narrator' },
      temperature: 0.3,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.settings).toEqual({
      baseUrl: chosen.url,
      models: { narrator: 'alice-narrator' },
      temperature: 0.3,
    });
    expect(saved.body.problem).toBeNull();

    const operatorBefore = operator.chatRequests().length;
    const alice = await play(server, KEY_A);
    expect(alice.status).toBe(201);
    expect(alice.body.modelMode).toBe('online');
    expect(alice.body.turn.narration).toBe('The lamps hold.');
    expect(operator.chatRequests()).toHaveLength(operatorBefore);
    const aliceBodies = chosen.chatRequests();
    expect(aliceBodies.length).toBeGreaterThanOrEqual(2);
    const narrator = aliceBodies.filter(isNarratorBody);
    expect(narrator.map((b) => b.model)).toEqual(['alice-narrator']);
    // Roles she did not set keep the server's model; the temperature goes with every request.
    expect(aliceBodies.filter((b) => !isNarratorBody(b)).every((b) => b.model === 'operator-model')).toBe(
      true,
    );
    expect(aliceBodies.every((b) => b.temperature === 0.3)).toBe(true);
    // Why the flag exists: the server's key goes to the URL the user chose.
    expect(chosen.requests.at(-1)?.headers.authorization).toBe(`Bearer ${OPERATOR_KEY}`);

    const chosenBefore = chosen.chatRequests().length;
    const bob = await play(server, KEY_B);
    expect(bob.status).toBe(201);
    expect(chosen.chatRequests()).toHaveLength(chosenBefore);
    const bobBodies = operator.chatRequests().slice(operatorBefore);
    expect(bobBodies.length).toBeGreaterThanOrEqual(2);
    expect(bobBodies.every((b) => b.model === 'operator-model')).toBe(true);
    expect(bobBodies.every((b) => b.temperature === undefined)).toBe(true);
  });

  it('uses changed settings from the next turn on, and the server’s models again after {}', async () => {
    expect(
      (await putSettings(server, KEY_A, { baseUrl: chosen.url, models: { narrator: 'second' } })).status,
    ).toBe(200);
    const before = chosen.chatRequests().length;
    expect((await play(server, KEY_A)).status).toBe(201);
    const bodies = chosen.chatRequests().slice(before);
    expect(bodies.filter(isNarratorBody).map((b) => b.model)).toEqual(['second']);
    expect(bodies.every((b) => b.temperature === undefined)).toBe(true);

    const reset = await putSettings(server, KEY_A, {});
    expect(reset.body.settings).toEqual({});
    const operatorBefore = operator.chatRequests().length;
    const chosenBefore = chosen.chatRequests().length;
    expect((await play(server, KEY_A)).status).toBe(201);
    expect(chosen.chatRequests()).toHaveLength(chosenBefore);
    expect(operator.chatRequests().length).toBeGreaterThan(operatorBefore);
  });

  it('uses the settings for the stateless turn too', async () => {
    await putSettings(server, KEY_B, { models: { narrator: 'bob-stateless' }, temperature: 1.5 });
    const before = operator.chatRequests().length;
    const result = await server.json('/v1/turn', {
      method: 'POST',
      key: KEY_B,
      json: { cartridge: 'Lanternmere', input: 'I listen' },
    });
    expect(result.status).toBe(200);
    const bodies = operator.chatRequests().slice(before);
    expect(bodies.filter(isNarratorBody).map((b) => b.model)).toEqual(['bob-stateless']);
    expect(bodies.every((b) => b.temperature === 1.5)).toBe(true);
    await putSettings(server, KEY_B, {});
  });

  it('refuses another provider that would need the server’s key, and stores nothing', async () => {
    await putSettings(server, KEY_A, { temperature: 1 });
    const anthropic = await putSettings(server, KEY_A, { provider: 'anthropic', models: { narrator: 'x' } });
    expect(anthropic.status).toBe(422);
    expect(anthropic.body.error.code).toBe('settings_unusable');
    expect(anthropic.body.error.message).toContain('provider anthropic needs an API key');
    expect((await server.json('/v1/settings', { key: KEY_A })).body.settings).toEqual({ temperature: 1 });
    await putSettings(server, KEY_A, {});
  });

  it('keeps each principal’s settings to itself', async () => {
    await putSettings(server, KEY_A, { models: { director: 'alice-only' } });
    expect((await server.json('/v1/settings', { key: KEY_B })).body.settings).toEqual({});
    await putSettings(server, KEY_A, {});
  });
});

describe('settings on a server that does not allow a user base URL', () => {
  let operator: FakeOpenAI;
  let server: TestServer;
  beforeAll(async () => {
    operator = await startFakeOpenAI(replies);
    server = await startTestServer({ modelConfig: operatorConfig(operator.url) });
  });
  afterAll(async () => {
    await server.stop();
    await operator.close();
  });

  async function stored(): Promise<unknown> {
    return (await server.json('/v1/settings')).body.settings;
  }

  it('answers 403 for a base URL or a provider, naming the flag, and stores nothing', async () => {
    await server.json('/v1/settings', { method: 'PUT', json: { temperature: 0.5 } });
    for (const json of [
      { baseUrl: 'http://127.0.0.1:9/v1' },
      { provider: 'openai-compatible' },
      { baseUrl: 'http://127.0.0.1:9/v1', temperature: 1 },
    ]) {
      const refused = await server.json('/v1/settings', { method: 'PUT', json });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toEqual({
        code: 'base_url_not_allowed',
        message: ENDPOINT_NOT_ALLOWED_MESSAGE,
      });
      expect(refused.body.error.message).toContain('--allow-user-base-url');
    }
    expect(await stored()).toEqual({ temperature: 0.5 });
    expect((await server.json('/v1/settings')).body.server.allowUserBaseUrl).toBe(false);
  });

  it('still lets the user choose the model per role and the temperature', async () => {
    const saved = await server.json('/v1/settings', {
      method: 'PUT',
      json: { models: { director: 'd', narrator: 'n', npc: 'p' }, temperature: 0 },
    });
    expect(saved.status).toBe(200);
    const before = operator.chatRequests().length;
    const { id } = await newSession(server);
    expect(
      (await server.json(`/v1/sessions/${id}/turns`, { method: 'POST', json: { input: 'hi' } })).status,
    ).toBe(201);
    const bodies = operator.chatRequests().slice(before);
    expect(bodies.filter(isNarratorBody).map((b) => b.model)).toEqual(['n']);
    expect(bodies.filter((b) => !isNarratorBody(b)).map((b) => b.model)).toContain('d');
    expect(bodies.every((b) => b.temperature === 0)).toBe(true);
  });

  it(`accepts limits at their edge and refuses just past them, storing nothing`, async () => {
    await server.json('/v1/settings', { method: 'PUT', json: { temperature: 1 } });
    const name = 'm'.repeat(MAX_MODEL_NAME_CHARS);
    const good = [
      { temperature: MIN_TEMPERATURE },
      { temperature: MAX_TEMPERATURE },
      { models: { narrator: name } },
    ];
    for (const json of good) {
      const saved = await server.json('/v1/settings', { method: 'PUT', json });
      expect(saved.status, JSON.stringify(json)).toBe(200);
    }
    await server.json('/v1/settings', { method: 'PUT', json: { temperature: 1 } });
    const bad: Array<[unknown, string, string]> = [
      [{ temperature: MAX_TEMPERATURE + 0.001 }, 'temperature', 'from 0 to 2'],
      [{ temperature: MIN_TEMPERATURE - 0.001 }, 'temperature', 'from 0 to 2'],
      [{ temperature: '1' }, 'temperature', ''],
      [{ models: { narrator: `${name}m` } }, 'models.narrator', 'MAX_MODEL_NAME_CHARS'],
      [{ models: { narrator: '   ' } }, 'models.narrator', 'must not be empty'],
      [{ models: { narrator: 'a\u0007b' } }, 'models.narrator', 'control characters'],
      [{ models: { painter: 'x' } }, 'models', ''],
      [{ apiKey: 'sk-nope' }, '(root)', ''],
    ];
    for (const [json, path, message] of bad) {
      const refused = await server.json('/v1/settings', { method: 'PUT', json });
      expect(refused.status, JSON.stringify(json)).toBe(400);
      expect(refused.body.error.code).toBe('invalid_request');
      expect(refused.body.error.issues[0].path).toBe(path);
      expect(refused.body.error.issues[0].message).toContain(message);
    }
    expect(await stored()).toEqual({ temperature: 1 });
  });

  it('refuses __proto__, constructor and oversized bodies before reading them, storing nothing', async () => {
    const hostile = [
      '{"__proto__":{"temperature":1.9}}',
      '{"models":{"__proto__":{"narrator":"x"}}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
    ];
    for (const body of hostile) {
      const refused = await server.json('/v1/settings', {
        method: 'PUT',
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(refused.status, body).toBe(400);
      expect(refused.body.error.code).toBe('forbidden_key');
    }
    const huge = await server.json('/v1/settings', {
      method: 'PUT',
      json: { models: { narrator: 'x'.repeat(DEFAULT_MAX_JSON_BODY_BYTES) } },
    });
    expect(huge.status).toBe(413);
    const notJson = await server.json('/v1/settings', {
      method: 'PUT',
      body: 'temperature=2',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(notJson.status).toBe(415);
    expect(await stored()).toEqual({ temperature: 1 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('documents the routes with typed schemas in the OpenAPI document', async () => {
    const doc = (await server.json('/openapi.json')).body;
    const put = doc.paths['/v1/settings'].put;
    const body = put.requestBody.content['application/json'].schema;
    expect(body.additionalProperties).toBe(false);
    expect(body.properties.temperature).toMatchObject({ minimum: 0, maximum: 2 });
    expect(body.properties.models.properties.narrator.maxLength).toBe(MAX_MODEL_NAME_CHARS);
    expect(body.properties.baseUrl.maxLength).toBe(MAX_BASE_URL_CHARS);
    expect(Object.keys(put.responses)).toEqual(expect.arrayContaining(['200', '400', '403', '422']));
    const get = doc.paths['/v1/settings'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(get.properties)).toEqual(['settings', 'updatedAt', 'problem', 'server']);
  });
});

describe('a base URL at its length limit', () => {
  let server: TestServer;
  let operator: FakeOpenAI;
  beforeAll(async () => {
    operator = await startFakeOpenAI(replies);
    server = await startTestServer({ modelConfig: operatorConfig(operator.url), allowUserBaseUrl: true });
  });
  afterAll(async () => {
    await server.stop();
    await operator.close();
  });

  it(`is ${MAX_BASE_URL_CHARS} characters; one more, another scheme or credentials are refused`, async () => {
    const prefix = 'http://127.0.0.1:9/';
    const atLimit = prefix + 'a'.repeat(MAX_BASE_URL_CHARS - prefix.length);
    expect((await server.json('/v1/settings', { method: 'PUT', json: { baseUrl: atLimit } })).status).toBe(
      200,
    );
    const bad: Array<[string, string]> = [
      [`${atLimit}a`, 'MAX_BASE_URL_CHARS'],
      ['ftp://127.0.0.1/v1', 'http or https'],
      ['http://user:secret@127.0.0.1:9/v1', 'user name or password'],
      ['not a url', 'not a URL'],
    ];
    for (const [baseUrl, message] of bad) {
      const refused = await server.json('/v1/settings', { method: 'PUT', json: { baseUrl } });
      expect(refused.status, baseUrl).toBe(400);
      expect(refused.body.error.issues[0]).toMatchObject({ path: 'baseUrl' });
      expect(refused.body.error.issues[0].message).toContain(message);
    }
    expect((await server.json('/v1/settings')).body.settings).toEqual({ baseUrl: atLimit });
  });
});

describe('settings stored on a server that then runs without the flag', () => {
  it('refuse the turn with 422 settings_unusable, say why in GET, and commit nothing', async () => {
    const operator = await startFakeOpenAI(replies);
    const permissive = await startTestServer({
      modelConfig: operatorConfig(operator.url),
      allowUserBaseUrl: true,
    });
    const strict = await startTestServer({
      modelConfig: operatorConfig(operator.url),
      store: permissive.store,
    });
    try {
      await permissive.json('/v1/settings', { method: 'PUT', json: { baseUrl: operator.url } });
      const { id } = await newSession(strict);
      const before = operator.chatRequests().length;
      const refused = await strict.json(`/v1/sessions/${id}/turns`, {
        method: 'POST',
        json: { input: 'hi' },
      });
      expect(refused.status).toBe(422);
      expect(refused.body.error.code).toBe('settings_unusable');
      expect(refused.body.error.message).toContain('--allow-user-base-url');
      expect(operator.chatRequests()).toHaveLength(before);
      expect((await strict.json(`/v1/sessions/${id}`)).body.session.turnCount).toBe(1);
      const got = await strict.json('/v1/settings');
      expect(got.body.settings).toEqual({ baseUrl: operator.url });
      expect(got.body.problem).toBe(ENDPOINT_NOT_ALLOWED_MESSAGE);
      // Going back to the server's models unblocks the player.
      expect((await strict.json('/v1/settings', { method: 'PUT', json: {} })).status).toBe(200);
      expect(
        (await strict.json(`/v1/sessions/${id}/turns`, { method: 'POST', json: { input: 'hi' } })).status,
      ).toBe(201);
    } finally {
      await strict.stop();
      await permissive.stop();
      await operator.close();
    }
  });
});

describe('settings on a server with no model configured', () => {
  let chosen: FakeOpenAI;
  let server: TestServer;
  beforeAll(async () => {
    chosen = await startFakeOpenAI(replies);
    server = await startTestServer({ modelConfig: resolveModelConfig({}), allowUserBaseUrl: true });
  });
  afterAll(async () => {
    await server.stop();
    await chosen.close();
  });

  it('refuse model names without a provider, and make a principal online with a complete endpoint', async () => {
    expect((await server.json('/healthz')).body.modelMode).toBe('offline');
    const names = await server.json('/v1/settings', { method: 'PUT', json: { models: { narrator: 'x' } } });
    expect(names.status).toBe(422);
    expect(names.body.error.message).toContain('no model provider configured');
    const partial = await server.json('/v1/settings', {
      method: 'PUT',
      json: { baseUrl: chosen.url, models: { narrator: 'x' } },
    });
    expect(partial.status).toBe(422);
    expect(partial.body.error.message).toContain('no model for director, npc');
    expect((await server.json('/v1/settings')).body.settings).toEqual({});

    const complete = await server.json('/v1/settings', {
      method: 'PUT',
      json: { baseUrl: chosen.url, models: { director: 'local', narrator: 'local', npc: 'local' } },
    });
    expect(complete.status).toBe(200);
    const { id } = await newSession(server);
    const played = await server.json(`/v1/sessions/${id}/turns`, { method: 'POST', json: { input: 'hi' } });
    expect(played.status).toBe(201);
    expect(played.body.modelMode).toBe('online');
    expect(played.headers.get('x-mnesos-model-mode')).toBe('online');
    expect(chosen.chatRequests().every((b) => b.model === 'local')).toBe(true);
    // No key exists, so none is sent.
    expect(chosen.requests.at(-1)?.headers.authorization).toBeUndefined();
  });
});

describe('settings on a server whose models are given by code', () => {
  const seen: ModelRequest[] = [];
  function recording(model: ChatModel): ChatModel {
    return {
      id: model.id,
      generate: (req) => {
        seen.push(req);
        return model.generate(req);
      },
      stream: (req) => {
        seen.push(req);
        return model.stream(req);
      },
    };
  }
  function models(): ModelSet {
    const set = createScriptedModels(
      { director: [{ text: 'Narrate.' }], narrator: [{ text: 'Scripted calm.' }] },
      'settings-test',
    );
    return { director: recording(set.director), narrator: recording(set.narrator), npc: recording(set.npc) };
  }
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ models, modelMode: 'online' });
  });
  afterAll(async () => server.stop());

  it('apply the temperature and say that model names are ignored', async () => {
    const saved = await server.json('/v1/settings', {
      method: 'PUT',
      json: { models: { narrator: 'ignored' }, temperature: 0.9 },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.server).toEqual({ provider: 'custom', models: null, allowUserBaseUrl: false });
    expect(saved.body.problem).toContain('only the temperature applies');
    const { id } = await newSession(server);
    expect(
      (await server.json(`/v1/sessions/${id}/turns`, { method: 'POST', json: { input: 'hi' } })).status,
    ).toBe(201);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.every((req) => req.temperature === 0.9)).toBe(true);
  });
});
