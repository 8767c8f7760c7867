// The module boundaries of src/, as data: which file is a module's public surface, which module may import
// which (the layering of README.md's layout paragraph and DESIGN.md), and which modules the browser
// bundle may load. test/architecture/boundaries.test.ts enforces it; bin/index-imports.ts rewrites
// imports to it.

/** The layers of src/, bottom first (DESIGN.md's picture; dependencies point down only). */
export const LAYERS = ['core', 'adapters', 'engine', 'tools', 'apps'] as const;
export type Layer = (typeof LAYERS)[number];

/**
 * A module is a folder directly under a layer folder (`src/core/yare`; its public surface: `index.ts`) or a
 * file directly in a layer folder (`src/core/errno.ts`: a small shared leaf, its own surface). The library
 * entry `src/index.ts` is a module of its own.
 */
export function moduleOf(path: string): string | undefined {
  const match = /^src\/(?:(core|adapters|engine|tools|apps)\/([^/]+)|(index\.ts)$)/.exec(path);
  if (match === null) return undefined;
  return match[3] ?? `${match[1]}/${match[2]}`;
}

/** The layer a module lives in (`core` for `core/yare`); undefined for the library entry. */
export function layerOf(module: string): Layer | undefined {
  const layer = module.split('/')[0];
  return (LAYERS as readonly string[]).includes(layer ?? '') ? (layer as Layer) : undefined;
}

/** `src/engine/turn/index.ts` for module `engine/turn`; a file module is its own entry. */
export function indexOf(module: string): string {
  return module.endsWith('.ts') ? `src/${module}` : `src/${module}/index.ts`;
}

/**
 * Second public entries, each for a reason the index cannot serve. A light path (the CLI's `--help`,
 * `validate`, `eval`, `run-event`; test/apps/cli/lazy-commands.test.ts) must not load a module's index when that
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
    'src/tools/authoring/builder/completion.ts',
    'the builder’s completion and hover load vscode-languageserver: the server imports them on the first completion request, so `serve` starts without it',
  ],
  [
    'src/tools/authoring/builder/index.ts',
    'the builder’s back end (drafts, templates, try-event, generate): the server and its check worker load it without the scenario runner that authoring/index.ts exports',
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
  'src/core/sse.ts',
  'src/core/is-record.ts',
  'src/core/model-settings/index.ts',
  'src/core/minigames/index.ts',
  'src/core/ledger/index.ts',
  'src/adapters/store/limits.ts',
  'src/adapters/store/library-limits.ts',
  'src/core/cartridge/limits.ts',
  'src/engine/turn/browser.ts',
  'src/apps/contract/index.ts',
]);

/** The packages the browser bundle may contain (by package name: `preact/hooks` is `preact`). */
// re2js: World Info's regex engine (pure JavaScript), reached through the lore index's re-exports; the
// client runs no World Info, so the bundler drops it (its package declares no side effects).
export const BROWSER_PACKAGES: ReadonlySet<string> = new Set(['preact', 'codemirror', 're2js']);
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
const CORE = [
  'core/time',
  'core/minigames',
  'core/yare',
  'core/ledger',
  'core/lore',
  'core/cartridge',
  'core/lexicon',
  'core/model-settings',
  'core/media',
] as const;
const LLM = 'adapters/llm';
const STORE = 'adapters/store';
const BUS = 'adapters/bus';
const SANDBOX = 'adapters/sandbox';
const FILES = 'adapters/files';
const LEXICON = 'adapters/lexicon';
const TURN = 'engine/turn';
const SESSION = 'engine/session';
const AUTHORING = 'tools/authoring';
const INTEROP = 'tools/interop';

/**
 * Which modules each module may import (dependencies point down only: core ← adapters ← engine ← tools ←
 * apps, and within a layer as listed). The leaf files directly in a layer folder (core/diagnostics.ts,
 * core/errno.ts, …) may be imported by any module of their layer or above, and import no module. A new
 * folder under a layer must be placed here before it can import or be imported.
 */
export const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  // The pure core. cartridge sits above yare and ledger (loading compiles the rules and the ledger section).
  'core/time': [],
  'core/minigames': [],
  'core/yare': ['core/time'],
  'core/ledger': ['core/time'],
  'core/lore': [],
  'core/lexicon': [],
  'core/cartridge': ['core/yare', 'core/ledger', 'core/lore', 'core/minigames'],
  // A principal's model settings: one schema the server, the API's answers and the browser share.
  'core/model-settings': [],
  // Voices and pictures: the speech plan and the picture prompt (docs/voices.md); the speakers are the
  // ledger's entities too.
  'core/media': ['core/cartridge', 'core/ledger'],
  // The shell's lowest parts: model providers and storage know no game; the sandbox runs rules modules
  // for the core's loader, and files reads folders and archives into it.
  [LLM]: [],
  // Speech and image providers, espeak-ng (docs/voices.md).
  'adapters/media': ['core/media'],
  [STORE]: [],
  // The table bus (live events across replicas) knows no game either.
  [BUS]: [],
  [SANDBOX]: ['core/cartridge'],
  [FILES]: ['core/cartridge', SANDBOX],
  // The English lexicon's files (WordNet), parsed by the core's lexicon.
  [LEXICON]: ['core/lexicon'],
  // The engine: one turn, and sessions of turns.
  [TURN]: [...CORE, LLM, LEXICON],
  [SESSION]: [...CORE, LLM, STORE, BUS, FILES, TURN],
  // Tools built on the engine (the authoring toolchain with the builder's back end; SillyTavern interop).
  // Explore plays its turn steps through the session layer's admission and stateless turn, the one way
  // into a turn (src/tools/authoring/explore/play.ts).
  [INTEROP]: [...CORE, FILES],
  [AUTHORING]: [...CORE, LLM, FILES, TURN, SESSION],
  // The applications. The contract (the API's answers as zod/mini schemas) is shared by the server, which
  // answers with it, and the browser client, which parses with it. It reads the turn engine's browser entry
  // only (engine/turn/browser.ts: the reasons an answer played no turn), as the browser client does.
  'apps/contract': ['core/model-settings', TURN],
  // The engine for AI agents (`mnesos mcp`, docs/agents.md): thin tools over the same services. The
  // server mounts it under `serve`, the CLI runs it on stdio.
  'apps/mcp': [...CORE, LLM, STORE, FILES, TURN, SESSION, AUTHORING],
  'apps/server': [
    'apps/contract',
    'apps/mcp',
    ...CORE,
    LLM,
    'adapters/media',
    STORE,
    BUS,
    FILES,
    SANDBOX,
    TURN,
    SESSION,
    INTEROP,
    AUTHORING,
  ],
  'apps/cli': [
    'apps/contract',
    ...CORE,
    LLM,
    'adapters/media',
    STORE,
    BUS,
    FILES,
    SANDBOX,
    TURN,
    SESSION,
    INTEROP,
    AUTHORING,
    'apps/server',
    'apps/mcp',
  ],
  // The browser client: at run time only BROWSER_ENTRIES; the session's types for its views.
  'apps/web': [...CORE, TURN, STORE, SESSION, 'apps/contract'],
  // The library entry (package.json "main"): the core, the models and the turn engine.
  'index.ts': [...CORE, LLM, FILES, TURN],
};

/** File modules directly in a layer folder: shared leaves (importable from their layer up, importing no module). */
export function isLeafModule(module: string): boolean {
  return module.endsWith('.ts') && module !== 'index.ts';
}

/** Whether a module may import a leaf: only leaves of its own layer or of a layer below. */
export function mayImportLeaf(module: string, leaf: string): boolean {
  const from = layerOf(module);
  const to = layerOf(leaf);
  if (to === undefined) return false;
  if (from === undefined) return to === 'core';
  return LAYERS.indexOf(to) <= LAYERS.indexOf(from);
}
