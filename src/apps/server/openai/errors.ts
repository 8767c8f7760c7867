// Errors of the OpenAI-compatible endpoint: the server's ApiError with the OpenAI `type` field, which the
// OpenAI clients and SillyTavern read beside `message` and `code`.

import type { MiddlewareHandler } from 'hono';
import { ApiError, errorBody } from '../errors.ts';
import type { AppEnv } from '../openapi.ts';

export type OpenAiErrorType = 'invalid_request_error' | 'authentication_error' | 'server_error';

export function errorTypeOf(status: number): OpenAiErrorType {
  if (status === 401) return 'authentication_error';
  return status >= 500 ? 'server_error' : 'invalid_request_error';
}

export function openAiError(
  status: ConstructorParameters<typeof ApiError>[0],
  code: string,
  message: string,
  type: OpenAiErrorType = errorTypeOf(status),
): ApiError {
  return new ApiError(status, code, message, { type });
}

/**
 * Adds `type` to every error answer under the endpoint, whoever raised it (the key check, the body
 * validation, the routes): registered before them, it sees the error the server's onError answered.
 */
export function withErrorType(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const error = c.error;
    if (!(error instanceof ApiError) || 'type' in error.details) return;
    c.res = c.json(
      errorBody(error.code, error.message, { ...error.details, type: errorTypeOf(error.status) }),
      error.status,
    );
  };
}
