// The Library page's pure helpers: tags typed as one comma-separated field, byte sizes as shown, and the
// bounded lookup that names each game's cartridge.
import { describe, expect, it } from 'vitest';
import type { CartridgeView } from '../../../src/apps/contract/index.ts';
import {
  byteSize,
  MAX_VERSION_LOOKUPS,
  namesOfVersions,
  tagsOf,
} from '../../../src/apps/web/library/listing.ts';

describe('tagsOf', () => {
  it('splits on commas, trims, drops empty tags and repeats, keeps the order', () => {
    expect(tagsOf(' fen, mist ,, fen,moor ')).toEqual(['fen', 'mist', 'moor']);
    expect(tagsOf('')).toEqual([]);
    expect(tagsOf(' , ')).toEqual([]);
  });
});

describe('byteSize', () => {
  it('switches unit at 1024 exactly, with one decimal below 100 of a unit', () => {
    expect(byteSize(0)).toBe('0 bytes');
    expect(byteSize(1023)).toBe('1023 bytes');
    expect(byteSize(1024)).toBe('1 KiB');
    expect(byteSize(1536)).toBe('1.5 KiB');
    expect(byteSize(262_144)).toBe('256 KiB');
    expect(byteSize(50 * 1024 * 1024)).toBe('50 MiB');
    expect(byteSize(1024 ** 4)).toBe('1024 GiB');
  });
});

describe('namesOfVersions', () => {
  const cartridge = (i: number, owner: 'self' | 'operator' | 'other') =>
    ({
      id: `c${i}`,
      title: `Title ${i}`,
      owner,
      latest: { id: `c${i}-latest` },
    }) as unknown as CartridgeView;
  /** Cartridge i holds versions c{i}-latest and c{i}-old. */
  const lookups: string[] = [];
  const versions = async (id: string) => {
    lookups.push(id);
    return [{ id: `${id}-latest` }, { id: `${id}-old` }];
  };

  it('names newest versions without a request, and an old one from the own cartridges first', async () => {
    const list = [...Array.from({ length: 30 }, (_, i) => cartridge(i, 'other')), cartridge(30, 'self')];
    lookups.length = 0;
    const none = await namesOfVersions(list, [{ cartridgeVersionId: 'c3-latest' }], versions);
    expect(none.get('c3-latest')).toBe('Title 3');
    expect(lookups).toEqual([]);
    const own = await namesOfVersions(list, [{ cartridgeVersionId: 'c30-old' }], versions);
    expect(own.get('c30-old')).toBe('Title 30');
    expect(lookups[0]).toBe('c30');
    expect(lookups.length).toBeLessThanOrEqual(5);
  });

  it(`reads at most MAX_VERSION_LOOKUPS (${MAX_VERSION_LOOKUPS}) version lists, however many cartridges are listed`, async () => {
    const list = Array.from({ length: 100 }, (_, i) => cartridge(i, 'other'));
    lookups.length = 0;
    const names = await namesOfVersions(list, [{ cartridgeVersionId: 'gone' }], versions);
    expect(lookups).toHaveLength(MAX_VERSION_LOOKUPS);
    expect(names.has('gone')).toBe(false);
    lookups.length = 0;
    const found = await namesOfVersions(
      list,
      [{ cartridgeVersionId: `c${MAX_VERSION_LOOKUPS - 1}-old` }],
      versions,
    );
    expect(found.get(`c${MAX_VERSION_LOOKUPS - 1}-old`)).toBe(`Title ${MAX_VERSION_LOOKUPS - 1}`);
    lookups.length = 0;
    const past = await namesOfVersions(
      list,
      [{ cartridgeVersionId: `c${MAX_VERSION_LOOKUPS}-old` }],
      versions,
    );
    expect(past.has(`c${MAX_VERSION_LOOKUPS}-old`)).toBe(false);
    expect(lookups).toHaveLength(MAX_VERSION_LOOKUPS);
  });
});
