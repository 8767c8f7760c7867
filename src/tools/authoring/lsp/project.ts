// A cartridge as the language server sees it: its files, with the editor's unsaved text taking the place
// of what is on disk, checked by the same loader as `mnesos validate` (and the scenario parser for tests/).
// The last rules that compiled are kept, so completion still knows the state schema while a file is broken.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  CARTRIDGE_FILES,
  type CartridgeFileKind,
  loadCartridgeFromFiles,
} from '../../../core/cartridge/index.ts';
import type { CompiledRules } from '../../../core/yare/index.ts';
import type { Diagnostic } from '../../../core/diagnostics.ts';
import { lintCartridge } from '../lint/index.ts';
import { MAX_SCENARIO_FILE_BYTES } from '../scenario/limits.ts';
import { parseScenarioFile } from '../scenario/parse.ts';
import { TESTS_FOLDER } from '../scenario/files.ts';

export type FileRole = CartridgeFileKind | 'scenario' | 'other';

/** The cartridge folder a file belongs to, and its role there. */
export function locate(path: string): { root: string; role: FileRole } {
  const name = basename(path);
  const dir = dirname(path);
  if (basename(dir) === TESTS_FOLDER && /\.ya?ml$/.test(name))
    return { root: dirname(dir), role: 'scenario' };
  const spec = CARTRIDGE_FILES.find((s) => s.name === name);
  return { root: dir, role: spec ? spec.kind : 'other' };
}

export class Project {
  constructor(
    readonly root: string,
    /** Unsaved editor text by absolute path. */
    private readonly overlay: ReadonlyMap<string, string>,
  ) {}

  textOf(path: string): string | undefined {
    const open = this.overlay.get(path);
    if (open !== undefined) return open;
    try {
      if (!existsSync(path) || !statSync(path).isFile() || statSync(path).size > 4 * 1024 * 1024)
        return undefined;
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  }

  /** Scenario files: those on disk and those open in the editor. */
  scenarioPaths(): string[] {
    const dir = join(this.root, TESTS_FOLDER);
    const paths = new Set<string>();
    if (existsSync(dir) && statSync(dir).isDirectory())
      for (const n of readdirSync(dir)) if (/\.ya?ml$/.test(n)) paths.add(join(dir, n));
    for (const p of this.overlay.keys())
      if (locate(p).role === 'scenario' && locate(p).root === this.root) paths.add(p);
    return [...paths].sort();
  }

  get yarePath(): string {
    return join(this.root, 'yare.yaml');
  }

  /** Every diagnostic of the cartridge and its scenario files, keyed by file path; the rules that compiled (else `previous`). */
  check(previous?: CompiledRules): { byFile: Map<string, Diagnostic[]>; rules: CompiledRules | undefined } {
    const files = new Map<string, string>();
    for (const spec of CARTRIDGE_FILES) {
      const text = this.textOf(join(this.root, spec.name));
      if (text !== undefined) files.set(spec.name, text);
    }
    const byFile = new Map<string, Diagnostic[]>();
    const add = (d: Diagnostic) => {
      const file = d.place?.file ?? this.yarePath;
      const list = byFile.get(file) ?? [];
      list.push(d);
      byFile.set(file, list);
    };
    const result = loadCartridgeFromFiles(files, basename(this.root), { root: this.root });
    for (const d of result.ok ? result.warnings : [...result.errors, ...result.warnings]) add(d);
    if (result.ok) {
      for (const d of lintCartridge(result.cartridge)) add(d);
    }
    for (const path of this.scenarioPaths()) {
      const text = this.textOf(path);
      if (text === undefined || text.length > MAX_SCENARIO_FILE_BYTES) continue;
      const parsed = parseScenarioFile(text, path);
      if (!parsed.ok) for (const d of parsed.errors) add(d);
    }
    return { byFile, rules: result.ok ? result.cartridge.rules : previous };
  }

  scenarioTexts(): string[] {
    return this.scenarioPaths().flatMap((p) => {
      const t = this.textOf(p);
      return t === undefined ? [] : [t];
    });
  }
}
