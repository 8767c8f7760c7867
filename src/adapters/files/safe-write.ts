// Files written where told, and nowhere else: the one way every command that writes (`new`, `test --bless`,
// `explore --write-failures`, `pack`, `export`, `import`, `generate`) puts a file on disk. A cartridge can
// ship symbolic links (a `tests/` that points at the user's home, a dangling `failure-1.yaml`): nothing
// here follows one. The target folder, every folder between it and the file, and the file itself must be
// real (a link there is refused with the path named, whether it points inside, outside or nowhere), and a
// file already there is replaced only when the command wrote it before (`owns`) or the user said `--force`.
// Writes go to a new temporary file (created exclusively, so never through a link) renamed over the target:
// a rename replaces the name, never what a link at that name points to, and a reader sees the old file or
// the new one, never half of one.

import { randomBytes } from 'node:crypto';
import {
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, sep } from 'node:path';

export type UnsafeWriteCode = 'link' | 'exists' | 'not-folder' | 'not-file' | 'outside';

export class UnsafeWriteError extends Error {
  override readonly name = 'UnsafeWriteError';
  constructor(
    readonly code: UnsafeWriteCode,
    message: string,
  ) {
    super(message);
  }
}

export interface SafeWriteOptions {
  /** Replace a file already there that the command did not write (the user's `--force`). */
  readonly force?: boolean;
  /** Whether a file already there is this command's own output (then it is replaced without `--force`). */
  readonly owns?: (existing: Buffer) => boolean;
  /**
   * The folder was named by the user and may itself be a link (a cartridge folder they linked, the folder
   * of `-o`): only what lies below it is checked. Without this, a link as the target folder is refused.
   */
  readonly trustFolder?: boolean;
  /** Names the option that allows overwriting, in the refusal (default `--force`). */
  readonly forceFlag?: string;
}

type Entry = 'missing' | 'link' | 'folder' | 'file' | 'other';

function entryAt(path: string): Entry {
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return 'link';
    if (stat.isDirectory()) return 'folder';
    return stat.isFile() ? 'file' : 'other';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
}

const LINK_REFUSAL =
  'is a symbolic link; mnesos does not write through links (remove it, or choose another folder)';

/** Refuses a target folder that is a link, before any work is done (nothing is created). */
export function refuseLinkedFolder(folder: string): void {
  if (entryAt(folder) === 'link') throw new UnsafeWriteError('link', `${folder} ${LINK_REFUSAL}`);
}

/**
 * Makes `folder` a real folder (creating it and missing parents), refusing when it is a link or not a
 * folder. Parents above it are the user's path, taken as they are.
 */
export function prepareFolder(folder: string, options: Pick<SafeWriteOptions, 'trustFolder'> = {}): void {
  const found = entryAt(folder);
  if (found === 'link' && options.trustFolder !== true)
    throw new UnsafeWriteError('link', `${folder} ${LINK_REFUSAL}`);
  if (found === 'missing') {
    mkdirSync(folder, { recursive: true });
    return;
  }
  if (found === 'link') {
    // A trusted link must still lead to a folder.
    let isFolder = false;
    try {
      isFolder = statSync(folder).isDirectory();
    } catch {
      isFolder = false;
    }
    if (!isFolder) throw new UnsafeWriteError('not-folder', `${folder} is not a folder`);
    return;
  }
  if (found !== 'folder') throw new UnsafeWriteError('not-folder', `${folder} exists and is not a folder`);
}

/** `relative` as path parts below the folder, refusing an absolute path or one that climbs out. */
function partsBelow(relative: string): string[] {
  const normal = normalize(relative);
  if (isAbsolute(normal) || normal === '..' || normal.startsWith(`..${sep}`) || normal === '.')
    throw new UnsafeWriteError('outside', `${relative} is not a path inside the target folder`);
  return normal.split(sep).filter((part) => part !== '' && part !== '.');
}

/** Creates the folders between `folder` and the file, each a real folder (a link among them is refused). */
function prepareParents(folder: string, parts: readonly string[]): string {
  let at = folder;
  for (const part of parts) {
    at = join(at, part);
    const found = entryAt(at);
    if (found === 'missing') mkdirSync(at);
    else if (found === 'link') throw new UnsafeWriteError('link', `${at} ${LINK_REFUSAL}`);
    else if (found !== 'folder') throw new UnsafeWriteError('not-folder', `${at} exists and is not a folder`);
  }
  return at;
}

/** Whether the file at `path` (a real file) may be replaced. */
function mayReplace(path: string, options: SafeWriteOptions): boolean {
  if (options.force === true) return true;
  return options.owns?.(readFileSync(path)) === true;
}

/** Writes `content` to a fresh temporary file beside `path`, then renames it over `path`. */
function replaceAtomically(path: string, content: string | Uint8Array): void {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  // 'wx': created exclusively; fails (never follows) if anything, a link included, is at that name.
  const fd = openSync(temporary, 'wx', 0o644);
  try {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    let written = 0;
    while (written < bytes.byteLength) written += writeSync(fd, bytes, written);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** The checked place of `relative` inside `folder`: its path, and whether a real file is there already. */
function placeInside(
  folder: string,
  relative: string,
  options: SafeWriteOptions,
): { path: string; exists: boolean } {
  const parts = partsBelow(relative);
  prepareFolder(folder, options);
  const parent = prepareParents(folder, parts.slice(0, -1));
  const path = join(parent, parts.at(-1)!);
  const found = entryAt(path);
  if (found === 'link') throw new UnsafeWriteError('link', `${path} ${LINK_REFUSAL}`);
  if (found === 'folder' || found === 'other')
    throw new UnsafeWriteError('not-file', `${path} exists and is not a file; nothing was written there`);
  return { path, exists: found === 'file' };
}

/**
 * Writes `content` at `relative` inside `folder` (see the top of this file for what is refused). Returns the
 * path written. Throws UnsafeWriteError naming the path and what to do; nothing is written then.
 */
export function writeInside(
  folder: string,
  relative: string,
  content: string | Uint8Array,
  options: SafeWriteOptions = {},
): string {
  const { path, exists } = placeInside(folder, relative, options);
  if (exists && !mayReplace(path, options))
    throw new UnsafeWriteError(
      'exists',
      `${path} already exists and was not written by this command; give ${options.forceFlag ?? '--force'} to replace it`,
    );
  replaceAtomically(path, content);
  return path;
}

/** Adds `text` at the end of the file at `relative` inside `folder` (made when missing), checked as writeInside. */
export function appendInside(
  folder: string,
  relative: string,
  text: string,
  options: Pick<SafeWriteOptions, 'trustFolder'> = {},
): string {
  const { path, exists } = placeInside(folder, relative, options);
  replaceAtomically(path, `${exists ? readFileSync(path, 'utf8') : ''}${text}`);
  return path;
}

/** Writes the file the user named (`-o out.zip`, `--card c.png`): its folder is theirs, the file is checked. */
export function writeNamedFile(
  path: string,
  content: string | Uint8Array,
  options: SafeWriteOptions = {},
): string {
  return writeInside(dirname(path), basename(path), content, { ...options, trustFolder: true });
}
