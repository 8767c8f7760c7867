// Turning a cartridge file's bytes into text: size cap first (before any work), strict UTF-8, one leading
// byte-order mark dropped, no control characters. Everything after this sees clean text.

import type { Diagnostic } from '../diagnostics.ts';
import { cartError, fileStart, placeInText } from './diagnostics.ts';

export type DecodeResult = { ok: true; text: string } | { ok: false; diagnostics: Diagnostic[] };

const BOM = '\uFEFF';
const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes one file. `content` is raw bytes (from disk or an archive) or text already decoded by a caller. */
export function decodeCartridgeFile(
  content: string | Uint8Array,
  file: string,
  maxBytes: number,
  describe: string,
): DecodeResult {
  const bytes = typeof content === 'string' ? undefined : content;
  const byteLength = bytes ? bytes.byteLength : utf8Length(content as string);
  if (byteLength > maxBytes) {
    return {
      ok: false,
      diagnostics: [
        cartError(
          'CART_FILE_TOO_LARGE',
          `${describe} is ${byteLength} bytes; the limit is ${maxBytes} bytes. Shorten it.`,
          fileStart(file),
        ),
      ],
    };
  }
  const decoded = unicodeText(content, file);
  if (!decoded.ok) return decoded;
  let text = decoded.text;
  if (text.startsWith(BOM)) text = text.slice(1);
  const control = firstControlCharacter(text);
  if (control !== -1) {
    return {
      ok: false,
      diagnostics: [
        cartError(
          'CART_CONTROL_CHARACTER',
          `Control character U+${hex4(text.charCodeAt(control))} is not allowed in cartridge text (only tab, line feed ` +
            'and carriage return are). Remove it; binary files cannot be cartridge files.',
          placeInText(text, control, file),
        ),
      ],
    };
  }
  return { ok: true, text };
}

/** Bytes decoded as strict UTF-8, or text checked for unpaired surrogates: valid Unicode either way. */
function unicodeText(content: string | Uint8Array, file: string): DecodeResult {
  if (typeof content !== 'string') {
    try {
      return { ok: true, text: strictDecoder.decode(content) };
    } catch {
      return { ok: false, diagnostics: [badEncoding(content, firstInvalidUtf8(content), file)] };
    }
  }
  const lone = firstLoneSurrogate(content);
  if (lone === -1) return { ok: true, text: content };
  return {
    ok: false,
    diagnostics: [
      cartError(
        'CART_BAD_ENCODING',
        'The text contains an unpaired UTF-16 surrogate, which is not valid Unicode. Save the file as UTF-8.',
        placeInText(content, lone, file),
      ),
    ],
  };
}

/** Index of the first C0 control character other than tab, LF and CR (or DEL), or -1. */
export function firstControlCharacter(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) return i;
  }
  return -1;
}

/** Length in Unicode code points: what an author counts as characters (and what the Python original counted). */
export function codePointLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

export function hex4(code: number): string {
  return code.toString(16).toUpperCase().padStart(4, '0');
}

function utf8Length(text: string): number {
  return encoder.encode(text).byteLength;
}

function badEncoding(bytes: Uint8Array, at: number, file: string): Diagnostic {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return cartError(
    'CART_BAD_ENCODING',
    `The file is not valid UTF-8 (byte 0x${(bytes[at] ?? 0).toString(16).padStart(2, '0')} at byte offset ${at}). ` +
      'Save it as UTF-8.',
    { file, line, col: at - lineStart + 1 },
  );
}

/** Byte offset of the first malformed UTF-8 sequence (RFC 3629: no overlongs, surrogates or > U+10FFFF). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined) return i;
      const [min, max] = k === 1 ? [lo, hi] : [0x80, 0xbf];
      if (c < min || c > max) return i;
    }
    i += need + 1;
  }
  return -1;
}

function firstLoneSurrogate(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
      return i;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return i;
  }
  return -1;
}
