// The structurally shared world table (shared-table.ts) against a plain Map and a plain null-prototype
// object: same lookups, same key order as a plain object (array indexes first, then first insertion), and
// every earlier version unchanged after later writes — the property that lets worlds share structure.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyBatch,
  emptyWorld,
  factCount,
  getFact,
  type LedgerEvent,
  proposeBatch,
} from '../../../src/core/ledger/index.ts';
import { nameIndexOf } from '../../../src/core/ledger/name-index.ts';
import {
  PersistentHashTrie,
  hashTrieOf,
  TableWriter,
  tableView,
} from '../../../src/core/ledger/persistent-hash-trie.ts';
import { worldFromJson } from '../../../src/core/ledger/world-json.ts';

// Small alphabets so keys collide and repeat; numeric strings exercise the array-index ordering.
const tableKey = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'b', 'é', '_', '1'), maxLength: 4 }),
  fc.nat(40).map(String),
  fc.constantFrom('01', '4294967295', '4294967294', '__proto__', 'constructor', 'toJSON', ''),
);
const op = fc.record({ key: tableKey, value: fc.integer(), freeze: fc.boolean() });

/** A plain null-prototype object given the same writes: the order the view must reproduce. */
function plainOf(writes: readonly { key: string; value: number }[]): Record<string, number> {
  const plain = Object.create(null) as Record<string, number>;
  for (const { key, value } of writes) plain[key] = value;
  return plain;
}

describe('PersistentHashTrie (the ledger’s structurally shared table)', () => {
  it('matches a Map and a plain object at every version, and earlier versions never change', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const writer = new TableWriter<number>(PersistentHashTrie.empty());
        const model = new Map<string, number>();
        const versions: { table: PersistentHashTrie<number>; plain: Record<string, number>; size: number }[] =
          [];
        const done: { key: string; value: number }[] = [];
        for (const { key, value, freeze } of ops) {
          writer.set(key, value);
          model.set(key, value);
          done.push({ key, value });
          if (freeze) versions.push({ table: writer.finish(), plain: plainOf(done), size: model.size });
        }
        versions.push({ table: writer.finish(), plain: plainOf(done), size: model.size });
        for (const { table, plain, size } of versions) {
          expect(table.size).toBe(size);
          expect([...table.keys()]).toEqual(Object.keys(plain));
          for (const key of Object.keys(plain)) expect(table.get(key)).toBe(plain[key]);
          const view = tableView(table);
          expect(Object.keys(view)).toEqual(Object.keys(plain));
          expect(JSON.stringify(view)).toBe(JSON.stringify(plain));
          const seen: string[] = [];
          for (const key in view) seen.push(key);
          expect(seen).toEqual(Object.keys(plain));
        }
        const last = versions[versions.length - 1]!.table;
        for (const [key, value] of model) {
          expect(last.get(key)).toBe(value);
          expect(last.has(key)).toBe(true);
        }
        expect(last.has('never-written-key')).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('a writer started from a shared version leaves that version and its sibling branches intact', () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 60 }),
        fc.array(op, { maxLength: 60 }),
        fc.array(op, { maxLength: 60 }),
        (common, left, right) => {
          const base = new TableWriter<number>(PersistentHashTrie.empty());
          for (const { key, value } of common) base.set(key, value);
          const shared = base.finish();
          const branch = (ops: typeof left) => {
            const w = new TableWriter(shared);
            for (const { key, value } of ops) w.set(key, value);
            return w.finish();
          };
          const a = branch(left);
          const b = branch(right);
          for (const [table, ops] of [
            [shared, common],
            [a, [...common, ...left]],
            [b, [...common, ...right]],
          ] as const) {
            const plain = plainOf(ops);
            expect(JSON.stringify(tableView(table))).toBe(JSON.stringify(plain));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a view reads like a plain null-prototype table and refuses every write', () => {
    const writer = new TableWriter<{ n: number }>(PersistentHashTrie.empty());
    writer.set('b', { n: 1 });
    writer.set('7', { n: 2 });
    writer.set('a', { n: 3 });
    const view = tableView(writer.finish()) as Record<string, { n: number }>;
    expect(Object.getPrototypeOf(view)).toBeNull();
    expect(Object.keys(view)).toEqual(['7', 'b', 'a']);
    expect(Object.hasOwn(view, 'a')).toBe(true);
    expect(Object.hasOwn(view, 'toString')).toBe(false);
    expect('b' in view).toBe(true);
    expect({ ...view }).toEqual({ 7: { n: 2 }, b: { n: 1 }, a: { n: 3 } });
    expect(() => {
      view.c = { n: 4 };
    }).toThrow(/immutable/);
    expect(() => {
      delete view.a;
    }).toThrow(/immutable/);
    expect(Object.keys(view)).toEqual(['7', 'b', 'a']);
    // Reading a view back gives the same table, not a copy.
    expect(hashTrieOf(view)).toBe(hashTrieOf(view));
  });
});

describe('worlds over shared tables', () => {
  const create = (entity: string, name: string): LedgerEvent =>
    ({ type: 'create_entity', entity, name }) as LedgerEvent;

  it('applying a batch leaves the earlier world, its JSON and its key order unchanged', () => {
    let world = emptyWorld();
    const history: { world: typeof world; json: string }[] = [];
    for (let turn = 1; turn <= 300; turn++) {
      world = applyBatch(
        world,
        [
          create(`e${turn}`, `Person ${turn}`),
          { type: 'add_fact', fact_id: `k${turn}`, subject: `e${turn}`, predicate: 'arrived' } as LedgerEvent,
        ],
        { turn },
      );
      history.push({ world, json: JSON.stringify(world) });
    }
    for (const { world: w, json } of history) expect(JSON.stringify(w)).toBe(json);
    expect(Object.keys(history[9]!.world.entities)).toHaveLength(10);
    expect(factCount(history[9]!.world)).toBe(10);
    expect(getFact(history[9]!.world, 'k11')).toBeUndefined();
    expect(getFact(world, 'k11')?.subject).toBe('e11');
    expect(Object.keys(world.entities).slice(0, 3)).toEqual(['e1', 'e2', 'e3']);
    // A world read back from JSON encodes to the same bytes and keeps growing from there.
    const decoded = worldFromJson(JSON.parse(JSON.stringify(world)));
    if (!decoded.ok) throw new Error(decoded.message);
    expect(JSON.stringify(decoded.world)).toBe(JSON.stringify(world));
    const next = applyBatch(decoded.world, [create('e301', 'Person 301')], { turn: 301 });
    expect(Object.keys(next.entities)).toHaveLength(301);
    expect(Object.keys(decoded.world.entities)).toHaveLength(300);
  });

  it('the kept name index equals one rebuilt from the entities, and still refuses look-alikes', () => {
    let world = emptyWorld();
    for (let turn = 1; turn <= 40; turn++) {
      const r = proposeBatch(
        world,
        [{ event_type: 'create_entity', entity: `e${turn}`, name: `Name ${turn}` }],
        undefined,
        {
          at: { turn },
        },
      );
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      world = r.world;
    }
    const kept = nameIndexOf(world.entities);
    const rebuilt = nameIndexOf({ ...world.entities });
    expect(kept).not.toBe(rebuilt);
    expect([...kept.keys()].sort()).toEqual([...rebuilt.keys()].sort());
    for (const skeleton of rebuilt.keys()) expect(kept.get(skeleton)).toEqual(rebuilt.get(skeleton));
    // "Name 7" written with a Cyrillic е (U+0435) looks like entity e7's name and is refused.
    const r = proposeBatch(
      world,
      [{ event_type: 'create_entity', entity: 'x', name: 'Nam\u0435 7' }],
      undefined,
      {
        at: { turn: 41 },
      },
    );
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]!.code).toBe('LEDGER_CONFUSABLE_NAME');
  });
});
