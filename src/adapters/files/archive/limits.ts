// Caps on uploaded cartridge archives. An archive is untrusted: it is refused before it is inflated when
// its declared sizes break a cap, and inflation itself is bounded (`maxOutputLength`) in case it lies.
// Each has a test at the limit and just past it (test/core/cartridge/archive.test.ts).

import { ArchiveError } from './errors.ts';
const MIB = 1024 * 1024;

/** Bytes of the uploaded archive itself (the request body). */
export const MAX_ARCHIVE_BYTES = 8 * MIB;
/** Bytes of all files together once extracted (a cartridge's own files total under 2.4 MiB by their caps). */
export const MAX_EXTRACTED_BYTES = 8 * MIB;
/** Bytes of one extracted file. */
export const MAX_ENTRY_BYTES = 4 * MIB;
/** Entries (files and folders) in one archive. */
export const MAX_ARCHIVE_ENTRIES = 64;
/** Characters of one entry's path. */
export const MAX_ENTRY_PATH_CHARS = 255;

/** Adds one entry's size to the running total, refusing a file or a total past its cap. */
export function addEntrySize(total: number, size: number, name: string): number {
  if (size > MAX_ENTRY_BYTES) {
    throw new ArchiveError(
      'archive_too_large',
      `${size} bytes; the limit per file is ${MAX_ENTRY_BYTES} (MAX_ENTRY_BYTES)`,
      name,
    );
  }
  const next = total + size;
  if (next > MAX_EXTRACTED_BYTES) {
    throw new ArchiveError(
      'archive_too_large',
      `files total over ${MAX_EXTRACTED_BYTES} bytes (MAX_EXTRACTED_BYTES)`,
      name,
    );
  }
  return next;
}
