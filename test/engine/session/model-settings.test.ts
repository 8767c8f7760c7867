// Model settings per principal: how they combine with the server's configuration (pure), and how
// PrincipalModels caches the built models per principal and rebuilds them when the settings change.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModelConfig, resolveModelConfig } from '../../../src/adapters/llm/config.ts';
import { createScriptedModels } from '../../../src/adapters/llm/scripted.ts';
import type { ModelSet } from '../../../src/adapters/llm/types.ts';
import { SessionError } from '../../../src/engine/session/errors.ts';
import {
  ENDPOINT_NOT_ALLOWED_MESSAGE,
  mergeConfig,
  modelSettingsSchema,
  planModels,
  withTemperature,
} from '../../../src/engine/session/model-settings.ts';
import { MODEL_CACHE_SIZE, PrincipalModels } from '../../../src/engine/session/principal-models.ts';
import { openStore } from '../../../src/adapters/store/open.ts';
import type { Store } from '../../../src/adapters/store/repository.ts';

const compatible = resolveModelConfig({
  MNESOS_LLM_BASE_URL: 'http://127.0.0.1:1/v1',
  MNESOS_MODEL: 'server-model',
  MNESOS_LLM_API_KEY: 'sk-server',
});
const anthropic = resolveModelConfig({
  MNESOS_PROVIDER: 'anthropic',
  MNESOS_MODEL: 'claude-x',
  MNESOS_LLM_API_KEY: 'sk-ant',
});
const offline = resolveModelConfig({});

function online(config: ModelConfig | string) {
  if (typeof config === 'string' || config.provider === 'offline' || config.provider === 'file')
    throw new Error(`not online: ${String(config)}`);
  return config;
}

describe('mergeConfig', () => {
  it('returns the server’s config unchanged for empty settings or a temperature alone', () => {
    expect(mergeConfig(compatible, {})).toBe(compatible);
    expect(mergeConfig(compatible, { temperature: 1 })).toBe(compatible);
    expect(mergeConfig(offline, { temperature: 1 })).toBe(offline);
  });

  it('overrides the base URL and the model per role, keeping the server’s key for its own provider', () => {
    const merged = online(
      mergeConfig(compatible, { baseUrl: 'http://127.0.0.1:2/v1//', models: { npc: 'tiny' } }),
    );
    expect(merged.provider).toBe('openai-compatible');
    expect(merged.baseURL).toBe('http://127.0.0.1:2/v1');
    expect(merged.models).toEqual({ director: 'server-model', narrator: 'server-model', npc: 'tiny' });
    expect(merged.apiKey?.reveal()).toBe('sk-server');
    expect(merged.retry).toEqual(online(compatible).retry);
  });

  it('never gives the server’s key to another provider', () => {
    const moved = online(
      mergeConfig(anthropic, {
        provider: 'openai-compatible',
        baseUrl: 'http://127.0.0.1:3/v1',
        models: { director: 'a', narrator: 'b', npc: 'c' },
      }),
    );
    expect(moved.apiKey).toBeUndefined();
    expect(mergeConfig(compatible, { provider: 'openai', models: { narrator: 'x' } })).toContain(
      'provider openai needs an API key',
    );
  });

  it('names what is missing when the server has nothing to fall back on', () => {
    expect(mergeConfig(offline, { models: { narrator: 'x' } })).toContain('no model provider configured');
    expect(mergeConfig(offline, { baseUrl: 'http://127.0.0.1:4/v1', models: { narrator: 'x' } })).toBe(
      'no model for director, npc: the server has none for provider openai-compatible, so set models.director, models.npc',
    );
    expect(mergeConfig(anthropic, { provider: 'openai-compatible', models: { narrator: 'x' } })).toContain(
      'needs a baseUrl',
    );
    const local = online(
      mergeConfig(offline, {
        baseUrl: 'http://127.0.0.1:4/v1',
        models: { director: 'l', narrator: 'l', npc: 'l' },
      }),
    );
    expect(local.provider).toBe('openai-compatible');
    expect(local.apiKey).toBeUndefined();
  });
});

describe('planModels', () => {
  const closed = { allowUserBaseUrl: false };
  const open = { allowUserBaseUrl: true };

  it('needs the operator’s consent to move the endpoint', () => {
    for (const settings of [
      { baseUrl: 'http://127.0.0.1:5/v1' },
      { provider: 'openai-compatible' as const },
    ]) {
      expect(planModels({ kind: 'config', config: compatible }, settings, closed)).toEqual({
        ok: false,
        reason: 'endpoint-not-allowed',
        message: ENDPOINT_NOT_ALLOWED_MESSAGE,
      });
      expect(planModels({ kind: 'injected', models: () => null }, settings, closed).ok).toBe(false);
      expect(planModels({ kind: 'config', config: compatible }, settings, open).ok).toBe(true);
    }
  });

  it('applies only the temperature to models given by code, and says so', () => {
    const injected = { kind: 'injected' as const, models: () => null };
    expect(planModels(injected, { temperature: 0.2 }, closed)).toEqual({
      ok: true,
      recipe: { kind: 'injected', temperature: 0.2 },
      ignored: null,
    });
    const plan = planModels(injected, { models: { narrator: 'x' } }, closed);
    expect(plan.ok && plan.ignored).toContain('only the temperature applies');
  });
});

describe('modelSettingsSchema', () => {
  it('trims model names and refuses unknown keys', () => {
    expect(modelSettingsSchema.parse({ models: { narrator: '  llama3.1:8b ' } })).toEqual({
      models: { narrator: 'llama3.1:8b' },
    });
    expect(modelSettingsSchema.safeParse({ apiKey: 'sk' }).success).toBe(false);
    expect(modelSettingsSchema.safeParse({ temperature: Number.POSITIVE_INFINITY }).success).toBe(false);
    expect(modelSettingsSchema.safeParse({ temperature: Number.NaN }).success).toBe(false);
  });
});

describe('withTemperature', () => {
  it('sends the temperature with every role’s requests, over what the engine asked', async () => {
    const set = createScriptedModels({ director: [{ text: 'a' }], narrator: [{ text: 'b' }] }, 'temperature');
    const wrapped = withTemperature(set, 1.25);
    await wrapped.director.generate({ system: 's', messages: [], temperature: 0.1 });
    for await (const _ of wrapped.narrator.stream({ system: 's', messages: [] })) {
      // drain
    }
    expect(set.calls.map((c) => c.request.temperature)).toEqual([1.25, 1.25]);
  });
});

describe('PrincipalModels', () => {
  let store: Store;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mnesos-principal-models-'));
    store = await openStore(join(dir, 'm.db'));
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function counting(cacheSize?: number) {
    const built: ModelConfig[] = [];
    const models = new PrincipalModels({
      store,
      server: { kind: 'config', config: compatible },
      allowUserBaseUrl: true,
      build: (config) => {
        built.push(config);
        const set = createScriptedModels({}, `build-${built.length}`);
        return { director: set.director, narrator: set.narrator, npc: set.npc };
      },
      ...(cacheSize === undefined ? {} : { cacheSize }),
    });
    return { models, built };
  }

  it('builds the server’s models once for everyone without settings', async () => {
    const { models, built } = counting();
    const a = await store.createPrincipal({ name: 'a' });
    const b = await store.createPrincipal({ name: 'b' });
    const first = await models.modelsFor(a.id);
    expect(await models.modelsFor(b.id)).toBe(first);
    expect(built).toEqual([compatible]);
    expect(models.cachedCount).toBe(0);
  });

  it('caches a principal’s models and rebuilds them only when the settings change', async () => {
    const { models, built } = counting();
    const p = await store.createPrincipal({ name: 'p' });
    await store.putModelSettings({ principalId: p.id, settings: { models: { narrator: 'one' } } });
    const first = await models.modelsFor(p.id);
    expect(await models.modelsFor(p.id)).toBe(first);
    expect(built.map((c) => online(c).models.narrator)).toEqual(['one']);
    // The same settings stored again (another replica, a re-save) keep the cached models.
    await store.putModelSettings({ principalId: p.id, settings: { models: { narrator: 'one' } } });
    expect(await models.modelsFor(p.id)).toBe(first);
    await store.putModelSettings({ principalId: p.id, settings: { models: { narrator: 'two' } } });
    const second = await models.modelsFor(p.id);
    expect(second).not.toBe(first);
    expect(built.map((c) => online(c).models.narrator)).toEqual(['one', 'two']);
  });

  it(`keeps at most its cache size (default ${MODEL_CACHE_SIZE}), dropping the least recently used`, async () => {
    const { models, built } = counting(2);
    const ids: string[] = [];
    for (const name of ['x', 'y', 'z']) {
      const p = await store.createPrincipal({ name });
      await store.putModelSettings({ principalId: p.id, settings: { models: { npc: name } } });
      ids.push(p.id);
    }
    const [x, y, z] = ids as [string, string, string];
    await models.modelsFor(x);
    await models.modelsFor(y);
    await models.modelsFor(x); // x is now the most recent
    expect(models.cachedCount).toBe(2);
    await models.modelsFor(z); // evicts y
    expect(models.cachedCount).toBe(2);
    expect(built).toHaveLength(3);
    await models.modelsFor(x);
    expect(built).toHaveLength(3);
    await models.modelsFor(y);
    expect(built).toHaveLength(4);
    expect(
      () => new PrincipalModels({ store, server: { kind: 'injected', models: () => null }, cacheSize: 0 }),
    ).toThrow('model cache size must be a positive integer');
  });

  it('refuses settings that cannot be used with a SessionError naming the cause', async () => {
    const strict = new PrincipalModels({ store, server: { kind: 'config', config: compatible } });
    const p = await store.createPrincipal({ name: 'moved' });
    await store.putModelSettings({ principalId: p.id, settings: { baseUrl: 'http://127.0.0.1:6/v1' } });
    const error = await strict.modelsFor(p.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionError);
    expect((error as SessionError).code).toBe('settings');
    expect((error as SessionError).message).toContain('--allow-user-base-url');
    expect((await strict.settingsOf(p.id)).problem).toBe(ENDPOINT_NOT_ALLOWED_MESSAGE);

    await store.putModelSettings({ principalId: p.id, settings: { temperature: 7 } });
    const tampered = await strict.modelsFor(p.id).catch((e: unknown) => e);
    expect((tampered as SessionError).code).toBe('settings');
    expect((await strict.settingsOf(p.id)).problem).toContain('the stored settings are not valid');
  });

  it('builds injected models per turn (they may be stateful) with the principal’s temperature', async () => {
    let made = 0;
    const injected = new PrincipalModels({
      store,
      server: {
        kind: 'injected',
        models: (): ModelSet => {
          made += 1;
          return createScriptedModels({ narrator: [{ text: 'n' }] }, 'injected');
        },
      },
    });
    const p = await store.createPrincipal({ name: 'warm' });
    await store.putModelSettings({ principalId: p.id, settings: { temperature: 0.4 } });
    const one = await injected.modelsFor(p.id);
    const two = await injected.modelsFor(p.id);
    expect(one).not.toBe(two);
    expect(made).toBe(2);
    expect(injected.cachedCount).toBe(0);
  });
});
