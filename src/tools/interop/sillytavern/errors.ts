// A file that cannot be imported: a stable code and the place (`card.png: chunk 3 (tEXt "chara")`,
// `card.json:12:5`, `card.json: data.name`), so the user can find what is wrong. Nothing is written when
// an import fails.

export type ImportErrorCode =
  | 'IMPORT_TOO_LARGE'
  | 'IMPORT_UNKNOWN_FORMAT'
  | 'IMPORT_BAD_PNG'
  | 'IMPORT_NO_CARD'
  | 'IMPORT_BAD_BASE64'
  | 'IMPORT_BAD_JSON'
  | 'IMPORT_BAD_CARD'
  | 'IMPORT_BAD_WORLD_INFO'
  | 'IMPORT_BAD_CHARX'
  | 'IMPORT_TARGET_EXISTS';

export class ImportError extends Error {
  override readonly name = 'ImportError';

  constructor(
    readonly code: ImportErrorCode,
    /** Where: `file`, `file:line:col`, or `file: field`. */
    readonly where: string,
    message: string,
  ) {
    super(`${where}: ${message}`);
  }
}
