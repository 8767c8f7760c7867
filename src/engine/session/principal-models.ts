// The models of one principal's turns: the server's models overridden by the principal's stored settings.
// Settings are read from the store on every turn (one small row), so a change made through any replica
// applies to the next turn everywhere; models built from a config are cached per principal and rebuilt
// only when that principal's settings change.

import {
  checkLocalModel,
  createModels,
  isModelError,
  type ModelConfig,
  type ModelRole,
  type ModelSet,
  type OnlineModelConfig,
} from '../../adapters/llm/index.ts';
import * as z from 'zod/mini';
import type { SettingsStore } from '../../adapters/store/index.ts';
import { canonicalJson } from './canonical.ts';
import { SessionError } from './errors.ts';
import {
  isEmptySettings,
  type ModelSettings,
  modelSettingsSchema,
  planModels,
  type ServerModels,
  type SettingsPlan,
  type SettingsPolicy,
  withTemperature,
} from './model-settings.ts';

/** Principals whose built models are kept in memory; the least recently used go first. */
export const MODEL_CACHE_SIZE = 256;

export interface PrincipalModelsOptions {
  readonly store: Pick<SettingsStore, 'getModelSettings'>;
  readonly server: ServerModels;
  readonly allowUserBaseUrl?: boolean;
  /** The model names principals may choose (MNESOS_ALLOWED_MODELS); any when absent. */
  readonly allowedModels?: ReadonlySet<string>;
  /** Builds the models of a config (default `createModels`); tests count the builds. */
  readonly build?: (config: ModelConfig) => ModelSet | null;
  readonly cacheSize?: number;
}

/** What a principal's settings are and whether they can be used, for `GET /v1/settings`. */
export interface SettingsState {
  readonly settings: ModelSettings;
  readonly updatedAt: number | null;
  /** Why the stored settings cannot be used now, or which parts are ignored; null when they all apply. */
  readonly problem: string | null;
}

/** How a principal's models reach another thread (`PrincipalModels.portableModelsFor`). */
export type PortableModels =
  /** An online provider's config: the other thread builds the same models from it. */
  | { readonly kind: 'config'; readonly config: OnlineModelConfig; readonly temperature?: number }
  /** Models only this thread has (given by code, or a local model file): calls are relayed here. */
  | { readonly kind: 'here'; readonly models: ModelSet };

/** What a principal's settings choose (before any model is built). */
type ModelChoice =
  | { readonly kind: 'server' }
  | { readonly kind: 'injected'; readonly temperature: number }
  | {
      readonly kind: 'config';
      /** The settings as canonical JSON: the cache's key. */
      readonly key: string;
      readonly config: ModelConfig;
      readonly temperature?: number;
    };

/** The server's own models as a user may see them: no base URL (it may be internal), never a key. */
export interface ServerModelsView {
  readonly provider: string;
  readonly models: Readonly<Record<ModelRole, string>> | null;
  readonly allowUserBaseUrl: boolean;
}

export class PrincipalModels {
  readonly policy: SettingsPolicy;
  readonly #store: Pick<SettingsStore, 'getModelSettings'>;
  readonly #server: ServerModels;
  readonly #build: (config: ModelConfig) => ModelSet | null;
  readonly #cacheSize: number;
  readonly #cache = new Map<string, { readonly key: string; readonly models: ModelSet | null }>();
  #serverModels: { readonly models: ModelSet | null } | undefined;

  constructor(options: PrincipalModelsOptions) {
    this.#store = options.store;
    this.#server = options.server;
    this.#build = options.build ?? createModels;
    this.policy = {
      allowUserBaseUrl: options.allowUserBaseUrl ?? false,
      ...(options.allowedModels === undefined ? {} : { allowedModels: options.allowedModels }),
    };
    const size = options.cacheSize ?? MODEL_CACHE_SIZE;
    if (!Number.isSafeInteger(size) || size < 1)
      throw new RangeError(`model cache size must be a positive integer, got ${String(size)}`);
    this.#cacheSize = size;
  }

  /** Principals with models in the cache now. */
  get cachedCount(): number {
    return this.#cache.size;
  }

  describeServer(): ServerModelsView {
    const server = this.#server;
    switch (server.kind) {
      case 'injected':
        return { provider: 'custom', models: null, allowUserBaseUrl: this.policy.allowUserBaseUrl };
      case 'config':
        return {
          provider: server.config.provider,
          models: modelsOf(server.config),
          allowUserBaseUrl: this.policy.allowUserBaseUrl,
        };
      default: {
        const unreachable: never = server;
        throw new Error(`unknown server models ${JSON.stringify(unreachable)}`);
      }
    }
  }

  /** Whether these settings could be stored and used (the check `PUT /v1/settings` makes). */
  plan(settings: ModelSettings): SettingsPlan {
    const plan = planModels(this.#server, settings, this.policy);
    // A local model file the settings name is checked on the disk (and node-llama-cpp looked for) here, so
    // saving a wrong path is refused with what is wrong, not the next turn.
    if (
      plan.ok &&
      plan.recipe.kind === 'config' &&
      plan.recipe.config.provider === 'file' &&
      settings.modelFile !== undefined
    ) {
      try {
        checkLocalModel(plan.recipe.config);
      } catch (error) {
        if (!isModelError(error)) throw error;
        return { ok: false, reason: 'unusable', message: error.message };
      }
    }
    return plan;
  }

  async settingsOf(principalId: string): Promise<SettingsState> {
    const stored = await this.#store.getModelSettings(principalId);
    if (stored === undefined) return { settings: {}, updatedAt: null, problem: null };
    const parsed = z.safeParse(modelSettingsSchema, stored.settings);
    if (!parsed.success) {
      return {
        settings: {},
        updatedAt: stored.updatedAt,
        problem: `the stored settings are not valid (${parsed.error.issues[0]?.message ?? 'unknown'}); save new ones`,
      };
    }
    const plan = this.plan(parsed.data);
    return {
      settings: parsed.data,
      updatedAt: stored.updatedAt,
      problem: plan.ok ? plan.ignored : plan.message,
    };
  }

  /** The models of the principal's next turn; null means offline. Throws SessionError `settings`. */
  async modelsFor(principalId: string): Promise<ModelSet | null> {
    return this.#modelsOf(principalId, await this.#choose(principalId));
  }

  /**
   * The principal's models in a form another thread can rebuild them from (the generator's worker,
   * src/apps/server/generate/): an online provider's config, or the models themselves when only this thread
   * has them (given by code, or a local model file this process loads). Null means offline. Throws
   * SessionError `settings`, as `modelsFor` does.
   */
  async portableModelsFor(principalId: string): Promise<PortableModels | null> {
    const choice = await this.#choose(principalId);
    const config =
      choice.kind === 'config'
        ? choice.config
        : choice.kind === 'server' && this.#server.kind === 'config'
          ? this.#server.config
          : undefined;
    if (config !== undefined && config.provider !== 'offline' && config.provider !== 'file')
      return {
        kind: 'config',
        config,
        ...(choice.kind === 'config' && choice.temperature !== undefined
          ? { temperature: choice.temperature }
          : {}),
      };
    const models = this.#modelsOf(principalId, choice);
    return models === null ? null : { kind: 'here', models };
  }

  /** Where the principal's models come from: the server's own, the server's with a temperature, or a config. */
  async #choose(principalId: string): Promise<ModelChoice> {
    const stored = await this.#store.getModelSettings(principalId);
    if (stored === undefined) return { kind: 'server' };
    const parsed = z.safeParse(modelSettingsSchema, stored.settings);
    if (!parsed.success) throw settingsError('the stored settings are not valid');
    const settings = parsed.data;
    if (isEmptySettings(settings)) return { kind: 'server' };
    const plan = this.plan(settings);
    if (!plan.ok) throw settingsError(plan.message);
    const recipe = plan.recipe;
    switch (recipe.kind) {
      case 'injected':
        return recipe.temperature === undefined
          ? { kind: 'server' }
          : { kind: 'injected', temperature: recipe.temperature };
      case 'config':
        return {
          kind: 'config',
          key: canonicalJson(settings),
          config: recipe.config,
          ...(recipe.temperature === undefined ? {} : { temperature: recipe.temperature }),
        };
      default: {
        const unreachable: never = recipe;
        throw new Error(`unknown model recipe ${JSON.stringify(unreachable)}`);
      }
    }
  }

  #modelsOf(principalId: string, choice: ModelChoice): ModelSet | null {
    switch (choice.kind) {
      case 'server':
        return this.#serverDefault();
      case 'injected': {
        // Built per turn: injected sets may be stateful (scripted replies), so they are never cached.
        const models = this.#serverDefault();
        return models === null ? null : withTemperature(models, choice.temperature);
      }
      case 'config':
        return this.#cached(principalId, choice.key, () => {
          const models = this.#build(choice.config);
          return models !== null && choice.temperature !== undefined
            ? withTemperature(models, choice.temperature)
            : models;
        });
      default: {
        const unreachable: never = choice;
        throw new Error(`unknown model choice ${JSON.stringify(unreachable)}`);
      }
    }
  }

  #serverDefault(): ModelSet | null {
    const server = this.#server;
    switch (server.kind) {
      case 'injected':
        return server.models();
      case 'config':
        this.#serverModels ??= { models: this.#build(server.config) };
        return this.#serverModels.models;
      default: {
        const unreachable: never = server;
        throw new Error(`unknown server models ${JSON.stringify(unreachable)}`);
      }
    }
  }

  #cached(principalId: string, key: string, build: () => ModelSet | null): ModelSet | null {
    const hit = this.#cache.get(principalId);
    // Re-inserting moves the entry to the end: the Map's order is least recently used first.
    this.#cache.delete(principalId);
    if (hit !== undefined && hit.key === key) {
      this.#cache.set(principalId, hit);
      return hit.models;
    }
    let models: ModelSet | null;
    try {
      models = build();
    } catch (error) {
      throw settingsError((error as Error).message);
    }
    this.#cache.set(principalId, { key, models });
    while (this.#cache.size > this.#cacheSize) {
      const oldest = this.#cache.keys().next();
      if (oldest.done) break;
      this.#cache.delete(oldest.value);
    }
    return models;
  }
}

function settingsError(why: string): SessionError {
  return new SessionError(
    'settings',
    `your model settings cannot be used: ${why.replace(/\.$/, '')}. Change them in Settings (PUT /v1/settings).`,
  );
}

/** The model names a user sees: a local file is shown by its file name only (its folder is the server's). */
function modelsOf(config: ModelConfig): Readonly<Record<ModelRole, string>> | null {
  switch (config.provider) {
    case 'offline':
      return null;
    case 'file': {
      const name = `file:${config.file.split(/[\\/]/).pop() ?? config.file}`;
      return { director: name, narrator: name, npc: name };
    }
    default:
      return { ...config.models };
  }
}
