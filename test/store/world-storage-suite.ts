// World storage (issue 10), run against SQLite and PostgreSQL: snapshots, the bounded world base, the
// paged ledger, and migration 0004 on a database written by the schema before it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreInputError } from '../../src/store/errors.ts';
import { MAX_LEDGER_GAME_TIME_CHARS, MAX_LEDGER_PAGE_TURNS } from '../../src/store/limits.ts';
import {
  MIGRATED_SNAPSHOT_INTERVAL,
  worldSnapshots,
} from '../../src/store/migrations/0004_world_snapshots.ts';
import { MIGRATIONS } from '../../src/store/migrations/index.ts';
import type { Store } from '../../src/store/repository.ts';
import { appendChain, content, mustAppend, seedSession } from './fixtures.ts';
import type { StoreHarness } from './harness.ts';

export function worldStorageSuite(harness: StoreHarness): void {
  let store: Store;
  beforeAll(async () => {
    store = await harness.open(await harness.freshUrl());
  });
  afterAll(async () => {
    await store?.close();
  });

  describe('world snapshots and the world base', () => {
    it('reads the nearest snapshot on the branch and only the events below it, with their story clock', async () => {
      const { session, genesis } = await seedSession(store);
      const chain = await appendChain(store, session.id, genesis.id, 5);
      const snap = await mustAppend(store, {
        sessionId: session.id,
        parentId: chain[4]!.id,
        ...content({ n: 6 }, { ledgerEvents: [{ step: 6 }], worldSnapshot: { world: 6 } }),
      });
      const after = await mustAppend(store, {
        sessionId: session.id,
        parentId: snap.id,
        ...content(
          { n: 7 },
          { ledgerEvents: [{ step: 7 }, { step: 7.5 }], ledgerGameTime: '1850-03-01T10:00:00Z' },
        ),
      });
      const base = await store.getWorldBase(session.id, after.id);
      expect(base).toEqual({
        snapshot: {
          turnId: snap.id,
          depth: 6,
          world: { world: 6 },
          chars: JSON.stringify({ world: 6 }).length,
        },
        entries: [
          { turnId: after.id, depth: 7, position: 0, event: { step: 7 }, gameTime: '1850-03-01T10:00:00Z' },
          { turnId: after.id, depth: 7, position: 1, event: { step: 7.5 }, gameTime: '1850-03-01T10:00:00Z' },
        ],
        eventChars: JSON.stringify({ step: 7 }).length + JSON.stringify({ step: 7.5 }).length,
        depth: 7,
      });
      // The snapshot turn itself: its snapshot, no events.
      expect(await store.getWorldBase(session.id, snap.id)).toMatchObject({
        snapshot: { depth: 6 },
        entries: [],
      });
      // Above the snapshot, the walk reaches genesis.
      const above = await store.getWorldBase(session.id, chain[2]!.id);
      expect(above?.snapshot).toBeNull();
      expect(above?.entries.map((e) => e.event)).toEqual([{ step: 1 }, { step: 2 }, { step: 3 }]);
      expect(await store.getWorldBase(session.id, 'no-such-turn')).toBeUndefined();
    });

    it('refuses a story clock over MAX_LEDGER_GAME_TIME_CHARS, saving nothing', async () => {
      const { session, genesis } = await seedSession(store);
      const clock = 't'.repeat(MAX_LEDGER_GAME_TIME_CHARS);
      const at = await store.appendTurn({
        sessionId: session.id,
        parentId: genesis.id,
        ...content({}, { ledgerEvents: [{ e: 1 }], ledgerGameTime: clock }),
      });
      expect(at.ok).toBe(true);
      await expect(
        store.appendTurn({
          sessionId: session.id,
          parentId: genesis.id,
          ...content({}, { ledgerEvents: [{ e: 1 }], ledgerGameTime: `${clock}t` }),
        }),
      ).rejects.toThrow(/ledgerGameTime: is 65 characters, over the limit MAX_LEDGER_GAME_TIME_CHARS = 64/);
      expect((await store.listChildren(session.id, genesis.id)).length).toBe(1);
    });
  });

  describe('the paged ledger', () => {
    it('pages a branch backwards in bounded walks, to genesis', async () => {
      const { session, genesis } = await seedSession(store);
      const chain = await appendChain(store, session.id, genesis.id, 7);
      const first = await store.getLedgerPage(session.id, chain[6]!.id, 3);
      expect(first?.entries.map((e) => e.event)).toEqual([{ step: 5 }, { step: 6 }, { step: 7 }]);
      expect(first?.turns).toBe(3);
      expect(first?.nextTurnId).toBe(chain[3]!.id);
      const second = await store.getLedgerPage(session.id, first!.nextTurnId!, 3);
      expect(second?.entries.map((e) => e.event)).toEqual([{ step: 2 }, { step: 3 }, { step: 4 }]);
      const last = await store.getLedgerPage(session.id, second!.nextTurnId!, 3);
      expect(last?.entries.map((e) => e.event)).toEqual([{ step: 1 }]);
      expect(last?.turns).toBe(2);
      expect(last?.nextTurnId).toBeNull();
      expect(await store.getLedgerPage(session.id, 'nope', 3)).toBeUndefined();
    });

    it('takes 1 to MAX_LEDGER_PAGE_TURNS turns a page', async () => {
      const { session, genesis } = await seedSession(store);
      expect((await store.getLedgerPage(session.id, genesis.id, MAX_LEDGER_PAGE_TURNS))?.turns).toBe(1);
      await expect(store.getLedgerPage(session.id, genesis.id, MAX_LEDGER_PAGE_TURNS + 1)).rejects.toThrow(
        /MAX_LEDGER_PAGE_TURNS/,
      );
      await expect(store.getLedgerPage(session.id, genesis.id, 0)).rejects.toThrow(StoreInputError);
    });
  });

  describe('migration 0004', () => {
    it('moves worldAfter out of records written by the schema before it, keeping snapshots and story clocks', async () => {
      const url = await harness.freshUrl();
      const before = MIGRATIONS.filter((m) => m.version < worldSnapshots.version);
      const old = await harness.open(url, { migrations: before });
      const { session, genesis } = await seedSession(old);
      const depth = MIGRATED_SNAPSHOT_INTERVAL + 2;
      let parent = genesis.id;
      const ids: string[] = [];
      for (let d = 1; d <= depth; d++) {
        const turn = await mustAppend(old, {
          sessionId: session.id,
          parentId: parent,
          ...content(
            { n: d },
            {
              record: {
                kind: 'turn',
                narration: `n${d}`,
                ledger: {
                  status: 'applied',
                  turn: d,
                  gameTime: `1850-01-01T00:00:${String(d % 60).padStart(2, '0')}Z`,
                  worldAfter: { at: d },
                },
              },
              ledgerEvents: [{ step: d }],
            },
          ),
        });
        ids.push(turn.id);
        parent = turn.id;
      }
      // A record without a ledger is left as it was.
      const plain = await mustAppend(old, { sessionId: session.id, parentId: genesis.id, ...content({}) });
      await old.close();

      const current = await harness.open(url);
      expect(await current.schemaVersion()).toBe(MIGRATIONS.at(-1)!.version);
      for (const id of ids) {
        const turn = await current.getTurn(session.id, id);
        const ledger = (turn!.record as { ledger: Record<string, unknown> }).ledger;
        expect(ledger).not.toHaveProperty('worldAfter');
        expect(ledger.status).toBe('applied');
      }
      expect((await current.getTurn(session.id, plain.id))?.record).toEqual({ kind: 'test' });
      const base = await current.getWorldBase(session.id, ids.at(-1)!);
      expect(base?.snapshot).toMatchObject({
        depth: MIGRATED_SNAPSHOT_INTERVAL,
        world: { at: MIGRATED_SNAPSHOT_INTERVAL },
      });
      expect(base?.entries.map((e) => [e.depth, e.gameTime])).toEqual([
        [depth - 1, `1850-01-01T00:00:${String((depth - 1) % 60).padStart(2, '0')}Z`],
        [depth, `1850-01-01T00:00:${String(depth % 60).padStart(2, '0')}Z`],
      ]);
      await current.close();
    });
  });
}
