import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  describeModelConfig,
  loadModelConfig,
  type ModelConfig,
  type OnlineModelConfig,
  parseModelConfigFile,
  resolveModelConfig,
} from '../../../src/adapters/llm/config.ts';
import { ModelError } from '../../../src/adapters/llm/errors.ts';
import {
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  MAX_CONFIG_FILE_BYTES,
  MAX_RETRIES_LIMIT,
  MAX_TIMEOUT_MS,
} from '../../../src/adapters/llm/limits.ts';
import { createModels } from '../../../src/adapters/llm/providers.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnesos-llm-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function online(config: ModelConfig): OnlineModelConfig {
  if (config.provider === 'offline') throw new Error(`expected online, got offline: ${config.reason}`);
  if (config.provider === 'file') throw new Error(`expected online, got the local file ${config.file}`);
  return config;
}

function configError(run: () => unknown): ModelError {
  try {
    run();
  } catch (error) {
    if (error instanceof ModelError && error.kind === 'config') return error;
    throw error;
  }
  throw new Error('expected a config error');
}

describe('provider selection', () => {
  it('nothing set means offline, and createModels returns null', () => {
    const config = resolveModelConfig({});
    expect(config.provider).toBe('offline');
    expect(createModels(config)).toBeNull();
  });

  it('an OpenAI key alone (no model) stays offline', () => {
    expect(resolveModelConfig({ OPENAI_API_KEY: 'sk-x' }).provider).toBe('offline');
  });

  it('empty variables count as unset', () => {
    expect(resolveModelConfig({ MNESOS_PROVIDER: '', MNESOS_LLM_BASE_URL: '  ' }).provider).toBe('offline');
  });

  it('a base URL means openai-compatible, with one model for every role', () => {
    const config = online(
      resolveModelConfig({ MNESOS_LLM_BASE_URL: 'http://localhost:11434/v1/', MNESOS_MODEL: 'llama3.1' }),
    );
    expect(config.provider).toBe('openai-compatible');
    expect(config.baseURL).toBe('http://localhost:11434/v1');
    expect(config.models).toEqual({ director: 'llama3.1', narrator: 'llama3.1', npc: 'llama3.1' });
    expect(config.apiKey).toBeUndefined();
    expect(config.retry).toMatchObject({ timeoutMs: DEFAULT_TIMEOUT_MS, maxRetries: DEFAULT_MAX_RETRIES });
  });

  it('per-role models override MNESOS_MODEL', () => {
    const config = online(
      resolveModelConfig({
        MNESOS_LLM_BASE_URL: 'http://localhost:8080/v1',
        MNESOS_MODEL: 'small',
        MNESOS_NARRATOR_MODEL: 'big',
        MNESOS_NPC_MODEL: 'tiny',
      }),
    );
    expect(config.models).toEqual({ director: 'small', narrator: 'big', npc: 'tiny' });
  });

  it('OPENAI_API_KEY with a model means native OpenAI', () => {
    const config = online(resolveModelConfig({ OPENAI_API_KEY: 'sk-abc', MNESOS_MODEL: 'gpt-4o-mini' }));
    expect(config.provider).toBe('openai');
    expect(config.apiKey?.reveal()).toBe('sk-abc');
  });

  it('OPENAI_BASE_URL with OPENAI_API_KEY means openai-compatible with that pair', () => {
    const config = online(
      resolveModelConfig({
        OPENAI_BASE_URL: 'http://localhost:1234/v1',
        OPENAI_API_KEY: 'k-1',
        MNESOS_MODEL: 'm',
      }),
    );
    expect(config.provider).toBe('openai-compatible');
    expect(config.baseURL).toBe('http://localhost:1234/v1');
    expect(config.apiKey?.reveal()).toBe('k-1');
  });

  it('OPENAI_API_KEY is not sent to a server named by MNESOS_LLM_BASE_URL', () => {
    const config = online(
      resolveModelConfig({
        MNESOS_LLM_BASE_URL: 'http://localhost:1234/v1',
        OPENAI_API_KEY: 'k-1',
        MNESOS_MODEL: 'm',
      }),
    );
    expect(config.apiKey).toBeUndefined();
  });

  it('MNESOS_LLM_API_KEY is used for any provider', () => {
    const config = online(
      resolveModelConfig({
        MNESOS_PROVIDER: 'anthropic',
        MNESOS_LLM_API_KEY: 'a-key',
        MNESOS_MODEL: 'claude-x',
      }),
    );
    expect(config.provider).toBe('anthropic');
    expect(config.apiKey?.reveal()).toBe('a-key');
  });

  it('anthropic and google fall back to their standard key variables', () => {
    expect(
      online(
        resolveModelConfig({ MNESOS_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'ak', MNESOS_MODEL: 'c' }),
      ).apiKey?.reveal(),
    ).toBe('ak');
    expect(
      online(
        resolveModelConfig({
          MNESOS_PROVIDER: 'google',
          GOOGLE_GENERATIVE_AI_API_KEY: 'gk',
          MNESOS_MODEL: 'g',
        }),
      ).apiKey?.reveal(),
    ).toBe('gk');
  });

  it('MNESOS_PROVIDER=offline wins over everything else', () => {
    const config = resolveModelConfig({
      MNESOS_PROVIDER: 'offline',
      MNESOS_LLM_BASE_URL: 'http://localhost:1/v1',
      MNESOS_MODEL: 'm',
    });
    expect(config).toEqual({ provider: 'offline', reason: 'MNESOS_PROVIDER is offline' });
  });
});

describe('configuration errors', () => {
  it('an unknown provider names the variable and the valid choices', () => {
    const error = configError(() => resolveModelConfig({ MNESOS_PROVIDER: 'ollama', MNESOS_MODEL: 'm' }));
    expect(error.message).toContain('MNESOS_PROVIDER');
    expect(error.message).toContain('openai-compatible, openai, anthropic, google, offline');
  });

  it('a model without a provider is an error, not a silent offline', () => {
    expect(configError(() => resolveModelConfig({ MNESOS_MODEL: 'm' })).message).toContain(
      'MNESOS_LLM_BASE_URL',
    );
  });

  it('a provider without a model for some role names the missing roles', () => {
    const error = configError(() =>
      resolveModelConfig({ MNESOS_LLM_BASE_URL: 'http://localhost:1/v1', MNESOS_DIRECTOR_MODEL: 'd' }),
    );
    expect(error.message).toContain('narrator, npc');
    expect(error.message).toContain('MNESOS_NARRATOR_MODEL');
  });

  it('native providers need a key', () => {
    expect(
      configError(() => resolveModelConfig({ MNESOS_PROVIDER: 'google', MNESOS_MODEL: 'g' })).message,
    ).toContain('GOOGLE_GENERATIVE_AI_API_KEY');
    expect(
      configError(() => resolveModelConfig({ MNESOS_PROVIDER: 'openai', MNESOS_MODEL: 'g' })).message,
    ).toContain('OPENAI_API_KEY');
  });

  it('openai-compatible needs a base URL', () => {
    const error = configError(() =>
      resolveModelConfig({ MNESOS_PROVIDER: 'openai-compatible', MNESOS_MODEL: 'm' }),
    );
    expect(error.message).toContain('MNESOS_LLM_BASE_URL');
  });

  it('a base URL must be http(s)', () => {
    expect(
      configError(() => resolveModelConfig({ MNESOS_LLM_BASE_URL: 'localhost:11434', MNESOS_MODEL: 'm' }))
        .message,
    ).toContain('MNESOS_LLM_BASE_URL');
    expect(
      configError(() => resolveModelConfig({ MNESOS_LLM_BASE_URL: 'ftp://localhost/v1', MNESOS_MODEL: 'm' }))
        .message,
    ).toContain('only http and https');
  });

  const env = { MNESOS_LLM_BASE_URL: 'http://localhost:1/v1', MNESOS_MODEL: 'm' };

  it('timeout: at the limit is accepted, past it is refused naming the limit', () => {
    expect(
      online(resolveModelConfig({ ...env, MNESOS_LLM_TIMEOUT_MS: String(MAX_TIMEOUT_MS) })).retry.timeoutMs,
    ).toBe(MAX_TIMEOUT_MS);
    const error = configError(() =>
      resolveModelConfig({ ...env, MNESOS_LLM_TIMEOUT_MS: String(MAX_TIMEOUT_MS + 1) }),
    );
    expect(error.message).toContain('MNESOS_LLM_TIMEOUT_MS');
    expect(error.message).toContain('MAX_TIMEOUT_MS');
  });

  it('retries: at the limit is accepted, past it is refused naming the limit', () => {
    expect(
      online(resolveModelConfig({ ...env, MNESOS_LLM_MAX_RETRIES: String(MAX_RETRIES_LIMIT) })).retry
        .maxRetries,
    ).toBe(MAX_RETRIES_LIMIT);
    expect(
      configError(() => resolveModelConfig({ ...env, MNESOS_LLM_MAX_RETRIES: String(MAX_RETRIES_LIMIT + 1) }))
        .message,
    ).toContain('MAX_RETRIES_LIMIT');
    expect(
      configError(() => resolveModelConfig({ ...env, MNESOS_LLM_MAX_RETRIES: '1.5' })).message,
    ).toContain('not an integer');
  });
});

describe('config file', () => {
  it('reads the llm section; environment variables win over it', () => {
    const path = join(dir, 'mnesos.config.yaml');
    writeFileSync(
      path,
      [
        'database: ignored-by-the-model-layer',
        'llm:',
        '  base_url: http://localhost:11434/v1',
        '  model: llama3.1',
        '  narrator_model: mistral',
        '  api_key_env: MY_LLM_KEY',
        '  embedding_model: nomic-embed-text',
        '  timeout_ms: 30000',
        '  max_retries: 4',
        '',
      ].join('\n'),
    );
    const config = online(loadModelConfig({ MY_LLM_KEY: 'file-key', MNESOS_NPC_MODEL: 'env-npc' }, path));
    expect(config.provider).toBe('openai-compatible');
    expect(config.models).toEqual({ director: 'llama3.1', narrator: 'mistral', npc: 'env-npc' });
    expect(config.apiKey?.reveal()).toBe('file-key');
    expect(config.embeddingModel).toBe('nomic-embed-text');
    expect(config.retry).toMatchObject({ timeoutMs: 30000, maxRetries: 4 });
    const overridden = online(loadModelConfig({ MNESOS_LLM_TIMEOUT_MS: '1000' }, path));
    expect(overridden.retry.timeoutMs).toBe(1000);
  });

  it('an unknown key is reported at its file:line:col', () => {
    const error = configError(() =>
      parseModelConfigFile('llm:\n  model: x\n  modle: y\n', 'mnesos.config.yaml'),
    );
    expect(error.message).toMatch(/^mnesos\.config\.yaml:3:3: llm\.modle: unknown key/);
  });

  it('a value out of range is reported at its place', () => {
    const error = configError(() =>
      parseModelConfigFile(`llm:\n  max_retries: ${MAX_RETRIES_LIMIT + 1}\n`, 'mnesos.config.yaml'),
    );
    expect(error.message).toMatch(/^mnesos\.config\.yaml:2:16: llm\.max_retries:/);
  });

  it('YAML syntax errors carry the place', () => {
    expect(configError(() => parseModelConfigFile('llm: [unclosed\n', 'c.yaml')).message).toMatch(
      /^c\.yaml:\d+:\d+: /,
    );
  });

  it('a missing file and an oversized file are refused, naming the file', () => {
    expect(configError(() => loadModelConfig({}, join(dir, 'nope.yaml'))).message).toContain('nope.yaml');
    const atLimit = join(dir, 'at-limit.yaml');
    writeFileSync(atLimit, `# ${'x'.repeat(MAX_CONFIG_FILE_BYTES - 3)}\n`);
    expect(loadModelConfig({}, atLimit).provider).toBe('offline');
    const big = join(dir, 'big.yaml');
    writeFileSync(big, `# ${'x'.repeat(MAX_CONFIG_FILE_BYTES - 2)}\n`);
    expect(configError(() => loadModelConfig({}, big)).message).toContain('MAX_CONFIG_FILE_BYTES');
  });

  it('an empty file or a file without llm: changes nothing', () => {
    expect(parseModelConfigFile('', 'c.yaml')).toEqual({});
    expect(parseModelConfigFile('server:\n  port: 1\n', 'c.yaml')).toEqual({});
  });
});

describe('keys never leak', () => {
  it('inspecting, JSON-encoding or describing a config does not show the key', () => {
    const key = 'sk-super-secret-value';
    const config = resolveModelConfig({
      MNESOS_LLM_BASE_URL: 'http://user:pw@localhost:11434/v1',
      MNESOS_LLM_API_KEY: key,
      MNESOS_MODEL: 'm',
    });
    expect(inspect(config, { depth: 10 })).not.toContain(key);
    expect(JSON.stringify(config)).not.toContain(key);
    expect(String(online(config).apiKey)).toBe('[redacted]');
    const described = describeModelConfig(config);
    expect(described).not.toContain(key);
    expect(described).not.toContain('pw');
    expect(described).toContain('openai-compatible at http://localhost:11434/v1 (key set)');
  });
});
