// The starts the builder offers for a new draft: `empty` (the smallest cartridge the checker accepts, to
// write everything yourself) and the templates of `mnesos new` (templates/<name>/), read from disk. Only
// the cartridge files at a template's top level are taken (its scenario tests stay with `mnesos new`).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEMPLATES_DIR, templateNames } from '../scaffold.ts';
import { CARTRIDGE_FILES } from '../../../core/cartridge/index.ts';
import { isNotFound } from '../../../core/errno.ts';

export const EMPTY_TEMPLATE = 'empty';

const EMPTY_FILES: Readonly<Record<string, string>> = {
  'yare.yaml': 'version: "1.0"\nbot_name: "Untitled"\nstate_schema: {}\nevents: {}\n',
  'bot_lore.md': '# Untitled\n\nDescribe the world here.\n',
  'prompt_directives.yaml': 'director: ""\nnarrator: ""\n',
  'first-message.md': 'The story begins.\n',
};

/** Every template name the builder offers, `empty` first. */
export function builderTemplates(): string[] {
  return [EMPTY_TEMPLATE, ...templateNames().filter((n) => n !== EMPTY_TEMPLATE)];
}

/**
 * The files of a template, or undefined when there is no such template. With `cartridgeName` (the new
 * draft's name) the rules' `bot_name` is that name: a draft starts as a cartridge of its own, never as
 * another draft's "Untitled" or the template's cartridge.
 */
export function templateFiles(name: string, cartridgeName?: string): Record<string, string> | undefined {
  const files = templateFilesAsWritten(name);
  if (files === undefined || cartridgeName === undefined || files['yare.yaml'] === undefined) return files;
  // A JSON string is a YAML double-quoted scalar: any name stays one line, quotes and all.
  const named = files['yare.yaml'].replace(/^bot_name:.*$/m, `bot_name: ${JSON.stringify(cartridgeName)}`);
  return { ...files, 'yare.yaml': named };
}

function templateFilesAsWritten(name: string): Record<string, string> | undefined {
  if (name === EMPTY_TEMPLATE) return { ...EMPTY_FILES };
  if (!templateNames().includes(name)) return undefined;
  const files: Record<string, string> = {};
  for (const spec of CARTRIDGE_FILES) {
    try {
      files[spec.name] = readFileSync(join(TEMPLATES_DIR, name, spec.name), 'utf8');
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  return files;
}
