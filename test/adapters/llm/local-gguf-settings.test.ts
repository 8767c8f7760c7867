// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are read loosely; each test asserts the fields it needs.
// A local GGUF file chosen in a user's model settings (provider `file`, `modelFile`), through the real HTTP
// server: the operator's consent, the path checked when the settings are saved (each problem named, the
// limits at and past), the install command when node-llama-cpp is missing, and a turn played with the
// chosen file when it is installed. The operator's own models are a fake OpenAI-compatible server.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveModelConfig } from '../../../src/adapters/llm/config.ts';
import { installCommand } from '../../../src/adapters/llm/local-gguf/index.ts';
import { MAX_MODEL_FILE_PATH_CHARS } from '../../../src/engine/session/model-settings.ts';
import { MAX_MODEL_FILE_PATH_CHARS as FORM_MAX_MODEL_FILE_PATH_CHARS } from '../../../src/apps/web/lib/forms.ts';
import { settingsBody } from '../../../src/apps/web/settings/settings-api.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';
import { writeTinyGguf } from '../../helpers/tiny-gguf.ts';
import { llamaCppAvailable } from '../../helpers/tiny-gguf-runtime.ts';
import { newSession, startTestServer, type TestServer } from '../../apps/server/helpers.ts';

const tiny = writeTinyGguf({ seed: 31 });
const available = llamaCppAvailable('a local GGUF file chosen in the settings (node-llama-cpp)');

let operator: FakeOpenAI;
let open: TestServer;
let closed: TestServer;
beforeAll(async () => {
  operator = await startFakeOpenAI(() => ({ kind: 'text', text: 'The operator’s model speaks.' }));
  const modelConfig = resolveModelConfig({
    MNESOS_LLM_BASE_URL: operator.url,
    MNESOS_MODEL: 'operator-model',
    MNESOS_LLM_MAX_RETRIES: '0',
  });
  open = await startTestServer({ modelConfig, allowUserBaseUrl: true });
  closed = await startTestServer({ modelConfig });
});
afterAll(async () => {
  await open.stop();
  await closed.stop();
  await operator.close();
});

const put = (server: TestServer, json: unknown) => server.json('/v1/settings', { method: 'PUT', json });

describe('a local model file in the settings', () => {
  it('needs the operator’s consent, like a base URL', async () => {
    const refused = await put(closed, { provider: 'file', modelFile: tiny });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('base_url_not_allowed');
  });

  it('refuses a path that is relative, not .gguf, or longer than MAX_MODEL_FILE_PATH_CHARS, naming the field', async () => {
    const relative = await put(open, { provider: 'file', modelFile: 'models/tiny.gguf' });
    expect(relative.status).toBe(400);
    expect(JSON.stringify(relative.body)).toContain('must be an absolute path on the server');
    const other = await put(open, { provider: 'file', modelFile: '/models/tiny.bin' });
    expect(other.status).toBe(400);
    expect(JSON.stringify(other.body)).toContain('must name a .gguf file');
    const atLimit = `/${'a'.repeat(MAX_MODEL_FILE_PATH_CHARS - 6)}.gguf`;
    expect(atLimit.length).toBe(MAX_MODEL_FILE_PATH_CHARS);
    // At the limit the path is taken and then looked for on the disk; one character more is refused unread.
    const taken = await put(open, { provider: 'file', modelFile: atLimit });
    expect(taken.status).toBe(422);
    const past = await put(open, { provider: 'file', modelFile: `/a${atLimit}` });
    expect(past.status).toBe(400);
    expect(JSON.stringify(past.body)).toContain('MAX_MODEL_FILE_PATH_CHARS');
    expect(FORM_MAX_MODEL_FILE_PATH_CHARS).toBe(MAX_MODEL_FILE_PATH_CHARS);
  });

  it('checks the file when the settings are saved, and keeps the stored settings when it refuses', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'mnesos-settings-')), 'none.gguf');
    const notFound = await put(open, { provider: 'file', modelFile: missing });
    expect(notFound.status).toBe(422);
    expect(notFound.body.error.code).toBe('settings_unusable');
    expect(notFound.body.error.message).toBe(`modelFile: ${missing}: not found`);
    const mixed = await put(open, { provider: 'file', modelFile: tiny, models: { narrator: 'x' } });
    expect(mixed.status).toBe(422);
    expect(mixed.body.error.message).toContain('a local model file has no base URL or model names');
    const otherProvider = await put(open, { provider: 'openai', modelFile: tiny });
    expect(otherProvider.status).toBe(422);
    expect(otherProvider.body.error.message).toContain('not provider openai');
    const noFile = await put(open, { provider: 'file' });
    expect(noFile.status).toBe(422);
    expect(noFile.body.error.message).toContain('provider file needs modelFile');
    expect((await open.json('/v1/settings')).body.settings).toEqual({});
  });

  it('says the one install command when node-llama-cpp is not installed', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'mnesos-no-llama-'));
    const saved = process.env.MNESOS_LLAMA_CPP_DIR;
    process.env.MNESOS_LLAMA_CPP_DIR = empty;
    try {
      const refused = await put(open, { provider: 'file', modelFile: tiny });
      expect(refused.status).toBe(422);
      expect(refused.body.error.message).toContain(installCommand({ MNESOS_LLAMA_CPP_DIR: empty }));
    } finally {
      if (saved === undefined) delete process.env.MNESOS_LLAMA_CPP_DIR;
      else process.env.MNESOS_LLAMA_CPP_DIR = saved;
    }
  });

  it('the web client sends the model file only with provider file', () => {
    expect(
      settingsBody({
        provider: 'file',
        modelFile: ` ${tiny} `,
        baseUrl: 'http://127.0.0.1:1/v1',
        models: { narrator: 'left over' },
        temperature: 0.5,
      }),
    ).toEqual({ provider: 'file', modelFile: tiny, temperature: 0.5 });
    expect(
      settingsBody({ provider: 'openai-compatible', modelFile: tiny, baseUrl: 'http://127.0.0.1:1/v1' }),
    ).toEqual({
      provider: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:1/v1',
    });
  });

  // A whole turn of up to five Director rounds on the tiny model: seconds on a busy machine.
  it.runIf(available)(
    'plays the user’s turns on the chosen file, not on the operator’s models',
    { timeout: 120_000 },
    async () => {
      const saved = await put(open, { provider: 'file', modelFile: tiny });
      expect(saved.status).toBe(200);
      expect(saved.body.settings).toEqual({ provider: 'file', modelFile: tiny });
      expect(saved.body.problem).toBeNull();
      const before = operator.chatRequests().length;
      const { id } = await newSession(open);
      const played = await open.json(`/v1/sessions/${id}/turns`, {
        method: 'POST',
        json: { input: 'look around' },
      });
      expect(played.status).toBe(201);
      expect(played.body.modelMode).toBe('online');
      expect(played.body.turn.narration.length).toBeGreaterThan(0);
      expect(operator.chatRequests().length).toBe(before);
      expect((await put(open, {})).status).toBe(200);
    },
  );
});
