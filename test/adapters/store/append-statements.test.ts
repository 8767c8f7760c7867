// An append's statements, counted on both databases: the session lock and the parent's place are
// one read; on PostgreSQL the whole write (turn, payload, ledger batch, session) is one more statement, so
// an append is four round trips (BEGIN, read, write, COMMIT); SQLite writes row by row. The append never
// touches the world's snapshots: the snapshot store writes them, after the turn is in the log. What
// is read back is the same on both: depth, sibling index and seq follow the tree, a swipe counts its
// siblings, and a missing parent or a moved head writes nothing.

import { afterAll, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/adapters/store/repository.ts';
import { content, seedSession } from './fixtures.ts';
import {
  postgresAvailable,
  postgresHarness,
  type StoreHarness,
  sqliteHarness,
  testPgUrl,
} from './harness.ts';

const pgUrl = testPgUrl();
const pgAvailable = await postgresAvailable('the append statement counts on PostgreSQL', pgUrl);

function appendSuite(harness: StoreHarness, expected: { transaction: number }): void {
  const stores: Store[] = [];
  afterAll(async () => {
    for (const store of stores) await store.close();
    await harness.cleanup();
  });

  async function open(): Promise<{ store: Store; log: string[] }> {
    const log: string[] = [];
    const store = await harness.open(await harness.freshUrl(), { onQuery: (q) => log.push(q) });
    stores.push(store);
    return { store, log };
  }

  it(`an append with a ledger batch is ${expected.transaction} statements between BEGIN and COMMIT, none on snapshots`, async () => {
    const { store, log } = await open();
    const { session, genesis } = await seedSession(store);
    log.length = 0;
    const appended = await store.appendTurn({
      sessionId: session.id,
      parentId: genesis.id,
      expectedHeadId: genesis.id,
      ...content({ hp: 9 }),
      ledgerEvents: [{ type: 'a' }, { type: 'b' }],
      ledgerGameTime: '0001-01-01T08:00',
    });
    expect(appended.ok).toBe(true);
    const begin = log.findIndex((q) => /^\s*begin/i.test(q));
    const commit = log.findIndex((q) => /^\s*commit/i.test(q));
    expect(begin).toBeGreaterThanOrEqual(0);
    expect(commit - begin - 1).toBe(expected.transaction);
    expect(log.filter((q) => /world_snapshot_pieces/i.test(q))).toEqual([]);
    if (!appended.ok) return;
    const read = await store.getTurn(session.id, appended.turn.id);
    expect(read?.ledgerEvents).toEqual([{ type: 'a' }, { type: 'b' }]);
    expect(read?.state).toEqual({ hp: 9 });
    expect((await store.getWorldBase(session.id, appended.turn.id))?.snapshot).toBeNull();
    // The projection's snapshot of that turn goes to the snapshot store.
    expect(await store.putSnapshot(session.id, appended.turn.id, { version: 1 })).toEqual({ ok: true });
    const base = await store.getWorldBase(session.id, appended.turn.id);
    expect(base?.snapshot).toMatchObject({ depth: 1, world: { version: 1 } });
    const now = await store.getSession(session.id, session.principalId);
    expect([now?.headTurnId, now?.turnCount]).toEqual([appended.turn.id, 2]);
  });

  it('depth, sibling index and seq follow the tree; a missing parent or a moved head writes nothing', async () => {
    const { store } = await open();
    const { session, genesis } = await seedSession(store);
    const first = await store.appendTurn({
      sessionId: session.id,
      parentId: genesis.id,
      ...content({ n: 1 }),
    });
    const swipe = await store.appendTurn({
      sessionId: session.id,
      parentId: genesis.id,
      ...content({ n: 2 }),
    });
    const below = first.ok
      ? await store.appendTurn({ sessionId: session.id, parentId: first.turn.id, ...content({ n: 3 }) })
      : first;
    expect(first.ok && swipe.ok && below.ok).toBe(true);
    if (!first.ok || !swipe.ok || !below.ok) return;
    expect([first.turn.depth, first.turn.siblingIndex, first.turn.seq]).toEqual([1, 0, 1]);
    expect([swipe.turn.depth, swipe.turn.siblingIndex, swipe.turn.seq]).toEqual([1, 1, 2]);
    expect([below.turn.depth, below.turn.siblingIndex, below.turn.seq]).toEqual([2, 0, 3]);
    expect((await store.getTurn(session.id, swipe.turn.id))?.siblingIndex).toBe(1);
    const missing = await store.appendTurn({
      sessionId: session.id,
      parentId: 'no-such-turn',
      ...content({}),
    });
    expect(missing).toEqual({ ok: false, reason: 'parent-not-found' });
    const moved = await store.appendTurn({
      sessionId: session.id,
      parentId: genesis.id,
      expectedHeadId: genesis.id,
      ...content({}),
    });
    expect(moved).toEqual({ ok: false, reason: 'conflict', headTurnId: below.turn.id });
    expect(
      await store.appendTurn({ sessionId: 'no-such-session', parentId: genesis.id, ...content({}) }),
    ).toEqual({
      ok: false,
      reason: 'session-not-found',
    });
    expect((await store.listTree(session.id)).length).toBe(4);
  });
}

describe('append statements: SQLite', () => {
  // The read, the turn, its payload, its ledger batch, its snapshot, the session.
  appendSuite(sqliteHarness(), { transaction: 5 });
});

describe.skipIf(!pgAvailable)('append statements: PostgreSQL', () => {
  // The read, then everything written in one statement.
  appendSuite(postgresHarness(pgUrl), { transaction: 2 });
});
