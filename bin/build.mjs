// The package build, and the staleness check of a development checkout.
//   node bin/build.mjs              TypeScript into dist/ (tsc -p tsconfig.build.json), then the web client
//                                   into dist/web (Vite); what `npm run build`, `prepare` and `prepack` run.
//   node bin/build.mjs --if-needed  the same, skipping each part that is already up to date.
//   … --type-errors-ok              report type errors but do not fail on them (`npm ci`'s prepare and
//                                   `npm start`: the JavaScript is emitted either way, and
//                                   `npm run typecheck` is the check; `npm pack` stays strict).
// bin/mnesos and the test setup import `compiledStale()`: in a checkout with sources (src/ beside dist/),
// any source newer than the last compile means dist/ must not be trusted. An installed package has no
// src/, so it always runs dist/. Plain JavaScript: it runs before anything is compiled.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STAMP = join(ROOT, 'dist', '.build-stamp');
/** Files outside src/ that change what tsc emits. */
const CONFIG_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json'];

/** True in a development checkout (the TypeScript sources are present), false in an installed package. */
export function isDevCheckout() {
  return existsSync(join(ROOT, 'src', 'apps', 'cli', 'main.ts'));
}

function newestIn(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestIn(path));
    else if (/\.(ts|tsx|mts|json)$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Sources the build compiles that only the benchmarks run: bench/ and the test helpers it imports (the
 * ByteSized32 replay, test/helpers/bytesized-gold.ts). `--if-needed` looks at them; bin/mnesos, whose start
 * runs no benchmark, does not spend its start-up time on them.
 */
const BENCH_SOURCES = ['bench', join('test', 'helpers')];

/**
 * True when dist/ is missing or older than a source it is compiled from (development checkouts only);
 * with `withBench`, the benchmarks' sources count too.
 */
export function compiledStale({ withBench = false } = {}) {
  if (!isDevCheckout()) return false;
  let built;
  try {
    built = statSync(STAMP).mtimeMs;
  } catch {
    return true;
  }
  let newest = newestIn(join(ROOT, 'src'));
  if (withBench) for (const dir of BENCH_SOURCES) newest = Math.max(newest, newestIn(join(ROOT, dir)));
  for (const file of CONFIG_FILES) newest = Math.max(newest, statSync(join(ROOT, file)).mtimeMs);
  return newest > built;
}

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
 */
const VENDORED = { kysely: 'kysely', zod: 'zod', 'zod/mini': 'zod-mini' };
const IMPORT_OF_VENDORED = new RegExp(
  `(\\bfrom\\s*|\\bimport\\s*\\(\\s*)(['"])(${Object.keys(VENDORED).join('|')})\\2`,
  'g',
);

function vendorManyModulePackages() {
  const esbuild = createRequire(import.meta.url)('esbuild');
  const vendorDir = join(ROOT, 'dist', 'vendor');
  rmSync(vendorDir, { recursive: true, force: true });
  const entries = mkdtempSync(join(tmpdir(), 'mnesos-vendor-'));
  try {
    const entryPoints = Object.entries(VENDORED).map(([specifier, out]) => {
      const entry = join(entries, `${out}.mjs`);
      writeFileSync(entry, `export * from '${specifier}';\n`);
      return { in: entry, out };
    });
    const versions = ['kysely', 'zod'].map((name) => {
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
        js: `// ${versions.join(', ')}, bundled by bin/build.mjs; each package's LICENSE ships with it.`,
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
  for (const compiled of ['src', 'bench']) rewrite(join(ROOT, 'dist', compiled));
}

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
