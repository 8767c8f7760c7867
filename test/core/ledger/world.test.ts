// The World value: immutability of committed worlds, fact buckets, JSON round trip, and the index's commit.
import { describe, expect, it } from 'vitest';
import {
  allFacts,
  canonicalJson,
  DEFAULT_POLICY,
  emptyWorld,
  FACT_BUCKETS,
  factBucket,
  factCount,
  getFact,
  LedgerIndex,
  worldFromJson,
} from '../../../src/core/ledger/index.ts';
import { town } from './helpers.ts';

describe('World', () => {
  it('earlier worlds never change when later batches commit (copy-on-write, shared records)', () => {
    const index = new LedgerIndex({ snapshotInterval: 2 });
    const seen: Array<[unknown, string]> = [];
    index.commit([{ event_type: 'create_entity', entity: 'mara', name: 'Mara' }], DEFAULT_POLICY, {
      turn: 1,
    });
    for (let turn = 2; turn <= 40; turn++) {
      seen.push([index.current, canonicalJson(index.current)]);
      const r = index.commit(
        [
          { event_type: 'set_entity_attribute', entity: 'mara', attribute: 'n', value: turn },
          { event_type: 'add_fact', predicate: `p${turn}` },
          ...(turn % 3 === 0 ? [{ event_type: 'invalidate_fact', fact_id: `f_${turn - 1}_1` }] : []),
        ],
        DEFAULT_POLICY,
        { turn },
      );
      expect(r.ok).toBe(true);
    }
    for (const [world, hash] of seen) expect(canonicalJson(world)).toBe(hash);
    expect(factCount(index.current)).toBe(39);
  });

  it('commit appends nothing on rejection and refuses a turn that is not after the last', () => {
    const index = new LedgerIndex();
    expect(
      index.commit([{ event_type: 'set_scene', present: ['ghost'] }], DEFAULT_POLICY, { turn: 1 }).ok,
    ).toBe(false);
    expect(index.length).toBe(0);
    expect(index.commit([], DEFAULT_POLICY, { turn: 1 }).ok).toBe(true);
    expect(() => index.commit([], DEFAULT_POLICY, { turn: 1 })).toThrow(RangeError);
  });

  it('facts live in hash buckets, found by getFact and listed by allFacts in id order', () => {
    expect(factBucket('rumour')).toMatch(/^[0-9a-f]{2}$/);
    expect(Number.parseInt(factBucket('zzzz'), 16)).toBeLessThan(FACT_BUCKETS);
    const index = new LedgerIndex();
    index.commit(
      ['b', 'a', 'c'].map((id) => ({ event_type: 'add_fact', fact_id: `fact_${id}`, predicate: id })),
      DEFAULT_POLICY,
      { turn: 1 },
    );
    expect(allFacts(index.current).map((f) => f.id)).toEqual(['fact_a', 'fact_b', 'fact_c']);
    expect(getFact(index.current, 'fact_b')!.predicate).toBe('b');
    expect(getFact(index.current, 'constructor')).toBeUndefined();
    expect(getFact(emptyWorld(), 'x')).toBeUndefined();
  });

  it('worldFromJson round-trips a world and rebuilds null-prototype tables', () => {
    const world = town();
    const back = worldFromJson(JSON.parse(JSON.stringify(world)));
    expect(back.ok && canonicalJson(back.world)).toBe(canonicalJson(world));
    expect(back.ok && Object.getPrototypeOf(back.world.entities.mara!.attributes)).toBeNull();
  });

  it('worldFromJson names the first place a stored world is wrong', () => {
    const base = JSON.parse(JSON.stringify(town()));
    type WorldJson = {
      entities: Record<string, Record<string, unknown>>;
      facts: unknown;
      scene: Record<string, unknown>;
    };
    const broken = (mutate: (w: WorldJson) => void) => {
      const copy = structuredClone(base);
      mutate(copy);
      const r = worldFromJson(copy);
      return r.ok ? 'ok' : r.message;
    };
    expect(broken(() => {})).toBe('ok');
    expect(broken((w) => (w.entities.mara!.key = 'other'))).toBe(
      'entities["mara"].key does not match its table key',
    );
    expect(broken((w) => (w.entities.mara!.name = 5))).toBe('entities["mara"].name must be a string');
    expect(broken((w) => (w.entities.Evil = { ...w.entities.mara, key: 'Evil' }))).toMatch(
      /is not a ledger key/,
    );
    expect(broken((w) => (w.entities.mara!.attributes = { x: { nested: 1 } }))).toBe(
      'entities["mara"].attributes.x must be a JSON scalar',
    );
    expect(broken((w) => (w.facts = { zz: { f: { id: 'f', predicate: 'p', added: { turn: 1 } } } }))).toMatch(
      /wrong bucket/,
    );
    expect(broken((w) => (w.scene.present = ['Nope']))).toMatch(/scene.present\[0\]/);
    expect(worldFromJson('[]')).toEqual({ ok: false, message: 'world must be an object' });
  });
});
