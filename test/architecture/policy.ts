// The module boundaries of src/, as data: which file is a module's public surface, which module may import
// which (the layering of README.md's layout paragraph and DESIGN.md), and which modules the browser
// bundle may load. test/architecture/boundaries.test.ts enforces it; bin/index-imports.ts rewrites
// imports to it.

/**
 * A module is a folder directly under `src/` (its public surface: `index.ts`) or a file directly in `src/`
 * (a small shared leaf: its own surface).
 */
export function moduleOf(path: string): string | undefined {
  return /^src\/([^/]+)/.exec(path)?.[1];
}

/** `src/engine/turn/index.ts` for module `turn`; a file module is its own entry. */
export function indexOf(module: string): string {
  return module.endsWith('.ts') ? `src/${module}` : `src/${module}/index.ts`;
}

/**
 * Second public entries, each for a reason the index cannot serve. A light path (the CLI's `--help`,
 * `validate`, `eval`, `run-event`; test/cli/lazy-commands.test.ts) must not load a module's index when that
 * index re-exports heavy code (the HTTP app, the store driver, the model SDKs, zod).
 */
export const EXTRA_ENTRIES: ReadonlyMap<string, string> = new Map([
  [
    'src/apps/server/defaults.ts',
    '`serve --help` shows the defaults and limits; server/index.ts loads the HTTP app, the store and the sessions',
  ],
  [
    'src/tools/authoring/lsp/index.ts',
    'the language server and its completion load vscode-languageserver: `mnesos lsp` and the builder need it, the rest of authoring does not',
  ],
  [
    'src/adapters/store/limits.ts',
    'plain numbers: the CLI options (`turn --help`) and the browser show the name limit; store/index.ts loads the drivers',
  ],
  [
    'src/adapters/store/library-limits.ts',
    'plain numbers and cover types the library page checks before it uploads; store/index.ts loads the drivers',
  ],
  [
    'src/core/cartridge/limits.ts',
    'plain numbers the browser shows (persona limits); cartridge/index.ts loads the file reader and the sandbox',
  ],
  [
    'src/engine/turn/browser.ts',
    'what the browser shows of a turn (input limits, the outcome text); turn/index.ts loads the models',
  ],
  [
    'src/apps/server/browser.ts',
    'the schemas of the API answers the browser parses (zod/mini); server/index.ts loads the HTTP app',
  ],
  [
    'src/tools/authoring/builder/completion.ts',
    'the builder’s completion and hover load vscode-languageserver: the server imports them on the first completion request, so `serve` starts without it',
  ],
  [
    'src/tools/authoring/lint/index.ts',
    '`validate --strict` lints without loading the scenario runner (models, zod) that authoring/index.ts exports',
  ],
]);

/**
 * The public entries the browser bundle (everything src/apps/web/main.tsx loads) may import at run time: pure
 * code whose whole import closure has no `node:` module and no package but the browser ones (isBrowserPackage).
 */
export const BROWSER_ENTRIES: ReadonlySet<string> = new Set([
  'src/core/base-url-policy.ts',
  'src/core/text-policy.ts',
  'src/core/minigames/index.ts',
  'src/core/ledger/index.ts',
  'src/adapters/store/limits.ts',
  'src/adapters/store/library-limits.ts',
  'src/core/cartridge/limits.ts',
  'src/engine/turn/browser.ts',
  'src/apps/server/browser.ts',
]);

/** The packages the browser bundle may contain (by package name: `preact/hooks` is `preact`). */
export const BROWSER_PACKAGES: ReadonlySet<string> = new Set(['preact', 'codemirror']);
/** Single entry points the bundle may load: zod's small build (classic `zod` is tens of kB more). */
export const BROWSER_SPECIFIERS: ReadonlySet<string> = new Set(['zod/mini']);
/** Package scopes whose every package is meant for the browser (the builder's editor). */
export const BROWSER_PACKAGE_SCOPES: ReadonlySet<string> = new Set(['@codemirror']);

/** True when a bare specifier names a package the browser bundle may load. */
export function isBrowserPackage(specifier: string): boolean {
  if (BROWSER_SPECIFIERS.has(specifier)) return true;
  const [first, second] = specifier.split('/');
  if (first === undefined) return false;
  if (first.startsWith('@')) return BROWSER_PACKAGE_SCOPES.has(first) && second !== undefined;
  return BROWSER_PACKAGES.has(first);
}

/** The entry file of the browser bundle, and the web files that run in Node (the build), not in it. */
export const BROWSER_BUNDLE_ENTRY = 'src/apps/web/main.tsx';

/** True when `path` is a file other modules may import: an index, a file module, or a listed entry. */
export function isPublicEntry(path: string): boolean {
  const module = moduleOf(path);
  return module !== undefined && (path === indexOf(module) || EXTRA_ENTRIES.has(path));
}

/** The core: pure modules (no clock, no network; DESIGN.md), importing nothing from the shell. */
const CORE = ['time', 'minigames', 'yare', 'ledger', 'lore', 'cartridge'] as const;

/**
 * Which modules each module may import (the layering of README.md's layout and DESIGN.md's picture;
 * dependencies point down only). The file modules directly in src/ (diagnostics.ts, errno.ts, …) are
 * shared leaves: anything may import them, and they import no module. A new folder under src/ must be
 * placed here before it can import or be imported.
 */
export const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  // The pure core. cartridge sits above yare and ledger (loading compiles the rules and the ledger section).
  time: [],
  minigames: [],
  yare: ['time'],
  ledger: ['time'],
  lore: [],
  cartridge: ['yare', 'ledger', 'lore', 'minigames'],
  // The shell's lowest parts: model providers and storage know no game.
  llm: [],
  store: [],
  // Between core and shell.
  turn: [...CORE, 'llm'],
  session: [...CORE, 'llm', 'store', 'turn'],
  // Tools built on the engine.
  interop: [...CORE],
  authoring: [...CORE, 'llm', 'turn'],
  studio: [...CORE, 'llm', 'turn', 'authoring'],
  // The top of the shell.
  server: [...CORE, 'llm', 'store', 'turn', 'session', 'interop', 'authoring', 'studio'],
  cli: [...CORE, 'llm', 'store', 'turn', 'session', 'interop', 'authoring', 'studio', 'server'],
  // The browser client: at run time only BROWSER_ENTRIES; the server's and session's types for its views.
  web: [...CORE, 'turn', 'store', 'session', 'server'],
  // The library entry (package.json "main"): the core, the models and the turn engine.
  'index.ts': [...CORE, 'llm', 'turn'],
};

/** File modules directly in src/ that are shared leaves (importable by all, importing no module). */
export function isLeafModule(module: string): boolean {
  return module.endsWith('.ts') && module !== 'index.ts';
}
