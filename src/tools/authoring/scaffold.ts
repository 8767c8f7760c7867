// `mnesos new`: a new cartridge folder from one of the project's templates (templates/<name>/), with the
// editor schemas written to `.schemas/` so the `# yaml-language-server: $schema=…` lines in the template's
// files resolve without a network.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { prepareFolder, UnsafeWriteError, writeInside } from '../../adapters/files/index.ts';
import { PROJECT_ROOT } from '../../adapters/project-root.ts';
import { jsonSchemaOf, SCHEMA_KINDS, schemaFileName } from './schema/index.ts';

export const TEMPLATES_DIR = join(PROJECT_ROOT, 'templates');
export const SCHEMAS_FOLDER = '.schemas';

export function templateNames(): string[] {
  if (!existsSync(TEMPLATES_DIR)) return [];
  return readdirSync(TEMPLATES_DIR)
    .filter((name) => statSync(join(TEMPLATES_DIR, name)).isDirectory())
    .sort();
}

export type ScaffoldResult = { ok: true; files: string[] } | { ok: false; message: string };

export function scaffoldCartridge(folder: string, template: string): ScaffoldResult {
  const names = templateNames();
  if (!names.includes(template))
    return { ok: false, message: `There is no template '${template}'. Templates: ${names.join(', ')}.` };
  // Through the one safe writer (src/adapters/files/safe-write.ts): a link as the folder is refused.
  try {
    prepareFolder(folder);
  } catch (error) {
    if (error instanceof UnsafeWriteError) return { ok: false, message: error.message };
    throw error;
  }
  if (readdirSync(folder).length > 0)
    return { ok: false, message: `'${folder}' already exists and is not empty; choose a new folder name.` };
  const source = join(TEMPLATES_DIR, template);
  for (const file of listFiles(source)) writeInside(folder, file, readFileSync(join(source, file)));
  writeSchemas(folder);
  return { ok: true, files: listFiles(folder) };
}

/** Writes the editor schemas in `<folder>/.schemas/` (a new folder's: nothing there is replaced). */
export function writeSchemas(folder: string): void {
  for (const kind of SCHEMA_KINDS)
    writeInside(
      folder,
      join(SCHEMAS_FOLDER, schemaFileName(kind)),
      `${JSON.stringify(jsonSchemaOf(kind), null, 2)}\n`,
    );
}

function listFiles(folder: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(folder, prefix)).sort()) {
    const rel = prefix === '' ? name : `${prefix}/${name}`;
    if (statSync(join(folder, rel)).isDirectory()) out.push(...listFiles(folder, rel));
    else out.push(rel);
  }
  return out;
}
