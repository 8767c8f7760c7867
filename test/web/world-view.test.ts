import { describe, expect, it } from 'vitest';
import { logOf, MAX_WORLD_ITEMS, worldPanel } from '../../src/apps/web/play/panels/world-view.ts';

const stamp = { turn: 1 };
const world = {
  version: 1,
  entities: {
    hesk: {
      key: 'hesk',
      name: 'Mother Hesk',
      aliases: [],
      attributes: {},
      conditions: ['tired'],
      location: 'inn',
      created: stamp,
    },
    inn: { key: 'inn', name: 'The Tallow Rest', aliases: [], attributes: {}, conditions: [], created: stamp },
    ladle: {
      key: 'ladle',
      name: 'brass ladle',
      aliases: [],
      attributes: {},
      conditions: [],
      holder: 'hesk',
      created: stamp,
    },
  },
  facts: {
    '1a': {
      f1: { id: 'f1', predicate: 'owns', subject: 'hesk', object: 'inn', added: stamp },
      f2: { id: 'f2', predicate: 'is open', subject: 'inn', added: stamp, invalidated: { turn: 2 } },
    },
  },
  relationships: {},
  threads: {
    debt: { key: 'debt', title: 'The unpaid debt', opened: stamp },
    done: { key: 'done', title: 'Old business', opened: stamp, resolved: { turn: 2 } },
  },
  scene: { summary: 'Supper time.', location: 'inn', present: ['hesk', 'ghost'], set: stamp },
};

describe('world panel', () => {
  it('shows the scene, who is present with what they carry, open threads and valid facts', () => {
    const panel = worldPanel({ turnId: 't', world });
    expect(panel.scene).toEqual({ summary: 'Supper time.', location: 'The Tallow Rest' });
    expect(panel.present).toEqual([
      {
        key: 'hesk',
        name: 'Mother Hesk',
        type: undefined,
        status: undefined,
        conditions: ['tired'],
        carries: ['brass ladle'],
        location: 'The Tallow Rest',
      },
    ]);
    expect(panel.threads).toEqual([{ key: 'debt', title: 'The unpaid debt', description: undefined }]);
    expect(panel.facts).toEqual(['Mother Hesk owns The Tallow Rest']);
  });

  it('reads an empty or malformed world without throwing', () => {
    for (const input of [null, 7, 'x', {}, { world: { entities: 'no', facts: [1], scene: 3 } }]) {
      const panel = worldPanel(input);
      expect(panel.present).toEqual([]);
      expect(panel.facts).toEqual([]);
    }
  });

  it(`lists at most MAX_WORLD_ITEMS (${MAX_WORLD_ITEMS}) facts, newest kept, and counts the rest`, () => {
    const facts = (n: number) =>
      Object.fromEntries(
        Array.from({ length: n }, (_, i) => [
          `f${i}`,
          { id: `f${i}`, predicate: `p${i}`, added: { turn: i } },
        ]),
      );
    expect(worldPanel({ facts: { b: facts(MAX_WORLD_ITEMS) } }).more.facts).toBe(0);
    const past = worldPanel({ facts: { b: facts(MAX_WORLD_ITEMS + 1) } });
    expect(past.facts).toHaveLength(MAX_WORLD_ITEMS);
    expect(past.facts.at(-1)).toBe(`p${MAX_WORLD_ITEMS}`);
    expect(past.more.facts).toBe(1);
  });

  it('groups ledger rows into one log entry per turn, in order', () => {
    const rows = [
      { turnId: 'b', depth: 2, position: 1, event: 'b1' },
      { turnId: 'a', depth: 0, position: 0, event: 'a0' },
      { turnId: 'b', depth: 2, position: 0, event: 'b0' },
    ];
    expect(logOf(rows)).toEqual([
      { turn: 0, events: ['a0'] },
      { turn: 2, events: ['b0', 'b1'] },
    ]);
  });
});
