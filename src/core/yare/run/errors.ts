// Run errors: a failure inside a run as the caller sees it (`RunError`), with the place of the step or
// expression that failed. Only `YareError`s are rule failures; a real stack overflow (which no bounded
// cartridge should reach) becomes YARE_STEP_LIMIT; anything else is an engine bug and is rethrown.

import type { SourcePlace } from '../../diagnostics.ts';
import { YareError, type YareErrorCode } from '../errors.ts';
import type { Expression } from '../expr/ast.ts';

export interface RunError {
  readonly code: YareErrorCode;
  readonly message: string;
  readonly event: string;
  readonly place?: SourcePlace;
}

/** Adds the place of an expression to a `YareError` from inside it (its span becomes a column). */
export function withPlace(error: unknown, place: SourcePlace, expr: Expression): unknown {
  if (error instanceof YareError && !(error as { place?: SourcePlace }).place) {
    const col = place.col + (error.span ? error.span.start - 0 : 0);
    Object.assign(error, { place: { ...place, col }, expression: expr.source });
  }
  return error;
}

/** V8's message for a call stack too deep; no other `RangeError` is a rules failure. */
const STACK_OVERFLOW = /^Maximum call stack size exceeded$/;

/** Whether an error is the JavaScript engine running out of stack. */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && STACK_OVERFLOW.test(error.message);
}

/**
 * The `RunError` for a failure, with `fallback` (the step running) when the error has no place of its
 * own. Throws `error` itself when it is neither a `YareError` nor a stack overflow: an engine bug must
 * surface as one, not as a rules error.
 */
export function toRunError(error: unknown, event: string, fallback: SourcePlace | undefined): RunError {
  if (error instanceof YareError) {
    const place = (error as { place?: SourcePlace }).place ?? fallback;
    return { code: error.code, message: error.message, event, ...(place ? { place } : {}) };
  }
  if (isStackOverflow(error)) {
    return {
      code: 'YARE_STEP_LIMIT',
      message: `Event run too deep: ${(error as RangeError).message}`,
      event,
      ...(fallback ? { place: fallback } : {}),
    };
  }
  throw error;
}
