// The archive readers on archives the tests build: zip (stored, deflate) and tar.gz, the top folder
// stripped, every cap at its value and past it, and hostile archives: path traversal, absolute paths,
// links, devices, zip and gzip bombs, lying sizes, encryption, duplicates.

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
} from '../../src/server/archive/index.ts';
import { tar, tarGz, zip } from './archives.ts';

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
