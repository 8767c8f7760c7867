// Builds one ChatModel per role from a resolved config. Every provider goes through the same adapter,
// so retries, timeouts, cancellation and tool-call handling behave the same everywhere.

import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { ModelConfig, OnlineModelConfig } from './config.ts';
import { ModelError } from './errors.ts';
import { createOpenAICompatibleChatModel } from './openai-compatible-model.ts';
import { createSdkChatModel, type SdkLanguageModel } from './sdk-model.ts';
import type { ChatModel, ModelRole, ModelSet } from './types.ts';

/** Returns the factory that turns a model id into an AI SDK language model for this provider. */
export function languageModelFactory(config: OnlineModelConfig): (modelId: string) => SdkLanguageModel {
  const apiKey = config.apiKey?.reveal();
  const baseURL = config.baseURL;
  switch (config.provider) {
    case 'openai-compatible': {
      if (baseURL === undefined)
        throw new ModelError('config', 'provider openai-compatible needs a base URL');
      const provider = createOpenAICompatible({
        name: 'mnesos',
        baseURL,
        ...(apiKey === undefined ? {} : { apiKey }),
        // Ask for the usage chunk at the end of a stream (OpenAI, vLLM, Ollama and llama.cpp send it).
        includeUsage: true,
      });
      return (id) => provider.chatModel(id);
    }
    case 'openai': {
      const provider = createOpenAI({ apiKey, ...(baseURL === undefined ? {} : { baseURL }) });
      // Chat Completions, not the Responses API: the same wire shape as every compatible server.
      return (id) => provider.chat(id);
    }
    case 'anthropic': {
      const provider = createAnthropic({ apiKey, ...(baseURL === undefined ? {} : { baseURL }) });
      return (id) => provider(id);
    }
    case 'google': {
      const provider = createGoogleGenerativeAI({ apiKey, ...(baseURL === undefined ? {} : { baseURL }) });
      return (id) => provider(id);
    }
    default: {
      const never: never = config.provider;
      throw new ModelError('config', `unknown provider ${String(never)}`);
    }
  }
}

/** One model per role, or `null` when the config is offline. */
export function createModels(config: ModelConfig): ModelSet | null {
  if (config.provider === 'offline') return null;
  const factory = languageModelFactory(config);
  const secrets = config.apiKey === undefined ? [] : [config.apiKey.reveal()];
  const build = (role: ModelRole): ChatModel => {
    const modelId = config.models[role];
    if (modelId.trim() === '') throw new ModelError('config', `the ${role} model id is empty`);
    if (config.provider === 'openai-compatible' && config.baseURL !== undefined) {
      // Our own client for this wire: the SDK's per-chunk stream pipeline costs several times the
      // per-turn CPU budget (issue 10, bench/model-client.ts). The other providers keep the SDK.
      const apiKey = config.apiKey?.reveal();
      return createOpenAICompatibleChatModel(modelId, {
        baseURL: config.baseURL,
        ...(apiKey === undefined ? {} : { apiKey }),
        policy: config.retry,
        secrets,
      });
    }
    return createSdkChatModel(factory(modelId), modelId, {
      policy: config.retry,
      secrets,
      // Anthropic caches only up to explicit breakpoints; the other providers cache prefixes themselves.
      ...(config.provider === 'anthropic' ? { promptCache: 'anthropic' as const } : {}),
    });
  };
  return { director: build('director'), narrator: build('narrator'), npc: build('npc') };
}
