// `mnesos new`: a new cartridge folder from one of the project's templates (templates/<name>/), with the
// editor schemas written to `.schemas/` so the `# yaml-language-server: $schema=…` lines in the template's
// files resolve without a network.

import { cpSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
  if (existsSync(folder)) {
    if (!statSync(folder).isDirectory())
      return { ok: false, message: `'${folder}' exists and is not a folder.` };
    if (readdirSync(folder).length > 0)
      return { ok: false, message: `'${folder}' already exists and is not empty; choose a new folder name.` };
  }
  mkdirSync(folder, { recursive: true });
  cpSync(join(TEMPLATES_DIR, template), folder, { recursive: true, dereference: false });
  writeSchemas(folder);
  return { ok: true, files: listFiles(folder) };
}

/** Writes (or refreshes) the editor schemas in `<folder>/.schemas/`. */
export function writeSchemas(folder: string): void {
  const dir = join(folder, SCHEMAS_FOLDER);
  mkdirSync(dir, { recursive: true });
  for (const kind of SCHEMA_KINDS)
    writeFileSync(join(dir, schemaFileName(kind)), `${JSON.stringify(jsonSchemaOf(kind), null, 2)}\n`);
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
