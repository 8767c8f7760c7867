// A small, strict reader of tar (ustar, with pax and GNU long names) held in memory. Regular files and
// folders only: links, devices and FIFOs are refused. Every header's checksum is checked.

import { ArchiveError } from './errors.ts';
import { addEntrySize, MAX_ARCHIVE_ENTRIES } from './limits.ts';
import { entrySegments } from './paths.ts';

const BLOCK = 512;
const latin1 = new TextDecoder('latin1');
const utf8 = new TextDecoder('utf-8');

function field(header: Uint8Array, offset: number, length: number): string {
  const bytes = header.subarray(offset, offset + length);
  const end = bytes.indexOf(0);
  return utf8.decode(end === -1 ? bytes : bytes.subarray(0, end));
}

function octal(header: Uint8Array, offset: number, length: number, what: string): number {
  const text = latin1
    .decode(header.subarray(offset, offset + length))
    .replace(/\0.*$/s, '')
    .trim();
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) throw new ArchiveError('archive_format', `bad tar ${what} field '${text}'`);
  return Number.parseInt(text, 8);
}

function checksumOk(header: Uint8Array): boolean {
  const stored = octal(header, 148, 8, 'checksum');
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (header[i] ?? 0);
  return sum === stored;
}

/** The `path=` record of a pax extended header, if any. */
function paxPath(data: Uint8Array): string | undefined {
  const text = utf8.decode(data);
  let at = 0;
  while (at < text.length) {
    const space = text.indexOf(' ', at);
    if (space === -1) break;
    const length = Number.parseInt(text.slice(at, space), 10);
    if (!Number.isSafeInteger(length) || length <= 0)
      throw new ArchiveError('archive_format', 'bad pax header');
    const record = text.slice(space + 1, at + length - 1);
    if (record.startsWith('path=')) return record.slice(5);
    at += length;
  }
  return undefined;
}

export interface RawEntry {
  readonly segments: string[];
  readonly data: Uint8Array;
}

export function isTar(bytes: Uint8Array): boolean {
  return bytes.length >= BLOCK && latin1.decode(bytes.subarray(257, 262)) === 'ustar';
}

export function readTar(bytes: Uint8Array): RawEntry[] {
  const read: TarReading = { files: [], total: 0, longName: undefined };
  let offset = 0;
  let entries = 0;
  while (offset + BLOCK <= bytes.length) {
    const header = bytes.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) return read.files;
    if (!checksumOk(header))
      throw new ArchiveError('archive_format', `tar header at byte ${offset} has a bad checksum`);
    entries += 1;
    if (entries > MAX_ARCHIVE_ENTRIES) {
      throw new ArchiveError(
        'archive_too_large',
        `more than ${MAX_ARCHIVE_ENTRIES} entries (MAX_ARCHIVE_ENTRIES)`,
      );
    }
    const entry = tarEntry(bytes, header, offset);
    offset = entry.next;
    takeTarEntry(read, entry);
  }
  return read.files;
}

/** What a tar stream read so far holds: its files, their total size, and a long name for the next entry. */
interface TarReading {
  readonly files: RawEntry[];
  total: number;
  longName: string | undefined;
}

interface TarEntry {
  readonly type: string;
  readonly size: number;
  readonly data: Uint8Array;
  /** The name its header spells (prefix and name); a pax or GNU long name before it takes precedence. */
  readonly headerName: string;
  /** Where the next header starts. */
  readonly next: number;
}

/** The entry whose (checked) header is at `offset`; its data must lie inside the stream. */
function tarEntry(bytes: Uint8Array, header: Uint8Array, offset: number): TarEntry {
  const size = octal(header, 124, 12, 'size');
  const dataStart = offset + BLOCK;
  const dataEnd = dataStart + size;
  if (dataEnd > bytes.length) throw new ArchiveError('archive_format', 'the tar stream ends inside an entry');
  const prefix = field(header, 345, 155);
  const baseName = field(header, 0, 100);
  return {
    type: String.fromCharCode(header[156] ?? 0),
    size,
    data: bytes.subarray(dataStart, dataEnd),
    headerName: prefix === '' ? baseName : `${prefix}/${baseName}`,
    next: dataStart + Math.ceil(size / BLOCK) * BLOCK,
  };
}

/** One entry by its type: a file kept, a folder checked, a long name remembered; links and devices refused. */
function takeTarEntry(read: TarReading, entry: TarEntry): void {
  const { type, data } = entry;
  const name = read.longName ?? entry.headerName;
  switch (type) {
    case 'x':
      read.longName = paxPath(data) ?? read.longName;
      return;
    case 'g':
      return;
    case 'L':
      read.longName = field(data, 0, data.length);
      return;
    case '0':
    case '\0':
    case '7': {
      read.longName = undefined;
      const segments = entrySegments(name);
      read.total = addEntrySize(read.total, entry.size, name);
      read.files.push({ segments, data: data.slice() });
      return;
    }
    case '5':
      read.longName = undefined;
      entrySegments(name);
      return;
    case '1':
    case '2':
      throw new ArchiveError('archive_link', 'links are refused in cartridge archives', name);
    case '3':
    case '4':
    case '6':
      throw new ArchiveError('archive_link', 'devices and FIFOs are refused in cartridge archives', name);
    default:
      throw new ArchiveError('archive_unsupported', `tar entry type '${type}' is not supported`, name);
  }
}
