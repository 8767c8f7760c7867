// A small, strict zip reader: the central directory is the index, each entry's local header is checked
// against it (signature, file name and, for zip64, sizes), data is stored or deflated. Zip64 is read (the
// zip64 end record and its locator, the zip64 extra field in central and local headers); every 64-bit
// value goes through the same caps as a 32-bit one, and one past Number.MAX_SAFE_INTEGER is refused.
// Refused: data before the archive (a self-extracting prefix), encryption, other methods, symbolic links,
// declared sizes over the caps (before inflating), data that inflates past its declared size (a bomb that
// lies) and CRC mismatches.

import { crc32, inflateRawSync } from 'node:zlib';
import { ArchiveError } from './errors.ts';
import { addEntrySize, MAX_ARCHIVE_ENTRIES } from './limits.ts';
import { entrySegments } from './paths.ts';
import type { RawEntry } from './tar.ts';

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_MIN = 22;
const ZIP64_EOCD_MIN = 56;
const ZIP64_LOCATOR_SIZE = 20;
const ZIP64_EXTRA_ID = 0x0001;
const MAX_COMMENT = 0xffff;
const U16_PLACEHOLDER = 0xffff;
const U32_PLACEHOLDER = 0xffffffff;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
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

/** True when the bytes end like a zip archive (an end record in the last 64 KiB) whatever they start with. */
export function endsLikeZip(bytes: Uint8Array): boolean {
  if (bytes.length < EOCD_MIN) return false;
  try {
    findEocd(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return true;
  } catch {
    return false;
  }
}

/** A 64-bit little-endian value as a number; past Number.MAX_SAFE_INTEGER it is refused, never rounded. */
function readUint64(view: DataView, at: number, what: string, entry?: string): number {
  const value = view.getBigUint64(at, true);
  if (value > MAX_SAFE) {
    throw new ArchiveError(
      'archive_too_large',
      `zip64 ${what} is ${value}, past Number.MAX_SAFE_INTEGER (${Number.MAX_SAFE_INTEGER})`,
      entry,
    );
  }
  return Number(value);
}

/** The zip64 extended-information extra field's data (start and length), if the extra block holds one. */
function findZip64Extra(
  view: DataView,
  start: number,
  length: number,
  entry: string,
): { at: number; length: number } | undefined {
  const end = start + length;
  let at = start;
  // Each field is at least 4 bytes, so this loop runs at most 0xffff / 4 times.
  while (at + 4 <= end) {
    const id = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    if (at + 4 + size > end)
      throw new ArchiveError('archive_format', 'an extra field runs past its block', entry);
    if (id === ZIP64_EXTRA_ID) return { at: at + 4, length: size };
    at += 4 + size;
  }
  return undefined;
}

/** Reads the zip64 values that replace placeholders, in the order the format fixes. */
function zip64Values(
  view: DataView,
  extra: { at: number; length: number } | undefined,
  wanted: readonly string[],
  entry: string,
): number[] {
  if (wanted.length === 0) return [];
  if (extra === undefined || extra.length < wanted.length * 8) {
    throw new ArchiveError(
      'archive_format',
      `the zip64 extra field is missing or too short for its ${wanted.join(', ')}`,
      entry,
    );
  }
  return wanted.map((what, i) => readUint64(view, extra.at + i * 8, what, entry));
}

interface Directory {
  readonly count: number;
  readonly cdSize: number;
  readonly cdOffset: number;
  /** Where the central directory must end: the zip64 end record, or the classic one. */
  readonly cdEnd: number;
}

/** The central directory's place and size, from the classic end record or, when present, the zip64 one. */
function readDirectory(view: DataView, eocd: number): Directory {
  const count16 = view.getUint16(eocd + 10, true);
  const cdSize32 = view.getUint32(eocd + 12, true);
  const cdOffset32 = view.getUint32(eocd + 16, true);
  const locator = eocd - ZIP64_LOCATOR_SIZE;
  if (locator < 0 || view.getUint32(locator, true) !== ZIP64_LOCATOR_SIGNATURE) {
    if (count16 === U16_PLACEHOLDER || cdSize32 === U32_PLACEHOLDER || cdOffset32 === U32_PLACEHOLDER) {
      throw new ArchiveError('archive_format', 'zip64 placeholders in the end record but no zip64 locator');
    }
    return { count: count16, cdSize: cdSize32, cdOffset: cdOffset32, cdEnd: eocd };
  }
  const record = readUint64(view, locator + 8, 'end record offset');
  if (record + ZIP64_EOCD_MIN > locator || view.getUint32(record, true) !== ZIP64_EOCD_SIGNATURE) {
    throw new ArchiveError('archive_format', 'the zip64 locator does not point at a zip64 end record');
  }
  const count = readUint64(view, record + 32, 'entry count');
  const cdSize = readUint64(view, record + 40, 'central directory size');
  const cdOffset = readUint64(view, record + 48, 'central directory offset');
  // A classic field that is not a placeholder must agree with its zip64 value: two readers must not see two
  // different directories.
  if (
    (count16 !== U16_PLACEHOLDER && count16 !== count) ||
    (cdSize32 !== U32_PLACEHOLDER && cdSize32 !== cdSize) ||
    (cdOffset32 !== U32_PLACEHOLDER && cdOffset32 !== cdOffset)
  ) {
    throw new ArchiveError('archive_format', 'the zip64 end record disagrees with the classic one');
  }
  return { count, cdSize, cdOffset, cdEnd: record };
}

export function readZip(bytes: Uint8Array): RawEntry[] {
  if (bytes.length < EOCD_MIN) throw new ArchiveError('archive_format', 'too short to be a zip archive');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEocd(view);
  const { count, cdSize, cdOffset, cdEnd } = readDirectory(view, eocd);
  if (count > MAX_ARCHIVE_ENTRIES) {
    throw new ArchiveError(
      'archive_too_large',
      `${count} entries; the limit is ${MAX_ARCHIVE_ENTRIES} (MAX_ARCHIVE_ENTRIES)`,
    );
  }
  if (cdOffset + cdSize > cdEnd)
    throw new ArchiveError('archive_format', 'the central directory lies outside the archive');
  if (cdOffset + cdSize !== cdEnd) {
    throw new ArchiveError(
      'archive_format',
      'the central directory does not end where the end record starts (data before the archive, such as a self-extracting prefix, is refused)',
    );
  }

  // Pass 1: read and check the whole directory, so no byte is inflated from an archive that breaks a cap.
  const planned: PlannedEntry[] = [];
  let total = 0;
  let at = cdOffset;
  for (let i = 0; i < count; i++) {
    const read = readCentralEntry(bytes, view, at, cdEnd, i);
    at = read.next;
    if (read.entry === undefined) continue;
    total = addEntrySize(total, read.entry.size, read.entry.name);
    planned.push(read.entry);
  }
  // Pass 2: extract, each bounded by its declared size.
  return planned.map((entry) => extractEntry(bytes, view, entry, cdOffset));
}

/** A file entry of the central directory, checked, before a byte of it is read. */
interface PlannedEntry {
  name: string;
  segments: string[];
  method: number;
  flags: number;
  crc: number;
  compressed: number;
  size: number;
  local: number;
}

/** Central directory entry `i` at `at`: where the next one starts, and the file it plans (none for a folder). */
function readCentralEntry(
  bytes: Uint8Array,
  view: DataView,
  at: number,
  cdEnd: number,
  i: number,
): { next: number; entry?: PlannedEntry } {
  if (at + 46 > cdEnd || view.getUint32(at, true) !== CENTRAL_SIGNATURE) {
    throw new ArchiveError('archive_format', `central directory entry ${i + 1} is malformed`);
  }
  const header = centralHeader(view, at);
  const extraAt = at + 46 + header.nameLength;
  if (extraAt + header.extraLength + header.commentLength > cdEnd)
    throw new ArchiveError('archive_format', `central directory entry ${i + 1} is truncated`);
  const name = utf8.decode(bytes.subarray(at + 46, extraAt));
  const next = extraAt + header.extraLength + header.commentLength;
  const segments = entrySegments(name);
  const { size, compressed, local, disk } = zip64Fields(view, header, extraAt, name);
  if (disk !== 0)
    throw new ArchiveError('archive_unsupported', 'multi-disk (split) archives are not supported', name);
  const { flags, method, crc } = header;
  if (flags & 0x1) throw new ArchiveError('archive_unsupported', 'encrypted entries are not supported', name);
  const fileType = entryFileType(header, name);
  if (name.endsWith('/') || fileType === S_IFDIR) return { next };
  if (method !== 0 && method !== 8) {
    throw new ArchiveError(
      'archive_unsupported',
      `compression method ${method} (only stored and deflate)`,
      name,
    );
  }
  return { next, entry: { name, segments, method, flags, crc, compressed, size, local } };
}

/** The fixed fields of a central directory entry at `at` (its signature already checked). */
function centralHeader(view: DataView, at: number) {
  return {
    madeBy: view.getUint16(at + 4, true),
    flags: view.getUint16(at + 8, true),
    method: view.getUint16(at + 10, true),
    crc: view.getUint32(at + 16, true),
    compressed32: view.getUint32(at + 20, true),
    size32: view.getUint32(at + 24, true),
    nameLength: view.getUint16(at + 28, true),
    extraLength: view.getUint16(at + 30, true),
    commentLength: view.getUint16(at + 32, true),
    disk: view.getUint16(at + 34, true),
    external: view.getUint32(at + 38, true),
    local32: view.getUint32(at + 42, true),
  };
}

type CentralHeader = ReturnType<typeof centralHeader>;

/** The entry's sizes, offset and disk, each from the zip64 extra field when its 32-bit field is a placeholder. */
function zip64Fields(
  view: DataView,
  header: CentralHeader,
  extraAt: number,
  name: string,
): { size: number; compressed: number; local: number; disk: number } {
  // The zip64 extra field holds, in this order, only the values whose 32-bit fields are placeholders.
  const wanted = [
    ...(header.size32 === U32_PLACEHOLDER ? ['size'] : []),
    ...(header.compressed32 === U32_PLACEHOLDER ? ['compressed size'] : []),
    ...(header.local32 === U32_PLACEHOLDER ? ['local header offset'] : []),
    ...(header.disk === U16_PLACEHOLDER ? ['disk number'] : []),
  ];
  const values = zip64Values(
    view,
    wanted.length === 0 ? undefined : findZip64Extra(view, extraAt, header.extraLength, name),
    wanted,
    name,
  );
  const zip64Or = (what: string, fallback: number) => {
    const index = wanted.indexOf(what);
    return index < 0 ? fallback : (values[index] as number);
  };
  return {
    size: zip64Or('size', header.size32),
    compressed: zip64Or('compressed size', header.compressed32),
    local: zip64Or('local header offset', header.local32),
    disk: zip64Or('disk number', header.disk),
  };
}

/** The entry's Unix file type (0 when not made on Unix); a link or a special file is refused. */
function entryFileType(header: CentralHeader, name: string): number {
  const unixMode = header.madeBy >> 8 === 3 ? header.external >>> 16 : 0;
  const fileType = unixMode & S_IFMT;
  if (fileType !== 0 && fileType !== S_IFREG && fileType !== S_IFDIR) {
    throw new ArchiveError(
      'archive_link',
      'symbolic links and special files are refused in cartridge archives',
      name,
    );
  }
  return fileType;
}

/** One planned entry's bytes: its local header agrees with the directory, its data inflates to its size. */
function extractEntry(bytes: Uint8Array, view: DataView, entry: PlannedEntry, cdOffset: number): RawEntry {
  const { name } = entry;
  if (entry.local + 30 > cdOffset || view.getUint32(entry.local, true) !== LOCAL_SIGNATURE) {
    throw new ArchiveError('archive_format', 'local header missing', name);
  }
  // The local header must name the same file as the directory: a tool that reads local headers (most
  // streaming unzippers) would otherwise see other names, and paths, than the ones checked here.
  const localNameLength = view.getUint16(entry.local + 26, true);
  const localExtraLength = view.getUint16(entry.local + 28, true);
  const localExtraAt = entry.local + 30 + localNameLength;
  if (localExtraAt + localExtraLength > cdOffset)
    throw new ArchiveError('archive_format', 'the local header runs into the central directory', name);
  const localName = bytes.subarray(entry.local + 30, localExtraAt);
  if (utf8.decode(localName) !== name) {
    throw new ArchiveError(
      'archive_format',
      'the local header names a different file than the central directory',
      name,
    );
  }
  checkLocalZip64Sizes(view, entry, localExtraAt, localExtraLength);
  const start = localExtraAt + localExtraLength;
  const end = start + entry.compressed;
  if (end > cdOffset) throw new ArchiveError('archive_format', 'data runs past the end of the archive', name);
  const raw = bytes.subarray(start, end);
  const data = entry.method === 0 ? raw : inflateEntry(raw, entry);
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
}

function inflateEntry(raw: Uint8Array, entry: PlannedEntry): Uint8Array {
  try {
    // One byte over the declared size is enough to know it lied; never more.
    return inflateRawSync(raw, { maxOutputLength: Math.max(1, entry.size + 1) });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new ArchiveError(
        'archive_too_large',
        'inflates past its declared size (a zip bomb?)',
        entry.name,
      );
    }
    throw new ArchiveError('archive_format', `cannot inflate: ${(error as Error).message}`, entry.name);
  }
}

/**
 * A zip64 local header (both sizes placeholders) carries both sizes in its extra field; unless the sizes
 * follow the data (flag bit 3), they must equal the directory's, so a streaming unzipper sees the same file.
 */
function checkLocalZip64Sizes(
  view: DataView,
  entry: { name: string; flags: number; compressed: number; size: number; local: number },
  extraAt: number,
  extraLength: number,
): void {
  const compressed32 = view.getUint32(entry.local + 18, true);
  const size32 = view.getUint32(entry.local + 22, true);
  if (compressed32 !== U32_PLACEHOLDER && size32 !== U32_PLACEHOLDER) return;
  const extra = findZip64Extra(view, extraAt, extraLength, entry.name);
  const [size, compressed] = zip64Values(view, extra, ['size', 'compressed size'], entry.name);
  if (entry.flags & 0x8) return;
  if (size !== entry.size || compressed !== entry.compressed) {
    throw new ArchiveError(
      'archive_format',
      'the local header gives other zip64 sizes than the central directory',
      entry.name,
    );
  }
}
