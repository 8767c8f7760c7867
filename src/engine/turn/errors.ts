// The one error a turn fails with. `kind` is what callers switch on (the CLI maps `model` to exit 3,
// `input` and `interaction` to exit 1); `cause` keeps the underlying `ModelError` for model failures.

import { type BudgetPart, describePart } from '../../core/turn-budget.ts';
import type { TurnErrorKind } from './types.ts';

export class TurnError extends Error {
  override readonly name = 'TurnError';
  readonly kind: TurnErrorKind;
  /** For `reply` (offline: the engine answered instead of playing): why (a question, a refusal, …). */
  readonly reason: string | undefined;
  /** For `budget`: the cartridge part that passed the turn's budget. */
  readonly part: BudgetPart | undefined;

  constructor(
    kind: TurnErrorKind,
    message: string,
    options?: { cause?: unknown; reason?: string; part?: BudgetPart },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.reason = options?.reason;
    this.part = options?.part;
  }

  /** The part named as a reader reads it (`World Info entry 'x' (uid 3)`), for `budget`. */
  get partName(): string | undefined {
    return this.part === undefined ? undefined : describePart(this.part);
  }
}

export function isTurnError(value: unknown): value is TurnError {
  return value instanceof TurnError;
}
