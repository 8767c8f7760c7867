// Minimal archive writers for tests: zip (stored or deflated, zip64 or not, with room to lie about sizes, set unix
// modes and prepend a stub) and tar (ustar, any entry type), so tests build every hostile archive they need.

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
  /** Write sizes and offset as zip64: placeholders in the headers, the values in zip64 extra fields. */
  readonly zip64?: boolean;
  /** With zip64: the size written in the extra fields (default: the declared size); may pass 2^53. */
  readonly size64?: bigint;
  /** With zip64: the local header's extra field gives this size instead (a header that disagrees). */
  readonly localSize64?: bigint;
}

export interface ZipOptions {
  /** Write a zip64 end record and locator, with placeholders in the classic end record. */
  readonly zip64End?: boolean;
  /** With zip64End: the entry count written in the zip64 end record (default: the real count). */
  readonly count64?: bigint;
  /** Bytes before the archive (a self-extracting stub); offsets stay relative to the archive's start. */
  readonly prefix?: Uint8Array;
}

function zip64Extra(values: readonly bigint[]): Buffer {
  const extra = Buffer.alloc(4 + values.length * 8);
  extra.writeUInt16LE(0x0001, 0);
  extra.writeUInt16LE(values.length * 8, 2);
  values.forEach((value, i) => {
    extra.writeBigUInt64LE(value, 4 + i * 8);
  });
  return extra;
}

const bytesOf = (data: Uint8Array | string | undefined): Uint8Array =>
  typeof data === 'string' ? new TextEncoder().encode(data) : (data ?? new Uint8Array(0));

export function zip(entries: readonly ZipEntry[], options: ZipOptions = {}): Uint8Array {
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
    const size64 = entry.size64 ?? BigInt(size);
    const localExtra = entry.zip64
      ? zip64Extra([entry.localSize64 ?? size64, BigInt(packed.length)])
      : Buffer.alloc(0);
    const centralExtra = entry.zip64
      ? zip64Extra([size64, BigInt(packed.length), BigInt(offset)])
      : Buffer.alloc(0);
    if (entry.zip64) {
      local.writeUInt32LE(0xffffffff, 18);
      local.writeUInt32LE(0xffffffff, 22);
      local.writeUInt16LE(localExtra.length, 28);
    }
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
    if (entry.zip64) {
      central.writeUInt32LE(0xffffffff, 20);
      central.writeUInt32LE(0xffffffff, 24);
      central.writeUInt32LE(0xffffffff, 42);
      central.writeUInt16LE(centralExtra.length, 30);
    }
    locals.push(local, name, localExtra, packed);
    centrals.push(central, name, centralExtra);
    offset += local.length + name.length + localExtra.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  const zip64End: Buffer[] = [];
  if (options.zip64End) {
    const record = Buffer.alloc(56);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(44n, 4);
    record.writeUInt16LE(45, 12);
    record.writeUInt16LE(45, 14);
    record.writeBigUInt64LE(options.count64 ?? BigInt(entries.length), 24);
    record.writeBigUInt64LE(options.count64 ?? BigInt(entries.length), 32);
    record.writeBigUInt64LE(BigInt(cd.length), 40);
    record.writeBigUInt64LE(BigInt(offset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(offset + cd.length), 8);
    locator.writeUInt32LE(1, 16);
    zip64End.push(record, locator);
    end.writeUInt16LE(0xffff, 8);
    end.writeUInt16LE(0xffff, 10);
    end.writeUInt32LE(0xffffffff, 12);
    end.writeUInt32LE(0xffffffff, 16);
  }
  const prefix = Buffer.from(options.prefix ?? new Uint8Array(0));
  return new Uint8Array(Buffer.concat([prefix, ...locals, cd, ...zip64End, end]));
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
