// Text embeddings through an OpenAI-compatible (or native OpenAI / Gemini) `/embeddings` endpoint,
// via the AI SDK's `embedMany`, which batches to the model's per-call limit. Same retry policy,
// timeout and cancellation as chat calls. The SDK modules are imported when embeddings are first computed,
// not when this module loads: llm/index.ts re-exports it, and a turn or the server imports that index.

import { normaliseBaseUrl } from '../../core/base-url-policy.ts';
import type { embedMany as EmbedMany } from 'ai';
import type { ModelConfig, OnlineModelConfig } from './config.ts';
import { ModelError } from './errors.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, withRetries } from './retry.ts';
import { classifySdkError } from './sdk-errors.ts';

/** Embeds texts in order; one vector per text. */
export type EmbedFunction = (texts: string[], signal?: AbortSignal) => Promise<number[][]>;

type EmbeddingModel = Parameters<typeof EmbedMany>[0]['model'];
/** Makes the SDK embedding model, importing the provider's SDK module on first use. */
type EmbeddingModelFactory = () => Promise<EmbeddingModel>;

function embeddingModelOf(config: OnlineModelConfig, modelId: string): EmbeddingModelFactory | null {
  const apiKey = config.apiKey?.reveal();
  const baseURL = config.baseURL;
  switch (config.provider) {
    case 'openai-compatible':
      if (baseURL === undefined) return null;
      return () => compatibleModel(baseURL, modelId, apiKey);
    case 'openai':
      return async () => {
        const { createOpenAI } = await import('@ai-sdk/openai');
        return createOpenAI({ apiKey, ...(baseURL === undefined ? {} : { baseURL }) }).embedding(modelId);
      };
    case 'google':
      return async () => {
        const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
        return createGoogleGenerativeAI({ apiKey, ...(baseURL === undefined ? {} : { baseURL }) }).embedding(
          modelId,
        );
      };
    case 'anthropic':
      // Anthropic has no embeddings endpoint.
      return null;
    default: {
      const never: never = config.provider;
      throw new ModelError('config', `unknown provider ${String(never)}`);
    }
  }
}

async function compatibleModel(
  baseURL: string,
  modelId: string,
  apiKey: string | undefined,
): Promise<EmbeddingModel> {
  const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
  return createOpenAICompatible({
    name: 'mnesos',
    baseURL,
    ...(apiKey === undefined ? {} : { apiKey }),
  }).embeddingModel(modelId);
}

/** Wraps an AI SDK embedding model (made on first use) as an EmbedFunction with our retry policy. */
function embedFunctionFor(
  modelOf: EmbeddingModelFactory,
  modelId: string,
  policy: RetryPolicy,
  secrets: readonly string[] = [],
): EmbedFunction {
  let made: Promise<EmbeddingModel> | undefined;
  return async (texts, signal) => {
    if (texts.length === 0) return [];
    made ??= modelOf();
    const model = await made;
    return withRetries(
      {
        policy,
        modelId,
        classify: (error) => classifySdkError(error, modelId, secrets),
        ...(signal === undefined ? {} : { signal }),
      },
      async (attemptSignal) => {
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
  if (config.provider === 'offline' || config.provider === 'file' || config.embeddingModel === undefined)
    return null;
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
  const secrets = options.apiKey === undefined ? [] : [options.apiKey];
  return embedFunctionFor(
    () => compatibleModel(normaliseBaseUrl(options.baseURL), options.model, options.apiKey),
    options.model,
    options.policy ?? DEFAULT_RETRY_POLICY,
    secrets,
  )(texts, options.signal);
}
