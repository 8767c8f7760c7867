// Where node-llama-cpp is found. It is not a dependency of the project (its prebuilt GPU builds weigh
// about 700 MB, and a plain `npm ci` must not pay that): it is installed on demand, by the one command
// `installCommand()` prints, into a folder of its own. Looked for, in order:
// 1. MNESOS_LLAMA_CPP_DIR: an npm prefix folder (`npm install --prefix <dir> …`), when set;
// 2. `.cache/node-llama-cpp` under the project root (the default prefix of the install command);
// 3. the project's own node_modules (an `npm install --no-save node-llama-cpp@…`, which the next
//    `npm ci` removes again).
// Nothing here imports the package: runtime.ts does, on the first model call.

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../project-root.ts';
import { ModelError } from '../errors.ts';
import { LLAMA_CPP_VERSION } from './options.ts';

export const LLAMA_CPP_PACKAGE = 'node-llama-cpp';
/** The default install folder, relative to the project root (ignored by git). */
export const LLAMA_CPP_CACHE_DIR = '.cache/node-llama-cpp';

type Env = Readonly<Record<string, string | undefined>>;

export interface LocatedLlamaCpp {
  /** The package's ES module entry, for `import()`. */
  readonly entry: string;
  readonly version: string;
  /** Which of the places above it was found in. */
  readonly where: string;
}

/** The install folder the command installs into: MNESOS_LLAMA_CPP_DIR, else the project's cache folder. */
export function llamaCppPrefix(env: Env, root: string = PROJECT_ROOT): string {
  const dir = env.MNESOS_LLAMA_CPP_DIR?.trim();
  return dir === undefined || dir === '' ? join(root, LLAMA_CPP_CACHE_DIR) : dir;
}

/** A path as a shell word: as it is when it needs no quoting, else in single quotes. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The one command that adds node-llama-cpp where the engine finds it (docs/models.md shows it for the
 * project folder, `root` = `.`).
 */
export function installCommand(env: Env, root: string = PROJECT_ROOT): string {
  return `npm install --prefix ${shellWord(llamaCppPrefix(env, root))} ${LLAMA_CPP_PACKAGE}@${LLAMA_CPP_VERSION}`;
}

function resolveFrom(base: string): string | undefined {
  try {
    return createRequire(join(base, 'noop.js')).resolve(LLAMA_CPP_PACKAGE);
  } catch {
    return undefined;
  }
}

function packageVersion(entry: string): string {
  // The entry is <package>/dist/index.js.
  const manifest = join(entry, '..', '..', 'package.json');
  if (!existsSync(manifest)) return 'unknown';
  const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { version?: unknown };
  return typeof parsed.version === 'string' ? parsed.version : 'unknown';
}

/**
 * Places where the package was found, by where it was looked for: resolving it reads package manifests
 * synchronously (24 ms inside a first turn on a busy machine), and models are made again whenever a user's
 * settings change. Only finds are kept: a package installed while the server runs is found next time.
 */
const located = new Map<string, LocatedLlamaCpp>();

/** Finds the package (no import), or undefined. */
export function findLlamaCpp(env: Env, root: string = PROJECT_ROOT): LocatedLlamaCpp | undefined {
  const key = JSON.stringify([env.MNESOS_LLAMA_CPP_DIR?.trim() ?? '', root]);
  const known = located.get(key);
  if (known !== undefined && existsSync(known.entry)) return known;
  const found = locate(env, root);
  if (found !== undefined) located.set(key, found);
  return found;
}

function locate(env: Env, root: string): LocatedLlamaCpp | undefined {
  const explicit = env.MNESOS_LLAMA_CPP_DIR?.trim();
  const places: [string, string][] =
    explicit !== undefined && explicit !== ''
      ? [[explicit, 'MNESOS_LLAMA_CPP_DIR']]
      : [
          [join(root, LLAMA_CPP_CACHE_DIR), LLAMA_CPP_CACHE_DIR],
          [root, 'node_modules'],
        ];
  for (const [base, where] of places) {
    const entry = resolveFrom(base);
    if (entry !== undefined) return { entry, version: packageVersion(entry), where };
  }
  return undefined;
}

/** The message when MNESOS_MODEL_FILE is set and the package is not installed. */
export function missingLlamaCppMessage(env: Env, root: string = PROJECT_ROOT): string {
  const explicit = env.MNESOS_LLAMA_CPP_DIR?.trim();
  const where =
    explicit !== undefined && explicit !== ''
      ? `in MNESOS_LLAMA_CPP_DIR (${explicit})`
      : `in ${LLAMA_CPP_CACHE_DIR} or node_modules`;
  return `a local model (MNESOS_MODEL_FILE) needs ${LLAMA_CPP_PACKAGE}, which is not installed ${where}. Add it with:\n  ${installCommand(env, root)}`;
}

/** The package, or a `config` ModelError whose message is the one install command. */
export function requireLlamaCpp(env: Env, root: string = PROJECT_ROOT): LocatedLlamaCpp {
  const found = findLlamaCpp(env, root);
  if (found === undefined) throw new ModelError('config', missingLlamaCppMessage(env, root));
  if (!found.version.startsWith('3.')) {
    throw new ModelError(
      'config',
      `${LLAMA_CPP_PACKAGE} ${found.version} (${found.where}) is not a 3.x release; this engine is written for ${LLAMA_CPP_VERSION}. Install it with:\n  ${installCommand(env, root)}`,
    );
  }
  return found;
}
