// `mnesos pack`: a cartridge folder as a zip archive the server's upload accepts — the cartridge files and
// its tests/ folder, nothing else (no hidden files, no editor schemas, no links). The archive is read back
// with the upload's own reader (cartridge/archive) and loaded before it is written, so a packed cartridge always uploads.

import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import {
  CARTRIDGE_FILES,
  MAX_ARCHIVE_BYTES,
  MAX_ARCHIVE_ENTRIES,
  MAX_ENTRY_BYTES,
} from '../../core/cartridge/index.ts';
import { TESTS_FOLDER } from './scenario/files.ts';

export type PackResult = { ok: true; bytes: Uint8Array; files: string[] } | { ok: false; message: string };

/** Files of the folder that go in the archive, as forward-slash paths, sorted. */
export function packedFiles(folder: string): { ok: true; files: string[] } | { ok: false; message: string } {
  const files: string[] = [];
  for (const spec of CARTRIDGE_FILES) {
    const stat = lstatOrUndefined(join(folder, spec.name));
    if (stat?.isFile()) files.push(spec.name);
    else if (stat)
      return {
        ok: false,
        message: `${spec.name} is not a regular file (a link or a folder); pack copies files only`,
      };
  }
  const walk = (rel: string): string | undefined => {
    for (const name of readdirSync(join(folder, rel)).sort()) {
      if (name.startsWith('.')) continue;
      const path = `${rel}/${name}`;
      const stat = lstatSync(join(folder, path));
      if (stat.isSymbolicLink()) return `${path} is a symbolic link; archives cannot hold links`;
      if (stat.isDirectory()) {
        const problem = walk(path);
        if (problem) return problem;
      } else if (stat.isFile()) files.push(path);
      if (files.length > MAX_ARCHIVE_ENTRIES)
        return `more than ${MAX_ARCHIVE_ENTRIES} files (MAX_ARCHIVE_ENTRIES, the upload limit)`;
    }
    return undefined;
  };
  if (lstatOrUndefined(join(folder, TESTS_FOLDER))?.isDirectory()) {
    const problem = walk(TESTS_FOLDER);
    if (problem) return { ok: false, message: problem };
  }
  return { ok: true, files };
}

export function packCartridge(folder: string): PackResult {
  const listed = packedFiles(folder);
  if (!listed.ok) return listed;
  const entries: { name: string; data: Uint8Array }[] = [];
  for (const name of listed.files) {
    const data = readFileSync(join(folder, name));
    if (data.byteLength > MAX_ENTRY_BYTES)
      return {
        ok: false,
        message: `${name} is ${data.byteLength} bytes; the upload limit per file is ${MAX_ENTRY_BYTES} (MAX_ENTRY_BYTES)`,
      };
    entries.push({ name, data });
  }
  const bytes = writeZip(entries);
  if (bytes.byteLength > MAX_ARCHIVE_BYTES)
    return {
      ok: false,
      message: `the archive is ${bytes.byteLength} bytes; the upload limit is ${MAX_ARCHIVE_BYTES} (MAX_ARCHIVE_BYTES)`,
    };
  return { ok: true, bytes, files: listed.files };
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** A plain zip: deflated entries, UTF-8 names, a fixed timestamp (so the same folder packs to the same bytes). */
export function writeZip(entries: readonly { name: string; data: Uint8Array }[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const DOS_TIME = 0; // 00:00:00
  const DOS_DATE = ((2020 - 1980) << 9) | (1 << 5) | 1; // 2020-01-01
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const compressed = deflateRawSync(data);
    const crc = crc32(data);
    // The local and central headers share one run of fields (version needed … name length); only where
    // it starts differs.
    const shared = (header: Buffer, at: number): void => {
      header.writeUInt16LE(20, at); // version needed
      header.writeUInt16LE(0x0800, at + 2); // UTF-8 names
      header.writeUInt16LE(8, at + 4); // deflate
      header.writeUInt16LE(DOS_TIME, at + 6);
      header.writeUInt16LE(DOS_DATE, at + 8);
      header.writeUInt32LE(crc, at + 10);
      header.writeUInt32LE(compressed.byteLength, at + 14);
      header.writeUInt32LE(data.byteLength, at + 18);
      header.writeUInt16LE(nameBytes.byteLength, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    shared(local, 4);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, 2.0
    shared(central, 6);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38); // a regular file, rw-r--r--
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, compressed);
    centrals.push(central, nameBytes);
    offset += local.byteLength + nameBytes.byteLength + compressed.byteLength;
  }
  const centralSize = centrals.reduce((n, b) => n + b.byteLength, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, ...centrals, end]));
}
