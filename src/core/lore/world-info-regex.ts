// Regular-expression keys (`/pattern/flags`) come from strangers' lorebooks and run against player text
// every turn, so they run on RE2 (the `re2js` package: an automaton, linear in the text by construction,
// whatever the pattern) instead of JavaScript's backtracking engine. The policy:
//
// - the pattern is at most MAX_WI_REGEX_CHARS characters; flags are a subset of `gimsuy` (as in
//   SillyTavern); `g` and `y` are dropped (a key only asks "does it match"), `u` is how RE2 reads text
//   anyway;
// - what RE2 cannot run is refused with its reason: backreferences (`\1`, `\k<name>`), lookaround
//   (`(?=`, `(?!`, `(?<=`, `(?<!`), repeat counts over 1,000;
// - its automaton has at most MAX_WI_REGEX_INSTRUCTIONS instructions;
// - the text it runs against is cut to its newest MAX_WI_REGEX_TEXT_CHARS characters, and one activation
//   runs at most MAX_WI_REGEX_TESTS tests and MAX_WI_REGEX_WORK instructions × characters
//   (world-info-limits.ts), so a turn's regex work is bounded whatever the book holds.
// A refused pattern never matches (SillyTavern's rule for an invalid regex), and the import report and
// `mnesos lore` say why.

import { RE2JS } from 're2js';
import { MAX_WI_REGEX_CHARS, MAX_WI_REGEX_INSTRUCTIONS } from './world-info-limits.ts';

/** A compiled key: whether the text holds a match (linear in the text). */
export interface KeyPattern {
  test(text: string): boolean;
  /** Instructions of its automaton: a test costs at most about this × the text's length. */
  readonly size: number;
}

export type RegexKey =
  | { readonly kind: 'regex'; readonly regex: KeyPattern }
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'plain' };

const FLAG_CHARS = 'gimsuy';

/**
 * Parses a key as SillyTavern does (`parseRegexFromString`): `/…/flags` with flags from `gimsuy` and no
 * unescaped `/` inside; anything else is a plain key.
 */
export function parseRegexKey(key: string): RegexKey {
  const split = splitRegexKey(key);
  if (split === undefined) return { kind: 'plain' };
  const { body, flagText } = split;
  if (body.length > MAX_WI_REGEX_CHARS) {
    return {
      kind: 'refused',
      reason: `the pattern is ${body.length} characters; the limit is ${MAX_WI_REGEX_CHARS} (MAX_WI_REGEX_CHARS)`,
    };
  }
  const unsupported = unsupportedSyntax(body);
  if (unsupported !== undefined) return { kind: 'refused', reason: unsupported };
  let flags = 0;
  if (flagText.includes('i')) flags |= RE2JS.CASE_INSENSITIVE;
  if (flagText.includes('m')) flags |= RE2JS.MULTILINE;
  if (flagText.includes('s')) flags |= RE2JS.DOTALL;
  try {
    const compiled = RE2JS.compile(RE2JS.translateRegExp(body), flags);
    const size = programSize(compiled);
    if (size > MAX_WI_REGEX_INSTRUCTIONS)
      return {
        kind: 'refused',
        reason: `the pattern compiles to ${size} instructions; the limit is ${MAX_WI_REGEX_INSTRUCTIONS} (MAX_WI_REGEX_INSTRUCTIONS)`,
      };
    return { kind: 'regex', regex: { test: (text) => compiled.test(text), size } };
  } catch (error) {
    return { kind: 'refused', reason: refusal((error as Error).message) };
  }
}

/** A `/pattern/flags` key's pattern and flags, or undefined for a plain key (no compiling: cheap). */
export function splitRegexKey(key: string): { body: string; flagText: string } | undefined {
  if (key[0] !== '/') return undefined;
  const close = key.lastIndexOf('/');
  if (close < 2) return undefined;
  const flagText = key.slice(close + 1);
  for (const flag of flagText) if (!FLAG_CHARS.includes(flag)) return undefined;
  const body = key.slice(1, close);
  // An unescaped slash inside makes it a plain key (SillyTavern's rule).
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\') i++;
    else if (body[i] === '/') return undefined;
  }
  return { body, flagText };
}

const compiledKeys = new Map<string, RegexKey>();

/**
 * `parseRegexKey`, remembered for the newest REGEX_CACHE_KEYS keys: a book loaded again (another persona,
 * another process's cache entry) does not compile its keys again.
 */
export function cachedRegexKey(key: string): RegexKey {
  let parsed = compiledKeys.get(key);
  if (parsed !== undefined) {
    compiledKeys.delete(key);
  } else {
    parsed = parseRegexKey(key);
    if (compiledKeys.size >= REGEX_CACHE_KEYS) compiledKeys.delete(compiledKeys.keys().next().value!);
  }
  compiledKeys.set(key, parsed);
  return parsed;
}

const REGEX_CACHE_KEYS = 4_096;

/** The instructions of RE2's compiled program (re2js exposes it untyped). */
function programSize(compiled: RE2JS): number {
  const size: unknown = compiled.re2Input.prog?.numInst?.();
  if (typeof size !== 'number' || !Number.isFinite(size)) throw new Error('re2js: no program size');
  return size;
}

/**
 * Backreferences and lookaround, outside character classes: JavaScript syntax RE2 cannot run in linear
 * time (and would otherwise misread: `\\k<name>` is a literal to it).
 */
function unsupportedSyntax(pattern: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && ((next >= '1' && next <= '9') || next === 'k'))
        return `backreferences (\\${next} at ${i + 1}) cannot run in linear time and are not allowed`;
      i++;
    } else if (inClass) {
      if (ch === ']') inClass = false;
    } else if (ch === '[') inClass = true;
    else if (ch === '(') {
      for (const look of ['(?=', '(?!', '(?<=', '(?<!'])
        if (pattern.startsWith(look, i))
          return `lookahead and lookbehind (${look} at ${i + 1}) cannot run in linear time and are not allowed`;
    }
  }
  return undefined;
}

/** RE2's syntax error, in the words of the policy above. */
function refusal(message: string): string {
  return `not a pattern the linear-time matcher (RE2) accepts: ${message.replace(/^error parsing regexp: /, '')}`;
}
