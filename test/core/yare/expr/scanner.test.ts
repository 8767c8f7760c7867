import { describe, expect, it } from 'vitest';
import { scan, type Token } from '../../../../src/core/yare/expr/scanner.ts';
import { MAX_DICE_COUNT, MAX_DICE_SIDES } from '../../../../src/core/yare/limits.ts';
import { yareErrorOf } from './helpers.ts';

function kinds(text: string): string[] {
  return scan(text).map((t) => t.kind);
}

function only(text: string): Token {
  const tokens = scan(text);
  expect(tokens).toHaveLength(2);
  return tokens[0]!;
}

describe('scanner: numbers', () => {
  it('reads ints and floats with offsets', () => {
    expect(scan('12 + 3.5')).toEqual([
      { kind: 'int', value: 12, start: 0, end: 2 },
      { kind: 'op', op: '+', start: 3, end: 4 },
      { kind: 'float', value: 3.5, start: 5, end: 8 },
      { kind: 'eof', start: 8, end: 8 },
    ]);
  });

  it.each([
    ['1e3', 1000],
    ['1E-2', 0.01],
    ['.5', 0.5],
    ['5.', 5],
    ['1_000.5', 1000.5],
    ['1e999', Number.POSITIVE_INFINITY],
  ])('reads the float %s', (text, value) => {
    expect(only(text)).toMatchObject({ kind: 'float', value });
  });

  it('reads underscores in ints and allows all-zero literals', () => {
    expect(only('1_000')).toMatchObject({ kind: 'int', value: 1000 });
    expect(only('00')).toMatchObject({ kind: 'int', value: 0 });
  });

  it('refuses leading zeros, hex, complex and malformed numbers', () => {
    expect(yareErrorOf(() => scan('007')).code).toBe('YARE_SYNTAX');
    expect(yareErrorOf(() => scan('0x1f')).code).toBe('YARE_UNSUPPORTED');
    expect(yareErrorOf(() => scan('3j')).code).toBe('YARE_UNSUPPORTED');
    expect(yareErrorOf(() => scan('1abc')).message).toContain("invalid number '1a'");
    expect(yareErrorOf(() => scan('1_')).code).toBe('YARE_SYNTAX');
    expect(yareErrorOf(() => scan('1e')).code).toBe('YARE_SYNTAX');
  });

  it('refuses an int literal past the largest exact integer', () => {
    expect(only(String(Number.MAX_SAFE_INTEGER))).toMatchObject({
      kind: 'int',
      value: Number.MAX_SAFE_INTEGER,
    });
    const e = yareErrorOf(() => scan(`x + ${Number.MAX_SAFE_INTEGER + 1}`));
    expect(e.code).toBe('YARE_OVERFLOW');
    expect(e.span).toEqual({ start: 4, end: 20 });
  });
});

describe('scanner: dice', () => {
  it('reads NdX with lower or upper case d', () => {
    expect(only('1d20')).toEqual({ kind: 'dice', count: 1, sides: 20, start: 0, end: 4 });
    expect(only('3D6')).toMatchObject({ kind: 'dice', count: 3, sides: 6 });
  });

  it('leaves dice inside strings as text (the original rewrote them there too)', () => {
    expect(only("'roll 2d6 now'")).toMatchObject({ kind: 'string', value: 'roll 2d6 now' });
    expect(only('"1d20"')).toMatchObject({ kind: 'string', value: '1d20' });
  });

  it('does not read dice glued to a name', () => {
    expect(yareErrorOf(() => scan('1d20x')).code).toBe('YARE_SYNTAX');
  });

  it('checks dice limits at the limit and just past it', () => {
    expect(only(`${MAX_DICE_COUNT}d6`)).toMatchObject({ count: MAX_DICE_COUNT });
    expect(yareErrorOf(() => scan(`${MAX_DICE_COUNT + 1}d6`)).code).toBe('YARE_DICE_LIMIT');
    expect(only(`1d${MAX_DICE_SIDES}`)).toMatchObject({ sides: MAX_DICE_SIDES });
    const e = yareErrorOf(() => scan(`roll(1d${MAX_DICE_SIDES + 1})`));
    expect(e.code).toBe('YARE_DICE_LIMIT');
    expect(e.span).toEqual({ start: 5, end: 12 });
    expect(yareErrorOf(() => scan('2d0')).code).toBe('YARE_BAD_DICE');
    expect(only('0d6')).toMatchObject({ count: 0, sides: 6 });
  });
});

describe('scanner: strings', () => {
  it.each([
    ["'a\\nb'", 'a\nb'],
    ["'it\\'s'", "it's"],
    ['"say \\"hi\\""', 'say "hi"'],
    ["'back\\\\slash'", 'back\\slash'],
    ["'\\t\\r\\a\\b\\f\\v\\0'", '\t\r\x07\b\f\v\0'],
    ["'\\x41\\u00e9\\U0001F600'", 'Aé😀'],
    ["'\\101'", 'A'],
    ["'\\q'", '\\q'],
    ["u'x'", 'x'],
    ['"it\'s"', "it's"],
  ])('reads %s', (text, value) => {
    expect(only(text)).toMatchObject({ kind: 'string', value });
  });

  it('refuses unterminated, triple-quoted, prefixed and f-strings', () => {
    const unterminated = yareErrorOf(() => scan("'abc"));
    expect(unterminated.code).toBe('YARE_SYNTAX');
    expect(unterminated.message).toContain('unterminated');
    expect(yareErrorOf(() => scan("'a\nb'")).code).toBe('YARE_SYNTAX');
    expect(yareErrorOf(() => scan("'''x'''")).code).toBe('YARE_UNSUPPORTED');
    expect(yareErrorOf(() => scan("f'{x}'")).message).toContain('f-strings');
    expect(yareErrorOf(() => scan("r'x'")).code).toBe('YARE_UNSUPPORTED');
    expect(yareErrorOf(() => scan("'\\xZZ'")).code).toBe('YARE_SYNTAX');
    expect(yareErrorOf(() => scan("'\\N{DASH}'")).code).toBe('YARE_UNSUPPORTED');
  });
});

describe('scanner: names, keywords, operators', () => {
  it('reads keywords, both literal spellings, and names', () => {
    expect(
      scan('not x and True or null in y').map((t) => (t.kind === 'keyword' ? t.keyword : t.kind)),
    ).toEqual(['not', 'name', 'and', 'True', 'or', 'null', 'in', 'name', 'eof']);
  });

  it('reads @ as a sigil glued to a name', () => {
    expect(scan('@state.x')[0]).toEqual({ kind: 'name', name: 'state', sigil: true, start: 0, end: 6 });
    expect(yareErrorOf(() => scan('@ state')).code).toBe('YARE_SYNTAX');
    expect(yareErrorOf(() => scan('1 @ 2')).code).toBe('YARE_SYNTAX');
    expect(yareErrorOf(() => scan('@true')).code).toBe('YARE_SYNTAX');
  });

  it('reads Unicode names, normalised like Python', () => {
    expect(only('santé')).toMatchObject({ kind: 'name', name: 'santé' });
    expect(only('ﬁre')).toMatchObject({ kind: 'name', name: 'fire' });
  });

  it('reads every YARE operator', () => {
    const ops = scan('+ - * / // % == != < <= > >= ( ) [ ] { } , : . =')
      .filter((t) => t.kind === 'op')
      .map((t) => (t.kind === 'op' ? t.op : ''));
    expect(ops).toEqual([
      '+',
      '-',
      '*',
      '/',
      '//',
      '%',
      '==',
      '!=',
      '<',
      '<=',
      '>',
      '>=',
      '(',
      ')',
      '[',
      ']',
      '{',
      '}',
      ',',
      ':',
      '.',
      '=',
    ]);
  });

  it('skips comments and any whitespace', () => {
    expect(kinds('1 +\n\t2 # the rest is a comment')).toEqual(['int', 'op', 'int', 'eof']);
  });

  it.each([
    ['a & b', 'YARE_UNSUPPORTED', 2],
    ['a | b', 'YARE_UNSUPPORTED', 2],
    ['a ^ b', 'YARE_UNSUPPORTED', 2],
    ['~a', 'YARE_UNSUPPORTED', 0],
    ['a << 1', 'YARE_UNSUPPORTED', 2],
    ['a >> 1', 'YARE_UNSUPPORTED', 2],
    ['a; b', 'YARE_UNSUPPORTED', 1],
    ['(x := 1)', 'YARE_UNSUPPORTED', 3],
    ['...', 'YARE_UNSUPPORTED', 0],
    ['`x`', 'YARE_SYNTAX', 0],
    ['!x', 'YARE_SYNTAX', 0],
    ['a $ b', 'YARE_SYNTAX', 2],
    ['a \\ b', 'YARE_SYNTAX', 2],
    ['a ? b', 'YARE_SYNTAX', 2],
  ])('refuses %s', (text, code, at) => {
    const e = yareErrorOf(() => scan(text));
    expect(e.code).toBe(code);
    expect(e.span?.start).toBe(at);
  });
});
