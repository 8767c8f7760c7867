// A principal's model settings (base URL, provider, model per role, temperature) and how they combine with
// the server's own model configuration. Pure: no store, no network; `PrincipalModels` does the I/O.
//
// Safety: requests built from these settings carry the server's API key (keys stay in the server's
// environment and are never stored here). A user-chosen base URL or provider would send that key wherever
// the user says, so both need the operator's consent (`serve --allow-user-base-url`), and a provider other
// than the server's own never receives the server's key at all.

import { isAbsolute } from 'node:path';
import * as z from 'zod/mini';
import { normaliseBaseUrl, baseUrlProblem as sharedBaseUrlProblem } from '../../core/base-url-policy.ts';
import {
  type ModelSettings,
  modelNameSchema,
  modelSettingsSchema as settingsShape,
} from '../../core/model-settings/index.ts';
import {
  type ChatModel,
  DEFAULT_RETRY_POLICY,
  localModelDefaults,
  MODEL_ROLES,
  type ModelConfig,
  type ModelRole,
  type ModelSet,
  type OnlineModelConfig,
  type OnlineProvider,
} from '../../adapters/llm/index.ts';

export {
  MAX_BASE_URL_CHARS,
  MAX_MODEL_FILE_PATH_CHARS,
  MAX_MODEL_NAME_CHARS,
  MAX_TEMPERATURE,
  MIN_TEMPERATURE,
  type ModelSettings,
  SETTINGS_PROVIDERS,
  type SettingsProvider,
} from '../../core/model-settings/index.ts';

/**
 * Why a principal's base URL is refused, or undefined: the one base-URL policy, without credentials (they
 * would be a secret stored in the database in clear text).
 */
export function baseUrlProblem(text: string): string | undefined {
  return sharedBaseUrlProblem(text, { allowCredentials: false })?.message;
}

/**
 * A principal's settings as the server reads them (a request body, a stored row): the one schema
 * (core/model-settings) and what only the server can check, that a model file's path is absolute on its
 * own machine.
 */
export const modelSettingsSchema = settingsShape.check(
  z.superRefine((settings, ctx) => {
    const file = settings.modelFile;
    // The shape's own checks report a model file that is not text; this one reads only text.
    if (typeof file === 'string' && !isAbsolute(file))
      ctx.issues.push({
        code: 'custom',
        path: ['modelFile'],
        message: 'must be an absolute path on the server',
        input: file,
      });
  }),
);

/** Whether the settings change anything at all. */
export function isEmptySettings(settings: ModelSettings): boolean {
  const models = settings.models ?? {};
  return (
    settings.provider === undefined &&
    settings.baseUrl === undefined &&
    settings.modelFile === undefined &&
    settings.temperature === undefined &&
    MODEL_ROLES.every((role) => models[role] === undefined)
  );
}

/** Where the server's own models come from. */
export type ServerModels =
  /** Built by the server from the operator's configuration (environment, config file). */
  | { readonly kind: 'config'; readonly config: ModelConfig }
  /** Given by code (tests, an embedding application): opaque, so settings can only set the temperature. */
  | { readonly kind: 'injected'; readonly models: () => ModelSet | null };

export interface SettingsPolicy {
  /** The operator lets users choose the base URL and provider (`serve --allow-user-base-url`). */
  readonly allowUserBaseUrl: boolean;
  /**
   * The model names principals may choose (MNESOS_ALLOWED_MODELS), since their requests can carry the
   * server's key; any name when absent.
   */
  readonly allowedModels?: ReadonlySet<string>;
}

/** Most names an allowlist may hold. */
export const MAX_ALLOWED_MODELS = 100;

/** The operator's allowlist from comma-separated names (MNESOS_ALLOWED_MODELS); undefined when unset. */
export function parseAllowedModels(text: string | undefined): ReadonlySet<string> | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length > MAX_ALLOWED_MODELS)
    throw new RangeError(
      `MNESOS_ALLOWED_MODELS names ${names.length} models; the limit is ${MAX_ALLOWED_MODELS}`,
    );
  for (const name of names) {
    const checked = z.safeParse(modelNameSchema, name);
    if (!checked.success)
      throw new RangeError(
        `MNESOS_ALLOWED_MODELS: '${name.slice(0, 60)}' ${checked.error.issues[0]?.message}`,
      );
  }
  return new Set(names);
}

/** How a principal's models are made. */
export type ModelRecipe =
  | { readonly kind: 'config'; readonly config: ModelConfig; readonly temperature?: number }
  | { readonly kind: 'injected'; readonly temperature?: number };

export type SettingsPlan =
  | {
      readonly ok: true;
      readonly recipe: ModelRecipe;
      /** Parts of the settings this server cannot apply (stored anyway, shown to the user). */
      readonly ignored: string | null;
    }
  | {
      readonly ok: false;
      /**
       * `endpoint-not-allowed`: base URL or provider without the operator's consent; `model-not-allowed`: a
       * model name outside the operator's allowlist; `unusable`: no working config.
       */
      readonly reason: 'endpoint-not-allowed' | 'model-not-allowed' | 'unusable';
      readonly message: string;
    };

export const ENDPOINT_NOT_ALLOWED_MESSAGE =
  'this server does not let users choose where model requests go (baseUrl, provider): those requests ' +
  'carry the server’s API key. The operator can allow it with `mnesos serve --allow-user-base-url`.';

function unusable(message: string): SettingsPlan {
  return { ok: false, reason: 'unusable', message };
}

function withTemperatureOf(settings: ModelSettings): { temperature?: number } {
  return settings.temperature === undefined ? {} : { temperature: settings.temperature };
}

/** What the server's models plus a principal's settings make, or why they cannot be used. */
export function planModels(
  server: ServerModels,
  settings: ModelSettings,
  policy: SettingsPolicy,
): SettingsPlan {
  const movesEndpoint =
    settings.baseUrl !== undefined || settings.provider !== undefined || settings.modelFile !== undefined;
  if (movesEndpoint && !policy.allowUserBaseUrl) {
    return { ok: false, reason: 'endpoint-not-allowed', message: ENDPOINT_NOT_ALLOWED_MESSAGE };
  }
  if (policy.allowedModels !== undefined) {
    for (const role of MODEL_ROLES) {
      const chosen = settings.models?.[role];
      if (chosen === undefined || policy.allowedModels.has(chosen)) continue;
      return {
        ok: false,
        reason: 'model-not-allowed',
        message: `models.${role}: '${chosen}' is not a model this server offers (${[...policy.allowedModels].join(', ')}); the operator lists them in MNESOS_ALLOWED_MODELS`,
      };
    }
  }
  switch (server.kind) {
    case 'injected': {
      const setsModels = movesEndpoint || settings.models !== undefined;
      return {
        ok: true,
        recipe: { kind: 'injected', ...withTemperatureOf(settings) },
        ignored: setsModels
          ? 'this server’s models are given by its code: only the temperature applies'
          : null,
      };
    }
    case 'config': {
      const built = mergeConfig(server.config, settings);
      if (typeof built === 'string') return unusable(built);
      return {
        ok: true,
        recipe: { kind: 'config', config: built, ...withTemperatureOf(settings) },
        ignored: null,
      };
    }
    default: {
      const unreachable: never = server;
      return unusable(`unknown server models ${JSON.stringify(unreachable)}`);
    }
  }
}

/** The server's config overridden by the settings, or a message saying why that does not work. */
export function mergeConfig(base: ModelConfig, settings: ModelSettings): ModelConfig | string {
  // The temperature is applied to the built models (withTemperature), not to the config.
  if (isEmptySettings({ ...settings, temperature: undefined })) return base;
  if (settings.provider === 'file' || settings.modelFile !== undefined) return localConfig(base, settings);
  // A local model file has no provider, models or base URL to lend: settings naming them stand alone.
  const online: OnlineModelConfig | undefined =
    base.provider === 'offline' || base.provider === 'file' ? undefined : base;
  const provider: OnlineProvider | undefined =
    (settings.provider as OnlineProvider | undefined) ??
    online?.provider ??
    (settings.baseUrl === undefined ? undefined : 'openai-compatible');
  if (provider === undefined) {
    return 'the server has no model provider configured, so model names alone cannot be used: set baseUrl too (the operator must allow it) or ask the operator to configure a provider';
  }
  const ownProvider = online !== undefined && online.provider === provider;
  if (!ownProvider && provider !== 'openai-compatible') {
    return `provider ${provider} needs an API key, and the server’s key is only sent to its own provider (${base.provider}); keys stay in the server environment`;
  }
  const baseURL =
    settings.baseUrl === undefined
      ? ownProvider
        ? online.baseURL
        : undefined
      : normaliseBaseUrl(settings.baseUrl);
  if (provider === 'openai-compatible' && baseURL === undefined) {
    return 'provider openai-compatible needs a baseUrl (for example http://localhost:11434/v1)';
  }
  const models: Partial<Record<ModelRole, string>> = {};
  const missing: ModelRole[] = [];
  for (const role of MODEL_ROLES) {
    const model = settings.models?.[role] ?? (ownProvider ? online.models[role] : undefined);
    if (model === undefined) missing.push(role);
    else models[role] = model;
  }
  if (missing.length > 0) {
    return `no model for ${missing.join(', ')}: the server has none for provider ${provider}, so set models.${missing.join(', models.')}`;
  }
  return {
    provider,
    ...(baseURL === undefined ? {} : { baseURL }),
    ...(ownProvider && online.apiKey !== undefined ? { apiKey: online.apiKey } : {}),
    models: models as Record<ModelRole, string>,
    ...(ownProvider && online.embeddingModel !== undefined ? { embeddingModel: online.embeddingModel } : {}),
    retry: online?.retry ?? DEFAULT_RETRY_POLICY,
    // The server's constrained decoding belongs to its own server; a player's base URL gets the default.
    ...(ownProvider && baseURL === online.baseURL && online.decoding !== undefined
      ? { decoding: online.decoding }
      : {}),
  };
}

/** A local model file chosen in the settings: the server's local settings, or the defaults. */
function localConfig(base: ModelConfig, settings: ModelSettings): ModelConfig | string {
  if (settings.provider !== undefined && settings.provider !== 'file') {
    return `modelFile runs a local model (provider file), not provider ${settings.provider}: leave one of them out`;
  }
  if (settings.baseUrl !== undefined || settings.models !== undefined) {
    return 'a local model file has no base URL or model names: leave baseUrl and models out';
  }
  const file = settings.modelFile ?? (base.provider === 'file' ? base.file : undefined);
  if (file === undefined)
    return 'provider file needs modelFile: the absolute path of a .gguf file on the server';
  const defaults = base.provider === 'file' ? base : localModelDefaults();
  return {
    provider: 'file',
    file,
    source:
      settings.modelFile === undefined ? (base.provider === 'file' ? base.source : 'modelFile') : 'modelFile',
    local: defaults.local,
    ...(defaults.llamaCppDir === undefined ? {} : { llamaCppDir: defaults.llamaCppDir }),
  };
}

function temperatureModel(model: ChatModel, temperature: number): ChatModel {
  return {
    id: model.id,
    ...(model.decoding === undefined ? {} : { decoding: model.decoding }),
    generate: (req) => model.generate({ ...req, temperature }),
    stream: (req) => model.stream({ ...req, temperature }),
  };
}

/** Every role's requests sent with this temperature. */
export function withTemperature(models: ModelSet, temperature: number): ModelSet {
  return {
    director: temperatureModel(models.director, temperature),
    narrator: temperatureModel(models.narrator, temperature),
    npc: temperatureModel(models.npc, temperature),
  };
}
