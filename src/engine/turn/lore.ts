// The lore index of a cartridge, built on first use and kept by the lore's text, so every session, turn
// and persona of the same lore indexes it once (the original rebuilt it every turn); a persona whose
// macros change the lore's text has its own index.

import { buildLoreIndex, type LoreIndex } from '../../core/lore/index.ts';
import type { TurnCartridge } from './types.ts';

/** Lore indexes kept per process, least recently used dropped first. */
export const LORE_INDEXES_KEPT = 32;

const byCartridge = new WeakMap<TurnCartridge, LoreIndex>();
const byText = new Map<string, LoreIndex>();

export function loreIndexOf(cartridge: TurnCartridge): LoreIndex {
  const known = byCartridge.get(cartridge);
  if (known !== undefined) return known;
  let index = byText.get(cartridge.lore);
  if (index === undefined) {
    index = buildLoreIndex(cartridge.lore);
    if (byText.size >= LORE_INDEXES_KEPT) byText.delete(byText.keys().next().value!);
  } else byText.delete(cartridge.lore);
  byText.set(cartridge.lore, index);
  byCartridge.set(cartridge, index);
  return index;
}
