// Privacy by derivation in the interpreter: a value computed from a private field — through a temp, a loop
// item, a call's argument, text built from it, a macro — is marked where a note shows it, and dice read from
// one are marked on the roll; a public value is never marked, and a temp overwritten with a public value is
// public again.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEvent } from '../../../src/core/yare/interpreter.ts';
import { parseExpression } from '../../../src/core/yare/expr/parser.ts';
import { readsPrivate, rollDiceArePrivate } from '../../../src/core/yare/privacy.ts';
import type { RunResult } from '../../../src/core/yare/run/run-result.ts';
import { ROOT } from '../../engine/turn/helpers.ts';
import { rulesOf } from '../../helpers/yare.ts';

const SECRET = 'SECRET-4812';
const DIAL = rulesOf(readFileSync(join(ROOT, 'test/fixtures/cartridges/dial-secret/yare.yaml'), 'utf8'));

/** Each note with its private values cut out, as `[…]`. */
function marked(result: RunResult): string[] {
  return result.notes.map((note, index) => {
    const spans = result.privateNotes.find((p) => p.index === index)?.spans ?? [];
    let out = '';
    let from = 0;
    for (let i = 0; i < spans.length; i += 2) {
      out += `${note.slice(from, spans[i])}[${note.slice(spans[i], spans[i + 1])}]`;
      from = spans[i + 1]!;
    }
    return out + note.slice(from);
  });
}

function run(rules = DIAL, event: string, inputs: Record<string, unknown> = {}, state?: unknown): RunResult {
  const result = runEvent(rules, state ?? rules.initialState, event, inputs, { seed: 3 });
  if (!result.ok) throw new Error(result.error.message);
  return result;
}

describe('a value computed from a private field is marked where a note shows it', () => {
  it.each([
    ['via_temp', ['Visit 1 to the safe.', `Via temp the dial reads [${SECRET}]. The dial clicks once.`]],
    [
      'via_foreach',
      [
        'Visit 1 to the safe.',
        `Via foreach the dial reads [${SECRET}]. The dial clicks twice.`,
        `Via the list the dial reads [${SECRET}] at [0]. The dial clicks thrice.`,
      ],
    ],
    [
      'via_call',
      ['Visit 1 to the safe.', `Via call the dial reads [${SECRET}]. The dial by the door clicks once.`],
    ],
    [
      'via_format',
      ['Visit 1 to the safe.', `Via format the dial [shows ${SECRET} in brass]. The dial clicks once.`],
    ],
    ['via_macro', ['Visit 1 to the safe.', `Via macro the dial [reads ${SECRET}]. The dial clicks once.`]],
  ])('%s', (event, notes) => {
    const result = run(DIAL, event);
    expect(result.notes.join(' ')).toContain(SECRET); // the rules themselves see it
    expect(marked(result)).toEqual(notes);
  });

  it('marks the dice of a roll read from a private value; its total stays public', () => {
    const result = run(DIAL, 'via_dice');
    expect(result.rolls).toHaveLength(1);
    expect(result.rolls[0]).toMatchObject({ expr: 'roll(temp.dice)', dice: '3d5', private: true });
    const total = result.rolls[0]!.total;
    expect(marked(result)).toEqual([
      'Visit 1 to the safe.',
      `The dial spins to ${total}. The dice were [3d5].`,
    ]);
  });

  it('marks nothing in a run that reads nothing private (and allocates no list for it)', () => {
    const rules = rulesOf(`
state_schema:
  n: { type: int, default: 2, visibility: public }
events:
  e:
    steps:
      - action: set
        var: temp.x
        value: "@ state.n + roll(1d4)"
      - action: note
        message: "{temp.x}"
`);
    const a = run(rules, 'e');
    const b = run(rules, 'e');
    expect(a.privateNotes).toEqual([]);
    expect(a.privateNotes).toBe(b.privateNotes);
    expect(a.rolls[0]!.private).toBeUndefined();
  });
});

describe('how the marks follow the rules', () => {
  const rules = rulesOf(`
state_schema:
  secret: { type: string, default: "S3CR3T" }
  n: { type: int, default: 7 }
  shown: { type: string, default: "", visibility: public }
  bag: { type: list, default: ["rope"], visibility: public }
macros:
  twice: "@ inputs.word + inputs.word"
events:
  overwrite:
    steps:
      - action: set
        var: temp.x
        value: "@ state.secret"
      - action: note
        message: "a {temp.x}"
      - action: set
        var: temp.x
        value: "'plain'"
      - action: note
        message: "b {temp.x}"
  inside:
    steps:
      - action: set
        var: temp.d
        value: {}
      - action: dict_set
        var: temp.d
        key: "'k'"
        value: "@ state.secret"
      - action: set
        var: temp.d.other
        value: "'plain'"
      - action: note
        message: "{temp.d}"
      - action: list_push
        var: temp.l
        item: "@ state.n"
      - action: note
        message: "{len(temp.l)}"
  count:
    steps:
      - action: set
        var: temp.count
        value: 1
      - action: mutate
        var: temp.count
        op: add
        value: "@ state.n"
      - action: note
        message: "{temp.count}"
  picked:
    steps:
      - action: table_roll
        roll: "@ state.n"
        var: temp.word
        table:
          "1-6": low
          "7+": high
      - action: note
        message: "{temp.word}"
  args:
    steps:
      - action: call
        event: show_two
        args:
          word: "@ state.secret"
          other: "'open'"
  show_two:
    internal: true
    inputs:
      word: { type: string }
      other: { type: string }
    steps:
      - action: note
        message: "{inputs.other} {macros.twice} {inputs.other}"
      - action: call
        event: show_one
        args:
          word: "@ inputs.other"
          other: "@ inputs.word"
  show_one:
    internal: true
    inputs:
      word: { type: string }
      other: { type: string }
    steps:
      - action: note
        message: "{inputs.word} {inputs.other}"
  loops:
    steps:
      - action: foreach
        array: "@ [state.secret]"
        item: it
        steps:
          - action: foreach
            array: "@ ['public']"
            item: it
            steps:
              - action: note
                message: "inner {it}"
          - action: note
            message: "outer {it}"
      - action: foreach
        array: "@ [x + '!' for x in state.bag]"
        steps:
          - action: note
            message: "bag {item} {index}"
  declassify:
    steps:
      - action: set
        var: state.shown
        value: "@ state.secret"
      - action: note
        message: "revealed {state.shown}"
  decided:
    steps:
      - action: branch
        if: "@ state.secret == 'S3CR3T'"
        steps:
          - action: note
            message: "the lock opens"
  dynamic:
    steps:
      - action: set
        var: "@ 'temp.' + 'y'"
        value: "@ state.n"
      - action: note
        message: "{temp.y}"
      - action: set
        var: temp.z
        value: "@ temp['y']"
      - action: note
        message: "{temp.z}"
`);

  it('a whole temp written with a public value is public again', () => {
    expect(marked(run(rules, 'overwrite'))).toEqual(['a [S3CR3T]', 'b plain']);
  });

  it('a write inside a temp, a push and a mutate keep a private temp private, and make one private', () => {
    expect(marked(run(rules, 'inside'))).toEqual(["[{'k': 'S3CR3T', 'other': 'plain'}]", '[1]']);
    expect(marked(run(rules, 'count'))).toEqual(['[8]']);
  });

  it('the table entry a private number picks is private', () => {
    expect(marked(run(rules, 'picked'))).toEqual(['[high]']);
  });

  it('only the arguments computed from a private value make inputs private, through nested calls and macros', () => {
    expect(marked(run(rules, 'args'))).toEqual(['open [S3CR3TS3CR3T] open', 'open [S3CR3T]']);
  });

  it('loop names: an inner loop over a public list shadows a private name; a comprehension is its list', () => {
    expect(marked(run(rules, 'loops'))).toEqual(['inner public', 'outer [S3CR3T]', 'bag rope! 0']);
  });

  it('a public field written from a private value is the author revealing it; a branch on one is the story', () => {
    expect(marked(run(rules, 'declassify'))).toEqual(['revealed S3CR3T']);
    expect(marked(run(rules, 'decided'))).toEqual(['the lock opens']);
  });

  it('computed temp paths, written and read, carry the mark', () => {
    expect(marked(run(rules, 'dynamic'))).toEqual(['[7]', '[7]']);
  });

  it('judges a template or a recorded roll by what it reads of the state alone', () => {
    const expr = (text: string) => parseExpression(text);
    expect(readsPrivate(rules, expr('state.secret + "!"'))).toBe(true);
    expect(readsPrivate(rules, expr('state.shown'))).toBe(false);
    // A roll's total is public whatever its dice; its dice are private when they come from a private field.
    expect(readsPrivate(rules, expr('roll(state.secret)'))).toBe(false);
    expect(rollDiceArePrivate(rules, expr('roll(state.secret)'))).toBe(true);
    expect(rollDiceArePrivate(rules, expr('roll(1d6)'))).toBe(false);
  });
});
