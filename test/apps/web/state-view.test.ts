import { describe, expect, it } from 'vitest';
import {
  barPercent,
  MAX_PANEL_DEPTH,
  MAX_PANEL_ENTRIES,
  type SchemaFieldView,
  statePanel,
} from '../../../src/apps/web/play/panels/state-view.ts';

describe('state panel', () => {
  const fields: SchemaFieldView[] = [
    { path: ['player', 'hp'], type: 'int', min: 0, max: 24 },
    { path: ['player', 'gold'], type: 'int', min: 0 },
    { path: ['world', 'chapel_sealed'], type: 'bool' },
  ];
  const state = {
    _pending_interaction: {},
    game_time: '1147-03-09T18:00:00',
    player: { hp: 20, gold: 20, inventory: ['iron hook', 'tallow candle'] },
    world: { chapel_sealed: true },
  };

  it('lays out bars, numbers, text, flags, lists and groups; hides engine keys', () => {
    expect(statePanel(state, fields)).toEqual([
      { kind: 'text', key: 'game_time', path: 'game_time', value: '1147-03-09T18:00:00' },
      {
        kind: 'group',
        key: 'player',
        path: 'player',
        more: 0,
        entries: [
          { kind: 'bar', key: 'hp', path: 'player.hp', value: 20, min: 0, max: 24 },
          { kind: 'number', key: 'gold', path: 'player.gold', value: 20 },
          {
            kind: 'list',
            key: 'inventory',
            path: 'player.inventory',
            items: ['iron hook', 'tallow candle'],
            more: 0,
          },
        ],
      },
      {
        kind: 'group',
        key: 'world',
        path: 'world',
        more: 0,
        entries: [{ kind: 'flag', key: 'chapel_sealed', path: 'world.chapel_sealed', value: true }],
      },
    ]);
  });

  it('makes bars only of numbers the schema bounds on both sides, never guessing from max_x', () => {
    const panel = statePanel({ mana: 4, max_mana: 10, hp: 3, level: 2 }, [
      { path: ['hp'], type: 'int', min: 0 },
      { path: ['level'], type: 'int', min: 5, max: 5 },
    ]);
    expect(panel).toEqual([
      { kind: 'number', key: 'mana', path: 'mana', value: 4 },
      { kind: 'number', key: 'max_mana', path: 'max_mana', value: 10 },
      { kind: 'number', key: 'hp', path: 'hp', value: 3 },
      { kind: 'number', key: 'level', path: 'level', value: 2 },
    ]);
  });

  it('places a bar between its bounds, clamped when the value is out of them', () => {
    expect(barPercent({ value: 12, min: 0, max: 24 })).toBe(50);
    expect(barPercent({ value: 30, min: 0, max: 24 })).toBe(100);
    expect(barPercent({ value: -3, min: 0, max: 24 })).toBe(0);
    expect(barPercent({ value: 1, min: 5, max: 5 })).toBe(0);
  });

  it(`shows at most MAX_PANEL_ENTRIES (${MAX_PANEL_ENTRIES}) entries per group and counts the rest`, () => {
    const at = Object.fromEntries(Array.from({ length: MAX_PANEL_ENTRIES }, (_, i) => [`k${i}`, i]));
    const past = { ...at, extra: 1 };
    expect(statePanel({ g: at })[0]).toMatchObject({ kind: 'group', more: 0 });
    const group = statePanel({ g: past })[0];
    expect(group?.kind === 'group' && [group.entries.length, group.more]).toEqual([MAX_PANEL_ENTRIES, 1]);
    const list = statePanel({ l: Array.from({ length: MAX_PANEL_ENTRIES + 1 }, (_, i) => i) })[0];
    expect(list?.kind === 'list' && [list.items.length, list.more]).toEqual([MAX_PANEL_ENTRIES, 1]);
  });

  it(`nests groups MAX_PANEL_DEPTH (${MAX_PANEL_DEPTH}) deep, then shows JSON text`, () => {
    const nest = (n: number): unknown => (n === 0 ? 1 : { a: nest(n - 1) });
    const depth = (entries: readonly unknown[]): number => {
      const e = entries[0] as { kind: string; entries?: unknown[] } | undefined;
      return e?.kind === 'group' ? 1 + depth(e.entries ?? []) : 0;
    };
    const innermost = (entries: readonly unknown[]): unknown => {
      const e = entries[0] as { kind: string; entries?: unknown[] };
      return e.kind === 'group' ? innermost(e.entries ?? []) : e;
    };
    // nest(n) is n mappings deep; the outermost one is the state itself.
    const at = statePanel(nest(MAX_PANEL_DEPTH + 1));
    expect(depth(at)).toBe(MAX_PANEL_DEPTH);
    expect(innermost(at)).toMatchObject({ kind: 'number', value: 1 });
    const past = statePanel(nest(MAX_PANEL_DEPTH + 2));
    expect(depth(past)).toBe(MAX_PANEL_DEPTH);
    expect(innermost(past)).toMatchObject({ kind: 'text', value: '{"a":1}' });
  });

  it('keys like constructor are data; __proto__ (underscored, so plumbing) is hidden and never followed', () => {
    const hostile = JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"name": "x"}, "ok": 2}');
    expect(statePanel(hostile).map((e) => e.key)).toEqual(['constructor', 'ok']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
