// The project's root folder (where package.json is), found by walking up from this module, so paths to
// shipped cartridges resolve the same from the TypeScript sources and from a build under `dist/`.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  let dir = start;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'mnesos')
      return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find the mnesos package root above ${start}`);
    dir = up;
  }
}

export const PROJECT_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** The version of the installed package, read from its package.json. */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}
