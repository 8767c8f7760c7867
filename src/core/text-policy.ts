// One string policy for every layer: what text may be stored, what a name may contain, and the one
// sanitiser every text bound for a prompt goes through (sanitizeForPrompt). Both databases see the same rules, so SQLite and
// PostgreSQL can no longer disagree (PostgreSQL refuses NUL in text; a lone surrogate would become U+FFFD
// on the way in). Every pattern here is a character class or a bounded sequence: linear on any input. The
// chat-template tokens of every family are in special-tokens.ts, one table per family.

import { fullWidthBrackets, TEMPLATE_TOKEN } from './special-tokens.ts';

/** C0 and C1 controls and DEL, except tab, line feed and carriage return (prose keeps those). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
export const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
/** Bidirectional marks, embeddings, overrides and isolates ("Trojan Source" style reordering). */
export const BIDI_CHARS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
/** Unicode tag characters, invisible ASCII look-alikes used for "ASCII smuggling". */
export const TAG_CHARS = /[\u{E0000}-\u{E007F}]/gu;
/**
 * Characters that show nothing yet change what a model reads: zero-width space, word joiner and BOM, the
 * soft hyphen, the combining grapheme joiner, the invisible operators and the deprecated format controls
 * (U+2061–U+2064, U+206A–U+206F), the Hangul and Mongolian fillers, and the interlinear annotation marks. The
 * joiners (U+200C, U+200D) and the variation selectors are kept: scripts and emoji sequences need them.
 */
export const INVISIBLE_CHARS =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: U+034F is removed on its own, not as part of a letter
  /[\u00AD\u034F\u115F\u1160\u17B4\u17B5\u180E\u200B\u2060-\u2064\u206A-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB]/g;

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
 * cannot be stored, and any control, bidirectional, tag or invisible character (a name is one visible line).
 */
export function nameProblem(text: string): string | undefined {
  const stored = storableTextProblem(text);
  if (stored !== undefined) return stored;
  for (const [pattern, what] of [
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
    [/[\u0000-\u001F\u007F-\u009F]/g, 'a control character'],
    [BIDI_CHARS, 'a bidirectional control character'],
    [TAG_CHARS, 'a Unicode tag character'],
    [INVISIBLE_CHARS, 'an invisible character'],
  ] as const) {
    const found = firstMatch(pattern, text);
    if (found) return `contains ${what} (${codePointLabel(found[0])}) at offset ${found.index}`;
  }
  return undefined;
}

export type NormalisedName =
  | { readonly ok: true; readonly name: string }
  | { readonly ok: false; readonly message: string };

/**
 * A library name (a cartridge's) in its one stored form, or why it cannot be a name: refused for anything
 * nameProblem refuses (naming the character and its offset in the text as written), then trimmed and
 * NFKC-normalised (full-width `Ｌ` is `L`, a decomposed `é` the composed one). Look-alikes of another name
 * are src/core/names.ts's concern.
 */
export function normaliseName(raw: string): NormalisedName {
  const problem = nameProblem(raw);
  if (problem !== undefined) return { ok: false, message: `the name ${problem}` };
  const name = raw.trim().normalize('NFKC');
  if (name === '') return { ok: false, message: 'the name is empty (or only spaces)' };
  // NFKC can produce a character the policy refuses (a compatibility form of a control, say): checked again.
  const after = nameProblem(name);
  if (after !== undefined) return { ok: false, message: `the name, once normalised (NFKC), ${after}` };
  return { ok: true, name };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text from anyone but the engine made safe to put in a prompt: the one sanitiser for player input, the
 * story's history, model prose, persona fields, a chat front end's system and greeting messages and
 * imported card text. Control characters (tab and line breaks kept), bidirectional controls, Unicode tag
 * characters and invisible characters are removed (they hide or reorder text for a reader, not for a
 * model), and then the chat-template tokens of every family (special-tokens.ts) get full-width brackets, so they read the same to a person and are
 * no longer the tokens a template splits on (a token hidden by an invisible character is found too). A
 * lone surrogate becomes U+FFFD, so the result can be stored on any database. Idempotent; unchanged when
 * there is nothing to neutralise.
 */
export function sanitizeForPrompt(text: string): string {
  return text
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(CONTROL_CHARS, '')
    .replace(BIDI_CHARS, '')
    .replace(TAG_CHARS, '')
    .replace(INVISIBLE_CHARS, '')
    .replace(TEMPLATE_TOKEN, fullWidthBrackets);
}
