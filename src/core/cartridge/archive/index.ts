// Reading an uploaded cartridge archive (`.zip`, `.tar.gz`, `.tar`) into a map of path to bytes. The format
// is told by its first bytes, never by a file name or header the client chose.

import { gunzipSync } from 'node:zlib';
import { ArchiveError } from './errors.ts';
import { MAX_ARCHIVE_BYTES, MAX_ARCHIVE_ENTRIES, MAX_EXTRACTED_BYTES } from './limits.ts';
import { stripTopFolder } from './paths.ts';
import { isTar, type RawEntry, readTar } from './tar.ts';
import { isZip, readZip } from './zip.ts';

export { ArchiveError, type ArchiveErrorCode } from './errors.ts';
export * from './limits.ts';

/** Tar headers and padding on top of the files: two blocks per entry and the end marker. */
const TAR_OVERHEAD_BYTES = (MAX_ARCHIVE_ENTRIES * 2 + 2) * 512 + MAX_ARCHIVE_ENTRIES * 512;
/** The most a gzip member may inflate to: the extracted-files cap plus the tar framing. */
export const MAX_TAR_STREAM_BYTES = MAX_EXTRACTED_BYTES + TAR_OVERHEAD_BYTES;

function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

export function readArchive(bytes: Uint8Array): Map<string, Uint8Array> {
  if (bytes.length > MAX_ARCHIVE_BYTES) {
    throw new ArchiveError(
      'archive_too_large',
      `the archive is ${bytes.length} bytes; the limit is ${MAX_ARCHIVE_BYTES} (MAX_ARCHIVE_BYTES)`,
    );
  }
  let entries: RawEntry[];
  if (isZip(bytes)) {
    entries = readZip(bytes);
  } else if (isGzip(bytes)) {
    let tar: Uint8Array;
    try {
      tar = gunzipSync(bytes, { maxOutputLength: MAX_TAR_STREAM_BYTES });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new ArchiveError(
          'archive_too_large',
          `inflates past ${MAX_TAR_STREAM_BYTES} bytes (a gzip bomb?)`,
        );
      }
      throw new ArchiveError('archive_format', `not valid gzip: ${(error as Error).message}`);
    }
    if (!isTar(tar)) throw new ArchiveError('archive_format', 'the gzip data is not a tar archive');
    entries = readTar(tar);
  } else if (isTar(bytes)) {
    entries = readTar(bytes);
  } else {
    throw new ArchiveError('archive_format', 'not a zip, tar.gz or tar archive');
  }
  return stripTopFolder(entries);
}
