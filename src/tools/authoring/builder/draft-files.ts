// The files a builder draft may hold: the cartridge's text files (CARTRIDGE_FILES), each within its own
// size limit. A draft is a record of file name to text; the generator's four files are a subset.

import { CARTRIDGE_FILES } from '../../../core/cartridge/index.ts';

export type BuilderFiles = Partial<Record<string, string>>;

/** Every file name a draft may hold, in the cartridge's order (rules first). */
export const BUILDER_FILE_NAMES: readonly string[] = CARTRIDGE_FILES.map((s) => s.name);

/** A draft's files read back from the store (JSON the store does not interpret): known names, texts only. */
export function draftFilesOf(stored: unknown): BuilderFiles {
  const out: BuilderFiles = {};
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return out;
  for (const name of BUILDER_FILE_NAMES) {
    const text = (stored as Record<string, unknown>)[name];
    if (typeof text === 'string') out[name] = text;
  }
  return out;
}

/** The files as the loader and the archive writer take them, in the cartridge's order. */
export function filesMap(files: BuilderFiles): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of BUILDER_FILE_NAMES) {
    const text = files[name];
    if (text !== undefined) out.set(name, text);
  }
  return out;
}
