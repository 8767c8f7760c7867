// The ledger's error vocabulary. Codes are stable: the turn layer sends them back to the model for repair,
// the CLI prints them and tests assert them. Messages name the field and quote model text JSON-escaped and
// capped (text.ts `quote`), so an error never carries raw model output back into a prompt.

export type LedgerErrorCode =
  // the tool-call payload as a whole (index -1)
  | 'LEDGER_NOT_JSON'
  | 'LEDGER_DUPLICATE_KEY'
  | 'LEDGER_TOO_DEEP'
  | 'LEDGER_TOO_BIG'
  | 'LEDGER_NOT_ARRAY'
  | 'LEDGER_BATCH_TOO_LARGE'
  | 'LEDGER_BAD_TIME'
  // the shape of one event
  | 'LEDGER_NOT_OBJECT'
  | 'LEDGER_UNKNOWN_EVENT'
  | 'LEDGER_UNKNOWN_FIELD'
  | 'LEDGER_MISSING_FIELD'
  | 'LEDGER_BAD_TYPE'
  | 'LEDGER_BAD_KEY'
  | 'LEDGER_EMPTY'
  | 'LEDGER_TOO_LONG'
  | 'LEDGER_CONTROL_CHAR'
  | 'LEDGER_TOO_MANY_LABELS'
  | 'LEDGER_DUPLICATE_LABEL'
  | 'LEDGER_NOT_SCALAR'
  | 'LEDGER_NON_FINITE'
  | 'LEDGER_UNSAFE_INTEGER'
  // the event against the world at its point in the batch
  | 'LEDGER_UNKNOWN_REF'
  | 'LEDGER_DUPLICATE'
  | 'LEDGER_KEY_COLLISION'
  | 'LEDGER_CONFUSABLE_NAME'
  | 'LEDGER_SELF_REFERENCE'
  | 'LEDGER_POSSESSION_CYCLE'
  | 'LEDGER_ALREADY_CLOSED'
  // the write policy
  | 'LEDGER_RULES_OWNED'
  | 'LEDGER_UNDECLARED_ATTRIBUTE'
  | 'LEDGER_ATTRIBUTE_TYPE'
  | 'LEDGER_OUT_OF_RANGE'
  | 'LEDGER_CHANGE_TOO_LARGE'
  | 'LEDGER_IMPLAUSIBLE'
  | 'LEDGER_CONDITIONS_UNMET'
  // too many errors to list (the last entry when the list was cut)
  | 'LEDGER_TOO_MANY_ERRORS';

export interface LedgerError {
  /** The event's position in the batch, or -1 for the payload as a whole. */
  readonly index: number;
  readonly code: LedgerErrorCode;
  /** The field at fault, when there is one. */
  readonly field?: string;
  readonly message: string;
}

export function ledgerError(
  index: number,
  code: LedgerErrorCode,
  message: string,
  field?: string,
): LedgerError {
  return field === undefined ? { index, code, message } : { index, code, field, message };
}

/** Thrown by `applyBatch` only when given an event that could not have passed `validateBatch` (a bug). */
export class LedgerApplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerApplyError';
  }
}
