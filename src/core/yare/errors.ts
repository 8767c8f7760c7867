// One error type for everything YARE can refuse: at load time (parse, check) and at run time.
// `span` is an offset range inside an expression's source text, when the error is about an expression;
// the compiler turns it into `file:line:col` with the expression's position in the YAML file.

import type { Span } from './expr/ast.ts';

export type YareErrorCode =
  // parse
  | 'YARE_SYNTAX'
  | 'YARE_UNSUPPORTED'
  | 'YARE_EXPR_TOO_LONG'
  | 'YARE_EXPR_TOO_DEEP'
  // check
  | 'YARE_UNKNOWN_PATH'
  | 'YARE_UNKNOWN_INPUT'
  | 'YARE_UNKNOWN_MACRO'
  | 'YARE_UNKNOWN_FUNCTION'
  | 'YARE_ARITY'
  | 'YARE_UNKNOWN_EVENT'
  | 'YARE_MACRO_CYCLE'
  | 'YARE_BAD_STEP'
  | 'YARE_BAD_SCHEMA'
  | 'YARE_RESERVED_NAME'
  | 'YARE_NOT_AN_EXPRESSION'
  // run
  | 'YARE_TYPE'
  | 'YARE_ZERO_DIVISION'
  | 'YARE_DICE_LIMIT'
  | 'YARE_BAD_DICE'
  | 'YARE_CALL_DEPTH'
  | 'YARE_STEP_LIMIT'
  | 'YARE_TIME_LIMIT'
  | 'YARE_CONTAINER_LIMIT'
  | 'YARE_DICT_DEPTH'
  | 'YARE_NOTE_TOO_LONG'
  | 'YARE_BAD_PATH'
  | 'YARE_BAD_VALUE'
  | 'YARE_BAD_INPUT'
  | 'YARE_OVERFLOW';

export class YareError extends Error {
  constructor(
    readonly code: YareErrorCode,
    message: string,
    readonly span?: Span,
  ) {
    super(message);
    this.name = 'YareError';
  }
}
