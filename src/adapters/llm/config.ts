// Model configuration from the environment and an optional `mnesos.config.yaml` (`llm:` section).
// Environment wins over the file; nothing configured means offline. Keys are wrapped in `Secret` so a
// logged config never shows them.

import { availableParallelism } from 'node:os';
import { baseUrlProblem, normaliseBaseUrl } from '../../core/base-url-policy.ts';
import { isMap, isScalar, LineCounter, parseDocument, type YAMLMap } from 'yaml';
import { z } from 'zod';
import { ModelError } from './errors.ts';
import {
  DEFAULT_BACKOFF_FACTOR,
  DEFAULT_BACKOFF_INITIAL_MS,
  DEFAULT_BACKOFF_MAX_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  MAX_BACKOFF_MS,
  MAX_CONFIG_FILE_BYTES,
  MAX_RETRIES_LIMIT,
  MAX_TIMEOUT_MS,
  MIN_TIMEOUT_MS,
} from './limits.ts';
import type { RetryPolicy } from './retry.ts';
import { Secret } from './secret.ts';
import { checkLocalModel } from './local-gguf/index.ts';
import { type LocalModelConfig, readLocalModelOptions } from './local-gguf/options.ts';
import { readSmallFile } from './small-file.ts';
import { type ConstrainedDecoding, MODEL_ROLES, type ModelRole } from './types.ts';
import { ONLINE_PROVIDERS, type OnlineProvider } from '../../core/model-providers.ts';

export const DEFAULT_CONFIG_FILE_NAME = 'mnesos.config.yaml';

// The provider table is one for every layer (core/model-providers.ts: the settings and the browser's list too).
export { ONLINE_PROVIDERS, type OnlineProvider };
export type ProviderName = OnlineProvider | 'offline' | 'file';
export type { LocalModelConfig } from './local-gguf/options.ts';

export interface OnlineModelConfig {
  readonly provider: OnlineProvider;
  /** Without a trailing slash; for OpenAI-compatible servers it usually ends in `/v1`. */
  readonly baseURL?: string;
  readonly apiKey?: Secret;
  readonly models: Readonly<Record<ModelRole, string>>;
  /** Model for `/embeddings`; lore embeddings are off when unset. */
  readonly embeddingModel?: string;
  readonly retry: RetryPolicy;
  /** Constrained decoding for the Director (`MNESOS_CONSTRAINED_DECODING`, `auto` resolved; default off). */
  readonly decoding?: ConstrainedDecoding;
}

export const DECODING_SETTINGS = ['auto', 'off', 'strict-tools', 'json-schema'] as const;

export interface OfflineModelConfig {
  readonly provider: 'offline';
  /** Why the engine runs without a model, for `--verbose` output and error hints. */
  readonly reason: string;
}

export type ModelConfig = OnlineModelConfig | OfflineModelConfig | LocalModelConfig;

export type Env = Readonly<Record<string, string | undefined>>;

/** The `llm:` section of `mnesos.config.yaml`; every key mirrors an environment variable. */
export const llmFileSectionSchema = z.strictObject({
  provider: z.enum([...ONLINE_PROVIDERS, 'offline', 'file']).optional(),
  /** A GGUF model run in-process (provider `file`; docs/models.md, "Local models"). */
  model_file: z.string().optional(),
  base_url: z.string().optional(),
  /** Name of the environment variable holding the key: keys do not belong in files. */
  api_key_env: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
    .optional(),
  model: z.string().optional(),
  director_model: z.string().optional(),
  narrator_model: z.string().optional(),
  npc_model: z.string().optional(),
  embedding_model: z.string().optional(),
  timeout_ms: z.number().int().min(MIN_TIMEOUT_MS).max(MAX_TIMEOUT_MS).optional(),
  max_retries: z.number().int().min(0).max(MAX_RETRIES_LIMIT).optional(),
  backoff_initial_ms: z.number().int().min(0).max(MAX_BACKOFF_MS).optional(),
  backoff_max_ms: z.number().int().min(0).max(MAX_BACKOFF_MS).optional(),
  backoff_factor: z.number().min(1).max(10).optional(),
  constrained_decoding: z.enum(DECODING_SETTINGS).optional(),
});
export type LlmFileSection = z.infer<typeof llmFileSectionSchema>;

function configError(message: string): ModelError {
  return new ModelError('config', message);
}

/** Parses a config file's text; only the `llm:` section is read (other layers own the other keys). */
export function parseModelConfigFile(text: string, fileName: string): LlmFileSection {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const place = (offset: number | undefined): string => {
    if (offset === undefined) return `${fileName}:1:1`;
    const { line, col } = lineCounter.linePos(offset);
    return `${fileName}:${line}:${col}`;
  };
  const first = doc.errors[0];
  if (first) throw configError(`${place(first.pos[0])}: ${first.message.split('\n')[0]}`);
  const data: unknown = doc.toJS();
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data)) throw configError(`${place(0)}: expected a mapping`);
  const llm = (data as Record<string, unknown>).llm;
  if (llm === undefined || llm === null) return {};
  const parsed = llmFileSectionSchema.safeParse(llm);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = [
    'llm',
    ...issue.path.map(String),
    ...(issue.code === 'unrecognized_keys' ? [issue.keys[0]!] : []),
  ];
  const section = doc.getIn(['llm'], true);
  // An unknown key is reported at the key itself; anything else at its value.
  const node =
    issue.code === 'unrecognized_keys' && isMap(section)
      ? keyNode(section, issue.keys[0]!)
      : doc.getIn(path, true);
  const offset = rangeStart(node) ?? rangeStart(section);
  const where = path.join('.');
  const message =
    issue.code === 'unrecognized_keys'
      ? `unknown key (known: ${Object.keys(llmFileSectionSchema.shape).join(', ')})`
      : issue.message;
  throw configError(`${place(offset)}: ${where}: ${message}`);
}

function rangeStart(node: unknown): number | undefined {
  return (node as { range?: [number, number, number] } | null | undefined)?.range?.[0];
}

function keyNode(map: YAMLMap, name: string): unknown {
  for (const pair of map.items) {
    if (isScalar(pair.key) && pair.key.value === name) return pair.key;
  }
  return undefined;
}

/** Reads and parses a config file; a missing or oversized file is an error naming it. */
export function readModelConfigFile(path: string): LlmFileSection {
  const text = readSmallFile(path, 'config file', MAX_CONFIG_FILE_BYTES, 'MAX_CONFIG_FILE_BYTES');
  return parseModelConfigFile(text, path);
}

/** Environment first, then the config file (when a path is given), then defaults. */
export function loadModelConfig(env: Env, configFile?: string): ModelConfig {
  const config = resolveConfig(env, configFile === undefined ? {} : readModelConfigFile(configFile));
  // A local model's file and package are checked now, so a missing one is said before anything starts.
  if (config.provider === 'file') checkLocalModel(config);
  return config;
}

// Empty variables (`MNESOS_PROVIDER=`) count as unset, as shells and .env files often leave them.
function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

interface NumberSetting {
  readonly env: string;
  readonly file: 'timeout_ms' | 'max_retries' | 'backoff_initial_ms' | 'backoff_max_ms' | 'backoff_factor';
  readonly min: number;
  readonly max: number;
  readonly limitName: string;
  readonly integer: boolean;
  readonly fallback: number;
}

const NUMBER_SETTINGS: Readonly<Record<keyof RetryPolicy, NumberSetting>> = {
  timeoutMs: {
    env: 'MNESOS_LLM_TIMEOUT_MS',
    file: 'timeout_ms',
    min: MIN_TIMEOUT_MS,
    max: MAX_TIMEOUT_MS,
    limitName: 'MAX_TIMEOUT_MS',
    integer: true,
    fallback: DEFAULT_TIMEOUT_MS,
  },
  maxRetries: {
    env: 'MNESOS_LLM_MAX_RETRIES',
    file: 'max_retries',
    min: 0,
    max: MAX_RETRIES_LIMIT,
    limitName: 'MAX_RETRIES_LIMIT',
    integer: true,
    fallback: DEFAULT_MAX_RETRIES,
  },
  backoffInitialMs: {
    env: 'MNESOS_LLM_BACKOFF_INITIAL_MS',
    file: 'backoff_initial_ms',
    min: 0,
    max: MAX_BACKOFF_MS,
    limitName: 'MAX_BACKOFF_MS',
    integer: true,
    fallback: DEFAULT_BACKOFF_INITIAL_MS,
  },
  backoffMaxMs: {
    env: 'MNESOS_LLM_BACKOFF_MAX_MS',
    file: 'backoff_max_ms',
    min: 0,
    max: MAX_BACKOFF_MS,
    limitName: 'MAX_BACKOFF_MS',
    integer: true,
    fallback: DEFAULT_BACKOFF_MAX_MS,
  },
  backoffFactor: {
    env: 'MNESOS_LLM_BACKOFF_FACTOR',
    file: 'backoff_factor',
    min: 1,
    max: 10,
    limitName: 'a factor of 10',
    integer: false,
    fallback: DEFAULT_BACKOFF_FACTOR,
  },
};

function readNumber(env: Env, file: LlmFileSection, setting: NumberSetting): number {
  const text = read(env, setting.env);
  if (text === undefined) return file[setting.file] ?? setting.fallback;
  const value = Number(text);
  const kind = setting.integer ? 'an integer' : 'a number';
  if (!Number.isFinite(value) || (setting.integer && !Number.isInteger(value))) {
    throw configError(`${setting.env}: ${JSON.stringify(text)} is not ${kind}`);
  }
  if (value < setting.min || value > setting.max) {
    throw configError(
      `${setting.env}: ${value} is out of range ${setting.min}..${setting.max} (the limit is ${setting.limitName})`,
    );
  }
  return value;
}

function readRetryPolicy(env: Env, file: LlmFileSection): RetryPolicy {
  const policy: Record<keyof RetryPolicy, number> = {
    timeoutMs: 0,
    maxRetries: 0,
    backoffInitialMs: 0,
    backoffFactor: 0,
    backoffMaxMs: 0,
  };
  for (const key of Object.keys(NUMBER_SETTINGS) as (keyof RetryPolicy)[]) {
    policy[key] = readNumber(env, file, NUMBER_SETTINGS[key]);
  }
  return policy;
}

/** The operator's base URL under the one base-URL policy (credentials allowed: it is their own config). */
function normaliseBaseURL(value: string, source: string): string {
  const problem = baseUrlProblem(value, { allowCredentials: true });
  if (problem !== undefined) throw configError(`${source} ${problem.message}`);
  return normaliseBaseUrl(value);
}

function parseProvider(value: string, source: string): OnlineProvider | 'offline' {
  if (value === 'offline' || (ONLINE_PROVIDERS as readonly string[]).includes(value))
    return value as OnlineProvider | 'offline';
  throw configError(
    `${source}: unknown provider ${JSON.stringify(value)}; expected one of ${[...ONLINE_PROVIDERS, 'offline', 'file'].join(', ')}`,
  );
}

/** Provider `file`: MNESOS_MODEL_FILE (or `llm.model_file`) run in-process with its local settings. */
function localModelConfig(env: Env, file: LlmFileSection): LocalModelConfig {
  const fromEnv = read(env, 'MNESOS_MODEL_FILE');
  const path = fromEnv ?? file.model_file?.trim();
  if (path === undefined || path === '') {
    throw configError('provider file needs a model: set MNESOS_MODEL_FILE=/path/to/model.gguf');
  }
  const llamaCppDir = read(env, 'MNESOS_LLAMA_CPP_DIR');
  return {
    provider: 'file',
    file: path,
    source: fromEnv !== undefined ? 'MNESOS_MODEL_FILE' : 'llm.model_file',
    local: readLocalModelOptions(env, availableParallelism()),
    ...(llamaCppDir === undefined ? {} : { llamaCppDir }),
  };
}

/** Provider-standard key variables, used when MNESOS_LLM_API_KEY is not set. */
const PROVIDER_KEY_ENV: Readonly<Record<OnlineProvider, string | undefined>> = {
  // Not OPENAI_API_KEY: that key must not be sent to whatever server MNESOS_LLM_BASE_URL names.
  'openai-compatible': undefined,
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  google: 'GOOGLE_GENERATIVE_AI_API_KEY',
};

/**
 * Pure resolution of environment + parsed file section into a config, the local model included: provider
 * `file` when MNESOS_PROVIDER (or `llm.provider`) says so, or when MNESOS_MODEL_FILE (`llm.model_file`) is
 * set and no provider is named.
 */
export function resolveConfig(env: Env, file: LlmFileSection = {}): ModelConfig {
  const providerText = read(env, 'MNESOS_PROVIDER') ?? file.provider;
  const providerSource = read(env, 'MNESOS_PROVIDER') !== undefined ? 'MNESOS_PROVIDER' : 'llm.provider';
  const modelFile = read(env, 'MNESOS_MODEL_FILE') ?? file.model_file;
  if (providerText === 'file' || (providerText === undefined && modelFile !== undefined))
    return localModelConfig(env, file);
  if (modelFile !== undefined && providerText !== 'offline') {
    throw configError(
      `MNESOS_MODEL_FILE (a local model) and ${providerSource}=${providerText} both choose the models: unset one of them`,
    );
  }
  return resolveModelConfig(env, file);
}

/** Pure resolution of environment + parsed file section into a config of a model server, or offline. */
export function resolveModelConfig(
  env: Env,
  file: LlmFileSection = {},
): OnlineModelConfig | OfflineModelConfig {
  const providerText = read(env, 'MNESOS_PROVIDER') ?? file.provider;
  const providerSource = read(env, 'MNESOS_PROVIDER') !== undefined ? 'MNESOS_PROVIDER' : 'llm.provider';
  const explicit = providerText === undefined ? undefined : parseProvider(providerText, providerSource);
  if (explicit === 'offline') return { provider: 'offline', reason: `${providerSource} is offline` };

  const { mnesosBase, baseText, baseSource } = baseSetting(env, file);
  const roleModel = roleModelsOf(env, file);
  const fileKeyEnv = file.api_key_env;
  const mnesosKey =
    read(env, 'MNESOS_LLM_API_KEY') ?? (fileKeyEnv === undefined ? undefined : read(env, fileKeyEnv));
  const provider = explicit ?? impliedProvider(env, baseText, roleModel, mnesosKey);
  if (provider === 'offline') {
    return {
      provider: 'offline',
      reason: 'no model provider is configured (MNESOS_LLM_BASE_URL, MNESOS_PROVIDER)',
    };
  }

  const baseURL = baseText === undefined ? undefined : normaliseBaseURL(baseText, baseSource);
  if (provider === 'openai-compatible' && baseURL === undefined) {
    throw configError(
      `provider openai-compatible needs a server: set MNESOS_LLM_BASE_URL (e.g. http://localhost:11434/v1)`,
    );
  }

  const keyEnv = PROVIDER_KEY_ENV[provider];
  // OPENAI_API_KEY pairs with OPENAI_BASE_URL: honour it for a compatible server only when the URL came from there too.
  const pairedOpenAIKey =
    provider === 'openai-compatible' && mnesosBase === undefined ? read(env, 'OPENAI_API_KEY') : undefined;
  const keyText = mnesosKey ?? (keyEnv === undefined ? pairedOpenAIKey : read(env, keyEnv));
  if (keyText === undefined && provider !== 'openai-compatible') {
    throw configError(`provider ${provider} needs an API key: set MNESOS_LLM_API_KEY or ${keyEnv}`);
  }

  const missing = MODEL_ROLES.filter((role) => roleModel[role] === undefined);
  if (missing.length > 0) {
    throw configError(
      `no model for ${missing.join(', ')}: set MNESOS_MODEL, or ${missing.map((r) => `MNESOS_${r.toUpperCase()}_MODEL`).join(' / ')}`,
    );
  }
  const embeddingModel = read(env, 'MNESOS_EMBEDDING_MODEL') ?? file.embedding_model;
  const decoding = resolveDecoding(
    read(env, 'MNESOS_CONSTRAINED_DECODING') ?? file.constrained_decoding,
    provider,
    baseURL,
  );
  return {
    decoding,
    provider,
    ...(baseURL === undefined ? {} : { baseURL }),
    ...(keyText === undefined ? {} : { apiKey: new Secret(keyText) }),
    models: { director: roleModel.director!, narrator: roleModel.narrator!, npc: roleModel.npc! },
    ...(embeddingModel === undefined ? {} : { embeddingModel }),
    retry: readRetryPolicy(env, file),
  };
}

/** The server's base URL as set, and where it came from (MNESOS_LLM_BASE_URL, llm.base_url, OPENAI_BASE_URL). */
function baseSetting(
  env: Env,
  file: LlmFileSection,
): { mnesosBase: string | undefined; baseText: string | undefined; baseSource: string } {
  const mnesosBase = read(env, 'MNESOS_LLM_BASE_URL') ?? file.base_url;
  const baseText = mnesosBase ?? read(env, 'OPENAI_BASE_URL');
  const baseSource =
    read(env, 'MNESOS_LLM_BASE_URL') !== undefined
      ? 'MNESOS_LLM_BASE_URL'
      : mnesosBase !== undefined
        ? 'llm.base_url'
        : 'OPENAI_BASE_URL';
  return { mnesosBase, baseText, baseSource };
}

/** Each role's model: its own setting, else the default model (MNESOS_MODEL or llm.model). */
function roleModelsOf(env: Env, file: LlmFileSection): Record<ModelRole, string | undefined> {
  const defaultModel = read(env, 'MNESOS_MODEL') ?? file.model;
  return {
    director: read(env, 'MNESOS_DIRECTOR_MODEL') ?? file.director_model ?? defaultModel,
    narrator: read(env, 'MNESOS_NARRATOR_MODEL') ?? file.narrator_model ?? defaultModel,
    npc: read(env, 'MNESOS_NPC_MODEL') ?? file.npc_model ?? defaultModel,
  };
}

/** The provider the settings imply when none is named: a base URL, else OpenAI's key, else none (offline). */
function impliedProvider(
  env: Env,
  baseText: string | undefined,
  roleModel: Record<ModelRole, string | undefined>,
  mnesosKey: string | undefined,
): OnlineProvider | 'offline' {
  const anyModel = MODEL_ROLES.some((role) => roleModel[role] !== undefined);
  if (baseText !== undefined) return 'openai-compatible';
  if (anyModel && (mnesosKey ?? read(env, 'OPENAI_API_KEY')) !== undefined) return 'openai';
  if (anyModel) {
    throw configError(
      'a model is set (MNESOS_MODEL or a per-role model) but no provider: set MNESOS_LLM_BASE_URL to an OpenAI-compatible server, or MNESOS_PROVIDER',
    );
  }
  return 'offline';
}

/**
 * The constrained decoding a setting means for a provider. `auto` (the default): `strict-tools` for an
 * OpenAI-compatible base URL on api.openai.com, `off` elsewhere (a local server's support depends on its
 * version and flags, so it is asked for by name: docs/models.md has the matrix). The native providers go
 * through the AI SDK, which sends tools as they are: only `off` applies to them.
 */
function resolveDecoding(
  setting: string | undefined,
  provider: OnlineProvider,
  baseURL: string | undefined,
): ConstrainedDecoding {
  const value = setting ?? 'auto';
  if (!(DECODING_SETTINGS as readonly string[]).includes(value)) {
    throw configError(
      `MNESOS_CONSTRAINED_DECODING: unknown setting ${JSON.stringify(value)}; expected one of ${DECODING_SETTINGS.join(', ')}`,
    );
  }
  if (provider !== 'openai-compatible') {
    if (value === 'auto' || value === 'off') return 'off';
    throw configError(
      `constrained decoding ${value} needs provider openai-compatible (${provider} sends tools through its SDK)`,
    );
  }
  if (value !== 'auto') return value as ConstrainedDecoding;
  const host = baseURL === undefined ? '' : new URL(baseURL).hostname;
  return host === 'api.openai.com' ? 'strict-tools' : 'off';
}

/** A one-line summary that is safe to print: no key, no credentials inside the URL. */
export function describeModelConfig(config: ModelConfig): string {
  if (config.provider === 'offline') return `offline: ${config.reason}`;
  if (config.provider === 'file') {
    const { threads, contextSize, seed } = config.local;
    return `file ${config.file} (in-process, CPU); ${threads} thread(s), context ${contextSize ?? 'the model’s (at most 8192)'}, seed ${seed ?? 'random'}`;
  }
  let where = '';
  if (config.baseURL !== undefined) {
    const url = new URL(config.baseURL);
    url.username = '';
    url.password = '';
    where = ` at ${normaliseBaseUrl(url.toString())}`;
  }
  const models = MODEL_ROLES.map((role) => `${role}=${config.models[role]}`).join(', ');
  const embeddings = config.embeddingModel === undefined ? '' : `, embeddings=${config.embeddingModel}`;
  const key = config.apiKey === undefined ? 'no key' : 'key set';
  return `${config.provider}${where} (${key}); ${models}${embeddings}; timeout ${config.retry.timeoutMs} ms, ${config.retry.maxRetries} retries`;
}
