// Small helpers for the cartridge tests: in-memory cartridges and diagnostic summaries.
import type { LoadResult } from '../../../src/core/cartridge/index.ts';
import type { Diagnostic } from '../../../src/core/diagnostics.ts';

import { sharedPath } from '../../helpers/shared.ts';

/** The shared cartridges folder beside the project (never copied into it; see test/helpers/shared.ts). */
export const SHARED_CARTRIDGES = sharedPath('cartridges');

export const SHARED_NAMES = [
  'seed-eldoria',
  'mnesos/generic-rpg',
  'mnesos/dark-fantasy',
  'mnesos/lights-out-demo',
  'mnesos/web-client-e2e',
] as const;

export const MINIMAL_YARE = 'version: "1.0"\n';
export const MINIMAL_LORE = '# A small world\n\nA village by a river.\n';

/** A cartridge in memory: yare.yaml and bot_lore.md default to minimal valid files; `null` leaves one out. */
export function cartridgeFiles(
  overrides: Record<string, string | Uint8Array | null> = {},
): Map<string, string | Uint8Array> {
  const all: Record<string, string | Uint8Array | null> = {
    'yare.yaml': MINIMAL_YARE,
    'bot_lore.md': MINIMAL_LORE,
    ...overrides,
  };
  const files = new Map<string, string | Uint8Array>();
  for (const [name, content] of Object.entries(all)) if (content !== null) files.set(name, content);
  return files;
}

export function errorsOf(result: LoadResult): Diagnostic[] {
  return result.ok ? [] : result.errors;
}

export function codesOf(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => d.code);
}

export function where(d: Diagnostic | undefined): string {
  return d?.place ? `${d.place.file}:${d.place.line}:${d.place.col}` : '<none>';
}
