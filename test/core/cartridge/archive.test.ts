// The archive readers on archives the tests build: zip (stored, deflate) and tar.gz, the top folder
// stripped, every cap at its value and past it, and hostile archives: path traversal, absolute paths,
// links, devices, zip and gzip bombs, lying sizes, encryption, duplicates; zip64 (end record, extra fields,
// 64-bit sizes at the caps and past Number.MAX_SAFE_INTEGER) and a self-extracting prefix.

import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  ArchiveError,
  MAX_ARCHIVE_BYTES,
  MAX_ARCHIVE_ENTRIES,
  MAX_ENTRY_BYTES,
  MAX_ENTRY_PATH_CHARS,
  MAX_EXTRACTED_BYTES,
  readArchive,
} from '../../../src/adapters/files/archive/index.ts';
import { tar, tarGz, zip } from '../../apps/server/archives.ts';

function refused(bytes: Uint8Array): ArchiveError {
  try {
    readArchive(bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(ArchiveError);
    return error as ArchiveError;
  }
  throw new Error('expected the archive to be refused');
}

const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);

describe('reading archives', () => {
  it('reads a zip (stored and deflated) and strips the single top folder', () => {
    const files = readArchive(
      zip([
        { name: 'cart/yare.yaml', data: 'a: 1', method: 0 },
        { name: 'cart/bot_lore.md', data: '# Lore' },
        { name: 'cart/' },
      ]),
    );
    expect([...files.keys()].sort()).toEqual(['bot_lore.md', 'yare.yaml']);
    expect(text(files.get('yare.yaml'))).toBe('a: 1');
  });

  it('reads a tar.gz and a plain tar', () => {
    const entries = [
      { name: 'x/yare.yaml', data: 'a: 1' },
      { name: 'x/', type: '5' },
      { name: 'x/bot_lore.md', data: '# L' },
    ];
    expect([...readArchive(tarGz(entries)).keys()].sort()).toEqual(['bot_lore.md', 'yare.yaml']);
    expect([...readArchive(tar(entries)).keys()].sort()).toEqual(['bot_lore.md', 'yare.yaml']);
  });

  it('keeps paths when files are not all under one folder', () => {
    expect(
      [
        ...readArchive(
          zip([
            { name: 'yare.yaml', data: '' },
            { name: 'sub/bot_lore.md', data: '' },
          ]),
        ).keys(),
      ].sort(),
    ).toEqual(['sub/bot_lore.md', 'yare.yaml']);
  });

  it('refuses what is not an archive', () => {
    expect(refused(new TextEncoder().encode('hello, not an archive')).code).toBe('archive_format');
    expect(refused(new Uint8Array(gzipSync('plain text, gzipped'))).code).toBe('archive_format');
  });
});

describe('hostile archives', () => {
  it('path traversal, absolute paths, backslashes and NUL are refused', () => {
    for (const name of [
      '../evil.yaml',
      'cart/../../etc/passwd',
      '/etc/passwd',
      'C:/x.yaml',
      'a\\..\\b',
      'a\0b',
    ]) {
      expect(refused(zip([{ name, data: 'x' }])).code).toBe('archive_bad_path');
      // A tar name field ends at its first NUL by format, so only the other names apply to tar.
      if (!name.includes('\0')) expect(refused(tarGz([{ name, data: 'x' }])).code).toBe('archive_bad_path');
    }
  });

  it('symlinks, hardlinks, devices and FIFOs are refused', () => {
    expect(
      refused(zip([{ name: 'yare.yaml', data: '/etc/passwd', unixMode: 0o120777, method: 0 }])).code,
    ).toBe('archive_link');
    expect(refused(tarGz([{ name: 'yare.yaml', type: '2', linkName: '/etc/passwd' }])).code).toBe(
      'archive_link',
    );
    expect(refused(tarGz([{ name: 'yare.yaml', type: '1', linkName: 'other' }])).code).toBe('archive_link');
    expect(refused(tarGz([{ name: 'dev', type: '3' }])).code).toBe('archive_link');
    expect(refused(tarGz([{ name: 'fifo', type: '6' }])).code).toBe('archive_link');
  });

  it('a zip bomb that lies about its size is stopped at the declared size', () => {
    const bomb = zip([{ name: 'yare.yaml', data: new Uint8Array(MAX_ENTRY_BYTES * 2), declaredSize: 1000 }]);
    expect(bomb.length).toBeLessThan(20_000);
    const error = refused(bomb);
    expect(error.code).toBe('archive_too_large');
    expect(error.message).toMatch(/declared size/);
  });

  it('a zip whose declared sizes break the caps is refused before anything is inflated', () => {
    expect(
      refused(zip([{ name: 'big', data: 'x', declaredSize: MAX_ENTRY_BYTES + 1, method: 0 }])).message,
    ).toMatch(/MAX_ENTRY_BYTES/);
    const many = Array.from({ length: 3 }, (_, i) => ({
      name: `f${i}`,
      data: 'x',
      declaredSize: MAX_ENTRY_BYTES,
      method: 0 as const,
    }));
    expect(refused(zip(many)).message).toMatch(/MAX_EXTRACTED_BYTES/);
  });

  it('a gzip bomb is stopped while inflating', () => {
    const bomb = new Uint8Array(gzipSync(new Uint8Array(MAX_EXTRACTED_BYTES * 2)));
    expect(bomb.length).toBeLessThan(100_000);
    expect(refused(bomb).code).toBe('archive_too_large');
  });

  it('encryption, duplicates and CRC mismatches are refused', () => {
    expect(refused(zip([{ name: 'a', data: 'x', encrypted: true }])).code).toBe('archive_unsupported');
    expect(
      refused(
        zip([
          { name: 'a', data: 'x' },
          { name: './a', data: 'y' },
        ]),
      ).code,
    ).toBe('archive_duplicate');
    const corrupt = zip([{ name: 'a', data: 'hello', method: 0 }]);
    corrupt[30 + 1] = 'X'.charCodeAt(0);
    expect(refused(corrupt).code).toBe('archive_format');
  });
});

describe('archive limits', () => {
  it(`${MAX_ARCHIVE_ENTRIES} entries are read; one more is refused`, () => {
    const entries = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `f${i}`, data: 'x' }));
    expect(readArchive(zip(entries(MAX_ARCHIVE_ENTRIES))).size).toBe(MAX_ARCHIVE_ENTRIES);
    expect(refused(zip(entries(MAX_ARCHIVE_ENTRIES + 1))).message).toMatch(/MAX_ARCHIVE_ENTRIES/);
    expect(readArchive(tarGz(entries(MAX_ARCHIVE_ENTRIES))).size).toBe(MAX_ARCHIVE_ENTRIES);
    expect(refused(tarGz(entries(MAX_ARCHIVE_ENTRIES + 1))).message).toMatch(/MAX_ARCHIVE_ENTRIES/);
  });

  it('a file at the per-file cap is read; one byte more is refused', () => {
    expect(readArchive(tarGz([{ name: 'f', data: new Uint8Array(MAX_ENTRY_BYTES) }])).get('f')?.length).toBe(
      MAX_ENTRY_BYTES,
    );
    expect(refused(tarGz([{ name: 'f', data: new Uint8Array(MAX_ENTRY_BYTES + 1) }])).message).toMatch(
      /MAX_ENTRY_BYTES/,
    );
    expect(readArchive(zip([{ name: 'f', data: new Uint8Array(MAX_ENTRY_BYTES) }])).get('f')?.length).toBe(
      MAX_ENTRY_BYTES,
    );
    expect(refused(zip([{ name: 'f', data: new Uint8Array(MAX_ENTRY_BYTES + 1) }])).message).toMatch(
      /MAX_ENTRY_BYTES/,
    );
  });

  it('files totalling the extracted cap are read; one byte more is refused', () => {
    const half = MAX_EXTRACTED_BYTES / 2;
    const full = [
      { name: 'a', data: new Uint8Array(half) },
      { name: 'b', data: new Uint8Array(half) },
    ];
    expect(readArchive(zip(full)).size).toBe(2);
    expect(refused(zip([...full, { name: 'c', data: 'x' }])).message).toMatch(/MAX_EXTRACTED_BYTES/);
    expect(readArchive(tarGz(full)).size).toBe(2);
    expect(refused(tarGz([...full, { name: 'c', data: 'x' }])).message).toMatch(/MAX_EXTRACTED_BYTES/);
  });

  it(`paths of ${MAX_ENTRY_PATH_CHARS} characters are read; one more is refused`, () => {
    const at = `${'d/'.repeat(50)}${'f'.repeat(MAX_ENTRY_PATH_CHARS - 100)}`;
    expect(at.length).toBe(MAX_ENTRY_PATH_CHARS);
    expect(readArchive(zip([{ name: at, data: 'x' }])).size).toBe(1);
    expect(refused(zip([{ name: `${at}g`, data: 'x' }])).message).toMatch(/MAX_ENTRY_PATH_CHARS/);
  });

  it('an archive over MAX_ARCHIVE_BYTES is refused before it is read', () => {
    const big = new Uint8Array(MAX_ARCHIVE_BYTES + 1);
    big.set([0x50, 0x4b, 3, 4]);
    expect(refused(big).message).toMatch(/MAX_ARCHIVE_BYTES/);
  });
});

describe('zip64', () => {
  const zip64Entries = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ name: `f${i}`, data: `file ${i}`, zip64: true }));

  it('reads zip64 entries (extra fields in central and local headers) with and without a zip64 end record', () => {
    const entries = [
      { name: 'cart/yare.yaml', data: 'name: x', zip64: true, method: 0 as const },
      { name: 'cart/lore.md', data: 'deflated '.repeat(100), zip64: true },
      { name: 'cart/plain.txt', data: 'classic entry' },
    ];
    for (const zip64End of [false, true]) {
      const files = readArchive(zip(entries, { zip64End }));
      expect([...files.keys()].sort()).toEqual(['lore.md', 'plain.txt', 'yare.yaml']);
      expect(text(files.get('yare.yaml'))).toBe('name: x');
      expect(text(files.get('lore.md'))).toBe('deflated '.repeat(100));
      expect(text(files.get('plain.txt'))).toBe('classic entry');
    }
  });

  it(`a zip64 entry count of ${MAX_ARCHIVE_ENTRIES} is read; one more is refused`, () => {
    expect(readArchive(zip(zip64Entries(MAX_ARCHIVE_ENTRIES), { zip64End: true })).size).toBe(
      MAX_ARCHIVE_ENTRIES,
    );
    expect(refused(zip(zip64Entries(MAX_ARCHIVE_ENTRIES + 1), { zip64End: true })).message).toMatch(
      /MAX_ARCHIVE_ENTRIES/,
    );
    // A huge 64-bit count is refused by the same cap, before the directory is walked.
    expect(refused(zip(zip64Entries(1), { zip64End: true, count64: 2n ** 40n })).message).toMatch(
      /MAX_ARCHIVE_ENTRIES/,
    );
  });

  it('zip64 sizes meet the per-file and total caps before anything is inflated', () => {
    expect(
      readArchive(zip([{ name: 'f', data: new Uint8Array(MAX_ENTRY_BYTES), zip64: true }])).get('f')?.length,
    ).toBe(MAX_ENTRY_BYTES);
    expect(
      refused(zip([{ name: 'f', data: 'x', zip64: true, size64: BigInt(MAX_ENTRY_BYTES + 1), method: 0 }]))
        .message,
    ).toMatch(/MAX_ENTRY_BYTES/);
    const many = Array.from({ length: 3 }, (_, i) => ({
      name: `f${i}`,
      data: 'x',
      zip64: true,
      size64: BigInt(MAX_ENTRY_BYTES),
      method: 0 as const,
    }));
    expect(refused(zip(many)).message).toMatch(/MAX_EXTRACTED_BYTES/);
  });

  it('a 64-bit value at Number.MAX_SAFE_INTEGER meets the caps; one more is refused as unsafe', () => {
    const at = refused(zip([{ name: 'f', data: 'x', zip64: true, size64: BigInt(Number.MAX_SAFE_INTEGER) }]));
    expect(at.code).toBe('archive_too_large');
    expect(at.message).toMatch(/MAX_ENTRY_BYTES/);
    for (const size64 of [BigInt(Number.MAX_SAFE_INTEGER) + 1n, 2n ** 64n - 1n]) {
      const past = refused(zip([{ name: 'f', data: 'x', zip64: true, size64 }]));
      expect(past.code).toBe('archive_too_large');
      expect(past.message).toMatch(/f: zip64 size is \d+, past Number\.MAX_SAFE_INTEGER/);
    }
    const count = refused(zip(zip64Entries(1), { zip64End: true, count64: 2n ** 53n }));
    expect(count.message).toMatch(/zip64 entry count .* past Number\.MAX_SAFE_INTEGER/);
  });

  it('a zip64 bomb that lies about its size is stopped at the declared size', () => {
    const bomb = zip([{ name: 'f', data: new Uint8Array(MAX_ENTRY_BYTES * 2), zip64: true, size64: 1000n }]);
    expect(bomb.length).toBeLessThan(20_000);
    const error = refused(bomb);
    expect(error.code).toBe('archive_too_large');
    expect(error.message).toMatch(/declared size/);
  });

  it('traversal, links and a renamed local header are refused in zip64 archives too', () => {
    expect(refused(zip([{ name: '../evil.yaml', data: 'x', zip64: true }], { zip64End: true })).code).toBe(
      'archive_bad_path',
    );
    expect(
      refused(zip([{ name: 'yare.yaml', data: '/etc/passwd', unixMode: 0o120777, zip64: true }])).code,
    ).toBe('archive_link');
    const renamed = zip([{ name: 'yare.yaml', data: 'x', zip64: true }], { zip64End: true });
    renamed[30] = 'Y'.charCodeAt(0);
    expect(refused(renamed).message).toMatch(/local header names a different file/);
  });

  it('a local header whose zip64 sizes disagree with the directory is refused', () => {
    const error = refused(zip([{ name: 'f', data: 'hello', zip64: true, localSize64: 4n }]));
    expect(error.code).toBe('archive_format');
    expect(error.message).toMatch(/f: the local header gives other zip64 sizes/);
  });

  it('placeholders without their zip64 data are refused', () => {
    const noExtra = zip([{ name: 'f', data: 'hello', method: 0 }]);
    const central = noExtra.length - 22 - 46 - 1;
    new DataView(noExtra.buffer).setUint32(central + 24, 0xffffffff, true);
    expect(refused(noExtra).message).toMatch(/f: the zip64 extra field is missing or too short for its size/);
    const noLocator = zip([{ name: 'f', data: 'hello' }]);
    new DataView(noLocator.buffer).setUint32(noLocator.length - 22 + 16, 0xffffffff, true);
    expect(refused(noLocator).message).toMatch(/no zip64 locator/);
  });

  it('data before the archive (a self-extracting prefix) is refused with the reason', () => {
    const prefixed = zip([{ name: 'f', data: 'x' }], { prefix: new TextEncoder().encode('PK\x03\x04stub') });
    const error = refused(prefixed);
    expect(error.code).toBe('archive_format');
    expect(error.message).toMatch(/self-extracting prefix/);
  });
});
