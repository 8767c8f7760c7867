// One string policy for every layer: what text may be stored, what a name may contain, and
// the character classes the prompt sanitiser neutralises. Both databases see the same rules, so SQLite and
// PostgreSQL can no longer disagree (PostgreSQL refuses NUL in text; a lone surrogate would become U+FFFD
// on the way in). Every pattern here is a single character class: linear on any input.

/** C0 and C1 controls and DEL, except tab, line feed and carriage return (prose keeps those). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
export const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
/** Bidirectional marks, embeddings, overrides and isolates ("Trojan Source" style reordering). */
export const BIDI_CHARS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
/** Unicode tag characters, invisible ASCII look-alikes used for "ASCII smuggling". */
export const TAG_CHARS = /[\u{E0000}-\u{E007F}]/gu;
/**
 * Zero-width characters that hide text inside words. The joiners (U+200C, U+200D) are kept: scripts and
 * emoji sequences need them.
 */
export const ZERO_WIDTH_CHARS = /[\u200B\u2060\uFEFF]/g;

/** Any UTF-16 surrogate: a quick test before the pair-by-pair scan. */
const SURROGATE = /[\uD800-\uDFFF]/;

function codePointLabel(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

function firstMatch(pattern: RegExp, text: string): RegExpExecArray | null {
  pattern.lastIndex = 0;
  const found = pattern.exec(text);
  pattern.lastIndex = 0;
  return found;
}

/**
 * Why `text` cannot be stored, or undefined: a NUL character, or a lone surrogate (half of a UTF-16 pair,
 * which is not Unicode text at all).
 */
export function storableTextProblem(text: string): string | undefined {
  const nul = text.indexOf('\u0000');
  if (nul >= 0) return `contains a NUL character (U+0000) at offset ${nul}`;
  if (SURROGATE.test(text)) {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code < 0xd800 || code > 0xdfff) continue;
      const next = text.charCodeAt(i + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i += 1;
        continue;
      }
      return `contains a lone surrogate (U+${code.toString(16).toUpperCase()}) at offset ${i}`;
    }
  }
  return undefined;
}

/**
 * Why `text` cannot be a name (of a persona, session, save, cartridge, key label), or undefined: what
 * cannot be stored, and any control, bidirectional or tag character (a name is one visible line).
 */
export function nameProblem(text: string): string | undefined {
  const stored = storableTextProblem(text);
  if (stored !== undefined) return stored;
  for (const [pattern, what] of [
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
    [/[\u0000-\u001F\u007F-\u009F]/g, 'a control character'],
    [BIDI_CHARS, 'a bidirectional control character'],
    [TAG_CHARS, 'a Unicode tag character'],
  ] as const) {
    const found = firstMatch(pattern, text);
    if (found) return `contains ${what} (${codePointLabel(found[0])}) at offset ${found.index}`;
  }
  return undefined;
}
