// Scanner: expression text → tokens with offsets. Python's lexical rules for numbers, strings and
// names, plus two YARE additions: dice literals `2d6` (only outside string literals — the original's
// textual rewrite also fired inside strings, which was a bug) and `@` as a sigil before a name.

import { YareError } from '../errors.ts';
import type { Span } from './ast.ts';
import { checkDice } from './dice-notation.ts';

/** Words with a meaning in YARE. */
export type Keyword =
  | 'and'
  | 'or'
  | 'not'
  | 'in'
  | 'if'
  | 'else'
  | 'True'
  | 'False'
  | 'None'
  | 'true'
  | 'false'
  | 'null';

export type Operator =
  | '+'
  | '-'
  | '*'
  | '/'
  | '//'
  | '%'
  | '=='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | '('
  | ')'
  | '['
  | ']'
  | '{'
  | '}'
  | ','
  | ':'
  | '.'
  | '='
  | '**';

export type Token =
  | { readonly kind: 'int'; readonly value: number; readonly start: number; readonly end: number }
  | { readonly kind: 'float'; readonly value: number; readonly start: number; readonly end: number }
  | { readonly kind: 'string'; readonly value: string; readonly start: number; readonly end: number }
  | {
      readonly kind: 'dice';
      readonly count: number;
      readonly sides: number;
      readonly start: number;
      readonly end: number;
    }
  /** `sigil`: written `@name`. Python keywords YARE does not support are names too; the parser refuses them. */
  | {
      readonly kind: 'name';
      readonly name: string;
      readonly sigil: boolean;
      readonly start: number;
      readonly end: number;
    }
  | { readonly kind: 'keyword'; readonly keyword: Keyword; readonly start: number; readonly end: number }
  | { readonly kind: 'op'; readonly op: Operator; readonly start: number; readonly end: number }
  | { readonly kind: 'eof'; readonly start: number; readonly end: number };

const KEYWORDS: ReadonlySet<string> = new Set<Keyword>([
  'and',
  'or',
  'not',
  'in',
  'if',
  'else',
  'True',
  'False',
  'None',
  'true',
  'false',
  'null',
]);

export function isKeyword(word: string): word is Keyword {
  return KEYWORDS.has(word);
}

const IDENTIFIER = /[\p{ID_Start}_][\p{ID_Continue}]*/uy;
const ID_CONTINUE = /[\p{ID_Continue}]/u;
const DICE = /(\d+)[dD](\d+)/y;
const NUMBER = /(?:\d(?:_?\d)*)?(?:\.(?:\d(?:_?\d)*)?)?(?:[eE][+-]?\d(?:_?\d)*)?/y;
const NUMBER_PREFIX = /0[xXoObB]/y;

// Two-character operators first, so `//` is not read as two `/`.
const TWO_CHAR_OPS: ReadonlyMap<string, Operator> = new Map<string, Operator>([
  ['//', '//'],
  ['==', '=='],
  ['!=', '!='],
  ['<=', '<='],
  ['>=', '>='],
  ['**', '**'],
]);

const ONE_CHAR_OPS: ReadonlyMap<string, Operator> = new Map<string, Operator>([
  ['+', '+'],
  ['-', '-'],
  ['*', '*'],
  ['/', '/'],
  ['%', '%'],
  ['<', '<'],
  ['>', '>'],
  ['(', '('],
  [')', ')'],
  ['[', '['],
  [']', ']'],
  ['{', '{'],
  ['}', '}'],
  [',', ','],
  [':', ':'],
  ['.', '.'],
  ['=', '='],
]);

/** Operators of Python that YARE refuses, with the reason shown to the author. */
const UNSUPPORTED_OPS: ReadonlyMap<string, string> = new Map([
  ['<<', "the shift operator '<<' is not supported"],
  ['>>', "the shift operator '>>' is not supported"],
  [':=', "assignment expressions (':=') are not supported"],
  ['->', "'->' is not supported"],
  ['...', "'...' (Ellipsis) is not supported"],
  ['&', "the bitwise operator '&' is not supported; use 'and'"],
  ['|', "the bitwise operator '|' is not supported; use 'or'"],
  ['^', "the bitwise operator '^' is not supported"],
  ['~', "the bitwise operator '~' is not supported; use 'not' or '-'"],
  [';', "';' is not supported: an expression is a single expression"],
]);

const STRING_PREFIXES: ReadonlySet<string> = new Set(['r', 'u', 'b', 'f', 'br', 'rb', 'fr', 'rf']);

const SIMPLE_ESCAPES: ReadonlyMap<string, string> = new Map([
  ['\\', '\\'],
  ["'", "'"],
  ['"', '"'],
  ['n', '\n'],
  ['t', '\t'],
  ['r', '\r'],
  ['a', '\x07'],
  ['b', '\b'],
  ['f', '\f'],
  ['v', '\v'],
  ['\n', ''],
]);

function span(start: number, end: number): Span {
  return { start, end };
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v';
}

/** Tokenise `text`. The last token is always `eof`. Throws `YareError` with the offending span. */
export function scan(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === '#') {
      // A Python comment runs to the end of the line.
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    const token = scanToken(text, i);
    tokens.push(token);
    i = token.end;
  }
  tokens.push({ kind: 'eof', start: n, end: n });
  return tokens;
}

/** The token that starts at `i` (not a space or a comment). */
function scanToken(text: string, i: number): Token {
  const c = text[i]!;
  if (isDigit(c) || (c === '.' && isDigit(text[i + 1]))) return scanNumber(text, i);
  if (c === "'" || c === '"') return scanString(text, i, i);
  if (c === '@') return scanSigilName(text, i);
  IDENTIFIER.lastIndex = i;
  const word = IDENTIFIER.exec(text);
  if (word) return scanWord(text, i, word[0]);
  return scanOperator(text, i);
}

/** `@name`: a name written with the state sigil. */
function scanSigilName(text: string, start: number): Token {
  IDENTIFIER.lastIndex = start + 1;
  const m = IDENTIFIER.exec(text);
  if (!m || isKeyword(m[0])) {
    throw new YareError(
      'YARE_SYNTAX',
      "'@' must be written directly before a name, as in @state.hp",
      span(start, start + 1),
    );
  }
  return { kind: 'name', name: normaliseName(m[0]), sigil: true, start, end: IDENTIFIER.lastIndex };
}

/** A keyword, a name, or a string's prefix (only `u` is accepted) followed by the string. */
function scanWord(text: string, start: number, word: string): Token {
  const end = start + word.length;
  const next = text[end];
  if ((next === "'" || next === '"') && STRING_PREFIXES.has(word.toLowerCase())) {
    const prefix = word.toLowerCase();
    if (prefix !== 'u') {
      const what = prefix.includes('f') ? 'f-strings are' : `string prefix '${word}' is`;
      throw new YareError(
        'YARE_UNSUPPORTED',
        `${what} not supported; write a plain quoted string`,
        span(start, end),
      );
    }
    return scanString(text, end, start);
  }
  if (isKeyword(word)) return { kind: 'keyword', keyword: word, start, end };
  return { kind: 'name', name: normaliseName(word), sigil: false, start, end };
}

/** An operator of one or two characters; Python's operators this language lacks are refused by name. */
function scanOperator(text: string, i: number): Token {
  const c = text[i]!;
  const three = text.slice(i, i + 3);
  const two = text.slice(i, i + 2);
  const unsupported = UNSUPPORTED_OPS.get(three) ?? UNSUPPORTED_OPS.get(two) ?? UNSUPPORTED_OPS.get(c);
  if (unsupported !== undefined) {
    const len = UNSUPPORTED_OPS.has(three) ? 3 : UNSUPPORTED_OPS.has(two) ? 2 : 1;
    throw new YareError('YARE_UNSUPPORTED', unsupported, span(i, i + len));
  }
  const op2 = TWO_CHAR_OPS.get(two);
  if (op2 !== undefined) return { kind: 'op', op: op2, start: i, end: i + 2 };
  const op1 = ONE_CHAR_OPS.get(c);
  if (op1 !== undefined) return { kind: 'op', op: op1, start: i, end: i + 1 };
  throw unexpectedCharacter(text, i);
}

/** Python normalises identifiers to NFKC, so `ﬁ` and `fi` are the same name. */
function normaliseName(name: string): string {
  for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) > 0x7f) return name.normalize('NFKC');
  return name;
}

function unexpectedCharacter(text: string, i: number): YareError {
  const cp = text.codePointAt(i)!;
  const ch = String.fromCodePoint(cp);
  const where = span(i, i + ch.length);
  if (ch === '!')
    return new YareError('YARE_SYNTAX', "unexpected '!'; use 'not' for negation or '!=' to compare", where);
  if (ch === '`')
    return new YareError('YARE_SYNTAX', 'unexpected backtick (`); quote strings with \' or "', where);
  const shown = cp >= 0x21 && cp <= 0x7e ? `'${ch}'` : `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return new YareError('YARE_SYNTAX', `unexpected character ${shown}`, where);
}

function scanNumber(text: string, start: number): Token {
  NUMBER_PREFIX.lastIndex = start;
  if (NUMBER_PREFIX.test(text)) {
    throw new YareError(
      'YARE_UNSUPPORTED',
      'hexadecimal, octal and binary literals are not supported',
      span(start, start + 2),
    );
  }
  DICE.lastIndex = start;
  const dice = DICE.exec(text);
  if (dice && !continuesWord(text, DICE.lastIndex)) {
    const end = DICE.lastIndex;
    const count = Number(dice[1]);
    const sides = Number(dice[2]);
    checkDice(count, sides, span(start, end));
    return { kind: 'dice', count, sides, start, end };
  }
  NUMBER.lastIndex = start;
  const m = NUMBER.exec(text)!;
  const end = NUMBER.lastIndex;
  const raw = m[0];
  if (continuesWord(text, end)) {
    const next = text[end]!;
    const what =
      next === 'j' || next === 'J' ? 'complex numbers are not supported' : `invalid number '${raw}${next}'`;
    throw new YareError(
      next === 'j' || next === 'J' ? 'YARE_UNSUPPORTED' : 'YARE_SYNTAX',
      what,
      span(start, end + 1),
    );
  }
  const value = Number(raw.replaceAll('_', ''));
  if (/^[\d_]+$/.test(raw)) return intToken(raw, value, start, end);
  return { kind: 'float', value, start, end };
}

/** A whole-number literal, as Python reads it: no leading zeros; here also no more than the exact integers. */
function intToken(raw: string, value: number, start: number, end: number): Token {
  if (raw.length > 1 && raw[0] === '0' && /[1-9]/.test(raw)) {
    throw new YareError(
      'YARE_SYNTAX',
      `leading zeros are not allowed in '${raw}' (Python reads them as an error)`,
      span(start, end),
    );
  }
  if (!Number.isSafeInteger(value)) {
    throw new YareError(
      'YARE_OVERFLOW',
      `integer ${raw} is beyond the largest exact integer ${Number.MAX_SAFE_INTEGER}`,
      span(start, end),
    );
  }
  return { kind: 'int', value, start, end };
}

function continuesWord(text: string, i: number): boolean {
  const c = text[i];
  if (c === undefined) return false;
  if (c.charCodeAt(0) < 0x80) return /[A-Za-z0-9_]/.test(c);
  return ID_CONTINUE.test(String.fromCodePoint(text.codePointAt(i)!));
}

/** Scan a quoted string whose opening quote is at `quoteAt`; `start` includes any `u` prefix. */
function scanString(text: string, quoteAt: number, start: number): Token {
  const quote = text[quoteAt]!;
  if (text[quoteAt + 1] === quote && text[quoteAt + 2] === quote) {
    throw new YareError(
      'YARE_UNSUPPORTED',
      'triple-quoted strings are not supported',
      span(start, quoteAt + 3),
    );
  }
  let value = '';
  let i = quoteAt + 1;
  let chunk = i;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === quote) {
      value += text.slice(chunk, i);
      return { kind: 'string', value, start, end: i + 1 };
    }
    if (c === '\n' || c === '\r') throw lineBreakInString(quote, start, i);
    if (c !== '\\') {
      i++;
      continue;
    }
    value += text.slice(chunk, i);
    const esc = scanEscape(text, i);
    value += esc.text;
    i = esc.end;
    chunk = i;
  }
  throw new YareError('YARE_SYNTAX', `unterminated string: no closing ${quote}`, span(start, i));
}

/**
 * A raw line break inside a string literal. Expressions cannot span lines, so one there nearly always
 * comes from YAML: in a double-quoted YAML value (`value: "@ 'a\n' + 'b'"`) YAML itself turns `\n` into
 * a line break before the expression is read. The message says so and how to write it.
 */
function lineBreakInString(quote: string, start: number, at: number): YareError {
  return new YareError(
    'YARE_SYNTAX',
    `unterminated string: a line break before the closing ${quote}. If the value is a double-quoted YAML string, YAML has already turned \\n into a line break; write \\\\n there (YAML reads it as \\n), or quote the value with YAML single quotes ('@ ''a\\n'' + ''b''')`,
    span(start, at),
  );
}

function scanEscape(text: string, at: number): { text: string; end: number } {
  const c = text[at + 1];
  if (c === undefined) return { text: '\\', end: at + 1 };
  const simple = SIMPLE_ESCAPES.get(c);
  if (simple !== undefined) return { text: simple, end: at + 2 };
  if (c === '\r') return { text: '', end: text[at + 2] === '\n' ? at + 3 : at + 2 };
  if (c >= '0' && c <= '7') {
    let j = at + 1;
    while (j < at + 4 && text[j] !== undefined && text[j]! >= '0' && text[j]! <= '7') j++;
    return { text: String.fromCodePoint(Number.parseInt(text.slice(at + 1, j), 8)), end: j };
  }
  const hexLength = c === 'x' ? 2 : c === 'u' ? 4 : c === 'U' ? 8 : 0;
  if (hexLength > 0) {
    const hex = text.slice(at + 2, at + 2 + hexLength);
    const where = span(at, at + 2 + hex.length);
    if (hex.length !== hexLength || !/^[0-9a-fA-F]+$/.test(hex)) {
      throw new YareError(
        'YARE_SYNTAX',
        `bad escape '\\${c}${hex}': expected ${hexLength} hex digits`,
        where,
      );
    }
    const cp = Number.parseInt(hex, 16);
    if (cp > 0x10ffff) throw new YareError('YARE_SYNTAX', `escape '\\${c}${hex}' is beyond Unicode`, where);
    return { text: String.fromCodePoint(cp), end: at + 2 + hexLength };
  }
  if (c === 'N') {
    throw new YareError('YARE_UNSUPPORTED', "named escapes ('\\N{...}') are not supported", span(at, at + 2));
  }
  // Python keeps an unknown escape as written, backslash included.
  return { text: '\\', end: at + 1 };
}
