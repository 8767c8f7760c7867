// Text embeddings through an OpenAI-compatible (or native OpenAI / Gemini) `/embeddings` endpoint,
// via the AI SDK's `embedMany`, which batches to the model's per-call limit. Same retry policy,
// timeout and cancellation as chat calls.

import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { embedMany as EmbedMany } from 'ai';
import type { ModelConfig, OnlineModelConfig } from './config.ts';
import { ModelError } from './errors.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, withRetries } from './retry.ts';
import { classifySdkError } from './sdk-errors.ts';

/** Embeds texts in order; one vector per text. */
export type EmbedFunction = (texts: string[], signal?: AbortSignal) => Promise<number[][]>;

type EmbeddingModel = Parameters<typeof EmbedMany>[0]['model'];

function embeddingModelOf(config: OnlineModelConfig, modelId: string): EmbeddingModel | null {
  const apiKey = config.apiKey?.reveal();
  const baseURL = config.baseURL;
  switch (config.provider) {
    case 'openai-compatible':
      if (baseURL === undefined) return null;
      return createOpenAICompatible({
        name: 'mnesos',
        baseURL,
        ...(apiKey === undefined ? {} : { apiKey }),
      }).embeddingModel(modelId);
    case 'openai':
      return createOpenAI({ apiKey, ...(baseURL === undefined ? {} : { baseURL }) }).embedding(modelId);
    case 'google':
      return createGoogleGenerativeAI({ apiKey, ...(baseURL === undefined ? {} : { baseURL }) }).embedding(
        modelId,
      );
    case 'anthropic':
      // Anthropic has no embeddings endpoint.
      return null;
    default: {
      const never: never = config.provider;
      throw new ModelError('config', `unknown provider ${String(never)}`);
    }
  }
}

/** Wraps an AI SDK embedding model as an EmbedFunction with our retry policy. */
export function embedFunctionFor(
  model: EmbeddingModel,
  modelId: string,
  policy: RetryPolicy,
  secrets: readonly string[] = [],
): EmbedFunction {
  return async (texts, signal) => {
    if (texts.length === 0) return [];
    return withRetries(
      {
        policy,
        modelId,
        classify: (error) => classifySdkError(error, modelId, secrets),
        ...(signal === undefined ? {} : { signal }),
      },
      async (attemptSignal) => {
        // The SDK is imported when embeddings are first computed, not when the module loads.
        const { embedMany } = await import('ai');
        const result = await embedMany({ model, values: texts, maxRetries: 0, abortSignal: attemptSignal });
        if (result.embeddings.length !== texts.length) {
          throw new ModelError(
            'bad-response',
            `embedding model ${modelId} returned ${result.embeddings.length} vectors for ${texts.length} texts`,
            { modelId },
          );
        }
        return result.embeddings;
      },
    );
  };
}

/**
 * The embed function for the configured embedding model, or `null` when embeddings are off
 * (offline, no `embeddingModel`, or a provider without an embeddings endpoint).
 */
export function createEmbedder(config: ModelConfig): EmbedFunction | null {
  if (config.provider === 'offline' || config.embeddingModel === undefined) return null;
  const model = embeddingModelOf(config, config.embeddingModel);
  if (model === null) return null;
  const secrets = config.apiKey === undefined ? [] : [config.apiKey.reveal()];
  return embedFunctionFor(model, config.embeddingModel, config.retry, secrets);
}

export interface CompatibleEmbedOptions {
  /** The server's base URL, usually ending in `/v1`. */
  readonly baseURL: string;
  readonly model: string;
  readonly apiKey?: string;
  readonly policy?: RetryPolicy;
  readonly signal?: AbortSignal;
}

/** One-shot embeddings from an OpenAI-compatible `/embeddings` endpoint. */
export function embed(texts: string[], options: CompatibleEmbedOptions): Promise<number[][]> {
  const model = createOpenAICompatible({
    name: 'mnesos',
    baseURL: options.baseURL.replace(/\/+$/, ''),
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
  }).embeddingModel(options.model);
  const secrets = options.apiKey === undefined ? [] : [options.apiKey];
  return embedFunctionFor(
    model,
    options.model,
    options.policy ?? DEFAULT_RETRY_POLICY,
    secrets,
  )(texts, options.signal);
}
