// Why an archive was refused. `code` is stable (clients switch on it); `entry` names the offending path.

export type ArchiveErrorCode =
  /** Not a zip, gzip or tar archive, or a malformed one. */
  | 'archive_format'
  /** A feature this reader refuses: encryption, split archives, an unknown compression method. */
  | 'archive_unsupported'
  /** An absolute path, `..`, a NUL or backslash, or a path over MAX_ENTRY_PATH_CHARS. */
  | 'archive_bad_path'
  /** A symbolic or hard link, a device, a FIFO. */
  | 'archive_link'
  /** The same path twice. */
  | 'archive_duplicate'
  /** Too many entries, an entry or the total too large, or data that inflates past its cap (a zip bomb). */
  | 'archive_too_large';

export class ArchiveError extends Error {
  override readonly name = 'ArchiveError';

  constructor(
    readonly code: ArchiveErrorCode,
    message: string,
    readonly entry?: string,
  ) {
    super(entry === undefined ? message : `${entry}: ${message}`);
  }
}
