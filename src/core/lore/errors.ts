// Errors of lore retrieval. A lookup comes from a model's tool call, so each message says what was
// wrong and which limit applies: the engine sends it back to the model as the tool result.

export type LoreErrorCode =
  | 'LORE_TOO_LARGE'
  | 'LORE_TOO_MANY_CHUNKS'
  | 'LORE_BAD_QUERY'
  | 'LORE_BAD_OPTION'
  | 'LORE_BAD_EMBEDDINGS';

export class LoreError extends Error {
  override readonly name = 'LoreError';
  readonly code: LoreErrorCode;

  constructor(code: LoreErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
