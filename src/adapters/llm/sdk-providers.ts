// The AI SDK's provider factories. Loaded on the first call of a model of the openai, anthropic or google
// provider (see providers.ts): the SDK and its dependencies cost a server or a command a few hundred
// milliseconds of start-up, and the OpenAI-compatible wire does not use them.

import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { OnlineModelConfig } from './config.ts';
import { ModelError } from './errors.ts';
import type { SdkLanguageModel } from './sdk-model.ts';

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
