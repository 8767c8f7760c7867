// `invariants:` in yare.yaml: shaped and checked at load like every expression (file:line:col, did you
// mean, name rules), carried on the compiled program, and evaluated by `checkInvariants` with a step budget.
import { describe, expect, it } from 'vitest';
import { checkInvariants } from '../../../src/core/yare/invariants.ts';
import { compileYaml, errorsOf, rulesOf } from '../../helpers/yare.ts';

const SCHEMA = `state_schema:
  keeper:
    debt: { type: int, default: 0 }
    names: { type: list, default: [] }
macros:
  broke: "@ state.keeper.debt < 0"
  twice: "@ inputs.n * 2"
events:
  borrow:
    inputs: { n: { type: int, default: 1 } }
    steps:
      - { action: mutate, var: state.keeper.debt, op: sub, value: "@ inputs.n" }
`;

describe('invariants at load', () => {
  it('compiles a map of name to condition onto the program, in order, with places', () => {
    const rules = rulesOf(`${SCHEMA}invariants:
  debt_never_negative: "@ state.keeper.debt >= 0"
  not_broke: "@ not macros.broke"
`);
    expect(rules.invariants.map((i) => i.name)).toEqual(['debt_never_negative', 'not_broke']);
    expect(rules.invariants[0]!.place).toEqual({ file: 'yare.yaml', line: 14, col: 24 });
    expect(rulesOf(SCHEMA).invariants).toEqual([]);
  });

  it('an unknown path is an error at its line and column, with a did-you-mean', () => {
    const errors = errorsOf(`${SCHEMA}invariants:
  debt_never_negative: "@ state.keeper.dept >= 0"
`);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.code).toBe('YARE_UNKNOWN_PATH');
    expect(errors[0]!.message).toContain('Did you mean `state.keeper.debt`?');
    expect(errors[0]!.place).toEqual({ file: 'yare.yaml', line: 14, col: 27 });
  });

  it('an unknown macro and an unknown function are errors with suggestions', () => {
    const errors = errorsOf(`${SCHEMA}invariants:
  a: "@ not macros.brok"
  b: "@ lenn(state.keeper.names) < 5"
`);
    expect(errors.map((e) => e.code)).toEqual(['YARE_UNKNOWN_MACRO', 'YARE_UNKNOWN_FUNCTION']);
    expect(errors[0]!.message).toContain('Did you mean `macros.broke`?');
    expect(errors[1]!.message).toContain('Did you mean `len`?');
    expect(errors[1]!.place).toMatchObject({ line: 15, col: 9 });
  });

  it('inputs, temp and dice have no place in an invariant', () => {
    const errors = errorsOf(`${SCHEMA}invariants:
  a: "@ inputs.n > 0"
  b: "@ temp.x > 0"
  c: "@ macros.twice > 0"
  d: "@ roll(1d6) > 0"
`);
    expect(errors.map((e) => [e.code, e.place?.line])).toEqual([
      ['YARE_UNKNOWN_PATH', 14],
      ['YARE_UNKNOWN_PATH', 15],
      ['YARE_UNKNOWN_INPUT', 16],
      ['YARE_BAD_SCHEMA', 17],
    ]);
    expect(errors[0]!.message).toContain('Paths start with state. or macros.');
    expect(errors[2]!.message).toContain('macros.twice reads inputs.n');
    expect(errors[3]!.message).toContain('rolls dice');
  });

  it('names must be identifiers; conditions must be @ expressions that parse; the section a mapping', () => {
    const errors = errorsOf(`${SCHEMA}invariants:
  debt-ok: "@ state.keeper.debt >= 0"
  plain: "state.keeper.debt >= 0"
  number: 3
  broken: "@ state.keeper.debt >="
`);
    expect(errors.map((e) => [e.code, e.place?.line])).toEqual([
      ['YARE_BAD_SCHEMA', 14],
      ['YARE_NOT_AN_EXPRESSION', 15],
      ['YARE_NOT_AN_EXPRESSION', 16],
      ['YARE_SYNTAX', 17],
    ]);
    expect(errors[0]!.message).toContain("Invariant name 'debt-ok' must be an identifier");
    expect(errors[1]!.message).toContain('plain text, which would always be true');
    expect(errorsOf(`${SCHEMA}invariants: [a, b]\n`).map((e) => e.message)).toEqual([
      expect.stringContaining('invariants must be a mapping of name: condition'),
    ]);
  });

  it('is a known top-level key: no unknown-key warning', () => {
    const { diagnostics } = compileYaml(`${SCHEMA}invariants:\n  a: "@ state.keeper.debt >= 0"\n`);
    expect(diagnostics).toEqual([]);
  });
});

describe('checkInvariants', () => {
  const rules = rulesOf(`${SCHEMA}invariants:
  debt_never_negative: "@ state.keeper.debt >= 0"
  not_broke: "@ not macros.broke"
  few_names: "@ len([n for n in state.keeper.names if n != '']) < 3"
  ratio: "@ 10 // (state.keeper.debt + 5) >= 0"
`);
  const state = (debt: number, names: string[] = []) => ({ keeper: { debt, names } });

  it('is empty when every invariant holds', () => {
    expect(checkInvariants(rules, state(0))).toEqual([]);
  });

  it('names each invariant whose condition is false, in declaration order, with its place', () => {
    const failures = checkInvariants(rules, state(-1, ['a', 'b', 'c']));
    expect(failures.map((f) => [f.invariant, f.kind])).toEqual([
      ['debt_never_negative', 'false'],
      ['not_broke', 'false'],
      ['few_names', 'false'],
    ]);
    expect(failures[0]!.message).toBe(
      "invariant 'debt_never_negative' does not hold: state.keeper.debt >= 0 is False",
    );
    expect(failures[0]!.place).toMatchObject({ line: 14, col: 24 });
  });

  it('an invariant that cannot be evaluated is an error failure with its code', () => {
    const failures = checkInvariants(rules, state(-5));
    expect(failures.at(-1)).toMatchObject({ invariant: 'ratio', kind: 'error', code: 'YARE_ZERO_DIVISION' });
  });

  it('shares one step budget: at the limit it passes, one step under it is a budget hit', () => {
    // The comprehension over three names counts one step per item (and one for the comprehension).
    const names = ['a', '', ''];
    const needed = (() => {
      for (let steps = 0; steps < 100; steps++) {
        if (checkInvariants(rules, state(0, names), { maxSteps: steps }).length === 0) return steps;
      }
      throw new Error('no budget was enough');
    })();
    expect(needed).toBeGreaterThan(0);
    expect(checkInvariants(rules, state(0, names), { maxSteps: needed })).toEqual([]);
    const short = checkInvariants(rules, state(0, names), { maxSteps: needed - 1 });
    expect(short.map((f) => [f.invariant, f.code])).toContainEqual(['few_names', 'YARE_STEP_LIMIT']);
  });
});

describe('invariants and lint', () => {
  it('a field or macro read only by an invariant counts as read', async () => {
    const { lintCartridge } = await import('../../../src/tools/authoring/lint/index.ts');
    const { loadCartridgeFromFiles } = await import('../../../src/adapters/files/index.ts');
    const yare = `state_schema:
  debt: { type: int, default: 0 }
macros:
  closed: "@ 1 > 2"
events:
  borrow:
    description: Borrow.
    steps:
      - { action: set, var: state.debt, value: -1 }
      - { action: note, message: "You borrow." }
`;
    const lint = (text: string) => {
      const loaded = loadCartridgeFromFiles(
        new Map([
          ['yare.yaml', text],
          ['bot_lore.md', '# Lore\n\nText.\n'],
        ]),
        'l',
      );
      if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
      return lintCartridge(loaded.cartridge).map((d) => d.code);
    };
    expect(lint(yare)).toEqual(expect.arrayContaining(['LINT_MACRO_UNUSED', 'LINT_FIELD_NEVER_READ']));
    const withInvariant = lint(`${yare}invariants:\n  solvent: "@ state.debt >= -10 or macros.closed"\n`);
    expect(withInvariant).not.toContain('LINT_MACRO_UNUSED');
    expect(withInvariant).not.toContain('LINT_FIELD_NEVER_READ');
  });
});

describe('invariants in the editor', () => {
  it('the top-level key is offered, and state paths complete inside a condition', async () => {
    const { builderCompletions } = await import('../../../src/tools/authoring/builder/completion.ts');
    const head = `${SCHEMA}invariants:\n  ok: "@ state.keeper.`;
    const text = `${head}debt >= 0"\n`;
    const inside = builderCompletions({
      file: 'yare.yaml',
      text,
      offset: head.length,
      rulesFiles: { 'yare.yaml': text },
    });
    expect(inside.items.map((i) => i.label)).toEqual(['debt', 'names']);
    const top = `${SCHEMA}inv`;
    const keys = builderCompletions({ file: 'yare.yaml', text: top, offset: top.length });
    expect(keys.items.map((i) => i.label)).toContain('invariants');
  });
});
