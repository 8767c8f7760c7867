// Character-level checks for model text. Decision (docs/ledger.md): invisible and control characters are
// rejected, not stripped, so what is stored is exactly what the model sent and the model learns to stop.
// Text is NFC-normalised before it is stored, a deterministic rewrite that changes no visible character.

import { MAX_QUOTED_TEXT } from './limits.ts';

/**
 * Characters refused in every text field: C0 controls (tab included; newline is handled per field), DEL
 * and C1 controls, soft hyphen, the Arabic letter mark, the Mongolian vowel separator, zero-width
 * characters and directional marks (U+200B–U+200F), line/paragraph separators and bidirectional
 * embeddings/overrides (U+2028–U+202E), word joiner, invisible operators and directional isolates
 * (U+2060–U+206F), the byte-order mark, interlinear annotation, non-characters, Unicode tag characters
 * (U+E0000–U+E007F, "ASCII smuggling") and supplementary variation selectors (U+E0100–U+E01EF).
 */
const INVISIBLE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x0000, 0x0009],
  [0x000b, 0x001f],
  [0x007f, 0x009f],
  [0x00ad, 0x00ad],
  [0x061c, 0x061c],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x206f],
  [0xfeff, 0xfeff],
  [0xfff9, 0xfffb],
  [0xfffe, 0xffff],
  [0xe0000, 0xe007f],
  [0xe0100, 0xe01ef],
];

export function isInvisible(codePoint: number): boolean {
  for (const [lo, hi] of INVISIBLE_RANGES) if (codePoint >= lo && codePoint <= hi) return true;
  return false;
}

function firstInvisible(text: string): { codePoint: number; offset: number } | null {
  for (let i = 0; i < text.length; i++) {
    const codePoint = text.codePointAt(i)!;
    // Newline is judged per field (prose allows it); every other listed character is refused.
    if (codePoint !== 0x0a && isInvisible(codePoint)) return { codePoint, offset: i };
    if (codePoint > 0xffff) i++;
  }
  return null;
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one (no `u` flag). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export type TextProblem =
  | { readonly kind: 'control'; readonly codePoint: number; readonly offset: number }
  | { readonly kind: 'newline'; readonly offset: number }
  | { readonly kind: 'lone_surrogate' }
  | { readonly kind: 'blank' };

/** The first reason `text` may not be stored, or null. `multiline` allows `\n` (prose fields only). */
export function textProblem(text: string, multiline: boolean): TextProblem | null {
  // A lone surrogate is not Unicode text at all; it would not survive a UTF-8 round trip through storage.
  if (LONE_SURROGATE.test(text)) return { kind: 'lone_surrogate' };
  const invisible = firstInvisible(text);
  if (invisible !== null) return { kind: 'control', ...invisible };
  if (!multiline) {
    const newline = text.indexOf('\n');
    if (newline >= 0) return { kind: 'newline', offset: newline };
  }
  if (text.trim().length === 0) return { kind: 'blank' };
  return null;
}

export function describeTextProblem(problem: TextProblem): string {
  switch (problem.kind) {
    case 'control':
      return `contains the invisible or control character U+${problem.codePoint.toString(16).toUpperCase().padStart(4, '0')} at offset ${problem.offset}`;
    case 'newline':
      return `contains a line break at offset ${problem.offset} (one line only)`;
    case 'lone_surrogate':
      return 'is not well-formed Unicode (lone surrogate)';
    case 'blank':
      return 'is empty or only whitespace';
    default:
      return assertNever(problem);
  }
}

/** Model text quoted inside an error message: JSON-escaped and capped, so a message never carries raw input. */
export function quote(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (value === null || typeof value === 'number' || typeof value === 'boolean') text = String(value);
  else if (Array.isArray(value)) return 'an array';
  else return `a ${typeof value}`;
  const cut = text.length > MAX_QUOTED_TEXT ? `${text.slice(0, MAX_QUOTED_TEXT)}…` : text;
  // JSON.stringify escapes C0 controls and quotes; escaping the rest keeps bidi and zero-width marks visible.
  let out = '';
  for (const ch of JSON.stringify(cut)) {
    const codePoint = ch.codePointAt(0)!;
    out += isInvisible(codePoint) ? `\\u{${codePoint.toString(16)}}` : ch;
  }
  return out;
}

/**
 * Latin look-alikes from Cyrillic and Greek, the confusables that matter for names a model writes
 * (UTS #39 lists many more; NFKC folds none of these). Used only to detect a deceptive near-duplicate name.
 */
const CONFUSABLES: ReadonlyMap<string, string> = new Map([
  ['а', 'a'],
  ['в', 'b'],
  ['е', 'e'],
  ['ё', 'e'],
  ['к', 'k'],
  ['м', 'm'],
  ['н', 'h'],
  ['о', 'o'],
  ['р', 'p'],
  ['с', 'c'],
  ['т', 't'],
  ['у', 'y'],
  ['х', 'x'],
  ['ѕ', 's'],
  ['і', 'i'],
  ['ї', 'i'],
  ['ј', 'j'],
  ['һ', 'h'],
  ['ԁ', 'd'],
  ['ԛ', 'q'],
  ['ԝ', 'w'],
  ['α', 'a'],
  ['β', 'b'],
  ['ε', 'e'],
  ['η', 'n'],
  ['ι', 'i'],
  ['κ', 'k'],
  ['ν', 'v'],
  ['ο', 'o'],
  ['ρ', 'p'],
  ['τ', 't'],
  ['υ', 'u'],
  ['χ', 'x'],
  ['γ', 'y'],
  ['ӏ', 'l'],
  ['ɡ', 'g'],
  ['ı', 'i'],
  ['0', 'o'],
  ['1', 'l'],
]);

/** A comparison form of a name: NFKC, lower case, look-alikes folded to Latin, spaces and punctuation removed. */
export function nameSkeleton(name: string): string {
  let out = '';
  for (const ch of name.normalize('NFKC').toLowerCase()) {
    if (/[\s\p{P}]/u.test(ch)) continue;
    out += CONFUSABLES.get(ch) ?? ch;
  }
  return out;
}

/** NFC, lower case: the form two names must share to count as the same name written the same way. */
export function nameFold(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

export function assertNever(value: never): never {
  throw new Error(`unreachable: ${JSON.stringify(value)}`);
}
