// Maps whatever the AI SDK or fetch throws onto ModelError kinds. Messages are cut short and have the
// API key removed, because provider error bodies end up in logs and in CLI output.

import type { APICallError, RetryError } from 'ai';
import { ModelError, redactSecrets } from './errors.ts';

/**
 * Whether `error` is the AI SDK's error class `name`. The SDK marks each class with
 * `Symbol.for('vercel.ai.error.<name>')` and its own `isInstance` checks exactly that, so classifying needs
 * no import of the SDK (which the OpenAI-compatible client and offline play never load).
 */
function isSdkError(error: unknown, name: string): error is Error {
  if (error === null || typeof error !== 'object') return false;
  return (error as Record<symbol, unknown>)[Symbol.for(`vercel.ai.error.${name}`)] === true;
}

/** Characters of a provider's error message kept in ours. */
export const MAX_PROVIDER_MESSAGE_CHARS = 300;

/** A provider's text as it may appear in our messages: API key removed, cut short, on one line. */
export function cleanProviderText(text: string, secrets: readonly string[]): string {
  return redactSecrets(text, secrets).slice(0, MAX_PROVIDER_MESSAGE_CHARS).replace(/\s+/g, ' ').trim();
}

export function classifySdkError(error: unknown, modelId: string, secrets: readonly string[]): ModelError {
  if (error instanceof ModelError) return error;
  const cleaned = (text: string): string => cleanProviderText(text, secrets);

  if (isSdkError(error, 'AI_RetryError'))
    return classifySdkError((error as RetryError).lastError, modelId, secrets);
  if (isSdkError(error, 'AI_APICallError')) {
    const call = error as APICallError;
    const status = call.statusCode;
    if (status === undefined) {
      return new ModelError(
        'network',
        `model ${modelId}: cannot reach the provider: ${cleaned(error.message)}`,
        {
          modelId,
          cause: error,
        },
      );
    }
    const retryAfterMs = retryAfterFromHeaders(call.responseHeaders);
    return new ModelError(
      'http',
      `model ${modelId}: HTTP ${status} from the provider: ${cleaned(error.message)}`,
      {
        modelId,
        status,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        cause: error,
      },
    );
  }
  if (isSdkError(error, 'AI_LoadAPIKeyError')) {
    return new ModelError('config', `model ${modelId}: ${cleaned(error.message)}`, { modelId, cause: error });
  }
  if (
    isSdkError(error, 'AI_InvalidResponseDataError') ||
    isSdkError(error, 'AI_JSONParseError') ||
    isSdkError(error, 'AI_TypeValidationError') ||
    isSdkError(error, 'AI_NoOutputGeneratedError') ||
    isSdkError(error, 'AI_ToolChoiceViolationError')
  ) {
    return new ModelError('bad-response', `model ${modelId}: unusable response: ${cleaned(error.message)}`, {
      modelId,
      cause: error,
    });
  }
  // fetch() itself failing (connection refused before the SDK wraps it) is a TypeError with a cause.
  if (error instanceof TypeError && /fetch failed|network|ECONN|socket/i.test(String(error.message))) {
    return new ModelError(
      'network',
      `model ${modelId}: cannot reach the provider: ${cleaned(error.message)}`,
      {
        modelId,
        cause: error,
      },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelError('bad-response', `model ${modelId}: ${cleaned(message)}`, { modelId, cause: error });
}

export function retryAfterFromHeaders(headers: Record<string, string> | undefined): number | undefined {
  if (headers === undefined) return undefined;
  const ms = headers['retry-after-ms'];
  if (ms !== undefined && Number.isFinite(Number.parseFloat(ms))) return Number.parseFloat(ms);
  const after = headers['retry-after'];
  if (after === undefined) return undefined;
  const seconds = Number.parseFloat(after);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}
