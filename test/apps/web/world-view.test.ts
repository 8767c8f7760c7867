import { parse } from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { worldResponse, worldSchema } from '../../../src/apps/contract/index.ts';
import { entityHistory } from '../../../src/core/ledger/index.ts';
import { parseAnswer } from '../../../src/apps/web/lib/answer.ts';
import { logOf, MAX_WORLD_ITEMS, worldPanel } from '../../../src/apps/web/play/panels/world-view.ts';

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
    const panel = worldPanel(parse(worldSchema, world));
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

  it('shows nothing of an empty world; a malformed world answer is refused naming its fields', () => {
    const empty = worldPanel({ entities: {}, facts: {}, threads: {}, scene: null });
    expect([empty.scene, empty.present, empty.facts, empty.threads]).toEqual([undefined, [], [], []]);
    const answer = { turnId: 't', page: { records: 0, next: null }, summary: {} };
    expect(() =>
      parseAnswer(
        worldResponse,
        { ...answer, world: { entities: 'no', facts: [1], threads: {}, scene: 3 } },
        'GET w',
      ),
    ).toThrow(
      "the server's answer to GET w is not what this client expects: world.entities: expected record; world.facts: expected record; world.scene: expected object",
    );
  });

  it(`lists at most MAX_WORLD_ITEMS (${MAX_WORLD_ITEMS}) facts, newest kept, and counts the rest`, () => {
    const facts = (n: number) =>
      Object.fromEntries(
        Array.from({ length: n }, (_, i) => [
          `f${i}`,
          { id: `f${i}`, predicate: `p${i}`, added: { turn: i } },
        ]),
      );
    const empty = { entities: {}, threads: {}, scene: null };
    expect(worldPanel({ ...empty, facts: { b: facts(MAX_WORLD_ITEMS) } }).more.facts).toBe(0);
    const past = worldPanel({ ...empty, facts: { b: facts(MAX_WORLD_ITEMS + 1) } });
    expect(past.facts).toHaveLength(MAX_WORLD_ITEMS);
    expect(past.facts.at(-1)).toBe(`p${MAX_WORLD_ITEMS}`);
    expect(past.more.facts).toBe(1);
  });

  it('groups ledger rows into one log entry per turn, in order, each event read by the ledger’s parser', () => {
    const status = (entity: string, value: string) => ({
      event_type: 'set_entity_status',
      entity,
      status: value,
    });
    const rows = [
      { turnId: 'b', depth: 2, position: 1, event: status('hesk', 'asleep') },
      { turnId: 'a', depth: 0, position: 0, event: status('inn', 'open') },
      { turnId: 'b', depth: 2, position: 0, event: status('hesk', 'tired') },
      // Not a ledger event: left out, never passed on as one.
      { turnId: 'b', depth: 2, position: 2, event: 'b2' },
    ];
    const log = logOf(rows);
    expect(
      log.map((e) => [e.turn, e.events.map((ev) => (ev.type === 'set_entity_status' ? ev.status : ''))]),
    ).toEqual([
      [0, ['open']],
      [2, ['tired', 'asleep']],
    ]);
    expect(entityHistory(log, 'hesk').map((h) => h.turn)).toEqual([2, 2]);
  });
});
