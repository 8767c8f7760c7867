// Minimal archive writers for tests: zip (stored or deflated, with room to lie about sizes and set unix
// modes) and tar (ustar, any entry type), so tests build every hostile archive they need.

import { crc32, deflateRawSync, gzipSync } from 'node:zlib';

export interface ZipEntry {
  readonly name: string;
  readonly data?: Uint8Array | string;
  readonly method?: 0 | 8;
  /** Size written in the headers (default: the real size). */
  readonly declaredSize?: number;
  /** Unix mode for the external attributes (e.g. 0o120777 for a symlink). */
  readonly unixMode?: number;
  readonly encrypted?: boolean;
}

const bytesOf = (data: Uint8Array | string | undefined): Uint8Array =>
  typeof data === 'string' ? new TextEncoder().encode(data) : (data ?? new Uint8Array(0));

export function zip(entries: readonly ZipEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = bytesOf(entry.data);
    const method = entry.method ?? 8;
    const packed = method === 8 ? deflateRawSync(data) : Buffer.from(data);
    const name = Buffer.from(entry.name, 'utf8');
    const size = entry.declaredSize ?? data.length;
    const crc = crc32(data);
    const flags = entry.encrypted ? 1 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(entry.unixMode === undefined ? 20 : (3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(entry.unixMode === undefined ? 0 : (entry.unixMode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, cd, end]));
}

export interface TarEntry {
  readonly name: string;
  readonly data?: Uint8Array | string;
  /** '0' file (default), '2' symlink, '1' hardlink, '5' folder, '3' char device … */
  readonly type?: string;
  readonly linkName?: string;
}

function octal(value: number, length: number): string {
  return `${value.toString(8).padStart(length - 1, '0')}\0`;
}

export function tar(entries: readonly TarEntry[]): Uint8Array {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const data = Buffer.from(bytesOf(entry.data));
    const header = Buffer.alloc(512);
    header.write(entry.name, 0, 100, 'utf8');
    header.write(octal(0o644, 8), 100, 'latin1');
    header.write(octal(0, 8), 108, 'latin1');
    header.write(octal(0, 8), 116, 'latin1');
    header.write(octal(data.length, 12), 124, 'latin1');
    header.write(octal(0, 12), 136, 'latin1');
    header.write('        ', 148, 'latin1');
    header.write(entry.type ?? '0', 156, 'latin1');
    if (entry.linkName) header.write(entry.linkName, 157, 100, 'utf8');
    header.write('ustar\0', 257, 'latin1');
    header.write('00', 263, 'latin1');
    let sum = 0;
    for (const b of header) sum += b;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return new Uint8Array(Buffer.concat(blocks));
}

export function tarGz(entries: readonly TarEntry[]): Uint8Array {
  return new Uint8Array(gzipSync(tar(entries)));
}
