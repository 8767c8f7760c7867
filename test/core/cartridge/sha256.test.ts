// The core's SHA-256 (src/core/cartridge/sha256.ts) against node:crypto: every length around the block and
// padding boundaries, input fed in pieces, and a large input. A stored cartridge version is keyed by this
// digest, so it must be the very same one the loader computed with node:crypto before.

import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CARTRIDGE_FILES, contentHash, joinPath } from '../../../src/core/cartridge/index.ts';
import { Sha256 } from '../../../src/core/cartridge/sha256.ts';

function bytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

const nodeHex = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

describe('Sha256', () => {
  it('matches node:crypto for every length from 0 to 300 bytes (the padding boundaries 55, 56, 63, 64, 119, 120)', () => {
    for (let length = 0; length <= 300; length++) {
      const data = bytes(length, length + 7);
      expect(new Sha256().update(data).hex(), `length ${length}`).toBe(nodeHex(data));
    }
  });

  it('gives the same digest however the input is split into updates', () => {
    const data = bytes(5_000, 42);
    for (const piece of [1, 3, 63, 64, 65, 1000]) {
      const hash = new Sha256();
      for (let i = 0; i < data.length; i += piece) hash.update(data.subarray(i, i + piece));
      expect(hash.hex(), `pieces of ${piece}`).toBe(nodeHex(data));
    }
  });

  it('matches on a 3 MiB input and on the known vector for "abc"', () => {
    const big = bytes(3 * 1024 * 1024, 9);
    expect(new Sha256().update(big).hex()).toBe(nodeHex(big));
    expect(new Sha256().update(new TextEncoder().encode('abc')).hex()).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('refuses input after the digest, and gives the same digest twice', () => {
    const hash = new Sha256().update(bytes(10, 1));
    expect(hash.hex()).toBe(hash.hex());
    expect(() => hash.update(bytes(1, 1))).toThrow(/after digest/);
  });
});

describe('contentHash', () => {
  it('is the digest node:crypto gives for the names, lengths and bytes of the files', () => {
    const files = new Map<string, string | Uint8Array>([
      ['yare.yaml', 'events: {}\n'],
      ['bot_lore.md', '# Lore\nÉcho ✓\n'],
      ['alternate_greetings.json', bytes(70, 3)],
    ]);
    const expected = createHash('sha256');
    for (const { name } of CARTRIDGE_FILES) {
      const content = files.get(name);
      if (content === undefined) continue;
      const data = typeof content === 'string' ? new TextEncoder().encode(content) : content;
      expected.update(`${name}\0${data.byteLength}\0`);
      expected.update(data);
    }
    expect(contentHash(files)).toBe(expected.digest('hex'));
  });
});

describe('joinPath', () => {
  it('names a file as POSIX path.join does', () => {
    for (const root of [
      'cartridges/x',
      './x',
      'x/',
      '.',
      '/abs/dir',
      '/abs/dir/',
      'a/../b',
      '../up',
      'a//b',
      '/',
    ]) {
      expect(joinPath(root, 'yare.yaml'), root).toBe(posix.join(root, 'yare.yaml'));
    }
  });
});
