// Macros with parameters (issue 38 item 3): called as macros.NAME(args), checked at load like every call
// (arity, what the body reads, cycles), pure (parameters, state. and pure macros; no inputs., temp. or
// dice), bounded (each call is a step; no recursion), and dispatching on a kind without copying.

import { describe, expect, it } from 'vitest';
import { runEvent } from '../../../src/core/yare/interpreter.ts';
import { evaluateExpression } from '../../../src/core/yare/evaluate-text.ts';
import { MAX_MACRO_PARAMS, MAX_STEPS_PER_RUN } from '../../../src/core/yare/limits.ts';
import { errorsOf, rulesOf } from '../../helpers/yare.ts';

const RULES = `state_schema:
  things:
    type: dict
    default:
      cup: { kind: dish, name: cup, dirty: true }
      plate: { kind: dish, name: plate, dirty: false }
      soap: { kind: soap, name: dish soap }
      box: { kind: box, name: box }
  out: { type: string, default: "" }
macros:
  article: "@ 'an ' if state.out == 'vowel' else 'a '"
  describe:
    params: [t]
    by: "@ t.kind"
    cases:
      dish: "@ ('a dirty ' if t.dirty else 'a clean ') + t.name"
      "soap, powder": "@ 'a bottle of ' + t.name"
    value: "@ 'a ' + t.name"
  listing:
    params: [names]
    value: "@ join([macros.describe(state.things[n]) for n in names], ', ', ' and ')"
  twice:
    params: [x]
    value: "@ x * 2"
events:
  look:
    inputs:
      names: { type: list }
    steps:
      - action: set
        var: state.out
        value: "@ macros.listing(inputs.names)"
`;

describe('calling a macro with parameters', () => {
  it('dispatches on the kind: each case, a case naming several kinds, and value: for the rest', () => {
    const rules = rulesOf(RULES);
    const r = runEvent(rules, rules.initialState, 'look', { names: ['cup', 'plate', 'soap', 'box'] });
    expect(r.ok && r.state.out).toBe('a dirty cup, a clean plate, a bottle of dish soap and a box');
  });

  it('evaluates in eval too, and each call counts one step', () => {
    const rules = rulesOf(RULES);
    const result = evaluateExpression(rules, rules.initialState, 'macros.twice(macros.twice(3))');
    expect(result).toMatchObject({ ok: true, value: 12 });
    const r = runEvent(rules, rules.initialState, 'look', { names: ['cup', 'box'] });
    // One set step, the listing call, one comprehension step and one describe call per name.
    expect(r.stepsUsed).toBe(1 + 1 + 2 * 2);
  });

  it('a kind no case names, with no value:, is an error naming the kind and the cases', () => {
    const rules = rulesOf(`state_schema:
  out: { type: string, default: "" }
macros:
  sound:
    params: [kind]
    by: "@ kind"
    cases:
      cat: "@ 'meow'"
events:
  e:
    inputs:
      kind: { type: string }
    steps:
      - { action: set, var: state.out, value: "@ macros.sound(inputs.kind)" }
`);
    expect(runEvent(rules, rules.initialState, 'e', { kind: 'cat' })).toMatchObject({
      ok: true,
      state: { out: 'meow' },
    });
    const r = runEvent(rules, rules.initialState, 'e', { kind: 'dog' });
    expect(!r.ok && r.error.code).toBe('YARE_BAD_VALUE');
    expect(!r.ok && r.error.message).toContain('macros.sound: no case for the kind dog (cases: cat)');
    // Placed at the call, in the step that made it.
    expect(!r.ok && r.error.place?.line).toBe(14);
  });

  it('an error inside a body carries the body’s place', () => {
    const rules = rulesOf(`state_schema:
  n: { type: int, default: 0 }
macros:
  inverse:
    params: [x]
    value: "@ 1 // x"
events:
  e:
    steps:
      - { action: set, var: state.n, value: "@ macros.inverse(0)" }
`);
    const r = runEvent(rules, rules.initialState, 'e', {});
    expect(!r.ok && r.error).toMatchObject({ code: 'YARE_ZERO_DIVISION', place: { line: 6 } });
  });

  it('nested calls share the run’s step budget', () => {
    const rules = rulesOf(`state_schema:
  n: { type: int, default: 0 }
macros:
  count:
    params: [l]
    value: "@ len([1 for a in l for b in l])"
events:
  e:
    steps:
      - { action: set, var: state.n, value: "@ sum([macros.count(range(100)) for i in range(2)])" }
`);
    const r = runEvent(rules, rules.initialState, 'e', {});
    // 2 × (1 call + 100 × 101 steps) would pass the budget; the comprehension inside also caps its result.
    expect(!r.ok && ['YARE_STEP_LIMIT', 'YARE_CONTAINER_LIMIT']).toContain(!r.ok && r.error.code);
    expect(MAX_STEPS_PER_RUN).toBeLessThan(2 * 100 * 101);
  });
});

describe('checked at load', () => {
  const base = (macros: string, use = '"@ macros.twice(1)"') => `state_schema:
  n: { type: int, default: 0 }
macros:
${macros}
events:
  e:
    inputs:
      x: { type: int, default: 1 }
    steps:
      - { action: set, var: state.n, value: ${use} }
`;
  const twice = '  twice:\n    params: [x]\n    value: "@ x * 2"';

  it('the number of arguments, a plain macro called, a macro with parameters read bare', () => {
    expect(errorsOf(base(twice, '"@ macros.twice(1, 2)"'))[0]!.message).toContain(
      'macros.twice(x) takes 1 argument, got 2',
    );
    expect(errorsOf(base(twice, '"@ macros.twice"'))[0]!.message).toContain('call it as macros.twice(x)');
    expect(errorsOf(base(`${twice}\n  one: "@ 1"`, '"@ macros.one()"'))[0]!.message).toContain(
      'macros.one takes no arguments',
    );
    expect(errorsOf(base(twice, '"@ macros.twise(1)"'))[0]!.message).toContain(
      'Did you mean `macros.twice`?',
    );
  });

  it('a body reads only its parameters, state. and macros: inputs., temp. and other names are refused', () => {
    for (const body of ['inputs.x', 'temp.y', 'z']) {
      const errors = errorsOf(base(`  twice:\n    params: [x]\n    value: "@ ${body}"`));
      expect(errors[0]!.message).toMatch(/^macros\.twice \(a macro with parameters\): Unknown name/);
    }
    expect(errorsOf(base('  twice:\n    params: [x]\n    value: "@ state.nn"'))[0]!.message).toContain(
      'Did you mean `state.n`?',
    );
  });

  it('pure: no dice in the body, and no impure macro used (reading inputs. or rolling)', () => {
    expect(errorsOf(base('  twice:\n    params: [x]\n    value: "@ roll(1d6) + x"'))[0]!.message).toContain(
      'it cannot call roll()',
    );
    expect(errorsOf(base('  twice:\n    params: [x]\n    value: "@ choice([x])"'))[0]!.message).toContain(
      'cannot call choice()',
    );
    const impure = base(
      '  twice:\n    params: [x]\n    value: "@ x + macros.bonus"\n  bonus: "@ macros.dice"\n  dice: "@ roll(1d4)"',
    );
    expect(errorsOf(impure)[0]!.message).toContain(
      'it uses macros.bonus, which uses macros.dice, which rolls dice (roll)',
    );
  });

  it('recursion is a macro cycle', () => {
    const errors = errorsOf(
      base('  twice:\n    params: [x]\n    value: "@ macros.twice(x - 1) if x else 0"'),
    );
    expect(errors.map((e) => e.code)).toContain('YARE_MACRO_CYCLE');
  });

  it('parameters: identifiers, not reserved, not twice, at most MAX_MACRO_PARAMS', () => {
    const params = (list: string) => base(`  twice:\n    params: ${list}\n    value: "@ 1"`);
    expect(errorsOf(params('[state]'))[0]!.code).toBe('YARE_RESERVED_NAME');
    expect(errorsOf(params('[a, a]'))[0]!.message).toContain("'a' is named twice");
    expect(errorsOf(params("['1x']"))[0]!.message).toContain('must be an identifier');
    const names = (n: number) => `[${Array.from({ length: n }, (_, i) => `p${i}`).join(', ')}]`;
    const atLimit = base(
      `  twice:\n    params: ${names(MAX_MACRO_PARAMS)}\n    value: "@ 1"`,
      `"@ macros.twice(${Array(MAX_MACRO_PARAMS).fill(1).join(', ')})"`,
    );
    expect(errorsOf(atLimit)).toEqual([]);
    expect(errorsOf(params(names(MAX_MACRO_PARAMS + 1)))[0]!.message).toContain('MAX_MACRO_PARAMS');
  });

  it('the shape: unknown keys, cases without by:, by: without cases:, neither value nor cases', () => {
    expect(errorsOf(base('  twice:\n    params: [x]\n    valeu: "@ 1"'))[0]!.message).toContain(
      'Did you mean `value`?',
    );
    expect(errorsOf(base('  twice:\n    params: [x]\n    cases: { a: "@ 1" }'))[0]!.message).toContain(
      'cases: needs by:',
    );
    expect(
      errorsOf(base('  twice:\n    params: [x]\n    by: "@ x"\n    value: "@ 1"'))[0]!.message,
    ).toContain('by: needs cases:');
    expect(errorsOf(base('  twice:\n    params: [x]'))[0]!.message).toContain('needs value:');
    expect(
      errorsOf(
        base(
          '  twice:\n    params: [x]\n    by: "@ x"\n    cases: { "a, b": "@ 1", b: "@ 2" }\n    value: "@ 0"',
        ),
      )[0]!.message,
    ).toContain("the kind 'b' has two cases");
  });
});
