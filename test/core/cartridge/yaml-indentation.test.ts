// YAML errors authors understand: a mis-indented line is reported at that line (not the one above, not
// thirteen times), with the indentation it should have, in plain words, the parser's wording as a detail.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseYamlSafely } from '../../../src/core/cartridge/index.ts';
import { findIndentationProblem } from '../../../src/core/cartridge/yaml-indentation.ts';
import { ROOT } from '../../apps/cli/helpers.ts';

const STEPS = `events:
  travel:
    steps:
      - action: set
        var: state.player.location
        value: "@ inputs.destination"
      - action: note
        message: "[SYSTEM LOG: The player walks.]"
`;

function errorsOf(text: string) {
  const parsed = parseYamlSafely(text, 'yare.yaml', { maxBytes: 1 << 20 });
  if (parsed.ok) throw new Error('expected a YAML error');
  return parsed.diagnostics;
}

const withLine = (n: number, change: (line: string) => string) =>
  STEPS.split('\n')
    .map((l, i) => (i === n - 1 ? change(l) : l))
    .join('\n');

describe('YAML indentation errors', () => {
  it('a dedented line in a step: one error, at that line, with the indentation it needs', () => {
    const errors = errorsOf(withLine(5, (l) => l.slice(2)));
    expect(errors).toHaveLength(1);
    expect(errors[0]!.place).toEqual({ file: 'yare.yaml', line: 5, col: 1 });
    expect(errors[0]!.message).toMatch(
      /^Wrong indentation: line 5 is in a list, but does not start with "- "\. Indent it 8 spaces/,
    );
    expect(errors[0]!.message).toMatch(/\(YAML: .+\)$/);
  });

  it('an over-indented line is reported on its own line, not the line above', () => {
    const errors = errorsOf(withLine(6, (l) => `    ${l}`));
    expect(errors).toHaveLength(1);
    expect(errors[0]!.place?.line).toBe(6);
    expect(errors[0]!.message).toContain('line 6 is indented 12 spaces, deeper than the line above');
    // Line 5 (`var:`) starts at 8 spaces; line 4 starts at its dash, 6.
    expect(errors[0]!.message).toContain('Indent it 8 spaces, like line 5;');
    expect(errors[0]!.message).toContain('(YAML: Nested mappings are not allowed in compact mappings)');
  });

  it('right under a "- key:" line, it names the key the line must line up with, not the dash', () => {
    const errors = errorsOf(withLine(5, (l) => `    ${l}`));
    expect(errors).toHaveLength(1);
    expect(errors[0]!.place?.line).toBe(5);
    expect(errors[0]!.message).toContain(`Indent it 8 spaces, like 'action' after the "- " on line 4;`);
  });

  it('a line that lines up with nothing names the indentation of its block', () => {
    const errors = errorsOf('a:\n  b: 1\n c: 2\n');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.place?.line).toBe(3);
    expect(errors[0]!.message).toContain('indented 1 space, which lines up with nothing above it');
  });

  it('hostile lines (long runs of spaces and colons) are scanned in linear time', () => {
    const long = 200_000;
    expect(findIndentationProblem(`a:\n  b${' '.repeat(long)}x\n`)).toBeUndefined();
    expect(findIndentationProblem(`a: 1\n${'x '.repeat(long / 2)}\n`)).toBeUndefined();
    expect(findIndentationProblem(`a:\n${' :'.repeat(long / 2)}\n`)).toBeUndefined();
    expect(findIndentationProblem(`${'- '.repeat(long / 2)}a\n`)).toBeUndefined();
  });

  it('a list item among keys', () => {
    expect(findIndentationProblem('a:\n  b: 1\n  - c\n')?.message).toContain(
      'starts a list item ("- ") among keys',
    );
  });

  it('other syntax errors are one error, in plain words, with the parser’s wording as a detail', () => {
    const errors = errorsOf('a: "unclosed\nb: 2\nc: [1, 2\nd: 3\n');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(
      /^A quoted text is not closed: add the closing quote\. \(YAML: Missing closing/,
    );
  });

  it('finds nothing wrong in valid files (multi-line text, block scalars, lists at their key’s column, anchors)', () => {
    const valid = [
      'a: some long\n  text folded\nb: 2\n',
      'a: |\n  line one\n    indented text\nb: 2\n',
      'a:\n- 1\n- 2\nb: 3\n',
      'list:\n  - &x\n    k: 1\n  - *x\n',
      'a: [1,\n  2]\nb: 3\n',
    ];
    for (const text of valid) expect(findIndentationProblem(text), text).toBeUndefined();
    const files = [
      'cartridges/lanternmere/yare.yaml',
      'cartridges/lanternmere/prompt_directives.yaml',
      'templates/minimal/yare.yaml',
      'templates/combat/yare.yaml',
      'templates/minimal/tests/basics.yaml',
      'templates/combat/tests/combat.yaml',
    ];
    for (const f of files)
      expect(findIndentationProblem(readFileSync(join(ROOT, f), 'utf8')), f).toBeUndefined();
  });
});
