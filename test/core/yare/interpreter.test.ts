// The original's step-action and run_event tests, translated, plus our fixes.
import { describe, expect, it } from 'vitest';
import { EventRunner, runEvent } from '../../../src/core/yare/interpreter.ts';
import {
  MAX_CALL_DEPTH,
  MAX_CONTAINER_SIZE,
  MAX_DICT_DEPTH,
  MAX_NOTE_LENGTH,
  MAX_STEPS_PER_RUN,
} from '../../../src/core/yare/limits.ts';
import { rulesOf, scriptedDice } from '../../helpers/yare.ts';

const FIXTURE = `
state_schema:
  player:
    hp: { type: int, default: 100, min: 0, max: 100, visibility: public }
    gold: { type: int, default: 0, min: 0 }
    level: { type: int, default: 1 }
    is_poisoned_with_asymptomatic_poison: { type: bool, default: false, visibility: private }
    inventory: { type: list, default: [] }
    stats: { type: dict, default: {} }
  npc:
    hp: { type: int, default: 20, min: 0 }
    strength: { type: int, default: 5 }
  current_location: { type: string, default: "Crossroads" }
macros:
  power_bonus: "@ state.player.level + 1"
events:
  deal_damage:
    steps:
      - action: mutate
        var: state.npc.hp
        op: sub
        value: 10
      - action: note
        message: "Player deals 10 damage to the NPC."
  heal_player:
    steps:
      - { action: mutate, var: state.player.hp, op: add, value: 20 }
      - { action: note, message: "Healed." }
  generic_check:
    inputs: [stat, difficulty]
    steps:
      - action: set
        var: temp.roll
        value: "@ roll(1d20) + state.player.level"
      - action: branch
        conditions:
          - if: "@ temp.roll >= inputs.difficulty"
            steps:
              - { action: note, message: "Action Succeeded!" }
          - else: true
            steps:
              - { action: note, message: "Action Failed!" }
  targeted:
    inputs:
      target: { type: string, default: "npc", enum: ["player", "npc"] }
    steps:
      - { action: note, message: "target is {inputs.target}" }
`;

const rules = rulesOf(FIXTURE);
const initial = rules.initialState;

function stateWith(patch: (s: any) => void): any {
  const s = structuredClone(JSON.parse(JSON.stringify(initial)));
  patch(s);
  return s;
}

function one(stepsYaml: string, state: unknown = initial, extraSchema = '', dice?: number[]) {
  const r = rulesOf(`${FIXTURE}${extraSchema}
  probe:
    steps:
${stepsYaml
  .split('\n')
  .map((l) => `      ${l}`)
  .join('\n')}
`);
  return runEvent(r, state, 'probe', {}, dice ? { dice: scriptedDice(dice) } : {});
}

describe('run_event', () => {
  it('deal_damage lowers npc.hp from 20 to 10 and notes the damage', () => {
    const r = runEvent(rules, initial, 'deal_damage');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect((r.state.npc as any).hp).toBe(10);
    expect(r.notes.join(' ')).toContain('damage');
  });

  it('an unknown event is an error naming it, and changes nothing', () => {
    const r = runEvent(rules, initial, 'nonexistent_event');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('YARE_UNKNOWN_EVENT');
    expect(r.error.message).toContain('nonexistent_event');
    expect(r.notes).toEqual([]);
  });

  it('generic_check succeeds on a 20 and fails on a 1 (1 + level 1 = 2 < 10)', () => {
    const hit = runEvent(
      rules,
      initial,
      'generic_check',
      { stat: 'hp', difficulty: 10 },
      { dice: scriptedDice([20]) },
    );
    expect(hit.ok && hit.notes).toEqual(['Action Succeeded!']);
    const miss = runEvent(
      rules,
      initial,
      'generic_check',
      { stat: 'hp', difficulty: 10 },
      { dice: scriptedDice([1]) },
    );
    expect(miss.ok && miss.notes).toEqual(['Action Failed!']);
  });

  it('roll(1d20) rolls exactly one d20', () => {
    const dice = scriptedDice([13]);
    runEvent(rules, initial, 'generic_check', { stat: 'hp', difficulty: 10 }, { dice });
    expect(dice.calls).toEqual([[1, 20]]);
  });

  it.each([
    ['npc', 'npc'],
    ['NPC', 'npc'],
    ['Player', 'player'],
  ])('enum input %s is matched case-insensitively to %s', (given, expected) => {
    const r = runEvent(rules, initial, 'targeted', { target: given });
    expect(r.ok && r.notes).toEqual([`target is ${expected}`]);
  });

  it('a missing enum input takes its default', () => {
    const r = runEvent(rules, initial, 'targeted', {});
    expect(r.ok && r.notes).toEqual(['target is npc']);
  });

  it('an enum value outside the list is an error (the original silently used the default)', () => {
    const r = runEvent(rules, initial, 'targeted', { target: 'enemy' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('YARE_BAD_INPUT');
    expect(r.error.message).toContain('player, npc');
  });

  it('an undeclared input is an error', () => {
    const r = runEvent(rules, initial, 'targeted', { target: 'npc', gold: 9999 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('YARE_BAD_INPUT');
  });

  it('the input state is never mutated', () => {
    const before = JSON.stringify(initial);
    runEvent(rules, initial, 'deal_damage');
    runEvent(rules, initial, 'heal_player');
    expect(JSON.stringify(initial)).toBe(before);
  });
});

describe('step actions', () => {
  it('set a literal', () => {
    const r = one('- { action: set, var: state.player.hp, value: 50 }');
    expect(r.ok && (r.state.player as any).hp).toBe(50);
  });

  it('set a quoted string: "\'Safe Haven\'" stores Safe Haven', () => {
    const r = one(`- { action: set, var: state.current_location, value: "'Safe Haven'" }`);
    expect(r.ok && r.state.current_location).toBe('Safe Haven');
  });

  it('set temp from an expression, then use it', () => {
    const r = one(
      `- { action: set, var: temp.roll, value: "@ 7 + 3" }\n- { action: note, message: "{temp.roll}" }`,
    );
    expect(r.ok && r.notes).toEqual(['10']);
  });

  it('mutate add clamps at max, sub at min', () => {
    const add = one('- { action: mutate, var: state.player.hp, op: add, value: 10 }');
    expect(add.ok && (add.state.player as any).hp).toBe(100);
    const sub = one('- { action: mutate, var: state.player.hp, op: sub, value: 30 }');
    expect(sub.ok && (sub.state.player as any).hp).toBe(70);
    const floor = one('- { action: mutate, var: state.player.hp, op: sub, value: 9999 }');
    expect(floor.ok && (floor.state.player as any).hp).toBe(0);
  });

  it('set clamps too (the original did not)', () => {
    const r = one('- { action: set, var: state.player.hp, value: 250 }');
    expect(r.ok && (r.state.player as any).hp).toBe(100);
  });

  it('gold add 5 then mul 2 is 10', () => {
    const r = one(
      '- { action: mutate, var: state.player.gold, op: add, value: 5 }\n- { action: mutate, var: state.player.gold, op: mul, value: 2 }',
    );
    expect(r.ok && (r.state.player as any).gold).toBe(10);
  });

  it('div on an int field truncates like int()', () => {
    const s = stateWith((x) => (x.player.gold = 7));
    const r = one('- { action: mutate, var: state.player.gold, op: div, value: 2 }', s);
    expect(r.ok && (r.state.player as any).gold).toBe(3);
  });

  it('mutate of a None path is an error naming the path', () => {
    const r = one('- { action: mutate, var: temp.x, op: add, value: 1 }');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain("mutate: path 'temp.x' resolved to None");
  });

  it('branch: a true condition runs, the else runs otherwise, only the first match runs', () => {
    const first = one(`- action: branch
  conditions:
    - if: "@ 1 == 1"
      steps: [{ action: note, message: one }]
    - if: "@ 2 == 2"
      steps: [{ action: note, message: two }]`);
    expect(first.ok && first.notes).toEqual(['one']);
    const other = one(`- action: branch
  conditions:
    - if: "@ 1 == 2"
      steps: [{ action: note, message: then }]
    - else: true
      steps: [{ action: note, message: else-branch }]`);
    expect(other.ok && other.notes).toEqual(['else-branch']);
  });

  it('`- else:` with a sibling `steps:` (null else) is the else arm (a bug in the original)', () => {
    const r = one(`- action: branch
  conditions:
    - if: "@ false"
      steps: [{ action: note, message: then }]
    - else:
      steps: [{ action: note, message: fallback }]`);
    expect(r.ok && r.notes).toEqual(['fallback']);
  });

  it('the step-level form if/steps/else of the seed template works', () => {
    const yes = one(`- action: branch
  if: "@ state.player.hp > 50"
  steps: [{ action: note, message: strong }]
  else: [{ action: note, message: weak }]`);
    expect(yes.ok && yes.notes).toEqual(['strong']);
    const no = one(
      `- action: branch
  if: "@ state.player.hp > 50"
  steps: [{ action: note, message: strong }]
  else: [{ action: note, message: weak }]`,
      stateWith((x) => (x.player.hp = 10)),
    );
    expect(no.ok && no.notes).toEqual(['weak']);
  });

  it('table_roll picks the matching range, with quoted values evaluated', () => {
    const table = `- action: table_roll
  roll: "@ roll(1d20)"
  var: temp.archetype
  table: { "1-5": "'Goblin'", "6-10": Orc, "11+": Dragon }
- { action: note, message: "{temp.archetype}" }`;
    expect(one(table, initial, '', [5]).ok && one(table, initial, '', [5]).notes).toEqual(['Goblin']);
    const boss = one(table, initial, '', [15]);
    expect(boss.ok && boss.notes).toEqual(['Dragon']);
    const orc = one(table, initial, '', [6]);
    expect(orc.ok && orc.notes).toEqual(['Orc']);
  });

  it('note interpolation renders Python values', () => {
    const r = one(`- { action: note, message: "HP is {state.player.hp}." }
- { action: note, message: "{state.player.is_poisoned_with_asymptomatic_poison} {temp.missing} {7 / 2} {6 / 2}" }`);
    expect(r.ok && r.notes).toEqual(['HP is 100.', 'False None 3.5 3.0']);
  });

  it('foreach over a list reads item fields', () => {
    const s = stateWith(
      (x) =>
        (x.player.inventory = [
          { name: 'Potion', rare: false },
          { name: 'Relic', rare: true },
        ]),
    );
    const r = one(
      `- action: foreach
  array: "@ state.player.inventory"
  item: item
  steps:
    - action: branch
      conditions:
        - if: "@ item.rare == True"
          steps: [{ action: note, message: "Rare: {item.name}" }]
        - else: true
          steps: [{ action: note, message: "Common: {item.name}" }]`,
      s,
    );
    expect(r.ok && r.notes).toEqual(['Common: Potion', 'Rare: Relic']);
  });

  it('foreach exposes the index and accepts a bare state path', () => {
    const s = stateWith((x) => (x.player.inventory = ['a', 'b']));
    const r = one(
      `- action: foreach
  array: state.player.inventory
  index: i
  steps: [{ action: note, message: "{i}:{item}" }]`,
      s,
    );
    expect(r.ok && r.notes).toEqual(['0:a', '1:b']);
  });

  it('list_push and list_remove by value and by index', () => {
    const s = stateWith((x) => (x.player.inventory = ['Potion']));
    const r = one(
      `- { action: list_push, var: state.player.inventory, item: "'Sword'" }
- { action: list_remove, var: state.player.inventory, value: "'Potion'" }
- { action: list_push, var: state.player.inventory, item: 0 }
- { action: list_remove, var: state.player.inventory, index: 0 }`,
      s,
    );
    expect(r.ok && (r.state.player as any).inventory).toEqual([0]);
  });

  it('list_push keeps a falsy item (the original dropped it)', () => {
    const r = one('- { action: list_push, var: state.player.inventory, item: false }');
    expect(r.ok && (r.state.player as any).inventory).toEqual([false]);
  });

  it('dict_set and dict_delete', () => {
    const r = one(`- { action: dict_set, var: state.player.stats, key: "'STR'", value: 10 }`);
    expect(r.ok && (r.state.player as any).stats).toEqual({ STR: 10 });
    const d = one(`- { action: dict_set, var: state.player.stats, key: "'STR'", value: 10 }
- { action: dict_delete, var: state.player.stats, key: "'STR'" }
- { action: dict_delete, var: state.player.stats, key: "'absent'" }`);
    expect(d.ok && Object.keys((d.state.player as any).stats)).toEqual([]);
  });

  it('a dynamic var path resolves at run time and is checked against the schema', () => {
    const ok = one(`- { action: mutate, var: "@ 'state.' + 'npc' + '.hp'", op: sub, value: 8 }`);
    expect(ok.ok && (ok.state.npc as any).hp).toBe(12);
    const bad = one(`- { action: set, var: "@ 'state.' + 'nope' + '.hp'", value: 1 }`);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.code).toBe('YARE_BAD_PATH');
    const notString = one(`- { action: set, var: "@ 123", value: 1 }`);
    expect(notString.ok).toBe(false);
    if (!notString.ok) expect(notString.error.message).toContain("'var' must resolve to a string path");
  });

  it('list and dict actions on the wrong type are errors', () => {
    for (const step of [
      `- { action: list_push, var: state.current_location, item: 1 }`,
      `- { action: list_remove, var: state.current_location, index: 0 }`,
    ]) {
      const r = one(step);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.message).toContain('not a list');
    }
    for (const step of [
      `- { action: dict_set, var: temp.s, key: "'a'", value: 1 }`,
      `- { action: dict_delete, var: temp.s, key: "'a'" }`,
    ]) {
      const r = one(`- { action: set, var: temp.s, value: "'text'" }\n${step}`);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.message).toContain('not a dict');
    }
    const f = one(`- { action: set, var: temp.s, value: "'text'" }
- action: foreach
  array: "@ temp.s"
  steps: [{ action: note, message: x }]`);
    expect(f.ok).toBe(false);
    if (!f.ok) expect(f.error.message).toContain('must resolve to a list');
  });

  it('macros evaluate in the event scope', () => {
    const r = one('- { action: note, message: "{macros.power_bonus}" }');
    expect(r.ok && r.notes).toEqual(['2']);
  });
});

describe('limits', () => {
  it(`list_push at ${MAX_CONTAINER_SIZE - 1} items works; at ${MAX_CONTAINER_SIZE} it is refused and nothing changes`, () => {
    const full = stateWith(
      (x) => (x.player.inventory = Array.from({ length: MAX_CONTAINER_SIZE }, (_, i) => i)),
    );
    const r = one(`- { action: list_push, var: state.player.inventory, item: 1 }`, full);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain('MAX_CONTAINER_SIZE');
    expect(full.player.inventory).toHaveLength(MAX_CONTAINER_SIZE);
    const almost = stateWith(
      (x) => (x.player.inventory = Array.from({ length: MAX_CONTAINER_SIZE - 1 }, (_, i) => i)),
    );
    const ok = one(`- { action: list_push, var: state.player.inventory, item: 1 }`, almost);
    expect(ok.ok && (ok.state.player as any).inventory).toHaveLength(MAX_CONTAINER_SIZE);
  });

  it(`dict_set of a new key on a ${MAX_CONTAINER_SIZE}-key dict is refused; replacing a key is fine`, () => {
    const stats = Object.fromEntries(Array.from({ length: MAX_CONTAINER_SIZE }, (_, i) => [`k${i}`, i]));
    const s = stateWith((x) => (x.player.stats = stats));
    const r = one(`- { action: dict_set, var: state.player.stats, key: "'extra'", value: 1 }`, s);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain('MAX_CONTAINER_SIZE');
    const replace = one(`- { action: dict_set, var: state.player.stats, key: "'k0'", value: 9 }`, s);
    expect(replace.ok).toBe(true);
  });

  it(`dict_set to depth ${MAX_DICT_DEPTH} works; depth ${MAX_DICT_DEPTH + 1} is refused`, () => {
    const ok = one(
      `- { action: dict_set, var: state.player.stats, key: "'deep'", value: { step: { step: 1 } } }`,
    );
    expect(ok.ok).toBe(true);
    const r = one(
      `- { action: dict_set, var: state.player.stats, key: "'deep'", value: { step: { step: { step: 1 } } } }`,
    );
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain('MAX_DICT_DEPTH');
  });

  it(`a chain of ${MAX_CALL_DEPTH} nested events runs; ${MAX_CALL_DEPTH + 1} is refused and nothing changes`, () => {
    const chain = (n: number) => {
      let yaml = 'state_schema:\n  c: { type: int, default: 0 }\nevents:\n';
      for (let i = 1; i <= n; i++) {
        yaml += `  e${i}:\n    steps:\n      - { action: mutate, var: state.c, op: add, value: 1 }\n`;
        if (i < n) yaml += `      - { action: call, event: e${i + 1} }\n`;
      }
      return rulesOf(yaml);
    };
    const ok = runEvent(chain(MAX_CALL_DEPTH), chain(MAX_CALL_DEPTH).initialState, 'e1');
    expect(ok.ok && ok.state.c).toBe(MAX_CALL_DEPTH);
    const deep = chain(MAX_CALL_DEPTH + 1);
    const r = runEvent(deep, deep.initialState, 'e1');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('YARE_CALL_DEPTH');
  });

  it('an event calling itself stops at the call depth with an error, not a crash', () => {
    const r = rulesOf(
      'state_schema:\n  c: { type: int, default: 0 }\nevents:\n  loop:\n    steps:\n      - { action: mutate, var: state.c, op: add, value: 1 }\n      - { action: call, event: loop }\n',
    );
    const out = runEvent(r, r.initialState, 'loop');
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error.code).toBe('YARE_CALL_DEPTH');
  });

  it(`a run of exactly MAX_STEPS_PER_RUN (${MAX_STEPS_PER_RUN}) steps works and one more is refused`, () => {
    // steps = leading + 1 (outer foreach) + a * (1 iteration + 1 inner foreach + b * (1 iteration + 1 set))
    const a = 50;
    const b = 98;
    const looped = 1 + a * (2 + 2 * b);
    const mk = (leading: number) =>
      rulesOf(`state_schema:
  a: { type: list, default: [${Array.from({ length: a }, (_, i) => i).join(', ')}] }
  b: { type: list, default: [${Array.from({ length: b }, (_, i) => i).join(', ')}] }
events:
  big:
    steps:
${'      - { action: set, var: temp.y, value: 1 }\n'.repeat(leading)}      - action: foreach
        array: "@ state.a"
        steps:
          - action: foreach
            array: "@ state.b"
            steps:
              - { action: set, var: temp.x, value: 1 }
`);
    const atLimit = mk(MAX_STEPS_PER_RUN - looped);
    expect(runEvent(atLimit, atLimit.initialState, 'big').ok).toBe(true);
    const pastLimit = mk(MAX_STEPS_PER_RUN - looped + 1);
    const past = runEvent(pastLimit, pastLimit.initialState, 'big');
    expect(past.ok).toBe(false);
    if (!past.ok) expect(past.error.code).toBe('YARE_STEP_LIMIT');
  });
});

describe('transactions', () => {
  it('a failing event leaves the input state untouched, even after earlier writes', () => {
    const r = one(`- { action: set, var: state.player.hp, value: 1 }
- { action: mutate, var: state.npc.hp, op: sub, value: "@ 1 / 0" }`);
    expect(r.ok).toBe(false);
    expect((initial as any).player.hp).toBe(100);
  });

  it('errors carry the file:line:col of the failing expression', () => {
    const steps = `- { action: note, message: "ok" }\n- { action: set, var: temp.x, value: "@ 1 + 1 // 0" }`;
    const r = one(steps);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('YARE_ZERO_DIVISION');
    // The file `one` compiles, and where in it the failing `1 // 0` starts (line and column from 1).
    const lines = `${FIXTURE}\n  probe:\n    steps:\n${steps
      .split('\n')
      .map((l) => `      ${l}`)
      .join('\n')}\n`.split('\n');
    const line = lines.findIndex((l) => l.includes('1 + 1 // 0')) + 1;
    const col = lines[line - 1]!.indexOf('1 // 0') + 1;
    expect(line).toBeGreaterThan(1);
    expect(r.error.place).toEqual({ file: 'yare.yaml', line, col });
  });
});

describe('fixes found by the differential tests', () => {
  it('round() of an int to a huge negative number of digits is 0, not a crash', () => {
    const r = one(
      `- { action: note, message: "{round(1, -9007199254740990)} {round(150, -2)} {round(-9007199254740991, -17)}" }`,
    );
    expect(r.ok && r.notes).toEqual(['0 200 0']);
  });

  it('an error before the first step has no place left over from an earlier run', () => {
    const runner = new EventRunner(rules, initial, scriptedDice([]));
    const bad = runner.run('deal_damage');
    expect(bad.ok).toBe(true);
    const unknown = runner.run('no_such_event');
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(unknown.error.place).toBeUndefined();
  });
});

describe('note length after interpolation', () => {
  it(`a note of exactly MAX_NOTE_LENGTH (${MAX_NOTE_LENGTH}) characters is kept; one more is an error`, () => {
    const fill = (n: number) =>
      one(
        `- { action: set, var: temp.pad, value: "${'y'.repeat(n)}" }\n- { action: note, message: "{temp.pad}{temp.pad}" }`,
      );
    const exact = fill(MAX_NOTE_LENGTH / 2);
    expect(exact.ok && exact.notes[0]).toHaveLength(MAX_NOTE_LENGTH);
    const over = one(
      `- { action: set, var: temp.pad, value: "${'y'.repeat(MAX_NOTE_LENGTH / 2)}" }\n- { action: note, message: "{temp.pad}{temp.pad}!" }`,
    );
    expect(over.ok).toBe(false);
    if (!over.ok) expect(over.error.code).toBe('YARE_NOTE_TOO_LONG');
  });
});
