// A small, strict zip reader: the central directory is the index, each entry's local header is checked
// against it (signature and file name), data is stored or deflated. Refused: encryption, zip64, other methods, symbolic links,
// declared sizes over the caps (before inflating), data that inflates past its declared size (a bomb that
// lies) and CRC mismatches.

import { crc32, inflateRawSync } from 'node:zlib';
import { ArchiveError } from './errors.ts';
import { addEntrySize, MAX_ARCHIVE_ENTRIES } from './limits.ts';
import { entrySegments } from './paths.ts';
import type { RawEntry } from './tar.ts';

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_MIN = 22;
const MAX_COMMENT = 0xffff;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const utf8 = new TextDecoder('utf-8');

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5);
}

function findEocd(view: DataView): number {
  const last = view.byteLength - EOCD_MIN;
  const first = Math.max(0, last - MAX_COMMENT);
  for (let at = last; at >= first; at--) {
    if (view.getUint32(at, true) === EOCD_SIGNATURE) return at;
  }
  throw new ArchiveError('archive_format', 'no zip end-of-central-directory record');
}

export function readZip(bytes: Uint8Array): RawEntry[] {
  if (bytes.length < EOCD_MIN) throw new ArchiveError('archive_format', 'too short to be a zip archive');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEocd(view);
  const count = view.getUint16(eocd + 10, true);
  const cdSize = view.getUint32(eocd + 12, true);
  const cdOffset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    throw new ArchiveError('archive_unsupported', 'zip64 archives are not supported');
  }
  if (count > MAX_ARCHIVE_ENTRIES) {
    throw new ArchiveError(
      'archive_too_large',
      `${count} entries; the limit is ${MAX_ARCHIVE_ENTRIES} (MAX_ARCHIVE_ENTRIES)`,
    );
  }
  if (cdOffset + cdSize > eocd)
    throw new ArchiveError('archive_format', 'the central directory lies outside the archive');

  // Pass 1: read and check the whole directory, so no byte is inflated from an archive that breaks a cap.
  interface Planned {
    name: string;
    segments: string[];
    method: number;
    crc: number;
    compressed: number;
    size: number;
    local: number;
  }
  const planned: Planned[] = [];
  let total = 0;
  let at = cdOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > eocd || view.getUint32(at, true) !== CENTRAL_SIGNATURE) {
      throw new ArchiveError('archive_format', `central directory entry ${i + 1} is malformed`);
    }
    const madeBy = view.getUint16(at + 4, true);
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    const compressed = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const external = view.getUint32(at + 38, true);
    const local = view.getUint32(at + 42, true);
    if (at + 46 + nameLength > eocd)
      throw new ArchiveError('archive_format', `central directory entry ${i + 1} is truncated`);
    const name = utf8.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
    const segments = entrySegments(name);
    if (flags & 0x1)
      throw new ArchiveError('archive_unsupported', 'encrypted entries are not supported', name);
    const unixMode = madeBy >> 8 === 3 ? external >>> 16 : 0;
    const fileType = unixMode & S_IFMT;
    if (fileType !== 0 && fileType !== S_IFREG && fileType !== S_IFDIR) {
      throw new ArchiveError(
        'archive_link',
        'symbolic links and special files are refused in cartridge archives',
        name,
      );
    }
    if (name.endsWith('/') || fileType === S_IFDIR) continue;
    if (method !== 0 && method !== 8) {
      throw new ArchiveError(
        'archive_unsupported',
        `compression method ${method} (only stored and deflate)`,
        name,
      );
    }
    total = addEntrySize(total, size, name);
    planned.push({ name, segments, method, crc, compressed, size, local });
  }

  // Pass 2: extract, each bounded by its declared size.
  return planned.map((entry) => {
    const { name } = entry;
    if (entry.local + 30 > bytes.length || view.getUint32(entry.local, true) !== LOCAL_SIGNATURE) {
      throw new ArchiveError('archive_format', 'local header missing', name);
    }
    // The local header must name the same file as the directory: a tool that reads local headers (most
    // streaming unzippers) would otherwise see other names, and paths, than the ones checked here.
    const localNameLength = view.getUint16(entry.local + 26, true);
    const localName = bytes.subarray(entry.local + 30, entry.local + 30 + localNameLength);
    if (entry.local + 30 + localNameLength > bytes.length || utf8.decode(localName) !== name) {
      throw new ArchiveError(
        'archive_format',
        'the local header names a different file than the central directory',
        name,
      );
    }
    const start = entry.local + 30 + localNameLength + view.getUint16(entry.local + 28, true);
    const end = start + entry.compressed;
    if (end > bytes.length)
      throw new ArchiveError('archive_format', 'data runs past the end of the archive', name);
    const raw = bytes.subarray(start, end);
    let data: Uint8Array;
    if (entry.method === 0) {
      data = raw;
    } else {
      try {
        // One byte over the declared size is enough to know it lied; never more.
        data = inflateRawSync(raw, { maxOutputLength: Math.max(1, entry.size + 1) });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
          throw new ArchiveError('archive_too_large', 'inflates past its declared size (a zip bomb?)', name);
        }
        throw new ArchiveError('archive_format', `cannot inflate: ${(error as Error).message}`, name);
      }
    }
    if (data.length !== entry.size) {
      throw new ArchiveError(
        data.length > entry.size ? 'archive_too_large' : 'archive_format',
        `holds ${data.length} bytes, the directory says ${entry.size}`,
        name,
      );
    }
    if (crc32(data) !== entry.crc)
      throw new ArchiveError('archive_format', 'CRC mismatch (a corrupt archive)', name);
    return { segments: entry.segments, data: Uint8Array.from(data) };
  });
}
