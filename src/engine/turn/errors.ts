// The one error a turn fails with. `kind` is what callers switch on (the CLI maps `model` to exit 3,
// `input` and `interaction` to exit 1); `cause` keeps the underlying `ModelError` for model failures.

import type { TurnErrorKind } from './types.ts';

export class TurnError extends Error {
  override readonly name = 'TurnError';
  readonly kind: TurnErrorKind;

  constructor(kind: TurnErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
  }
}

export function isTurnError(value: unknown): value is TurnError {
  return value instanceof TurnError;
}
