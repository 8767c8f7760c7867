// The boundary rules over an import graph (test/architecture/imports.ts), as pure functions returning one
// message per offending import, `file:line:col: …`, so the test can show them all at once.

import type { ImportSite } from './imports.ts';
import {
  BROWSER_BUNDLE_ENTRY,
  BROWSER_ENTRIES,
  indexOf,
  isBrowserPackage,
  isLeafModule,
  isPublicEntry,
  MAY_IMPORT,
  moduleOf,
} from './policy.ts';

function place(site: ImportSite): string {
  return `${site.file}:${site.line}:${site.col}`;
}

/** An import into another module's file that is not that module's index.ts (or a listed entry). */
export function indexViolations(sites: readonly ImportSite[]): string[] {
  const found: string[] = [];
  for (const site of sites) {
    if (site.target === undefined) continue;
    const from = moduleOf(site.file);
    const to = moduleOf(site.target);
    if (to === undefined) {
      found.push(`${place(site)}: '${site.specifier}' leaves src/`);
      continue;
    }
    if (from === to || isPublicEntry(site.target)) continue;
    found.push(
      `${place(site)}: '${site.specifier}' reaches into module ${to} (${site.target}); import it from ${indexOf(to)}`,
    );
  }
  return found;
}

/**
 * A file that imports its own module's index.ts at run time. The index re-exports the file, so the two form
 * an ES module cycle, and whichever loads second may meet the other's bindings uninitialised (TDZ).
 */
export function ownIndexViolations(sites: readonly ImportSite[]): string[] {
  const found: string[] = [];
  for (const site of sites) {
    if (site.target === undefined || site.typeOnly) continue;
    const module = moduleOf(site.file);
    if (module === undefined || module.endsWith('.ts') || site.file === site.target) continue;
    if (site.target === indexOf(module)) {
      found.push(`${place(site)}: imports its own module's index (${site.target}); import the file itself`);
    }
  }
  return found;
}

/** An import from a module to one the layering (MAY_IMPORT) does not allow it. */
export function layerViolations(sites: readonly ImportSite[]): string[] {
  const found: string[] = [];
  for (const site of sites) {
    if (site.target === undefined) continue;
    const from = moduleOf(site.file);
    const to = moduleOf(site.target);
    if (from === undefined || to === undefined || from === to) continue;
    if (isLeafModule(from)) {
      found.push(`${place(site)}: ${from} is a shared leaf and may import no module (it imports ${to})`);
      continue;
    }
    if (isLeafModule(to)) continue;
    const allowed = MAY_IMPORT[from];
    if (allowed === undefined) {
      found.push(`${place(site)}: module ${from} has no place in the layering (MAY_IMPORT)`);
      continue;
    }
    if (!allowed.includes(to)) {
      found.push(
        `${place(site)}: ${from} may not import ${to} (layering: ${from} imports ${allowed.join(', ') || 'no module'})`,
      );
    }
  }
  return found;
}

/** A cycle in MAY_IMPORT (`a → b → a`), or an empty list. */
export function layeringCycle(table: Readonly<Record<string, readonly string[]>>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (module: string): string[] => {
    if (state.get(module) === 'done') return [];
    if (state.get(module) === 'open') return [...path.slice(path.indexOf(module)), module];
    state.set(module, 'open');
    path.push(module);
    for (const next of table[module] ?? []) {
      const cycle = visit(next);
      if (cycle.length > 0) return cycle;
    }
    path.pop();
    state.set(module, 'done');
    return [];
  };
  for (const module of Object.keys(table)) {
    const cycle = visit(module);
    if (cycle.length > 0) return cycle;
  }
  return [];
}

/** The files a run-time import chain reaches from `entry` (type-only imports are erased, so not followed). */
export function runtimeClosure(sites: readonly ImportSite[], entry: string): Map<string, ImportSite | null> {
  const byFile = new Map<string, ImportSite[]>();
  for (const site of sites) {
    if (site.typeOnly) continue;
    const list = byFile.get(site.file) ?? [];
    list.push(site);
    byFile.set(site.file, list);
  }
  const reachedBy = new Map<string, ImportSite | null>([[entry, null]]);
  const queue = [entry];
  for (let i = 0; i < queue.length; i++) {
    for (const site of byFile.get(queue[i]!) ?? []) {
      const key = site.target ?? `package:${site.specifier}`;
      if (reachedBy.has(key)) continue;
      reachedBy.set(key, site);
      if (site.target !== undefined) queue.push(site.target);
    }
  }
  return reachedBy;
}

/**
 * The browser bundle (what BROWSER_BUNDLE_ENTRY loads) leaves src/apps/web only through BROWSER_ENTRIES, and no
 * file it loads imports a `node:` module or a package not meant for the browser (isBrowserPackage).
 */
export function browserViolations(sites: readonly ImportSite[]): string[] {
  const found: string[] = [];
  for (const [reached, site] of runtimeClosure(sites, BROWSER_BUNDLE_ENTRY)) {
    if (site === null) continue;
    if (site.target === undefined) {
      if (!isBrowserPackage(site.specifier)) {
        found.push(`${place(site)}: the browser bundle may not load '${site.specifier}'`);
      }
      continue;
    }
    const fromWeb = moduleOf(site.file) === 'web';
    if (fromWeb && moduleOf(reached) !== 'web' && !BROWSER_ENTRIES.has(reached)) {
      found.push(`${place(site)}: the browser bundle imports ${reached}, which is not a browser entry`);
    }
  }
  return found;
}
