// One error type for everything a model call can fail with. `kind` is what callers switch on; the
// message is for people and never contains an API key (see `redactSecrets`).

export type ModelErrorKind =
  /** The per-call timeout ran out (after any retries). */
  | 'timeout'
  /** The provider answered with an HTTP error status (`status` is set). */
  | 'http'
  /** The provider could not be reached (connection refused, reset, DNS). */
  | 'network'
  /** The caller's signal cancelled the call. Never retried. */
  | 'aborted'
  /** The provider answered, but not with something usable (bad JSON, no choices, tool choice ignored). */
  | 'bad-response'
  /** The request itself is invalid (bad tool name, empty model id): a programming error, never retried. */
  | 'bad-request'
  /** A scripted model was asked for more responses than its script holds. */
  | 'script-exhausted'
  /** The model configuration (environment, config file, script file) is invalid. */
  | 'config';

export interface ModelErrorOptions {
  readonly status?: number;
  readonly modelId?: string;
  /** How many attempts were made before giving up (1 = no retry). */
  readonly attempts?: number;
  /** The server's `Retry-After`, in milliseconds, when it sent one. */
  readonly retryAfterMs?: number;
  readonly cause?: unknown;
}

export class ModelError extends Error {
  override readonly name = 'ModelError';
  readonly kind: ModelErrorKind;
  readonly status?: number;
  readonly modelId?: string;
  readonly attempts?: number;
  readonly retryAfterMs?: number;

  constructor(kind: ModelErrorKind, message: string, options: ModelErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    if (options.status !== undefined) this.status = options.status;
    if (options.modelId !== undefined) this.modelId = options.modelId;
    if (options.attempts !== undefined) this.attempts = options.attempts;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }

  /** Whether trying the same request again could succeed. */
  get retryable(): boolean {
    switch (this.kind) {
      case 'timeout':
      case 'network':
        return true;
      case 'http':
        // Same set as the AI SDK: request timeout, conflict, rate limit, server errors.
        return this.status === 408 || this.status === 409 || this.status === 429 || (this.status ?? 0) >= 500;
      case 'aborted':
      case 'bad-response':
      case 'bad-request':
      case 'script-exhausted':
      case 'config':
        return false;
      default: {
        const never: never = this.kind;
        return never;
      }
    }
  }
}

export function isModelError(value: unknown): value is ModelError {
  return value instanceof ModelError;
}

/** Replaces every occurrence of each secret (of a length worth hiding) in `text` with `***`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('***');
  }
  return out;
}
