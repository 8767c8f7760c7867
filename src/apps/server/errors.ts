// Every error the API answers with: `{ "error": { "code", "message", ...details } }` and a status. Routes
// throw ApiError; the app's error handler turns it (and a SessionError) into the response.

import type { SessionError } from '../../engine/session/index.ts';

export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 502 | 503 | 504,
    readonly code: string,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
    /** Response headers the answer carries (`Retry-After`). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export function errorBody(code: string, message: string, details: Readonly<Record<string, unknown>> = {}) {
  return { error: { code, message, ...details } };
}

/**
 * The HTTP face of a session failure: the one mapping of turn errors to statuses. The engine's TurnErrors
 * become SessionErrors in the session layer (session/turn-job/run.ts, turnFailure), stateless turns too,
 * so every route answers one failure with one status and code.
 */
export function fromSessionError(error: SessionError): ApiError {
  switch (error.code) {
    case 'malformed':
      return new ApiError(400, 'invalid_request', error.message, error.details);
    case 'input-too-long':
      return new ApiError(413, 'input_too_long', error.message, error.details);
    case 'not-found':
      return new ApiError(404, 'not_found', error.message);
    case 'turn-in-flight':
      return new ApiError(409, 'turn_in_flight', error.message);
    case 'conflict':
      return new ApiError(409, 'turn_conflict', error.message, error.details);
    case 'invalid':
      return new ApiError(422, 'invalid_turn', error.message, error.details);
    case 'answered':
      // The turn routes answer it as a 200 (routes/turns.ts, routes/stateless.ts); anywhere else no turn
      // was played where one was required.
      return new ApiError(422, 'invalid_turn', error.message, error.details);
    case 'too-large':
      return new ApiError(422, 'turn_too_large', error.message, error.details);
    case 'cartridge':
      return new ApiError(500, 'cartridge_unloadable', error.message);
    case 'too-costly':
      // The cartridge's fault, not the request's: a 422 naming the part, never a 400 or a 500.
      return new ApiError(422, 'turn_budget_exceeded', error.message, error.details);
    case 'model':
      return new ApiError(502, 'model_failed', error.message);
    case 'settings':
      return new ApiError(422, 'settings_unusable', error.message);
    case 'aborted':
      return new ApiError(400, 'turn_aborted', error.message);
    case 'timeout':
      return new ApiError(504, 'turn_timeout', error.message);
    case 'session-cap':
      return new ApiError(409, 'session_limit', error.message, error.details);
    case 'not-allowed':
      return new ApiError(403, 'not_allowed', error.message);
    case 'table-limit':
      return new ApiError(409, 'table_limit', error.message, error.details);
    case 'taken':
      return new ApiError(409, 'character_taken', error.message);
    default: {
      const unreachable: never = error.code;
      return new ApiError(500, 'internal', String(unreachable));
    }
  }
}
