// A cartridge's lore is chunked and indexed once per lore text, however many cartridge objects (sessions,
// personas, reloads) carry it.
import { describe, expect, it } from 'vitest';
import { LORE_INDEXES_KEPT, loreIndexOf } from '../../../src/engine/turn/lore.ts';
import type { TurnCartridge } from '../../../src/engine/turn/types.ts';

const cartridgeWith = (lore: string) => ({ lore }) as unknown as TurnCartridge;

describe('loreIndexOf', () => {
  it('two cartridge objects with the same lore share one index; other lore has its own', () => {
    const lore = '# Harbour\nBoats.\n# Tower\nA lamp.';
    const first = loreIndexOf(cartridgeWith(lore));
    expect(loreIndexOf(cartridgeWith(`${lore}`))).toBe(first);
    expect(first.chunks.map((c) => c.heading)).toEqual(['Harbour', 'Tower']);
    const other = loreIndexOf(cartridgeWith('# Moor\nHeather.'));
    expect(other).not.toBe(first);
    expect(other.chunks.map((c) => c.heading)).toEqual(['Moor']);
  });

  it('keeps the newest LORE_INDEXES_KEPT texts, dropping the least recently used', () => {
    const kept = loreIndexOf(cartridgeWith('# Kept\nx'));
    for (let i = 0; i < LORE_INDEXES_KEPT - 1; i++) loreIndexOf(cartridgeWith(`# Filler ${i}\nx`));
    expect(loreIndexOf(cartridgeWith('# Kept\nx'))).toBe(kept); // used again: now the newest
    for (let i = 0; i < LORE_INDEXES_KEPT - 1; i++) loreIndexOf(cartridgeWith(`# More ${i}\nx`));
    expect(loreIndexOf(cartridgeWith('# Kept\nx'))).toBe(kept);
    for (let i = 0; i < LORE_INDEXES_KEPT; i++) loreIndexOf(cartridgeWith(`# Last ${i}\nx`));
    expect(loreIndexOf(cartridgeWith('# Kept\nx'))).not.toBe(kept);
  });
});
