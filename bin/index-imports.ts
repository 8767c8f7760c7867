// Codemod for the index-only boundary (test/architecture/boundaries.test.ts): every static named import or
// re-export that reaches into another module's file is pointed at that module's `index.ts`, and the names
// it needs are added to the index (`export { name, type Name } from './file.ts'`). Files with uncommitted
// changes are left alone (others may be editing them), and so is an import whose index would need a name
// that index already takes from another file (reported for a hand fix).
//
//   npx tsx bin/index-imports.ts [--dry-run] [module...]     (modules: the importing folders under src/)
//
// Run `npx biome format --write <changed files>` afterwards; the codemod writes plain declarations.

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ImportSite, scanImports, scanTree } from '../test/architecture/imports.ts';
import { EXTRA_ENTRIES, indexOf, isPublicEntry, moduleOf } from '../test/architecture/policy.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const dryRun = args.includes('--dry-run');
const only = new Set(args.filter((a) => !a.startsWith('--')));

interface Binding {
  /** The name the target file exports. */
  readonly name: string;
  /** The local name (`a as b` → `b`). */
  readonly local: string;
  readonly type: boolean;
}

function dirtyFiles(): Set<string> {
  const out = execFileSync('git', ['status', '--porcelain', '--untracked-files=all', 'src'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return new Set(
    out
      .split('\n')
      .filter((line) => line.length > 3)
      .map((line) => line.slice(3).replace(/^.* -> /, '')),
  );
}

/** `{ a, type B, c as d }` of a named declaration; undefined for `*`, default or namespace forms. */
function bindingsOf(text: string): Binding[] | undefined {
  const head = /^(import|export)\s+(type\s+)?\{([^}]*)\}\s*from\s*['"][^'"]+['"];?\s*$/.exec(text);
  if (head === null) return undefined;
  const declarationType = head[2] !== undefined;
  return head[3]!
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const type = declarationType || part.startsWith('type ');
      const [name, local] = part.replace(/^type\s+/, '').split(/\s+as\s+/);
      return { name: name!, local: local ?? name!, type };
    });
}

/** The names a file exports directly (declarations and `export { … }` lists), value or type. */
function declaredExports(text: string): Map<string, boolean> {
  const names = new Map<string, boolean>();
  for (const m of text.matchAll(
    /^export\s+(declare\s+)?(async\s+)?(abstract\s+)?(const|let|var|function\*?|class|type|interface|enum)\s+([\w$]+)/gm,
  )) {
    names.set(m[5]!, m[4] === 'type' || m[4] === 'interface');
  }
  for (const m of text.matchAll(/^export\s+(type\s+)?\{([^}]*)\}(?!\s*from)/gm)) {
    for (const part of m[2]!.split(',')) {
      const trimmed = part.trim();
      if (trimmed === '') continue;
      const exported = trimmed.replace(/^type\s+/, '').split(/\s+as\s+/);
      names.set(exported[1] ?? exported[0]!, m[1] !== undefined || trimmed.startsWith('type '));
    }
  }
  return names;
}

interface IndexExport {
  /** Exported name → [source file (project path) or 'local', type-only]. */
  readonly named: Map<string, { readonly from: string; readonly type: boolean }>;
  /** Files re-exported with `export *` (value) or `export type *`. */
  readonly stars: Map<string, boolean>;
}

function indexExports(index: string, text: string): IndexExport {
  const named = new Map<string, { from: string; type: boolean }>();
  const stars = new Map<string, boolean>();
  for (const [name, type] of declaredExports(text)) named.set(name, { from: 'local', type });
  for (const site of scanImports(ROOT, index, text)) {
    if (!site.text.startsWith('export') || site.target === undefined) continue;
    const star = /^export\s+(type\s+)?\*\s*(as\s+([\w$]+))?/.exec(site.text);
    if (star !== null) {
      if (star[3] !== undefined) named.set(star[3], { from: `${site.target}#namespace`, type: false });
      else stars.set(site.target, star[1] !== undefined);
      continue;
    }
    for (const b of bindingsOf(site.text) ?? []) named.set(b.local, { from: site.target, type: b.type });
  }
  // Named bindings in `import { X } from './f.ts'; export { X };` form (minigames/index.ts).
  for (const site of scanImports(ROOT, index, text)) {
    if (!site.text.startsWith('import') || site.target === undefined) continue;
    for (const b of bindingsOf(site.text) ?? []) {
      const local = named.get(b.local);
      if (local?.from === 'local') named.set(b.local, { from: site.target, type: b.type || local.type });
    }
  }
  return { named, stars };
}

/** The file that declares `name`, following re-exports from `file` (undefined: not found). */
function originOf(file: string, name: string, depth: number): string | undefined {
  if (depth > 8 || file === 'local' || file.endsWith('#namespace')) return undefined;
  const text = readFileSync(join(ROOT, file), 'utf8');
  for (const site of scanImports(ROOT, file, text)) {
    if (site.target === undefined) continue;
    if (site.text.startsWith('export')) {
      if (/^export\s+(type\s+)?\*\s*from/.test(site.text)) {
        const found = originOf(site.target, name, depth + 1);
        if (found !== undefined) return found;
        continue;
      }
      const b = bindingsOf(site.text)?.find((x) => x.local === name);
      if (b !== undefined) return originOf(site.target, b.name, depth + 1);
    } else {
      // `import { X } from './f.ts'; export { X };`
      const b = bindingsOf(site.text)?.find((x) => x.local === name);
      if (b !== undefined) return originOf(site.target, b.name, depth + 1);
    }
  }
  return declaredExports(text).has(name) ? file : undefined;
}

function relativeSpecifier(fromFile: string, toFile: string): string {
  const spec = relative(dirname(join(ROOT, fromFile)), join(ROOT, toFile)).split('\\').join('/');
  return spec.startsWith('.') ? spec : `./${spec}`;
}

const dirty = dirtyFiles();
const indexTexts = new Map<string, string>();
const changedIndexes = new Set<string>();
const changedFiles = new Set<string>();
const problems: string[] = [];

function indexText(index: string): string {
  let text = indexTexts.get(index);
  if (text === undefined) {
    text = readFileSync(join(ROOT, index), 'utf8');
    indexTexts.set(index, text);
  }
  return text;
}

/** Makes `index` export `binding` from `file`; false (with a problem noted) when it cannot. */
function ensureExport(index: string, file: string, binding: Binding, site: ImportSite): boolean {
  const text = indexText(index);
  const exports = indexExports(index, text);
  const existing = exports.named.get(binding.name);
  if (existing !== undefined) {
    if (existing.from !== file && originOf(existing.from, binding.name, 0) !== originOf(file, binding.name, 0)) {
      problems.push(
        `${site.file}:${site.line}: ${binding.name} — ${index} already exports it from ${existing.from}, not ${file}`,
      );
      return false;
    }
    if (existing.type && !binding.type) {
      const upgraded = text.replace(new RegExp(`\\btype\\s+${binding.name}\\b(?=\\s*[,}\\n])`), binding.name);
      if (upgraded === text) {
        problems.push(`${site.file}:${site.line}: ${binding.name} — exported as a type by ${index}; needs a value`);
        return false;
      }
      indexTexts.set(index, upgraded);
      changedIndexes.add(index);
    }
    return true;
  }
  const star = exports.stars.get(file);
  if (star === false || (star === true && binding.type)) return true;
  // Another star export of the same name would be shadowed silently by an explicit export: refuse.
  for (const [starFile] of exports.stars) {
    if (starFile === file) continue;
    if (declaredExports(readFileSync(join(ROOT, starFile), 'utf8')).has(binding.name)) {
      problems.push(`${site.file}:${site.line}: ${binding.name} — ${index} star-exports it from ${starFile}`);
      return false;
    }
  }
  const spec = relativeSpecifier(index, file);
  const entry = `${binding.type ? 'type ' : ''}${binding.name}`;
  const listPattern = new RegExp(
    `^export \\{([^}]*)\\} from '${spec.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}';`,
    'm',
  );
  const list = listPattern.exec(text);
  let updated: string;
  if (list !== null) {
    const names = list[1]!
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n !== '');
    names.push(entry);
    names.sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
    updated = text.replace(listPattern, `export { ${names.join(', ')} } from '${spec}';`);
  } else {
    updated = `${text.trimEnd()}\nexport { ${entry} } from '${spec}';\n`;
  }
  indexTexts.set(index, updated);
  changedIndexes.add(index);
  return true;
}

function sortKey(entry: string): string {
  return entry.replace(/^type\s+/, '').toLowerCase();
}

/** The import declaration(s) for `bindings` from `spec`, one line. */
function declaration(keyword: 'import' | 'export', spec: string, bindings: readonly Binding[]): string {
  const allTypes = bindings.every((b) => b.type);
  const parts = [...bindings]
    .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()))
    .map(
      (b) =>
        `${b.type && !allTypes ? 'type ' : ''}${b.name}${b.local !== b.name ? ` as ${b.local}` : ''}`,
    );
  return `${keyword} ${allTypes ? 'type ' : ''}{ ${parts.join(', ')} } from '${spec}';`;
}

const sites = scanTree(ROOT, ['src']);
const byFile = new Map<string, ImportSite[]>();
for (const site of sites) {
  if (site.target === undefined) continue;
  const from = moduleOf(site.file);
  const to = moduleOf(site.target);
  if (from === undefined || to === undefined || from === to) continue;
  if (isPublicEntry(site.target)) continue;
  if (only.size > 0 && !only.has(from)) continue;
  const list = byFile.get(site.file) ?? [];
  list.push(site);
  byFile.set(site.file, list);
}

for (const [file, fileSites] of byFile) {
  if (dirty.has(file)) {
    problems.push(`${file}: skipped (uncommitted changes)`);
    continue;
  }
  let text = readFileSync(join(ROOT, file), 'utf8');
  for (const site of fileSites) {
    const to = moduleOf(site.target!)!;
    const index = indexOf(to);
    if (EXTRA_ENTRIES.has(site.target!)) continue;
    if (dirty.has(index)) {
      problems.push(`${site.file}:${site.line}: ${index} has uncommitted changes; skipped`);
      continue;
    }
    if (site.kind === 'dynamic') {
      problems.push(`${site.file}:${site.line}: dynamic ${site.specifier}; fix by hand`);
      continue;
    }
    const bindings = bindingsOf(site.text);
    if (bindings === undefined) {
      problems.push(`${site.file}:${site.line}: ${site.text.split('\n')[0]} — not a named list; fix by hand`);
      continue;
    }
    if (!bindings.every((b) => ensureExport(index, site.target!, b, site))) continue;
    const keyword = site.text.startsWith('export') ? 'export' : 'import';
    const replacement = declaration(keyword, relativeSpecifier(file, index), bindings);
    if (!text.includes(site.text)) {
      problems.push(`${site.file}:${site.line}: declaration text not found; fix by hand`);
      continue;
    }
    text = text.replace(site.text, replacement);
  }
  text = mergeDuplicates(text);
  if (text !== readFileSync(join(ROOT, file), 'utf8')) {
    changedFiles.add(file);
    if (!dryRun) writeFileSync(join(ROOT, file), text);
  }
}

/** Two single-line imports from one specifier become one (value and type bindings together). */
function mergeDuplicates(text: string): string {
  const lines = text.split('\n');
  const seen = new Map<string, number>();
  for (let i = 0; i < lines.length; i++) {
    const m = /^import\s+(type\s+)?\{([^}]*)\}\s*from\s*'([^']+)';$/.exec(lines[i]!);
    if (m === null) continue;
    const bindings = bindingsOf(lines[i]!)!;
    const first = seen.get(m[3]!);
    if (first === undefined) {
      seen.set(m[3]!, i);
      continue;
    }
    const merged = [...bindingsOf(lines[first]!)!, ...bindings];
    const unique = [...new Map(merged.map((b) => [`${b.name} ${b.local}`, b])).values()].map((b) => ({
      ...b,
      type: merged.filter((o) => o.name === b.name && o.local === b.local).every((o) => o.type),
    }));
    lines[first] = declaration('import', m[3]!, unique);
    lines[i] = '\u0000';
  }
  return lines.filter((line) => line !== '\u0000').join('\n');
}

for (const index of changedIndexes) {
  changedFiles.add(index);
  if (!dryRun) writeFileSync(join(ROOT, index), indexTexts.get(index)!);
}
for (const problem of problems) console.error(problem);
console.log([...changedFiles].sort().join('\n'));
