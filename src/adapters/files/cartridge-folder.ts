// Reading a cartridge folder into the Map of file name to content the loader works on.
//
// A folder is untrusted: a file may be a symbolic link to anywhere (refused when it leaves the folder),
// a directory or a named pipe (refused: reading a pipe would block forever), or far too large (refused by
// its size before reading, and the read itself is bounded in case it grows meanwhile).

import type { Stats } from 'node:fs';
import { lstat, open, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { CARTRIDGE_FILES, type CartridgeCode, cartError, fileStart } from '../../core/cartridge/index.ts';
import type { Diagnostic, SourcePlace } from '../../core/diagnostics.ts';
import { errnoCode, isNotFound } from '../../core/errno.ts';

export type FolderReadResult =
  | { ok: true; files: Map<string, Uint8Array>; warnings: Diagnostic[] }
  | { ok: false; errors: Diagnostic[] };

/** Reads the cartridge files that exist in `dir`. Missing files are simply absent from the map. */
export async function readCartridgeFolder(dir: string): Promise<FolderReadResult> {
  const folder = await realFolder(dir);
  if (typeof folder !== 'string') return { ok: false, errors: [folder] };
  const files = new Map<string, Uint8Array>();
  const errors: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  for (const spec of CARTRIDGE_FILES) {
    const path = join(dir, spec.name);
    const read = await readOne(path, folder, spec.maxBytes);
    switch (read.kind) {
      case 'absent':
        break;
      case 'read':
        files.set(spec.name, read.bytes);
        break;
      case 'refused':
        errors.push(read.error);
        break;
      default: {
        const unreachable: never = read;
        throw new Error(`unreachable ${String(unreachable)}`);
      }
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, files, warnings };
}

/** The folder's real path, or the error saying it is a file, missing or unreadable. */
async function realFolder(dir: string): Promise<string | Diagnostic> {
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) {
      return cartError(
        'CART_NOT_A_DIRECTORY',
        `'${dir}' is a file, not a cartridge folder. Give the folder that holds yare.yaml and bot_lore.md.`,
        fileStart(dir),
      );
    }
    return await realpath(dir);
  } catch (error) {
    const code = errnoCode(error);
    if (code === undefined) throw error;
    return isNotFound(error)
      ? cartError(
          'CART_NOT_FOUND',
          `No cartridge folder at '${dir}' (${code}). Check the path.`,
          fileStart(dir),
        )
      : cartError(
          'CART_FILE_UNREADABLE',
          `Cannot read the cartridge folder '${dir}' (${code}). Check its permissions.`,
          fileStart(dir),
        );
  }
}

type ReadOne =
  | { kind: 'absent' }
  | { kind: 'read'; bytes: Uint8Array }
  | { kind: 'refused'; error: Diagnostic };

async function readOne(path: string, realDir: string, maxBytes: number): Promise<ReadOne> {
  const place = fileStart(path);
  let link: Stats;
  try {
    link = await lstat(path);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { kind: 'absent' };
    return refused('CART_FILE_UNREADABLE', `Cannot read ${path} (${fsCode(error)}).`, place);
  }
  let target = path;
  if (link.isSymbolicLink()) {
    try {
      target = await realpath(path);
    } catch (error) {
      return refused(
        'CART_FILE_UNREADABLE',
        `${path} is a symbolic link to nothing (${fsCode(error)}). Replace it with the file itself.`,
        place,
      );
    }
    const inside = relative(realDir, target);
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) {
      return refused(
        'CART_SYMLINK_OUTSIDE',
        `${path} is a symbolic link that leads outside the cartridge folder. Copy the file into the folder instead.`,
        place,
      );
    }
  }
  try {
    return await readBounded(path, target, maxBytes);
  } catch (error) {
    return refused('CART_FILE_UNREADABLE', `Cannot read ${path} (${fsCode(error)}).`, place);
  }
}

async function readBounded(path: string, target: string, maxBytes: number): Promise<ReadOne> {
  const place = fileStart(path);
  const info = await stat(target);
  if (!info.isFile()) {
    return refused('CART_NOT_A_FILE', `${path} is not a regular file. It must be a text file.`, place);
  }
  if (info.size > maxBytes) {
    return refused(
      'CART_FILE_TOO_LARGE',
      `${path} is ${info.size} bytes; the limit is ${maxBytes} bytes. Shorten it.`,
      place,
    );
  }
  // Read at most one byte past the limit, so a file that grew after `stat` is still refused, not read whole.
  const handle = await open(target, 'r');
  try {
    const buffer = new Uint8Array(maxBytes + 1);
    let filled = 0;
    while (filled < buffer.byteLength) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.byteLength - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > maxBytes) {
      return refused('CART_FILE_TOO_LARGE', `${path} is larger than the limit of ${maxBytes} bytes.`, place);
    }
    return { kind: 'read', bytes: buffer.slice(0, filled) };
  } finally {
    await handle.close();
  }
}

function refused(code: CartridgeCode, message: string, place: SourcePlace): ReadOne {
  return { kind: 'refused', error: cartError(code, message, place) };
}

/** A file-system failure's errno code; anything else is not a file-system failure and is rethrown. */
function fsCode(error: unknown): string {
  const code = errnoCode(error);
  if (code === undefined) throw error;
  return code;
}
