// Loading a cartridge from a folder or from files, with the rules sandbox: the core's
// loadCartridgeFromFiles (pure: files in, checked Cartridge out) given QuickJS for yare.js/yare.ts.

import { basename, normalize } from 'node:path';
import {
  type LoadFromFilesOptions,
  type LoadOptions,
  type LoadResult,
  compileCartridge,
} from '../../core/cartridge/index.ts';
import { QUICKJS_SANDBOX } from '../sandbox/index.ts';
import { readCartridgeFolder } from './cartridge-folder.ts';

/** Loads a cartridge from a map of file name to content; rules modules run in the QuickJS sandbox. */
export function loadCartridgeFromFiles(
  files: ReadonlyMap<string, string | Uint8Array>,
  name: string,
  options: LoadFromFilesOptions = {},
): LoadResult {
  return compileCartridge(files, name, { sandbox: QUICKJS_SANDBOX, ...options });
}

/** Loads the cartridge in folder `dir` (its files read with the folder reader's checks). */
export async function loadCartridge(dir: string, options: LoadOptions = {}): Promise<LoadResult> {
  const read = await readCartridgeFolder(dir);
  if (!read.ok) return { ok: false, errors: read.errors, warnings: [] };
  const result = loadCartridgeFromFiles(read.files, basename(dir), { ...options, root: normalize(dir) });
  return read.warnings.length === 0
    ? result
    : { ...result, warnings: [...read.warnings, ...result.warnings] };
}
