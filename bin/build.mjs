// The package build, and the staleness check of a development checkout.
//   node bin/build.mjs              TypeScript into dist/ (tsc -p tsconfig.build.json), then the web client
//                                   into dist/web (Vite); what `npm run build`, `prepare` and `prepack` run.
//   node bin/build.mjs --if-needed  the same, skipping each part that is already up to date.
//   … --type-errors-ok              report type errors but do not fail on them (`npm ci`'s prepare and
//                                   `npm start`: the JavaScript is emitted either way, and
//                                   `npm run typecheck` is the check; `npm pack` stays strict).
// The test setup imports `compiledStale()` from here (bin/stale.mjs holds it; bin/mnesos imports that alone):
// in a checkout with sources (src/ beside dist/), any source newer than the last compile means dist/ must not
// be trusted. An installed package has no src/, so it always runs dist/. Plain JavaScript: it runs before
// anything is compiled.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { compiledStale, isDevCheckout, ROOT, STAMP } from './stale.mjs';

export { compiledStale, isDevCheckout, ROOT };

/**
 * Compiles src/ (and bench/) into dist/. The stamp carries the time the compile started, so a source saved
 * during the compile still counts as newer. Returns tsc's exit status (type errors are reported, unless
 * `quiet`; the JavaScript is emitted either way, as tsc does).
 */
export function compile({ quiet = false } = {}) {
  const started = new Date();
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], {
    cwd: ROOT,
    stdio: quiet ? 'ignore' : 'inherit',
  });
  if (result.error) throw result.error;
  if (existsSync(join(ROOT, 'dist', 'src', 'apps', 'cli', 'main.js'))) {
    bundleCommand();
    vendorManyModulePackages();
    mkdirSync(join(ROOT, 'dist'), { recursive: true });
    writeFileSync(STAMP, `${started.toISOString()}\n`);
    utimesSync(STAMP, started, started);
  }
  return result.status ?? 1;
}

/**
 * Packages made of hundreds of small ES modules: kysely (about 260) and zod (about 100, shared by `zod` and
 * `zod/mini`). Resolving and loading them one by one cost `serve` more start-up time than the rest of the
 * server together (kysely alone: about 180 ms against 20 ms as one file, on this 2-core machine). The build
 * bundles them under dist/vendor/ (one module per import name, code they share in one chunk, so `zod` and
 * `zod/mini` keep one core) and points the compiled JavaScript's imports there; the declarations (.d.ts)
 * still name the packages, and sources run through tsx or vitest use the packages themselves. Only our code
 * imports them (the AI SDK, loaded for its own providers only, is handed JSON Schemas, never zod objects),
 * so no process mixes a bundled copy with the package's own objects.
 *
 * yaml (about 70 CommonJS files) and commander (a few) are bundled the same way: every command loads them,
 * and Node compiles each CommonJS file and scans its source for export names before anything runs (a
 * sixth of `mnesos validate`'s start-up; bench/startup.ts). yaml's bundle re-exports the package's own
 * names, read from the package when the build runs (a bundled CommonJS module has no static names;
 * commander has an ES module entry that names them).
 */
const VENDORED = { kysely: 'kysely', zod: 'zod', 'zod/mini': 'zod-mini', yaml: 'yaml', commander: 'commander' };
/** The CommonJS packages of VENDORED without an ES module entry: their bundles name each export (see above). */
const COMMONJS_VENDORED = ['yaml'];
const IMPORT_OF_VENDORED = new RegExp(
  `(\\bfrom\\s*|\\bimport\\s*\\(\\s*)(['"])(${Object.keys(VENDORED).join('|')})\\2`,
  'g',
);

/** The module a vendored bundle is built from: the package's exports, named one by one for CommonJS. */
function vendorEntry(specifier) {
  if (!COMMONJS_VENDORED.includes(specifier)) return `export * from '${specifier}';\n`;
  const names = Object.keys(createRequire(import.meta.url)(specifier)).filter((name) => name !== 'default');
  return `import pkg from '${specifier}';\nexport const { ${names.join(', ')} } = pkg;\nexport default pkg;\n`;
}

function vendorManyModulePackages() {
  const esbuild = createRequire(import.meta.url)('esbuild');
  const vendorDir = join(ROOT, 'dist', 'vendor');
  rmSync(vendorDir, { recursive: true, force: true });
  const entries = mkdtempSync(join(tmpdir(), 'mnesos-vendor-'));
  try {
    const entryPoints = Object.entries(VENDORED).map(([specifier, out]) => {
      const entry = join(entries, `${out}.mjs`);
      writeFileSync(entry, vendorEntry(specifier));
      return { in: entry, out };
    });
    const versions = ['kysely', 'zod', 'yaml', 'commander'].map((name) => {
      const manifest = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8'));
      return `${name}@${manifest.version} (${manifest.license})`;
    });
    esbuild.buildSync({
      entryPoints,
      nodePaths: [join(ROOT, 'node_modules')],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      outdir: vendorDir,
      banner: {
        // A bundled CommonJS module (commander) requires Node's own modules: `require` is made for it.
        js: [
          `// ${versions.join(', ')}, bundled by bin/build.mjs; each package's LICENSE ships with it.`,
          "import { createRequire as createVendorRequire } from 'node:module';",
          'const require = createVendorRequire(import.meta.url);',
        ].join('\n'),
      },
      logLevel: 'warning',
    });
  } finally {
    rmSync(entries, { recursive: true, force: true });
  }
  const rewrite = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        rewrite(path);
        continue;
      }
      if (!entry.name.endsWith('.js')) continue;
      const code = readFileSync(path, 'utf8');
      const rewritten = code.replace(IMPORT_OF_VENDORED, (_match, lead, quote, specifier) => {
        const file = join(vendorDir, `${VENDORED[specifier]}.js`);
        const target = relative(dirname(path), file).split(sep).join('/');
        return `${lead}${quote}${target.startsWith('.') ? target : `./${target}`}${quote}`;
      });
      if (rewritten !== code) writeFileSync(path, rewritten);
    }
  };
  for (const compiled of ['src', 'bench', 'cli']) rewrite(join(ROOT, 'dist', compiled));
}

/** Where the command's bundle goes (bin/mnesos runs dist/cli/main.js). */
const CLI_DIR = join(ROOT, 'dist', 'cli');

/**
 * The `mnesos` command as one bundle of our compiled modules (dist/cli/): its entry, one module per command
 * (each command's `import()` of its work stays lazy), code they share in chunks. Resolving, reading and
 * linking the ~200 modules a command such as `validate` loads one by one was a quarter of its start-up on
 * the 2-core machine (bench/startup.ts). Packages stay outside (their imports are pointed at dist/vendor/
 * afterwards, like the rest of dist/), and the library (`dist/src/index.js`) is not bundled.
 *
 * A module that names a file beside itself (`new URL('./x.js', import.meta.url)`, or through a variable holding
 * that URL: a worker's or a child process's script) names it beside the chunk it ends up in: every such file
 * must be an entry of the bundle (CLI_ENTRIES), and the build fails when one is not.
 */
function bundleCommand() {
  const esbuild = createRequire(import.meta.url)('esbuild');
  rmSync(CLI_DIR, { recursive: true, force: true });
  esbuild.buildSync({
    entryPoints: Object.fromEntries(
      Object.entries(CLI_ENTRIES).map(([out, compiled]) => [out, join(ROOT, 'dist', 'src', compiled)]),
    ),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outdir: CLI_DIR,
    logLevel: 'warning',
  });
  const missing = [];
  for (const file of readdirSync(CLI_DIR)) {
    const code = readFileSync(join(CLI_DIR, file), 'utf8');
    for (const [, name] of code.matchAll(/new URL\(\s*["']\.\/([^"'/]+\.js)["']\s*,/g))
      if (!existsSync(join(CLI_DIR, name))) missing.push(`${file} names ./${name}`);
  }
  if (missing.length > 0)
    throw new Error(`dist/cli: a bundled module names a file beside it that is not bundled (add it to CLI_ENTRIES): ${missing.join('; ')}`);
}

/** The bundle's entries: output name → compiled module under dist/src/. */
const CLI_ENTRIES = {
  main: 'apps/cli/main.js',
  // The cartridge checker's worker thread (apps/server/cartridge-checker.ts starts it by its URL).
  'cartridge-check-worker': 'apps/server/cartridge-check-worker.js',
  // The local model's host process (adapters/llm/local-gguf/host.ts spawns it by its URL).
  'host-child': 'adapters/llm/local-gguf/host-child.js',
};

async function main(argv) {
  const ifNeeded = argv.includes('--if-needed');
  let status = 0;
  if (!ifNeeded || compiledStale({ withBench: true })) status = compile();
  else process.stdout.write('compiled JavaScript is up to date (dist/)\n');
  // The web client's own staleness check follows what the client imports (src/apps/web/build.ts).
  const web = await import(pathToFileURL(join(ROOT, 'dist', 'src', 'apps', 'web', 'build.js')).href);
  if (!ifNeeded || web.webClientStale()) {
    await web.buildWebClient();
    process.stdout.write('web client built into dist/web\n');
  } else process.stdout.write('web client is up to date (dist/web)\n');
  return argv.includes('--type-errors-ok') ? 0 : status;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await main(process.argv.slice(2));
}
