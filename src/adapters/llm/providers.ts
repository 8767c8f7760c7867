// Builds one ChatModel per role from a resolved config. Every provider goes through the same adapter,
// so retries, timeouts, cancellation and tool-call handling behave the same everywhere.

import type { ModelConfig, OnlineModelConfig } from './config.ts';
import { ModelError } from './errors.ts';
import { createLocalModels } from './local-gguf/index.ts';
import { createOpenAICompatibleChatModel } from './openai-compatible-model.ts';
import type { SdkChatModelOptions } from './sdk-model.ts';
import { withModelTokensNeutralised } from './special-tokens.ts';
import type { ChatModel, ModelRequest, ModelRole, ModelSet, ModelStreamPart } from './types.ts';

/**
 * One model per role, or `null` when the config is offline. Each is sent no text its own vocabulary
 * would read as a special token (special-tokens.ts).
 */
export function createModels(config: ModelConfig): ModelSet | null {
  const models = buildModels(config);
  if (models === null) return null;
  // One local model plays every role: wrapped once, so the roles still share it.
  const wrapped = new Map<ChatModel, ChatModel>();
  const guard = (model: ChatModel): ChatModel => {
    const known = wrapped.get(model) ?? withModelTokensNeutralised(model);
    wrapped.set(model, known);
    return known;
  };
  return { director: guard(models.director), narrator: guard(models.narrator), npc: guard(models.npc) };
}

function buildModels(config: ModelConfig): ModelSet | null {
  if (config.provider === 'offline') return null;
  if (config.provider === 'file') return createLocalModels(config);
  const secrets = config.apiKey === undefined ? [] : [config.apiKey.reveal()];
  const build = (role: ModelRole): ChatModel => {
    const modelId = config.models[role];
    if (modelId.trim() === '') throw new ModelError('config', `the ${role} model id is empty`);
    if (config.provider === 'openai-compatible' && config.baseURL !== undefined) {
      // Our own client for this wire: the SDK's per-chunk stream pipeline costs several times the
      // per-turn CPU budget (bench/model-client.ts measures it). The other providers keep the SDK.
      const apiKey = config.apiKey?.reveal();
      const model = createOpenAICompatibleChatModel(modelId, {
        baseURL: config.baseURL,
        ...(apiKey === undefined ? {} : { apiKey }),
        policy: config.retry,
        secrets,
      });
      return config.decoding === undefined || config.decoding === 'off'
        ? model
        : { ...model, decoding: config.decoding };
    }
    return lazySdkChatModel(config, modelId, {
      policy: config.retry,
      secrets,
      // Anthropic caches only up to explicit breakpoints; the other providers cache prefixes themselves.
      ...(config.provider === 'anthropic' ? { promptCache: 'anthropic' as const } : {}),
    });
  };
  return { director: build('director'), narrator: build('narrator'), npc: build('npc') };
}

/**
 * A model of an AI SDK provider whose SDK is imported on its first call, not when the models are built:
 * `serve`, `play` and `turn` start without the SDK unless such a model is actually used.
 */
function lazySdkChatModel(
  config: OnlineModelConfig,
  modelId: string,
  options: SdkChatModelOptions,
): ChatModel {
  let loaded: Promise<ChatModel> | undefined;
  const model = (): Promise<ChatModel> => {
    loaded ??= Promise.all([import('./sdk-providers.ts'), import('./sdk-model.ts')]).then(
      ([providers, sdk]) =>
        sdk.createSdkChatModel(providers.languageModelFactory(config)(modelId), modelId, options),
    );
    return loaded;
  };
  return {
    id: modelId,
    generate: async (req: ModelRequest) => (await model()).generate(req),
    stream: (req: ModelRequest): AsyncIterable<ModelStreamPart> => ({
      async *[Symbol.asyncIterator]() {
        yield* (await model()).stream(req);
      },
    }),
  };
}
