// Tests that start bin/mnesos as a process call `ensureCompiled()` first: when a source is newer than dist/,
// it compiles once (one test process does it while the others wait on a lock folder), so the CLI they start
// runs the compiled JavaScript and never a stale build. Without it bin/mnesos would still be correct (it
// runs the sources through tsx when dist/ is stale) but take seconds per start. Runs that start no CLI pay
// nothing. Type errors are the typecheck's business: the JavaScript is emitted either way.
import { mkdirSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { compile, compiledStale, ROOT } from '../../bin/build.mjs';

const LOCK = join(ROOT, 'dist', '.compile-lock');
/** A lock older than this is left over from a killed run. */
const STALE_LOCK_MS = 5 * 60_000;

let done: Promise<void> | undefined;

function tryLock(): boolean {
  try {
    mkdirSync(join(ROOT, 'dist'), { recursive: true });
    mkdirSync(LOCK);
    return true;
  } catch {
    try {
      if (Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) rmdirSync(LOCK);
    } catch {
      // Released meanwhile.
    }
    return false;
  }
}

async function compileOnce(): Promise<void> {
  while (compiledStale()) {
    if (tryLock()) {
      try {
        if (compiledStale()) compile({ quiet: true });
      } finally {
        rmdirSync(LOCK);
      }
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export function ensureCompiled(): Promise<void> {
  done ??= compileOnce();
  return done;
}
