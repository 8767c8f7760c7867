// PNG (and APNG) chunks, read and written by hand: the signature, each chunk's length, type and CRC are
// checked, sizes and counts are capped, and nothing is decompressed. A character card lives in `tEXt`
// chunks with the keyword `chara` (V1/V2) or `ccv3` (V3): base64 of the card's UTF-8 JSON.

import { crc32 } from 'node:zlib';
import { ImportError } from './errors.ts';
import { MAX_CARD_CHUNK_BYTES, MAX_PNG_CHUNKS } from './limits.ts';

export const PNG_SIGNATURE = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface PngChunk {
  readonly type: string;
  /** Offset of the chunk's length field in the file. */
  readonly offset: number;
  readonly data: Uint8Array;
}

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && PNG_SIGNATURE.every((b, i) => bytes[i] === b);
}

/** Every chunk up to IEND, checked. */
export function readPngChunks(bytes: Uint8Array, file: string): PngChunk[] {
  if (!isPng(bytes)) throw new ImportError('IMPORT_BAD_PNG', file, 'not a PNG file (the signature is wrong)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks: PngChunk[] = [];
  let at = 8;
  for (;;) {
    if (chunks.length === MAX_PNG_CHUNKS)
      throw new ImportError(
        'IMPORT_BAD_PNG',
        `${file}: byte ${at}`,
        `more than ${MAX_PNG_CHUNKS} chunks (MAX_PNG_CHUNKS)`,
      );
    if (at + 12 > bytes.length) {
      throw new ImportError(
        'IMPORT_BAD_PNG',
        `${file}: byte ${at}`,
        'the file ends before the IEND chunk (truncated PNG)',
      );
    }
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const where = `${file}: chunk ${chunks.length + 1} ("${type.replace(/[^\x20-\x7e]/g, '?')}") at byte ${at}`;
    if (!/^[A-Za-z]{4}$/.test(type)) throw new ImportError('IMPORT_BAD_PNG', where, 'not a valid chunk type');
    if (length > 0x7fffffff || at + 12 + length > bytes.length)
      throw new ImportError('IMPORT_BAD_PNG', where, `its length ${length} runs past the end of the file`);
    const dataStart = at + 8;
    const stored = view.getUint32(dataStart + length);
    if (crc32(bytes.subarray(at + 4, dataStart + length)) !== stored)
      throw new ImportError('IMPORT_BAD_PNG', where, 'CRC mismatch (the file is damaged)');
    chunks.push({ type, offset: at, data: bytes.subarray(dataStart, dataStart + length) });
    at = dataStart + length + 4;
    if (type === 'IEND') return chunks;
  }
}

export interface TextChunk {
  readonly keyword: string;
  readonly text: string;
  readonly where: string;
}

/** The `tEXt` chunks (keyword, Latin-1 text); a malformed one is an error naming it. */
export function textChunks(chunks: readonly PngChunk[], file: string): TextChunk[] {
  const out: TextChunk[] = [];
  chunks.forEach((chunk, index) => {
    if (chunk.type !== 'tEXt') return;
    const where = `${file}: chunk ${index + 1} ("tEXt") at byte ${chunk.offset}`;
    const nul = chunk.data.indexOf(0);
    if (nul < 1 || nul > 79)
      throw new ImportError('IMPORT_BAD_PNG', where, 'a tEXt chunk needs a 1-79 byte keyword and a NUL');
    const keyword = latin1(chunk.data.subarray(0, nul));
    const isCard = /^(chara|ccv3)$/i.test(keyword);
    if (isCard && chunk.data.length - nul - 1 > MAX_CARD_CHUNK_BYTES) {
      throw new ImportError(
        'IMPORT_TOO_LARGE',
        `${where} "${keyword}"`,
        `${chunk.data.length - nul - 1} bytes; the limit is ${MAX_CARD_CHUNK_BYTES} (MAX_CARD_CHUNK_BYTES)`,
      );
    }
    out.push({
      keyword,
      text: isCard ? latin1(chunk.data.subarray(nul + 1)) : '',
      where: `${where} "${keyword}"`,
    });
  });
  return out;
}

function latin1(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return out;
}

function encodeChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** A `tEXt` chunk: keyword, NUL, Latin-1 text (base64 is ASCII). */
export function encodeTextChunk(keyword: string, text: string): Uint8Array {
  const data = new Uint8Array(keyword.length + 1 + text.length);
  for (let i = 0; i < keyword.length; i++) data[i] = keyword.charCodeAt(i) & 0xff;
  for (let i = 0; i < text.length; i++) data[keyword.length + 1 + i] = text.charCodeAt(i) & 0xff;
  return encodeChunk('tEXt', data);
}

/**
 * The PNG with its `chara`/`ccv3` text chunks replaced by `texts`, inserted just before IEND (as
 * SillyTavern writes them). Other chunks are kept byte for byte.
 */
export function withCardChunks(
  png: Uint8Array,
  file: string,
  texts: readonly { keyword: string; text: string }[],
): Uint8Array {
  const chunks = readPngChunks(png, file);
  const parts: Uint8Array[] = [PNG_SIGNATURE];
  for (const chunk of chunks) {
    const length = 12 + chunk.data.length;
    const raw = png.subarray(chunk.offset, chunk.offset + length);
    if (chunk.type === 'tEXt') {
      const nul = chunk.data.indexOf(0);
      const keyword = nul > 0 ? latin1(chunk.data.subarray(0, nul)) : '';
      if (/^(chara|ccv3)$/i.test(keyword)) continue;
    }
    if (chunk.type === 'IEND') for (const t of texts) parts.push(encodeTextChunk(t.keyword, t.text));
    parts.push(raw);
  }
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A 1×1 transparent PNG, for cards exported from a cartridge without an image. */
export function blankPng(): Uint8Array {
  const ihdr = new Uint8Array([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
  // zlib stream of one filtered row (filter 0, RGBA 0,0,0,0), stored.
  const idat = new Uint8Array([
    0x78, 0x01, 0x01, 0x05, 0x00, 0xfa, 0xff, 0, 0, 0, 0, 0, 0x00, 0x05, 0x00, 0x01,
  ]);
  const parts = [
    PNG_SIGNATURE,
    encodeChunk('IHDR', ihdr),
    encodeChunk('IDAT', idat),
    encodeChunk('IEND', new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
