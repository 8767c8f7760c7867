// Compatibility with SillyTavern content written elsewhere: the real samples in ../shared/st-samples import
// (PNG, JSON and the zip64 CHARX files) into cartridges that load, and the default
// Seraphina card's World Info activates as SillyTavern's would.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCartridgeFromFiles } from '../../../../src/adapters/files/index.ts';
import { importSillyTavern } from '../../../../src/tools/interop/sillytavern/import.ts';
import { activateWorldInfo } from '../../../../src/core/lore/world-info-activation.ts';
import { sharedAvailable, sharedPath } from '../../../helpers/shared.ts';

const available = sharedAvailable('SillyTavern sample imports', 'st-samples');

function loadImported(file: string) {
  const result = importSillyTavern(readFileSync(sharedPath('st-samples', file)), file);
  const files = new Map([...result.files].filter(([name]) => !name.startsWith('avatar')));
  const loaded = loadCartridgeFromFiles(files, result.name);
  if (!loaded.ok) throw new Error(`${file}: ${JSON.stringify(loaded.errors)}`);
  return { result, cartridge: loaded.cartridge };
}

describe.runIf(available)('real SillyTavern samples', () => {
  it.each([
    ['st_default_Seraphina.png', 'png', 'Seraphina'],
    ['tavernkit_test_character.png', 'png', 'Test Character'],
    ['tavernkit_test_character_v2.png', 'png', 'V2 Test Character'],
    ['tavernkit_full_v2_card.json', 'card-json', 'Aurora'],
    ['tavernkit_full_v3_card.json', 'card-json', 'Nova'],
    ['tavernkit_ccv3_st_export_like.json', 'card-json', 'Diana'],
    ['st_default_Eldoria.json', 'world-info', 'st_default_Eldoria'],
  ])('%s imports and loads', (file, kind, name) => {
    const { result } = loadImported(file);
    expect(result.kind).toBe(kind);
    expect(result.name).toBe(name);
  });

  it('reads the ccv3 chunk when a PNG has both (the V3 data wins)', () => {
    const { result } = loadImported('tavernkit_test_character.png');
    expect(result.chunk).toBe('ccv3');
    expect(result.spec).toBe('v3');
  });

  it("activates Seraphina's Eldoria entries by their keys, with recursion", () => {
    const { cartridge } = loadImported('st_default_Seraphina.png');
    const book = cartridge.worldInfo!;
    const result = activateWorldInfo(book, {
      messages: ['Tell me about Eldoria.'],
      chatLength: 2,
      timed: [],
      seed: 1,
    });
    expect(result.activated.length).toBeGreaterThan(0);
    expect(result.decisions.find((d) => d.status === 'activated')?.reason).toMatch(/key "eldoria"/i);
    const quiet = activateWorldInfo(book, { messages: ['Hello there.'], chatLength: 2, timed: [], seed: 1 });
    expect(quiet.activated).toHaveLength(0);
  });

  it.each([
    ['tavernkit_test_character.charx', 'Test Character'],
    ['tavernkit_test_character_with_lorebook.charx', 'Lorebook Test Character'],
  ])('%s (a zip64 CHARX) imports and loads, its main icon the image', (file, name) => {
    const { result } = loadImported(file);
    expect(result.kind).toBe('charx');
    expect(result.name).toBe(name);
    const avatar = result.files.get('avatar.png');
    expect(avatar).toBeInstanceOf(Uint8Array);
    expect((avatar as Uint8Array).subarray(0, 8)).toEqual(
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
  });

  it('carries the CHARX lorebook into World Info that activates', () => {
    const { cartridge } = loadImported('tavernkit_test_character_with_lorebook.charx');
    const book = cartridge.worldInfo!;
    expect(book.entries).toHaveLength(2);
    const seen = (text: string) =>
      activateWorldInfo(book, { messages: [text], chatLength: 2, timed: [], seed: 1 }).activated.length;
    expect(seen('Say keyword2 again.')).toBe(1);
    expect(seen('A secret door.')).toBe(1);
    expect(seen('Hello there.')).toBe(0);
    // As in SillyTavern, the card-level `case_sensitive` is not an override (those live in `extensions`):
    // the global default (case-insensitive) applies.
    expect(seen('A SECRET door.')).toBe(1);
  });
});
