// The Library page's pure helpers: tags typed as one comma-separated field, and byte sizes as shown.
import { describe, expect, it } from 'vitest';
import { byteSize, tagsOf } from '../../src/web/library-api.ts';

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
