// Every cartridge limit at the limit and just past it. (The directive caps are in directives.test.ts and
// the persona caps in persona.test.ts, next to the behaviour they bound.)
import { describe, expect, it } from 'vitest';
import {
  MAX_DIRECTIVES_FILE_BYTES,
  MAX_FIRST_MESSAGE_BYTES,
  MAX_LORE_BYTES,
  MAX_YAML_ALIASES,
  MAX_YAML_DEPTH,
  MAX_YAML_ERRORS_REPORTED,
  MAX_YAML_NODES,
  MAX_YARE_BYTES,
  parseYamlSafely,
} from '../../../src/core/cartridge/index.ts';
import { loadCartridgeFromFiles } from '../../../src/adapters/files/index.ts';
import { cartridgeFiles, codesOf, errorsOf, MINIMAL_YARE } from './helpers.ts';

/** A valid YAML file of exactly `bytes` bytes: the given start, then a comment padded to size. */
function yamlOfSize(start: string, bytes: number): string {
  const pad = bytes - start.length - 3; // "# " and the final newline
  return `${start}# ${'x'.repeat(pad)}\n`;
}

function textOfSize(bytes: number): string {
  return `${'Lore. '.repeat(Math.floor(bytes / 6))}${'.'.repeat(bytes % 6)}`;
}

describe('file sizes', () => {
  const cases: Array<[string, number, (bytes: number) => string]> = [
    ['yare.yaml', MAX_YARE_BYTES, (n) => yamlOfSize(MINIMAL_YARE, n)],
    ['prompt_directives.yaml', MAX_DIRECTIVES_FILE_BYTES, (n) => yamlOfSize('narrator: Be vivid.\n', n)],
    ['bot_lore.md', MAX_LORE_BYTES, textOfSize],
    ['first-message.md', MAX_FIRST_MESSAGE_BYTES, textOfSize],
  ];

  it.each(cases)('%s: %i bytes load, one more byte is refused', (name, limit, make) => {
    const atLimit = make(limit);
    expect(new TextEncoder().encode(atLimit).byteLength).toBe(limit);
    const ok = loadCartridgeFromFiles(cartridgeFiles({ [name]: atLimit }), 'sized');
    expect(errorsOf(ok)).toEqual([]);

    const past = loadCartridgeFromFiles(cartridgeFiles({ [name]: make(limit + 1) }), 'sized');
    expect(codesOf(errorsOf(past))).toEqual(['CART_FILE_TOO_LARGE']);
    expect(errorsOf(past)[0]?.message).toContain(`${limit} bytes`);
    expect(errorsOf(past)[0]?.place).toEqual({ file: name, line: 1, col: 1 });
  });

  it('counts bytes, not characters, for text given as a string', () => {
    const limit = MAX_FIRST_MESSAGE_BYTES;
    const threeByteChars = 'あ'.repeat(Math.floor(limit / 3) + 1); // just over the limit in UTF-8
    const r = loadCartridgeFromFiles(cartridgeFiles({ 'first-message.md': threeByteChars }), 'sized');
    expect(codesOf(errorsOf(r))).toEqual(['CART_FILE_TOO_LARGE']);
  });
});

describe('YAML structure', () => {
  const limits = { maxBytes: MAX_YARE_BYTES };

  it(`nesting: ${MAX_YAML_DEPTH} levels of flow collections parse, ${MAX_YAML_DEPTH + 1} are refused`, () => {
    const nest = (n: number) => `${'['.repeat(n)}1${']'.repeat(n)}\n`;
    expect(parseYamlSafely(nest(MAX_YAML_DEPTH), 'f.yaml', limits).ok).toBe(true);
    const past = parseYamlSafely(nest(MAX_YAML_DEPTH + 1), 'f.yaml', limits);
    expect(past.ok ? [] : codesOf(past.diagnostics)).toEqual(['CART_TOO_DEEP']);
  });

  it(`nesting: ${MAX_YAML_DEPTH} levels of block mappings parse, ${MAX_YAML_DEPTH + 1} are refused`, () => {
    const nest = (n: number) => `${Array.from({ length: n }, (_, i) => `${' '.repeat(i)}k:`).join('\n')} 1\n`;
    expect(parseYamlSafely(nest(MAX_YAML_DEPTH), 'f.yaml', limits).ok).toBe(true);
    const past = parseYamlSafely(nest(MAX_YAML_DEPTH + 1), 'f.yaml', limits);
    expect(past.ok ? [] : codesOf(past.diagnostics)).toEqual(['CART_TOO_DEEP']);
    expect(past.ok ? undefined : past.diagnostics[0]?.place?.line).toBe(MAX_YAML_DEPTH + 1);
  });

  it(`aliases: ${MAX_YAML_ALIASES} parse, ${MAX_YAML_ALIASES + 1} are refused`, () => {
    const withAliases = (n: number) => `a: &x 1\nb: [${Array.from({ length: n }, () => '*x').join(', ')}]\n`;
    expect(parseYamlSafely(withAliases(MAX_YAML_ALIASES), 'f.yaml', limits).ok).toBe(true);
    const past = parseYamlSafely(withAliases(MAX_YAML_ALIASES + 1), 'f.yaml', limits);
    expect(past.ok ? [] : codesOf(past.diagnostics)).toEqual(['CART_ALIAS_LIMIT']);
  });

  it(`values: ${MAX_YAML_NODES} parse, ${MAX_YAML_NODES + 1} are refused`, () => {
    // A list of n - 1 items is n values (the list itself counts).
    const list = (n: number) => `[${Array.from({ length: n - 1 }, () => '1').join(',')}]\n`;
    expect(parseYamlSafely(list(MAX_YAML_NODES), 'f.yaml', limits).ok).toBe(true);
    const past = parseYamlSafely(list(MAX_YAML_NODES + 1), 'f.yaml', limits);
    expect(past.ok ? [] : codesOf(past.diagnostics)).toEqual(['CART_TOO_MANY_NODES']);
  });

  it('values with aliases expanded: exactly the limit parses, one more is refused (small limit)', () => {
    // root list (1) + anchored list (1 + 3 items) + 2 aliases expanding to 4 values each = 13 values
    const text = '- &a [1, 2, 3]\n- *a\n- *a\n';
    expect(parseYamlSafely(text, 'f.yaml', { ...limits, maxNodes: 13 }).ok).toBe(true);
    const past = parseYamlSafely(text, 'f.yaml', { ...limits, maxNodes: 12 });
    expect(past.ok ? [] : codesOf(past.diagnostics)).toEqual(['CART_ALIAS_LIMIT']);
  });

  it(`errors listed per file: ${MAX_YAML_ERRORS_REPORTED} in full, more are summarised in one line`, () => {
    const withTags = (n: number) => Array.from({ length: n }, (_, i) => `k${i}: !bad ${i}`).join('\n');
    const at = parseYamlSafely(withTags(MAX_YAML_ERRORS_REPORTED), 'f.yaml', limits);
    expect(at.ok ? [] : codesOf(at.diagnostics)).toEqual(
      Array(MAX_YAML_ERRORS_REPORTED).fill('CART_UNKNOWN_TAG'),
    );
    const past = parseYamlSafely(withTags(MAX_YAML_ERRORS_REPORTED + 5), 'f.yaml', limits);
    const diagnostics = past.ok ? [] : past.diagnostics;
    expect(diagnostics).toHaveLength(MAX_YAML_ERRORS_REPORTED + 1);
    expect(diagnostics[MAX_YAML_ERRORS_REPORTED]?.message).toMatch(/^5 more YAML problems/);
  });
});
