// Entry paths: the only way an archive names a file. Each is checked before anything is kept: relative,
// no `..`, no NUL, forward slashes only, bounded. Extraction never touches the file system anyway (files
// go to a Map), but a path that would escape a folder is a sign of a hostile archive, so it is refused.

import { ArchiveError } from './errors.ts';
import { MAX_ENTRY_PATH_CHARS } from './limits.ts';

/**
 * The path's segments, or an ArchiveError. `./a//b/` gives ['a', 'b']. The archive's own root (`./` or `.`,
 * which `tar czf x.tar.gz -C folder .` writes as a folder entry) gives [], which only a folder may have:
 * `stripTopFolder` refuses a file without a name.
 */
export function entrySegments(path: string): string[] {
  if (path.length > MAX_ENTRY_PATH_CHARS) {
    throw new ArchiveError(
      'archive_bad_path',
      `path is ${path.length} characters; the limit is ${MAX_ENTRY_PATH_CHARS} (MAX_ENTRY_PATH_CHARS)`,
      path.slice(0, 80),
    );
  }
  if (path.includes('\0'))
    throw new ArchiveError('archive_bad_path', 'path contains a NUL character', path.replaceAll('\0', '\\0'));
  if (path.includes('\\'))
    throw new ArchiveError('archive_bad_path', 'path contains a backslash (use forward slashes)', path);
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path))
    throw new ArchiveError('archive_bad_path', 'absolute paths are refused', path);
  const segments = path.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..'))
    throw new ArchiveError('archive_bad_path', "'..' in a path is refused", path);
  if (segments.length === 0 && !ROOT_FOLDER.test(path))
    throw new ArchiveError('archive_bad_path', 'empty path', path);
  return segments;
}

/** `.`, `./`, `./.`…: the archive's root folder as tar writes it. */
const ROOT_FOLDER = /^\.(?:\/\.?)*$/;

/**
 * Files keyed by their path inside the cartridge. When every file sits in one top-level folder (a zipped
 * folder), that folder is stripped, so `lanternmere/yare.yaml` becomes `yare.yaml`.
 */
export function stripTopFolder(
  files: ReadonlyArray<{ segments: string[]; data: Uint8Array }>,
): Map<string, Uint8Array> {
  const first = files[0]?.segments[0];
  const common =
    first !== undefined && files.every((file) => file.segments.length > 1 && file.segments[0] === first);
  const out = new Map<string, Uint8Array>();
  for (const file of files) {
    if (file.segments.length === 0) throw new ArchiveError('archive_bad_path', 'a file without a name', '.');
    const path = (common ? file.segments.slice(1) : file.segments).join('/');
    if (out.has(path)) throw new ArchiveError('archive_duplicate', 'the same path appears twice', path);
    out.set(path, file.data);
  }
  return out;
}
