// The lore index of a cartridge, built on first use and kept with the cartridge object, so a session's
// turns index the lore once (the original rebuilt it every turn).

import { buildLoreIndex, type LoreIndex } from '../../core/lore/index.ts';
import type { TurnCartridge } from './types.ts';

const indexes = new WeakMap<TurnCartridge, LoreIndex>();

export function loreIndexOf(cartridge: TurnCartridge): LoreIndex {
  let index = indexes.get(cartridge);
  if (index === undefined) {
    index = buildLoreIndex(cartridge.lore);
    indexes.set(cartridge, index);
  }
  return index;
}
