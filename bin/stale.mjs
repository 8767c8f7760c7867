// Whether dist/ may be trusted: in a development checkout (src/ beside dist/), any source newer than the
// last compile means it may not. Its own module, importing only what the check needs, because bin/mnesos
// runs it before every command: loading bin/build.mjs (child_process, os, module, the build's tables) for
// it cost each command more than the check itself (bench/startup.ts). bin/build.mjs re-exports it and
// writes STAMP. Plain JavaScript: it runs before anything is compiled.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Written by bin/build.mjs when a compile starts; its time is the compile's. */
export const STAMP = join(ROOT, 'dist', '.build-stamp');
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
