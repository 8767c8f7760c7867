// Compatibility with SillyTavern content written elsewhere: the real samples in ../shared/st-samples import
// into cartridges that load (or, for the zip64 CHARX files, are refused with the reason), and the default
// Seraphina card's World Info activates as SillyTavern's would.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCartridgeFromFiles } from '../../src/cartridge/index.ts';
import { importSillyTavern } from '../../src/interop/sillytavern/import.ts';
import { activateWorldInfo } from '../../src/lore/world-info.ts';
import { sharedAvailable, sharedPath } from '../helpers/shared.ts';

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

  it.each(['tavernkit_test_character.charx', 'tavernkit_test_character_with_lorebook.charx'])(
    '%s (zip64 sizes) is refused with the reason, not misread',
    (file) => {
      expect(() => importSillyTavern(readFileSync(sharedPath('st-samples', file)), file)).toThrow(/zip64/);
    },
  );
});
