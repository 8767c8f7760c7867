// Safe YAML: positions, stable codes for every refused construct, plain data without prototype pollution.
import { isAlias, parseDocument, visit } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  MAX_YAML_DEPTH,
  nodeAtPath,
  parseYamlSafely,
  placeAtPath,
  placeOf,
  toPlain,
} from '../../../src/core/cartridge/index.ts';
import { where } from './helpers.ts';

const LIMITS = { maxBytes: 64 * 1024 };

function refused(text: string, limits: Parameters<typeof parseYamlSafely>[2] = LIMITS) {
  const r = parseYamlSafely(text, 'f.yaml', limits);
  if (r.ok) throw new Error(`expected refusal of:\n${text.slice(0, 200)}`);
  return r.diagnostics;
}

function accepted(text: string) {
  const r = parseYamlSafely(text, 'f.yaml', LIMITS);
  if (!r.ok) throw new Error(r.diagnostics.map((d) => `${where(d)} ${d.code} ${d.message}`).join('\n'));
  return r;
}

const BILLION_LAUGHS = `a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
`;

describe('parseYamlSafely: accepted documents', () => {
  it('parses ordinary YAML and keeps positions', () => {
    const r = accepted('version: "1.0"\nevents:\n  strike:\n    steps: []\n');
    expect(toPlain(r.doc)).toEqual({ version: '1.0', events: { strike: { steps: [] } } });
    expect(placeAtPath(r.doc, ['events', 'strike'], 'f.yaml', r.lineCounter, 'key')).toEqual({
      file: 'f.yaml',
      line: 3,
      col: 3,
    });
    expect(placeAtPath(r.doc, ['events', 'strike', 'steps'], 'f.yaml', r.lineCounter)).toEqual({
      file: 'f.yaml',
      line: 4,
      col: 12,
    });
  });

  it('places a missing path at its deepest existing parent', () => {
    const r = accepted('a:\n  b: 1\n');
    const place = placeAtPath(r.doc, ['a', 'nope', 'deeper'], 'f.yaml', r.lineCounter);
    expect(place).toEqual({ file: 'f.yaml', line: 2, col: 3 });
    expect(nodeAtPath(r.doc, ['a', 'b'])).toBeDefined();
  });

  it('places by offset too', () => {
    const r = accepted('a: 1\nbb: 2\n');
    expect(placeOf(8, 'f.yaml', r.lineCounter)).toEqual({ file: 'f.yaml', line: 2, col: 4 });
  });

  it('treats an empty file and a comment-only file as an empty document', () => {
    expect(toPlain(accepted('').doc)).toBeNull();
    expect(toPlain(accepted('# nothing here\n').doc)).toBeNull();
  });

  it('keeps YAML 1.2 core types: dates stay text, yes/no stay text, True is a boolean', () => {
    const r = accepted('d: 2001-12-14\ny: yes\nt: True\nn: ~\nf: 1.5\nh: 0x1F\n');
    expect(toPlain(r.doc)).toEqual({ d: '2001-12-14', y: 'yes', t: true, n: null, f: 1.5, h: 31 });
  });

  it('allows the core tags (!!str, !!int) and quoted huge numbers', () => {
    const r = accepted('a: !!str 12\nb: !!int "7"\nc: "123456789012345678901234567890"\n');
    expect(toPlain(r.doc)).toEqual({ a: '12', b: 7, c: '123456789012345678901234567890' });
  });

  it('expands aliases into copies so the document handed on has no alias nodes', () => {
    const r = accepted('base: &b {hp: 10}\ncopy: *b\nlist: [&x 1, *x]\n');
    let aliases = 0;
    visit(r.doc, { Alias: () => void aliases++ });
    expect(aliases).toBe(0);
    const plain = toPlain(r.doc) as Record<string, Record<string, unknown>>;
    expect(plain).toEqual({ base: { hp: 10 }, copy: { hp: 10 }, list: [1, 1] });
    expect(plain.copy).not.toBe(plain.base);
  });

  it('resolves an alias to the last anchor of that name before it (YAML order)', () => {
    const r = accepted('a: &x 1\nb: &y [*x]\nc: &x 2\nd: *y\ne: *x\n');
    expect(toPlain(r.doc)).toEqual({ a: 1, b: [1], c: 2, d: [1], e: 2 });
  });

  it('strips a byte-order mark', () => {
    expect(toPlain(accepted('\uFEFFa: 1\n').doc)).toEqual({ a: 1 });
  });
});

describe('parseYamlSafely: refused documents, with code and file:line:col', () => {
  it('syntax error', () => {
    const [d] = refused('a: [1, 2\nb: 3\n');
    expect(d?.code).toBe('CART_YAML_SYNTAX');
    expect(d?.place?.file).toBe('f.yaml');
    expect(d?.message).toMatch(/YAML syntax|indentation/);
  });

  it('bad indentation', () => {
    const [d] = refused('a:\n  b: 1\n c: 2\n');
    expect(d?.code).toBe('CART_YAML_SYNTAX');
    expect(where(d)).toBe('f.yaml:3:1');
    expect(d?.message).toMatch(/indentation/);
  });

  it('tabs as indentation', () => {
    const [d] = refused('a:\n\tb: 1\n');
    expect(d?.code).toBe('CART_YAML_SYNTAX');
    expect(d?.message).toMatch(/spaces/);
  });

  it('duplicate key, at the second occurrence', () => {
    const [d] = refused('a: 1\nb: 2\na: 3\n');
    expect(d?.code).toBe('CART_DUPLICATE_KEY');
    expect(where(d)).toBe('f.yaml:3:1');
    expect(d?.message).toContain('"a"');
  });

  it('duplicate key in a flow mapping, and keys that differ only in type (1 and "1")', () => {
    expect(refused('x: {a: 1, a: 2}\n')[0]?.code).toBe('CART_DUPLICATE_KEY');
    const [d] = refused('1: a\n"1": b\n');
    expect(d?.code).toBe('CART_DUPLICATE_KEY');
    expect(where(d)).toBe('f.yaml:2:1');
  });

  it.each([
    ['!!js/function', 'a: !!js/function "function () { return 1 }"\n'],
    ['!!python/object', 'a: !!python/object:os.system ls\n'],
    ['a local tag', 'a: !custom 1\n'],
    ['!!binary', 'a: !!binary aGVsbG8=\n'],
    ['!!timestamp', 'a: !!timestamp 2001-12-14\n'],
    ['!!set', 'a: !!set {x, y}\n'],
    ['!!omap', 'a: !!omap [x: 1]\n'],
  ])('unknown or non-core tag %s', (_name, text) => {
    const diagnostics = refused(text);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]?.code).toBe('CART_UNKNOWN_TAG');
    expect(where(diagnostics[0])).toMatch(/^f\.yaml:1:\d+$/);
  });

  it.each([
    ['.inf', 'a: .inf\n'],
    ['-.Inf', 'a: -.Inf\n'],
    ['.nan', 'a: .NaN\n'],
    ['1e400', 'a: 1e400\n'],
  ])('non-finite number %s', (_name, text) => {
    const [d] = refused(text);
    expect(d?.code).toBe('CART_NON_FINITE');
    expect(where(d)).toBe('f.yaml:1:4');
  });

  it('integers beyond the safe range', () => {
    const [d] = refused('a: 123456789012345678901234567890\n');
    expect(d?.code).toBe('CART_UNSAFE_INTEGER');
    expect(refused('a: 9007199254740992\n')[0]?.code).toBe('CART_UNSAFE_INTEGER');
    expect(toPlain(accepted('a: 9007199254740991\n').doc)).toEqual({ a: Number.MAX_SAFE_INTEGER });
  });

  it('multiple documents', () => {
    const [d] = refused('a: 1\n---\nb: 2\n');
    expect(d?.code).toBe('CART_MULTIPLE_DOCUMENTS');
    expect(d?.place?.line).toBe(2);
  });

  it('%YAML and %TAG directives (they could switch to YAML 1.1 merges and types)', () => {
    expect(refused('%YAML 1.1\n---\na: 1\n')[0]?.code).toBe('CART_YAML_DIRECTIVE');
    expect(refused('%TAG !e! tag:example.com,2000:\n---\na: !e!x 1\n')[0]?.code).toBe('CART_YAML_DIRECTIVE');
  });

  it('merge keys `<<` are refused, never merged', () => {
    const [d] = refused('base: &b {x: 1}\nc:\n  <<: *b\n');
    expect(d?.code).toBe('CART_FORBIDDEN_KEY');
    expect(where(d)).toBe('f.yaml:3:3');
  });

  it('a __proto__ key is refused, and nothing is polluted', () => {
    const [d] = refused('__proto__: {polluted: 1}\n');
    expect(d?.code).toBe('CART_FORBIDDEN_KEY');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const nested = refused('a:\n  b:\n    __proto__:\n      polluted: 1\n');
    expect(where(nested[0])).toBe('f.yaml:3:5');
  });

  it('complex keys and empty keys', () => {
    expect(refused('? [a, b]\n: 1\n')[0]?.code).toBe('CART_BAD_KEY');
    expect(refused('? \n: 1\n')[0]?.code).toBe('CART_BAD_KEY');
    expect(refused('"": 1\n')[0]?.code).toBe('CART_BAD_KEY');
  });

  it('an alias without an anchor before it', () => {
    const [d] = refused('a: *nowhere\n');
    expect(d?.code).toBe('CART_YAML_SYNTAX');
    expect(d?.message).toContain('*nowhere');
  });

  it('a recursive alias is a cycle', () => {
    const [d] = refused('a: &a [1, *a]\n');
    expect(d?.code).toBe('CART_ALIAS_CYCLE');
    expect(where(d)).toBe('f.yaml:1:11');
  });

  it('the billion-laughs alias bomb is refused without being expanded', () => {
    const [d] = refused(BILLION_LAUGHS);
    expect(d?.code).toBe('CART_ALIAS_LIMIT');
    expect(d?.message).toMatch(/alias bomb/);
  });

  it('10,000 nested flow sequences', () => {
    const [d] = refused(`${'['.repeat(10_000)}${']'.repeat(10_000)}\n`);
    expect(d?.code).toBe('CART_TOO_DEEP');
    expect(where(d)).toBe(`f.yaml:1:${MAX_YAML_DEPTH + 1}`);
  });

  it('10,000 nested block sequences on one line, and 2,000 nested mappings', () => {
    expect(refused(`${'- '.repeat(10_000)}x\n`)[0]?.code).toBe('CART_TOO_DEEP');
    const mappings = Array.from({ length: 2_000 }, (_, i) => `${' '.repeat(i)}a:`).join('\n');
    expect(refused(`${mappings} 1\n`, { maxBytes: 4 * 1024 * 1024 })[0]?.code).toBe('CART_TOO_DEEP');
  });

  it('an alias whose anchor is deep counts that depth where it is used', () => {
    const deep = `a: &d ${'['.repeat(3)}1${']'.repeat(3)}\nb: [[*d]]\n`;
    // b's own nesting is 3 (mapping, list, list) and the anchor adds 3 more: 6 levels.
    expect(parseYamlSafely(deep, 'f.yaml', { ...LIMITS, maxDepth: 6 }).ok).toBe(true);
    const [d] = refused(deep, { ...LIMITS, maxDepth: 5 });
    expect(d?.code).toBe('CART_TOO_DEEP');
    expect(where(d)).toBe('f.yaml:2:6');
  });

  it('NUL bytes, raw and escaped', () => {
    const [raw] = refused('a: x\u0000y\n');
    expect(raw?.code).toBe('CART_CONTROL_CHARACTER');
    expect(where(raw)).toBe('f.yaml:1:5');
    expect(raw?.message).toContain('U+0000');
    const [escaped] = refused('a: "x\\0y"\n');
    expect(escaped?.code).toBe('CART_CONTROL_CHARACTER');
    expect(where(escaped)).toBe('f.yaml:1:4');
  });

  it('a file over the byte limit, before parsing', () => {
    const [d] = refused('a: 1\n'.repeat(100), { maxBytes: 499 });
    expect(d?.code).toBe('CART_FILE_TOO_LARGE');
    expect(d?.message).toContain('499');
  });
});

describe('toPlain', () => {
  it('makes null-prototype objects: a __proto__ key is an own property that pollutes nothing', () => {
    // toPlain is also safe on a document that parseYamlSafely would refuse.
    const doc = parseDocument('__proto__: {polluted: yes}\nconstructor: {prototype: {x: 1}}\n');
    const plain = toPlain(doc) as Record<string, unknown>;
    expect(Object.getPrototypeOf(plain)).toBeNull();
    expect(Object.hasOwn(plain, '__proto__')).toBe(true);
    expect((Reflect.get(plain, '__proto__') as Record<string, unknown>).polluted).toBe('yes');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(plain.constructor)).toBeNull();
  });

  it('refuses a cyclic document by throwing instead of looping', () => {
    const doc = parseDocument('a: &a [1, *a]\n');
    expect(() => toPlain(doc)).toThrow(/itself/);
  });

  it('refuses an alias bomb by throwing at the node budget', () => {
    const doc = parseDocument(BILLION_LAUGHS);
    expect(() => toPlain(doc)).toThrow(/nodes/);
    let aliases = 0;
    visit(doc, { Node: (_k, n) => void (isAlias(n) && aliases++) });
    expect(aliases).toBeGreaterThan(0);
  });
});
