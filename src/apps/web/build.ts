// Builds the web client with Vite into dist/web (or another folder), and tells whether a build is stale.
// `node bin/build.mjs --if-needed` (what `npm start` runs) uses both. A build is stale when any file the
// client is built from is newer than it: the files are found by following the client's imports from
// index.html, so constants it bundles from elsewhere (src/engine/turn/limits.ts, src/adapters/store/limits.ts, …) count.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROJECT_ROOT } from '../../adapters/project-root.ts';

export const WEB_ROOT = join(PROJECT_ROOT, 'src', 'apps', 'web');
export const WEB_DIST = join(PROJECT_ROOT, 'dist', 'web');
const CONFIG_FILE = join(WEB_ROOT, 'vite.config.ts');
const ENTRY = join(WEB_ROOT, 'index.html');

// A relative module specifier after `from`, `import`, `import(` or an HTML `src=`/`href=`. One quoted string
// per match, no nested quantifiers: linear in the file's length.
const SPECIFIER = /(?:\bfrom|\bimport|\bsrc=|\bhref=)\s*\(?\s*["'](\.{1,2}\/[^"'\n]*)["']/g;
// A type-only declaration, after any comments before it (a file's header comment shares its first statement).
const TYPE_ONLY = /^(?:\s|\/\/[^\n]*\n|\/\*(?:[^*]|\*(?!\/))*\*\/)*(?:import|export)\s+type\s/;
const RESOLVE_SUFFIXES = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

function resolveSpecifier(fromFile: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromFile), specifier.split('?')[0]!);
  for (const suffix of RESOLVE_SUFFIXES) {
    const candidate = base + suffix;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/**
 * The source without whole-line `//` comments and block comments: a `;` inside a comment would otherwise cut
 * a statement in two and hide the `import type` that follows it (the project's own files, not untrusted text).
 */
function withoutComments(source: string): string {
  // Line comments first: one that mentions a glob (`play/*.tsx`) would otherwise open a block comment running
  // to the next `*/`, hiding every import between (src/apps/web/play/play.tsx's header does).
  return source.replace(/^[ \t]*\/\/[^\n]*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
}

/** Every file the client is built from: index.html, the Vite config, and all they reach by relative imports. */
export function clientSources(): string[] {
  const seen = new Set<string>([CONFIG_FILE]);
  const pending = [ENTRY];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!/\.(tsx?|html|css)$/.test(file)) continue;
    // Statement by statement: `import type …` / `export type …` are erased from the bundle, so what they
    // name is not something the client is built from (Biome ends every statement with a semicolon).
    for (const statement of withoutComments(readFileSync(file, 'utf8')).split(';')) {
      if (TYPE_ONLY.test(statement)) continue;
      for (const match of statement.matchAll(SPECIFIER)) {
        const target = resolveSpecifier(file, match[1]!);
        if (target !== undefined && !seen.has(target)) pending.push(target);
      }
    }
  }
  return [...seen].filter((file) => existsSync(file)).sort();
}

/** True when `outDir` has no build, or one older than a file the client is built from. */
export function webClientStale(outDir = WEB_DIST): boolean {
  const index = join(outDir, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return clientSources().some((file) => statSync(file).mtimeMs > built);
}

/** Builds the client into `outDir` and returns it. Needs Vite (a development dependency). */
export async function buildWebClient(outDir = WEB_DIST): Promise<string> {
  const { build } = await import('vite');
  await build({ configFile: CONFIG_FILE, build: { outDir, emptyOutDir: true } });
  return outDir;
}

const invokedDirectly = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (invokedDirectly) {
  const ifNeeded = process.argv.includes('--if-needed');
  if (ifNeeded && !webClientStale()) {
    process.stdout.write(`web client is up to date (${relative(process.cwd(), WEB_DIST) || WEB_DIST})\n`);
  } else {
    await buildWebClient();
    process.stdout.write(`web client built into ${relative(process.cwd(), WEB_DIST) || WEB_DIST}\n`);
  }
}
