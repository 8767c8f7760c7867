// The builder's pure helpers in src/tools/authoring/builder: the draft-rules cache (keyed by the rules text, bounded at
// RULES_CACHE_ENTRIES), "try it" (run-event's result as data, the state merged over the initial one),
// completion (the language server's, with its bounds at the limit and past it) and the templates.
import { describe, expect, it } from 'vitest';
import { loadCartridgeFromFiles } from '../../../../src/adapters/files/index.ts';
import {
  builderTemplates,
  compileDraftRules,
  templateFiles,
  TryInputError,
  tryEvent,
} from '../../../../src/tools/authoring/builder/index.ts';
import {
  builderCompletions,
  builderHover,
  MAX_COMPLETION_LINE_CHARS,
  MAX_COMPLETIONS,
} from '../../../../src/tools/authoring/builder/completion.ts';
import {
  draftRulesCached,
  RULES_CACHE_ENTRIES,
} from '../../../../src/tools/authoring/builder/draft-rules.ts';

const RULES = `version: "1.0"
bot_name: "Unit"
state_schema:
  player:
    hp: { type: int, default: 10, min: 0, max: 10 }
    bag: { type: list, default: [] }
events:
  hurt:
    inputs:
      amount: { type: int, default: 1 }
    steps:
      - action: set
        var: temp.r
        value: "@ roll(2d6)"
      - action: mutate
        var: state.player.hp
        op: sub
        value: "@ inputs.amount"
      - action: note
        message: "hurt by {inputs.amount}, rolled {temp.r}"
`;

function rulesOf(text: string) {
  const compiled = compileDraftRules({ 'yare.yaml': text });
  if (!compiled.ok) throw new Error(compiled.errors.map((e) => e.message).join('; '));
  return compiled.rules;
}

describe('compileDraftRules', () => {
  it('compiles only the rules file (a missing lore does not stop it) and reports its errors', () => {
    expect(compileDraftRules({ 'yare.yaml': RULES }).ok).toBe(true);
    const bad = compileDraftRules({ 'yare.yaml': RULES.replace('op: sub', 'op: minus') });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors[0]?.place?.file).toBe('yare.yaml');
  });

  it('returns the same compiled rules for the same text, and keeps at most RULES_CACHE_ENTRIES', () => {
    const a = rulesOf(RULES);
    expect(rulesOf(RULES)).toBe(a);
    for (let i = 0; i < RULES_CACHE_ENTRIES; i++) rulesOf(RULES.replace('"Unit"', `"Unit ${i}"`));
    expect(draftRulesCached()).toBe(RULES_CACHE_ENTRIES);
    // The first text was pushed out by RULES_CACHE_ENTRIES newer ones: compiled anew.
    expect(rulesOf(RULES)).not.toBe(a);
    expect(draftRulesCached()).toBe(RULES_CACHE_ENTRIES);
  });
});

describe('tryEvent', () => {
  it('runs the event on the initial state merged with the given fields: notes, rolls, diff', () => {
    const rules = rulesOf(RULES);
    const result = tryEvent(rules, {
      event: 'hurt',
      inputs: { amount: 3 },
      state: { player: { hp: 5 } },
      seed: 4,
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.rolls).toHaveLength(1);
    expect(result.rolls[0]?.dice).toBe('2d6');
    expect(result.notes).toEqual([`hurt by 3, rolled ${result.rolls[0]?.total}`]);
    expect(result.changes).toEqual([{ path: 'state.player.hp', op: 'set', before: 5, after: 2 }]);
    // The same seed, the same dice; another seed may differ but is just as reproducible.
    expect(
      tryEvent(rules, { event: 'hurt', inputs: { amount: 3 }, state: { player: { hp: 5 } }, seed: 4 }),
    ).toEqual(result);
  });

  it('reports a failing run with its place, and refuses unknown events and a non-object state', () => {
    const rules = rulesOf(RULES);
    const failed = tryEvent(rules, { event: 'hurt', inputs: { amount: 'lots' } });
    expect(failed.ok).toBe(false);
    if (!failed.ok) expect(failed.error.code).toMatch(/^YARE_/);
    expect(() => tryEvent(rules, { event: 'heal' })).toThrow(TryInputError);
    expect(() => tryEvent(rules, { event: 'heal' })).toThrow(/no event 'heal' \(events: hurt\)/);
    expect(() => tryEvent(rules, { event: 'hurt', state: [1] })).toThrow(/state: must be an object/);
  });
});

describe('builderCompletions', () => {
  const at = (text: string, rules = true) =>
    builderCompletions({
      file: 'yare.yaml',
      text,
      offset: text.length,
      ...(rules ? { rulesFiles: { 'yare.yaml': RULES } } : {}),
    });

  it('offers state paths, inputs of the enclosing event, functions and keys, with where the word starts', () => {
    expect(at(`${RULES}        value: "@ state.player.`).items.map((i) => i.label)).toEqual(['hp', 'bag']);
    expect(at(`${RULES}        value: "@ inputs.am`)).toMatchObject({
      from: `${RULES}        value: "@ inputs.`.length,
      items: [{ label: 'amount', kind: 'input', detail: 'int' }],
    });
    expect(at(`${RULES}        value: "@ state.player.`, false).items).toEqual([]);
    expect(at(`${RULES}        value: "@ ma`).items.map((i) => i.label)).toContain('max');
    const key = at(`${RULES}      - action: mutate\n        `, false).items.find((i) => i.label === 'op');
    expect(key).toMatchObject({ kind: 'key', apply: 'op: ' });
  });

  it('completes from a draft that has never compiled: the broken section is set aside', () => {
    // The rules sent are the text being typed, broken at the cursor: no earlier version compiled.
    const typing = `${RULES}      - { action: set, var: state.player.`;
    const items = builderCompletions({
      file: 'yare.yaml',
      text: typing,
      offset: typing.length,
      rulesFiles: { 'yare.yaml': typing },
    }).items.map((i) => i.label);
    expect(items).toEqual(['hp', 'bag']);
  });

  it(`reads a line of at most ${MAX_COMPLETION_LINE_CHARS} characters before the cursor, and offers nothing past it`, () => {
    const pad = (n: number) => `${RULES}        value: "@ ${' '.repeat(n)}`;
    const atLimit = pad(MAX_COMPLETION_LINE_CHARS - '        value: "@ state.player.'.length);
    expect(at(`${atLimit}state.player.`).items.map((i) => i.label)).toEqual(['hp', 'bag']);
    expect(at(`${atLimit} state.player.`).items).toEqual([]);
  });

  it(`returns at most ${MAX_COMPLETIONS} items`, () => {
    const fields = (n: number) =>
      Array.from({ length: n }, (_, i) => `    f${i}: { type: int, default: 0 }`).join('\n');
    const rulesWith = (n: number) =>
      `version: "1.0"\nbot_name: "Many"\nstate_schema:\n  p:\n${fields(n)}\nevents: {}\n`;
    const complete = (n: number) =>
      builderCompletions({
        file: 'yare.yaml',
        text: 'x: "@ state.p.',
        offset: 'x: "@ state.p.'.length,
        rulesFiles: { 'yare.yaml': rulesWith(n) },
      }).items.length;
    expect(complete(MAX_COMPLETIONS)).toBe(MAX_COMPLETIONS);
    expect(complete(MAX_COMPLETIONS + 1)).toBe(MAX_COMPLETIONS);
  });
});

describe('builderHover', () => {
  it('says what a state path, an input and a function are, and nothing on plain text', () => {
    const on = (text: string, at: string, rules = true) =>
      builderHover({
        file: 'yare.yaml',
        text,
        offset: text.indexOf(at) + 1,
        ...(rules ? { rulesFiles: { 'yare.yaml': RULES } } : {}),
      });
    expect(on(RULES, 'rolled {')).toBeNull();
    expect(on(RULES, 'player.hp')?.markdown).toMatch(/^\*\*state\.player\*\* — domain/);
    expect(on(RULES, 'hp\n')?.markdown).toContain('type `int`');
    expect(on(RULES, 'amount"')?.markdown).toContain('**inputs.amount**: `int`');
    expect(on(RULES, 'roll(')?.markdown).toContain('**roll**');
    // Without rules the state is unknown; a line past MAX_COMPLETION_LINE_CHARS is not read.
    expect(on(RULES, 'hp\n', false)).toBeNull();
    const long = `${RULES}x: "${' '.repeat(MAX_COMPLETION_LINE_CHARS)} @ roll(1d6)"\n`;
    expect(on(long, 'roll(1d6)"')).toBeNull();
  });
});

describe('templates', () => {
  it('offers empty first, and every template is a cartridge the checker accepts', () => {
    const names = builderTemplates();
    expect(names[0]).toBe('empty');
    expect(names).toEqual(expect.arrayContaining(['minimal', 'combat', 'eldoria']));
    for (const name of names) {
      const files = templateFiles(name)!;
      const loaded = loadCartridgeFromFiles(new Map(Object.entries(files)), name);
      expect(loaded.ok, name).toBe(true);
      expect(Object.keys(files)).not.toContain('tests');
    }
    expect(templateFiles('nope')).toBeUndefined();
    expect(templateFiles('../templates')).toBeUndefined();
  });
});
