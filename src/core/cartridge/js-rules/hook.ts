// The loader's side of rules modules: which rules file a cartridge has, and the YAML text to compile when
// it is yare.js or yare.ts. Kept here so load.ts needs only a few lines for it.

import type { Diagnostic } from '../../diagnostics.ts';
import { cartError, fileStart } from '../diagnostics.ts';
import { type CartridgeFileKind, type CartridgeFileSpec, specOf } from '../files.ts';
import { rulesFromScript } from './index.ts';

const SCRIPT_KINDS = ['yareJs', 'yareTs'] as const;
const RULES_KINDS: readonly CartridgeFileKind[] = ['yare', ...SCRIPT_KINDS];

/** Whether the files include a rules module (so a missing yare.yaml is no error). */
export function hasRulesScript(files: ReadonlyMap<string, unknown>): boolean {
  return SCRIPT_KINDS.some((kind) => files.has(specOf(kind).name));
}

export interface ScriptRules {
  /** The module's path, as shown in diagnostics. */
  readonly path: string;
  /** The file name the YAML is compiled under (its diagnostics are moved to `path` by `remap`). */
  readonly generatedFile: string;
  /** The rules as YAML text; undefined when the module failed (see `diagnostics`). */
  readonly yaml: string | undefined;
  readonly diagnostics: readonly Diagnostic[];
  readonly remap: (diagnostic: Diagnostic) => Diagnostic;
}

/**
 * The rules module of a cartridge, evaluated; undefined when the rules are yare.yaml (or absent). Two
 * rules files at once are refused: which one counts would be a guess.
 */
export function rulesScriptOf(
  files: ReadonlyMap<string, unknown>,
  texts: ReadonlyMap<CartridgeFileKind, string>,
  pathOf: (spec: CartridgeFileSpec) => string,
): ScriptRules | undefined {
  const present = RULES_KINDS.filter((kind) => files.has(specOf(kind).name));
  const script = present.find((kind) => kind !== 'yare');
  if (script === undefined) return undefined;
  const path = pathOf(specOf(script));
  const base = { path, generatedFile: `${path}.generated.yaml`, remap: (d: Diagnostic) => d };
  if (present.length > 1) {
    const names = present.map((kind) => specOf(kind).name);
    return {
      ...base,
      yaml: undefined,
      diagnostics: [
        cartError(
          'CART_RULES_AMBIGUOUS',
          `A cartridge has one rules file, but this one has ${names.join(' and ')}. Keep one of them.`,
          fileStart(path),
        ),
      ],
    };
  }
  const text = texts.get(script);
  // Undecodable (already reported by the loader): nothing to run.
  if (text === undefined) return { ...base, yaml: undefined, diagnostics: [] };
  const result = rulesFromScript(text, script === 'yareTs' ? 'ts' : 'js', path);
  return result.ok
    ? { path, generatedFile: result.generatedFile, yaml: result.yaml, diagnostics: [], remap: result.remap }
    : { ...base, yaml: undefined, diagnostics: result.diagnostics };
}
