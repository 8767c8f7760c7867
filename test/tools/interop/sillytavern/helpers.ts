// Shared helpers of the SillyTavern tests: books written as SillyTavern World Info JSON, PNG encoding of
// cards (done here, by hand, so the tests never depend on the importer's own writer), and zips.

import { crc32, deflateRawSync } from 'node:zlib';
import { parseWorldInfoFile } from '../../../../src/core/lore/world-info-format.ts';
import type { ModelResponse } from '../../../../src/adapters/llm/types.ts';
import type { WorldInfoBook } from '../../../../src/core/lore/world-info-types.ts';

/** A book from SillyTavern-style entries (`key`, `order`, …), listed in order; uids 0, 1, 2, … */
export function book(
  entries: readonly Record<string, unknown>[],
  settings: Record<string, unknown> = {},
): WorldInfoBook {
  const dict: Record<string, unknown> = {};
  entries.forEach((entry, i) => {
    dict[String(i)] = { uid: i, comment: `e${i}`, ...entry };
  });
  const parsed = parseWorldInfoFile({ entries: dict, ...settings }, 'test book');
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.book;
}

export function chunk(type: string, data: Uint8Array, badCrc = false): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const body = Buffer.concat([head.subarray(4), data]);
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(badCrc ? (crc32(body) ^ 1) >>> 0 : crc32(body), 0);
  return Buffer.concat([head.subarray(0, 4), body, tail]);
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A 1×1 PNG with the given extra chunks before IEND. */
export function png(extra: readonly Buffer[] = []): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const idat = deflateRawSync(Buffer.from([0, 255, 0, 0]));
  // zlib wrapper around the raw deflate: header 0x78 0x01, adler32 of the data.
  const raw = Buffer.from([0, 255, 0, 0]);
  let a = 1;
  let b = 0;
  for (const x of raw) {
    a = (a + x) % 65521;
    b = (b + a) % 65521;
  }
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((b << 16) | a) >>> 0, 0);
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.concat([Buffer.from([0x78, 0x01]), idat, adler])),
    ...extra,
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export function textChunk(keyword: string, text: string): Buffer {
  return chunk(
    'tEXt',
    Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0]), Buffer.from(text, 'latin1')]),
  );
}

export function base64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
}

/** A stored (uncompressed) zip of the given files, written by hand. */
export function zip(files: Readonly<Record<string, string | Uint8Array>>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
    const nameBytes = Buffer.from(name, 'utf8');
    const sum = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt32LE(sum, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    locals.push(local, nameBytes, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0, 10);
    central.writeUInt32LE(sum, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(Object.keys(files).length, 8);
  eocd.writeUInt16LE(Object.keys(files).length, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, eocd]);
}

/** A fake model's plain-text answer (no tool calls). */
export function textResponse(text: string): ModelResponse {
  return {
    text,
    toolCalls: [],
    usage: { inputTokens: 1, outputTokens: 1 },
    finishReason: 'stop',
    modelId: 'fake',
  };
}
