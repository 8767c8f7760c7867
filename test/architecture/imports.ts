// The import graph of src/, read from the sources: every static `import … from`, `export … from`, bare
// `import '…'` and `import('…')` (also in type positions), with its file:line:col, whether it is type-only,
// and where a relative specifier lands. Shared by test/architecture/boundaries.test.ts and the codemod
// bin/index-imports.ts. The sources are Biome-formatted, so a top-level declaration starts at column 0;
// a declaration is read up to its closing quote, at most MAX_DECLARATION_LINES lines.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

export const MAX_DECLARATION_LINES = 200;

export type ImportKind = 'static' | 'dynamic';

export interface ImportSite {
  /** Project-relative path of the importing file, with `/` separators (`src/engine/turn/lore.ts`). */
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly specifier: string;
  readonly kind: ImportKind;
  /** `import type …`, `export type … from`, `typeof import(…)`, or every named binding marked `type`. */
  readonly typeOnly: boolean;
  /** Project-relative target file for a relative specifier; undefined for a package or `node:` module. */
  readonly target: string | undefined;
  /** The declaration text (static) or the `import(…)` call (dynamic), for messages and the codemod. */
  readonly text: string;
}

/** Every `.ts`/`.tsx` file under `dir` (project-relative, `/`-separated, sorted). */
export function sourceFiles(root: string, dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
        found.push(toProjectPath(root, path));
    }
  };
  walk(join(root, dir));
  return found.sort();
}

export function toProjectPath(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}

const DECLARATION_START = /^(import|export)\b/;
const FROM_CLAUSE = /\bfrom\s*(['"])([^'"\n]+)\1/;
const BARE_IMPORT = /^import\s*(['"])([^'"\n]+)\1/;
const DYNAMIC_IMPORT = /(typeof\s+)?\bimport\(\s*(['"])([^'"\n]+)\2\s*\)/g;

/** The imports of one file's text. */
export function scanImports(root: string, file: string, text: string): ImportSite[] {
  const lines = text.split('\n');
  const sites: ImportSite[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    for (const match of line.matchAll(DYNAMIC_IMPORT)) {
      const specifier = match[3]!;
      sites.push({
        file,
        line: i + 1,
        col: match.index + (match[1]?.length ?? 0) + 1,
        specifier,
        kind: 'dynamic',
        typeOnly: match[1] !== undefined || isTypePosition(line, match.index),
        target: resolveSpecifier(root, file, specifier),
        text: match[0],
      });
    }
    if (!DECLARATION_START.test(line)) continue;
    let declaration = line;
    let last = i;
    while (!declarationEnded(declaration) && last + 1 < lines.length && last - i < MAX_DECLARATION_LINES) {
      last++;
      declaration += `\n${lines[last]}`;
    }
    const specifier = BARE_IMPORT.exec(declaration)?.[2] ?? fromSpecifier(declaration);
    if (specifier === undefined) continue;
    sites.push({
      file,
      line: i + 1,
      col: 1,
      specifier,
      kind: 'static',
      typeOnly: isTypeOnlyDeclaration(declaration),
      target: resolveSpecifier(root, file, specifier),
      text: declaration,
    });
    i = last;
  }
  return sites;
}

/** A declaration ends at its `from '…'`, at a bare `import '…'`, or at a line without an open brace list. */
function declarationEnded(declaration: string): boolean {
  if (FROM_CLAUSE.test(declaration) || BARE_IMPORT.test(declaration)) return true;
  const opened = declaration.split('{').length - 1;
  const closed = declaration.split('}').length - 1;
  // `export const x = {` and `export function f() {` never reach a `from`: stop at the first line.
  return !/^(import|export)\s+(type\s+)?(\{|\*)/.test(declaration) || (opened > 0 && opened === closed);
}

function fromSpecifier(declaration: string): string | undefined {
  if (!/^(import|export)\s+(type\s+)?(\{|\*|[\w$]+\s*(,|from))/.test(declaration)) return undefined;
  return FROM_CLAUSE.exec(declaration)?.[2];
}

function isTypeOnlyDeclaration(declaration: string): boolean {
  if (/^(import|export)\s+type\b/.test(declaration)) return true;
  const list = /\{([^}]*)\}/.exec(declaration)?.[1];
  if (list === undefined || /^import\s+[\w$]+/.test(declaration) || /\*\s+as\b/.test(declaration))
    return false;
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return names.length > 0 && names.every((name) => name.startsWith('type '));
}

/** `x as import('…').T` or `: import('…').T`: the call sits in a type annotation. */
function isTypePosition(line: string, index: number): boolean {
  return (
    /(:|\bas|<|\|)\s*$/.test(line.slice(0, index)) && line[index + line.slice(index).indexOf(')') + 1] === '.'
  );
}

function resolveSpecifier(root: string, file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  return toProjectPath(root, resolve(root, dirname(file), specifier));
}

/** The imports of every source file under `dirs`. */
export function scanTree(root: string, dirs: readonly string[]): ImportSite[] {
  return dirs.flatMap((dir) =>
    sourceFiles(root, dir).flatMap((file) => scanImports(root, file, readFileSync(join(root, file), 'utf8'))),
  );
}
