// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are read loosely; each test asserts the fields it needs.
// Issue 16 item 12: local mode's Origin check bound to the server's own origin, security headers on every
// answer (the web client cannot be framed), a zip whose local header names another file than its central
// directory, and the operator's allowlist of model names.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveModelConfig } from '../../../src/adapters/llm/config.ts';
import { readArchive } from '../../../src/adapters/files/archive/index.ts';
import { MAX_ALLOWED_MODELS, parseAllowedModels } from '../../../src/engine/session/model-settings.ts';
import { zip } from './archives.ts';
import { cartridgeEntries, KEY_A, startTestServer, type TestServer } from './helpers.ts';

describe('local mode: the Origin must be the server’s own', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('its own origin is served; another port on this machine, another host name or another scheme is 403', async () => {
    const port = new URL(server.url).port;
    expect((await server.json('/v1/sessions', { headers: { origin: server.url } })).status).toBe(200);
    for (const origin of [
      `http://127.0.0.1:${Number(port) + 1}`,
      'http://127.0.0.1',
      `http://localhost:${port}`,
      `https://127.0.0.1:${port}`,
      `ftp://127.0.0.1:${port}`,
    ]) {
      const answer = await server.json('/v1/sessions', { headers: { origin } });
      expect(answer.status, origin).toBe(403);
      expect(answer.body.error.code).toBe('origin_not_allowed');
    }
  });

  it('every answer forbids framing and sends no referrer', async () => {
    for (const path of ['/healthz', '/v1/sessions', '/nope']) {
      const answer = await server.call(path);
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
      expect(answer.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
      expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('a zip whose local header names another file than the central directory is refused', async () => {
    const entries = cartridgeEntries();
    const honest = zip(entries);
    expect(readArchive(honest).size).toBe(entries.length);
    const forged = Buffer.from(honest);
    const name = Buffer.from('lanternmere/bot_lore.md');
    const at = forged.indexOf(name); // the first copy is the local header's (local headers come first)
    expect(at).toBeGreaterThan(0);
    forged.write('lanternmere/../evil.md!', at, 'utf8');
    expect(() => readArchive(forged)).toThrow(/local header names a different file/);
    const answer = await server.json('/v1/cartridges', {
      method: 'POST',
      headers: { 'content-type': 'application/zip' },
      body: forged,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('archive_format');
  });
});

describe('the operator’s allowlist of model names', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      apiKeys: [{ label: 'alice', key: KEY_A }],
      modelConfig: resolveModelConfig({
        MNESOS_LLM_BASE_URL: 'http://127.0.0.1:9/v1',
        MNESOS_MODEL: 'operator-model',
        MNESOS_LLM_API_KEY: 'sk-operator-0123456789',
      }),
      allowedModels: parseAllowedModels('operator-model, small-model'),
    });
  });
  afterAll(() => server.stop());

  it('a listed model is accepted; any other is 403 model_not_allowed and nothing is stored', async () => {
    const put = (json: unknown) => server.json('/v1/settings', { method: 'PUT', key: KEY_A, json });
    expect((await put({ models: { narrator: 'small-model' } })).status).toBe(200);
    const refused = await put({ models: { director: 'expensive-model' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('model_not_allowed');
    expect(refused.body.error.message).toContain('models.director');
    const stored = await server.json('/v1/settings', { key: KEY_A });
    expect(stored.body.settings).toEqual({ models: { narrator: 'small-model' } });
  });

  it('MNESOS_ALLOWED_MODELS: unset is no list; MAX_ALLOWED_MODELS names are accepted, one more is refused', () => {
    expect(parseAllowedModels(undefined)).toBeUndefined();
    expect(parseAllowedModels('  ')).toBeUndefined();
    expect([...parseAllowedModels(' a , b,,c ')!]).toEqual(['a', 'b', 'c']);
    const names = (n: number) => Array.from({ length: n }, (_, i) => `m${i}`).join(',');
    expect(parseAllowedModels(names(MAX_ALLOWED_MODELS))!.size).toBe(MAX_ALLOWED_MODELS);
    expect(() => parseAllowedModels(names(MAX_ALLOWED_MODELS + 1))).toThrow(/limit is 100/);
    expect(() => parseAllowedModels('ok,bad\u0007name')).toThrow(/control characters/);
  });
});
