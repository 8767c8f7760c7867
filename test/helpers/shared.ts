// The sibling `../shared` folder holds content written elsewhere (other projects' cartridges, SillyTavern
// samples). It is not the project's: a user's clone has none. Suites that read it prove compatibility and
// run only when it is there; otherwise they skip with one visible line, and under CI=true its absence
// fails the run (CI always has it, so a missing folder there is a broken checkout, not a skip).
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `../shared` beside the project; MNESOS_TEST_SHARED_DIR points elsewhere (a missing path: as a fresh clone). */
export const SHARED_DIR =
  process.env.MNESOS_TEST_SHARED_DIR || resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared');

/** The path of `parts` inside `../shared`. */
export function sharedPath(...parts: string[]): string {
  return join(SHARED_DIR, ...parts);
}

/**
 * Whether a suite that needs `../shared/<parts>` can run. Prints one line naming what is skipped and why
 * when it cannot; throws under CI=true, so the file fails instead of skipping.
 */
export function sharedAvailable(what: string, ...parts: string[]): boolean {
  const path = sharedPath(...parts);
  if (existsSync(path)) return true;
  const shown = ['..', 'shared', ...parts].join('/');
  if (process.env.CI === 'true') throw new Error(`${what}: ${shown} is missing, and CI=true requires it`);
  console.log(
    `skipped: ${what} — ${shown} is not beside this clone (compatibility content written elsewhere)`,
  );
  return false;
}
