// Which cartridge folders an agent may name (docs/agents.md, Folders): the folders the MCP server was
// started for (`mnesos mcp --folder`, by default its working folder) and the library of shipped cartridges
// (by name). Anything else is refused before a file is read, whatever the path says: `..`, an absolute path
// or a symbolic link that leads out are all judged by the real path they reach.

import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { RULES_FILE_NAMES } from '../../core/cartridge/index.ts';
import { PROJECT_ROOT } from '../../adapters/project-root.ts';
import { MAX_ALLOWED_FOLDERS, MAX_LISTED_CARTRIDGES, MAX_LISTED_ENTRIES } from './limits.ts';

/** The folder of shipped cartridges: `list_cartridges` names them, and any tool takes their names. */
export const LIBRARY_DIR = join(PROJECT_ROOT, 'cartridges');

export type CartridgeWhere =
  | { readonly kind: 'library' }
  | { readonly kind: 'folder'; readonly root: string };

export type ResolvedCartridge =
  | { readonly ok: true; readonly dir: string; readonly where: CartridgeWhere }
  | { readonly ok: false; readonly message: string };

export interface ListedCartridge {
  /** What to pass as `cartridge`: the shipped name, or the path relative to the first allowed folder. */
  readonly cartridge: string;
  readonly source: 'library' | 'folder';
  readonly dir: string;
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function hasRules(dir: string): boolean {
  return RULES_FILE_NAMES.some((file) => existsSync(join(dir, file)));
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export class CartridgeFolders {
  /** The allowed folders as given (resolved), for messages; `#realRoots` are what paths are judged by. */
  readonly roots: readonly string[];
  readonly #realRoots: readonly string[];
  readonly #library: string;

  /**
   * No roots: shipped cartridges only (`serve` with API keys, by default). Throws a RangeError naming a
   * folder that does not exist, or the limit when there are too many.
   */
  constructor(roots: readonly string[], libraryDir: string = LIBRARY_DIR) {
    if (roots.length > MAX_ALLOWED_FOLDERS)
      throw new RangeError(
        `${roots.length} folders given, over the limit of ${MAX_ALLOWED_FOLDERS} (MAX_ALLOWED_FOLDERS)`,
      );
    this.roots = roots.map((root) => resolve(root));
    this.#realRoots = this.roots.map((root) => {
      if (!isFolder(root)) throw new RangeError(`--folder ${root}: no such folder`);
      return realpathSync(root);
    });
    this.#library = isFolder(libraryDir) ? realpathSync(libraryDir) : libraryDir;
  }

  /** The names of the shipped cartridges, sorted. */
  shipped(): string[] {
    if (!isFolder(this.#library)) return [];
    return readdirSync(this.#library, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && hasRules(join(this.#library, entry.name)))
      .map((entry) => entry.name)
      .sort();
  }

  /**
   * A shipped cartridge's name (a bare word naming one), else a folder path relative to the first allowed
   * folder. Refused: a path whose real location is outside every allowed folder and the library.
   */
  resolve(arg: string): ResolvedCartridge {
    if (!/[\\/]/.test(arg) && arg !== '.' && arg !== '..') {
      const shipped = join(this.#library, arg);
      if (isFolder(shipped) && hasRules(shipped))
        return { ok: true, dir: shipped, where: { kind: 'library' } };
    }
    const base = this.roots[0];
    if (base === undefined)
      return {
        ok: false,
        message: `cartridge '${arg}': this server reads no folders, only the shipped cartridges (${this.shipped().join(', ') || 'none'})`,
      };
    const given = resolve(base, arg);
    let real: string;
    try {
      real = realpathSync(given);
    } catch {
      return { ok: false, message: `${this.#notFound(arg)}` };
    }
    const root = this.#realRoots.find((r) => inside(r, real));
    const where: CartridgeWhere | undefined =
      root !== undefined
        ? { kind: 'folder', root }
        : inside(this.#library, real)
          ? { kind: 'library' }
          : undefined;
    if (where === undefined) {
      return {
        ok: false,
        message:
          `cartridge '${arg}' is outside the folders this MCP server may read (${this.roots.join(', ')}) ` +
          'and the library of shipped cartridges: start `mnesos mcp --folder <dir>` to allow its folder.',
      };
    }
    if (!isFolder(real)) return { ok: false, message: `'${arg}' is a file, not a cartridge folder.` };
    return { ok: true, dir: real, where };
  }

  /** Shipped cartridges, then the cartridge folders in the allowed folders (themselves, and two levels down). */
  list(): { cartridges: ListedCartridge[]; truncated: boolean } {
    const out: ListedCartridge[] = this.shipped().map((name) => ({
      cartridge: name,
      source: 'library' as const,
      dir: join(this.#library, name),
    }));
    const budget = { entries: MAX_LISTED_ENTRIES };
    let truncated = false;
    for (const root of this.#realRoots) {
      for (const dir of cartridgeFoldersUnder(root, 2, budget)) {
        if (out.length >= MAX_LISTED_CARTRIDGES) {
          truncated = true;
          break;
        }
        const rel = relative(this.#realRoots[0] as string, dir);
        out.push({ cartridge: rel === '' ? '.' : rel, source: 'folder', dir });
      }
    }
    return { cartridges: out, truncated: truncated || budget.entries <= 0 };
  }

  #notFound(arg: string): string {
    const shipped = this.shipped();
    return (
      `no cartridge folder at '${arg}' (in ${this.roots[0]}), and no shipped cartridge of that name. ` +
      `Shipped cartridges: ${shipped.length === 0 ? 'none' : shipped.join(', ')}.`
    );
  }
}

/** Cartridge folders at `dir` and below it, `depth` levels at most, reading at most `budget.entries` entries. */
function cartridgeFoldersUnder(dir: string, depth: number, budget: { entries: number }): string[] {
  if (hasRules(dir)) return [dir];
  if (depth === 0 || budget.entries <= 0) return [];
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (--budget.entries < 0) break;
    // Hidden folders (.git, .mnesos) and dependencies hold no cartridge an author means.
    if (!entry.isDirectory() || entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    found.push(...cartridgeFoldersUnder(join(dir, entry.name), depth - 1, budget));
  }
  return found;
}
