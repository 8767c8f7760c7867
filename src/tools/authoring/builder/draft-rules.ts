// The rules of a builder draft, for the "try it" pane and for completion: only the rules file (yare.yaml,
// or yare.js / yare.ts through the sandbox) is compiled, by the same loader as `mnesos validate`, with a
// stand-in lore so a draft whose lore is unfinished can still be tried. Compiled rules are kept in a small
// cache keyed by the rules text's hash, so completion while typing in another file compiles nothing.

import { createHash } from 'node:crypto';
import { loadCartridgeFromFiles } from '../../../core/cartridge/index.ts';
import type { Diagnostic } from '../../../core/diagnostics.ts';
import type { CompiledRules } from '../../../core/yare/index.ts';

/** The files that hold rules; a draft has one of them. */
export const RULES_FILES = ['yare.yaml', 'yare.js', 'yare.ts'] as const;
/** Compiled rules kept (each is one draft's rules at one text). */
export const RULES_CACHE_ENTRIES = 16;

const STAND_IN_LORE = '# Draft\n\nThe rules alone are compiled here.\n';

export type DraftRules =
  | { readonly ok: true; readonly rules: CompiledRules }
  | { readonly ok: false; readonly errors: readonly Diagnostic[] };

const cache = new Map<string, DraftRules>();

function rulesFilesOf(files: Readonly<Record<string, string | undefined>>): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of RULES_FILES) {
    const text = files[name];
    if (text !== undefined) out.set(name, text);
  }
  return out;
}

/** The draft's compiled rules, or the loader's errors about its rules file. */
export function compileDraftRules(files: Readonly<Record<string, string | undefined>>): DraftRules {
  const rulesFiles = rulesFilesOf(files);
  const hash = createHash('sha256');
  for (const [name, text] of rulesFiles) hash.update(`${name}\0${text.length}\0${text}\0`);
  const key = hash.digest('hex');
  const hit = cache.get(key);
  if (hit !== undefined) {
    // Most recently used last: the Map's order is the eviction order.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const loaded = loadCartridgeFromFiles(new Map([...rulesFiles, ['bot_lore.md', STAND_IN_LORE]]), 'draft');
  const result: DraftRules = loaded.ok
    ? { ok: true, rules: loaded.cartridge.rules }
    : { ok: false, errors: loaded.errors };
  cache.set(key, result);
  while (cache.size > RULES_CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  return result;
}

/** Entries in the cache (for tests). */
export function draftRulesCached(): number {
  return cache.size;
}
