// Lint: each finding on a cartridge written to have it, at its line; none on the templates; and
// `validate --strict` failing on warnings with the JSON contract unchanged.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintCartridge } from '../../../src/tools/authoring/lint/index.ts';
import { loadCartridge, loadCartridgeFromFiles } from '../../../src/adapters/files/index.ts';
import { ROOT, runCli, SPAWN_TIMEOUT_MS, workspaces } from '../../apps/cli/helpers.ts';

const workspace = workspaces();

const YARE = `state_schema:
  hero:
    visibility: public
    hp: { type: int, default: 10, min: 0, max: 10 }
    gold: { type: int, default: 0 }
    mood: { type: string, default: calm }
    secret: { type: int, default: 0, visibility: private }
macros:
  spare: "@ 1"
  dmg: "@ roll(1d6)"
events:
  hurt:
    steps:
      - action: mutate
        var: state.hero.hp
        op: sub
        value: "@ macros.dmg"
      - action: set
        var: state.hero.secret
        value: 3
      - action: note
        message: "[SYSTEM LOG: Ouch.]"
  loot:
    steps:
      - action: table_roll
        roll: "@ roll(1d20)"
        var: state.hero.gold
        table:
          "1-5": 1
          "4-10": 2
          "15+": 3
      - action: branch
        if: "@ 1 == 1"
        steps:
          - action: note
            message: "[SYSTEM LOG: Gold is {state.hero.gold}.]"
  forgotten:
    internal: true
    steps:
      - action: note
        message: "[SYSTEM LOG: never.]"
`;
const LORE = '# World\n\nA cold place.\n\n## Empty\n\n## The\n\nA\n';

function lint(yare: string, lore = LORE) {
  const loaded = loadCartridgeFromFiles(
    new Map([
      ['yare.yaml', yare],
      ['bot_lore.md', lore],
    ]),
    't',
  );
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
  return lintCartridge(loaded.cartridge).map(
    (d) => `${d.place?.file}:${d.place?.line} ${d.code} ${d.message}`,
  );
}

const lineOf = (text: string, probe: string) => text.split('\n').findIndex((l) => l.includes(probe)) + 1;

describe('lint', () => {
  const found = lint(YARE);
  const has = (code: string, line: number, text: string) =>
    expect(found.filter((f) => f.startsWith(`yare.yaml:${line} ${code}`) && f.includes(text))).toHaveLength(
      1,
    );

  it('an internal event nothing runs', () =>
    has('LINT_UNREACHABLE_EVENT', lineOf(YARE, 'forgotten:'), "'forgotten'"));
  it('a macro never used', () => has('LINT_MACRO_UNUSED', lineOf(YARE, 'spare:'), "'spare'"));
  it('a field no rule reads or writes', () =>
    has('LINT_FIELD_UNUSED', lineOf(YARE, 'mood:'), 'state.hero.mood'));
  it('a private field written but never read', () =>
    has('LINT_FIELD_NEVER_READ', lineOf(YARE, 'secret:'), 'state.hero.secret'));
  it('a constant condition', () => has('LINT_CONSTANT_CONDITION', lineOf(YARE, '"@ 1 == 1"'), 'always'));
  it('table keys that overlap, and a gap for the dice rolled', () => {
    const at = lineOf(YARE, 'action: table_roll');
    has('LINT_TABLE_OVERLAP', at, '"1-5" and "4-10"');
    has('LINT_TABLE_GAP', at, 'roll gives 1 to 20, but no table key matches 11-14');
  });
  it('a note that never mentions the number the event changes', () =>
    has('LINT_NOTE_SILENT', lineOf(YARE, '- action: mutate'), "state.hero.hp changes in 'hurt'"));
  it('lore sections no query can reach (no text; no searchable words)', () => {
    expect(found.filter((f) => f.startsWith('bot_lore.md:5 LINT_LORE_UNREACHABLE'))).toHaveLength(1);
    expect(found.filter((f) => f.startsWith('bot_lore.md:7 LINT_LORE_UNREACHABLE'))).toHaveLength(1);
    expect(found.filter((f) => f.startsWith('bot_lore.md:1 '))).toEqual([]);
  });
  it('nothing else', () => expect(found).toHaveLength(10));

  it('a literal of another type written to a typed field, at the step; a fitting one is clean', () => {
    const typed = `state_schema:
  hero:
    visibility: public
    hp: { type: int, default: 10 }
    brave: { type: bool, default: false }
    name: { type: string, default: "Ada" }
events:
  slip:
    steps:
      - action: set
        var: state.hero.hp
        value: true
      - action: set
        var: state.hero.brave
        value: 1
      - action: mutate
        var: state.hero.hp
        op: add
        value: "@ 2.5"
      - action: set
        var: state.hero.name
        value: "@ 'Bo'"
      - action: set
        var: state.hero.hp
        value: 3
      - action: note
        message: "[SYSTEM LOG: {state.hero.hp} {state.hero.brave} {state.hero.name}]"
`;
    const findings = lint(typed).filter((f) => f.includes('LINT_VALUE_TYPE'));
    expect(findings).toEqual([
      expect.stringContaining('set writes the bool true to state.hero.hp, a field of type int'),
      expect.stringContaining('set writes the number 1 to state.hero.brave, a field of type bool'),
      expect.stringContaining('mutate writes the float 2.5 to state.hero.hp, a field of type int'),
    ]);
    expect(findings[0]).toMatch(new RegExp(`^yare.yaml:${lineOf(typed, '- action: set')} `));
  });

  it('a table that covers its dice exactly is clean; one key past the dice is dead', () => {
    const clean = YARE.replace(
      '"1-5": 1\n          "4-10": 2\n          "15+": 3',
      '"1-10": 1\n          "11-19": 2\n          20: 3',
    );
    expect(lint(clean).filter((f) => f.includes('LINT_TABLE'))).toEqual([]);
    const dead = YARE.replace(
      '"1-5": 1\n          "4-10": 2\n          "15+": 3',
      '"1-20": 1\n          21: 2',
    );
    expect(lint(dead).filter((f) => f.includes('LINT_TABLE'))).toEqual([
      expect.stringContaining('Table key "21" can never match: the roll gives 1 to 20'),
    ]);
  });

  it('the templates are lint-clean', async () => {
    for (const name of ['minimal', 'combat', 'eldoria']) {
      const loaded = await loadCartridge(join(ROOT, 'templates', name));
      expect(loaded.ok).toBe(true);
      if (loaded.ok) expect(lintCartridge(loaded.cartridge)).toEqual([]);
    }
  });

  it(
    'validate prints lint warnings (exit 0); --strict fails on them, same JSON contract',
    async () => {
      const ws = workspace();
      const dir = join(ws.dir, 'c');
      mkdirSync(dir);
      writeFileSync(join(dir, 'yare.yaml'), YARE);
      writeFileSync(join(dir, 'bot_lore.md'), LORE);
      const plain = await runCli(['validate', 'c'], { cwd: ws.dir });
      expect(plain.code).toBe(0);
      expect(plain.stdout).toContain("warning: Macro 'spare' is never used");
      const strict = await runCli(['validate', 'c', '--strict', '--json'], { cwd: ws.dir });
      expect(strict.code).toBe(1);
      const body = JSON.parse(strict.stdout);
      expect(Object.keys(body)).toEqual(['ok', 'errors', 'warnings']);
      expect(body.ok).toBe(false);
      expect(body.errors).toEqual([]);
      expect(body.warnings).toHaveLength(10);
      expect(body.warnings[0]).toEqual({
        file: join(ws.dir, 'c', 'bot_lore.md'),
        line: 5,
        col: 1,
        code: 'LINT_LORE_UNREACHABLE',
        message: expect.any(String),
      });
    },
    SPAWN_TIMEOUT_MS,
  );
});
