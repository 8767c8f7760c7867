// World storage, run against SQLite and PostgreSQL: snapshots (whole, and written in pieces
// over several turns), the bounded world base, the paged ledger, and migrations 0004 and 0007 on databases
// written by the schema before each.

import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreInputError } from '../../../src/adapters/store/errors.ts';
import {
  MAX_LEDGER_GAME_TIME_CHARS,
  MAX_LEDGER_PAGE_TURNS,
  MAX_SNAPSHOT_PIECE_BYTES,
  MAX_SNAPSHOT_PIECES,
} from '../../../src/adapters/store/limits.ts';
import {
  MIGRATED_SNAPSHOT_INTERVAL,
  worldSnapshots,
} from '../../../src/adapters/store/migrations/0004_world_snapshots.ts';
import { snapshotPieces } from '../../../src/adapters/store/migrations/0007_snapshot_pieces.ts';
import { MIGRATIONS } from '../../../src/adapters/store/migrations/index.ts';
import type { LedgerEntry, Store, Turn, WorldBase } from '../../../src/adapters/store/repository.ts';
import {
  SNAPSHOT_PIECE_CHARS,
  type SnapshotPieces,
  splitSnapshotText,
} from '../../../src/adapters/store/snapshot-pieces.ts';
import {
  appendChain,
  appendProjected,
  content,
  mustAppend,
  type Projection,
  seedSession,
  storeProjection,
} from './fixtures.ts';
import type { StoreHarness } from './harness.ts';

type RawQuery = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * Runs statements on the database at `url` outside the store (`?` placeholders on either database): rows
 * the store itself can no longer write (an older schema's), and what it stored, as stored.
 */
async function withRawDatabase<T>(
  harness: StoreHarness,
  url: string,
  work: (query: RawQuery) => Promise<T>,
): Promise<T> {
  if (harness.name === 'sqlite') {
    const db = new Sqlite(url);
    try {
      return await work(async (text, params = []) => {
        const statement = db.prepare(text);
        if (statement.reader) return statement.all(...params) as Record<string, unknown>[];
        statement.run(...params);
        return [];
      });
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(async (text, params = []) => {
      let n = 0;
      const { rows } = await client.query(
        text.replace(/\?/g, () => `$${++n}`),
        params,
      );
      return rows as Record<string, unknown>[];
    });
  } finally {
    await client.end();
  }
}

/** Whether the database at `url` has a table named `name`. */
async function hasTable(harness: StoreHarness, query: RawQuery, name: string): Promise<boolean> {
  const rows =
    harness.name === 'sqlite'
      ? await query(`select count(*) as n from sqlite_master where type = 'table' and name = ?`, [name])
      : await query(
          `select count(*)::int as n from information_schema.tables
            where table_schema = current_schema() and table_name = ?`,
          [name],
        );
  return Number(rows[0]!.n) === 1;
}

/** The world-base entry of a turn's event. */
function entry(turn: Turn, position: number, event: unknown, gameTime?: string): LedgerEntry {
  const made = { turnId: turn.id, depth: turn.depth, position, event } as LedgerEntry;
  if (gameTime !== undefined) made.gameTime = gameTime;
  return made;
}

/** The world base `getWorldBase` should return: `entries` as listed, their characters counted. */
function worldBase(
  snapshot: { turn: Turn; text: string } | null,
  entries: LedgerEntry[],
  depth: number,
): WorldBase {
  return {
    snapshot:
      snapshot === null
        ? null
        : {
            turnId: snapshot.turn.id,
            depth: snapshot.turn.depth,
            world: JSON.parse(snapshot.text),
            chars: snapshot.text.length,
          },
    entries,
    eventChars: entries.reduce((sum, e) => sum + JSON.stringify(e.event).length, 0),
    depth,
  };
}

/** A world whose JSON text is over `pieces` pieces long, with a '😀' across the first piece boundary. */
function worldAcrossPieces(pieces: number): { world: Record<string, unknown>; text: string } {
  const lead = '{"head":"';
  const world = {
    head: `${'h'.repeat(SNAPSHOT_PIECE_CHARS - 1 - lead.length)}😀${'i'.repeat(10)}`,
    body: 'b'.repeat((pieces - 1) * SNAPSHOT_PIECE_CHARS),
    tail: [1, 'é', { deep: null, emoji: '🎲' }],
  };
  const text = JSON.stringify(world);
  // The pair's high half is the last unit of a full first piece: the split must move it to the next.
  if (!text.startsWith(lead) || text.charCodeAt(SNAPSHOT_PIECE_CHARS - 1) !== 0xd83d)
    throw new Error('worldAcrossPieces: the emoji is not across the boundary');
  return { world, text };
}

export function worldStorageSuite(harness: StoreHarness): void {
  let store: Store;
  let storeUrl: string;
  beforeAll(async () => {
    storeUrl = await harness.freshUrl();
    store = await harness.open(storeUrl);
  });
  afterAll(async () => {
    await store?.close();
  });

  describe('world snapshots and the world base', () => {
    it('reads the nearest snapshot on the branch and only the events below it, with their story clock', async () => {
      const { session, genesis } = await seedSession(store);
      const chain = await appendChain(store, session.id, genesis.id, 5);
      const snap = await appendProjected(store, {
        sessionId: session.id,
        parentId: chain[4]!.id,
        ...content({ n: 6 }, { ledgerEvents: [{ step: 6 }] }),
        worldSnapshot: { world: 6 },
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

  describe('snapshots written in pieces', () => {
    // A snapshot's JSON text cut at arbitrary places (inside a string, between tokens).
    const text = JSON.stringify({ world: 'x'.repeat(50), n: [1, 2, 3] });
    const cuts = [text.slice(0, 7), text.slice(7, 40), text.slice(40)] as const;

    /** Appends below `parent` a turn with one event `{ at: label }` and the given content. */
    function step(sessionId: string, parent: string, label: string, projection: Projection = {}) {
      return appendProjected(store, {
        sessionId,
        parentId: parent,
        ...content({ at: label }, { ledgerEvents: [{ at: label }] }),
        ...projection,
      });
    }

    it('reads a snapshot written over three turns once its total piece is stored, and walks past it before', async () => {
      expect(cuts.join('')).toBe(text);
      const { session, genesis } = await seedSession(store);
      const chain = await appendChain(store, session.id, genesis.id, 2);
      const t = await step(session.id, chain[1]!.id, 'T', { snapshotPieces: { from: 0, pieces: [cuts[0]] } });
      const child = await step(session.id, t.id, 'C', {
        snapshotPieces: { turnId: t.id, from: 1, pieces: [cuts[1]] },
      });
      const above = [entry(chain[0]!, 0, { step: 1 }), entry(chain[1]!, 0, { step: 2 })];
      // Two of three pieces: not read, the walk goes on to genesis (which has no snapshot).
      expect(await store.getWorldBase(session.id, child.id)).toEqual(
        worldBase(null, [...above, entry(t, 0, { at: 'T' }), entry(child, 0, { at: 'C' })], child.depth),
      );
      expect(await store.getWorldBase(session.id, t.id)).toEqual(
        worldBase(null, [...above, entry(t, 0, { at: 'T' })], t.depth),
      );

      const grandchild = await step(session.id, child.id, 'G', {
        snapshotPieces: { turnId: t.id, from: 2, pieces: [cuts[2]], total: 3 },
      });
      const below = await step(session.id, grandchild.id, 'H');
      const snapshot = { turn: t, text };
      expect(t.depth).toBe(3);
      expect(await store.getWorldBase(session.id, grandchild.id)).toEqual(
        worldBase(snapshot, [entry(child, 0, { at: 'C' }), entry(grandchild, 0, { at: 'G' })], 5),
      );
      expect(await store.getWorldBase(session.id, below.id)).toEqual(
        worldBase(
          snapshot,
          [entry(child, 0, { at: 'C' }), entry(grandchild, 0, { at: 'G' }), entry(below, 0, { at: 'H' })],
          6,
        ),
      );
      // Complete now, so every turn at or below T reads it, the child included.
      expect(await store.getWorldBase(session.id, child.id)).toEqual(
        worldBase(snapshot, [entry(child, 0, { at: 'C' })], 4),
      );
      expect(await store.getWorldBase(session.id, t.id)).toEqual(worldBase(snapshot, [], 3));
      expect(await store.getWorldBase(session.id, chain[1]!.id)).toEqual(worldBase(null, above, 2));
    });

    it('accepts a sibling branch storing the same pieces of an ancestor snapshot again, the reads unchanged', async () => {
      const { session, genesis } = await seedSession(store);
      const older = await step(session.id, genesis.id, 'S', { worldSnapshot: { older: true } });
      const olderSnapshot = { turn: older, text: JSON.stringify({ older: true }) };
      const t = await step(session.id, older.id, 'T', { snapshotPieces: { from: 0, pieces: [cuts[0]] } });
      const child = await step(session.id, t.id, 'C', {
        snapshotPieces: { turnId: t.id, from: 1, pieces: [cuts[1]] },
      });
      // Incomplete: the walk passes T and stops at the older complete snapshot.
      const childBefore = worldBase(
        olderSnapshot,
        [entry(t, 0, { at: 'T' }), entry(child, 0, { at: 'C' })],
        3,
      );
      expect(await store.getWorldBase(session.id, child.id)).toEqual(childBefore);

      // A swipe of the child stores pieces 0 and 1 of T's snapshot again, both already stored.
      const sibling = await step(session.id, t.id, "C'", {
        snapshotPieces: { turnId: t.id, from: 0, pieces: [cuts[0], cuts[1]] },
      });
      expect(sibling.siblingIndex).toBe(1);
      expect(await store.getWorldBase(session.id, sibling.id)).toEqual(
        worldBase(olderSnapshot, [entry(t, 0, { at: 'T' }), entry(sibling, 0, { at: "C'" })], 3),
      );
      expect(await store.getWorldBase(session.id, child.id)).toEqual(childBefore);

      // Below the child: piece 1 again with the last piece; below the swipe: the last piece again.
      const grandchild = await step(session.id, child.id, 'G', {
        snapshotPieces: { turnId: t.id, from: 1, pieces: [cuts[1], cuts[2]], total: 3 },
      });
      const snapshot = { turn: t, text };
      const grandchildBase = worldBase(
        snapshot,
        [entry(child, 0, { at: 'C' }), entry(grandchild, 0, { at: 'G' })],
        4,
      );
      expect(await store.getWorldBase(session.id, grandchild.id)).toEqual(grandchildBase);
      const cousin = await step(session.id, sibling.id, "G'", {
        snapshotPieces: { turnId: t.id, from: 2, pieces: [cuts[2]], total: 3 },
      });
      expect(await store.getWorldBase(session.id, cousin.id)).toEqual(
        worldBase(snapshot, [entry(sibling, 0, { at: "C'" }), entry(cousin, 0, { at: "G'" })], 4),
      );
      expect(await store.getWorldBase(session.id, grandchild.id)).toEqual(grandchildBase);
      const stored = await withRawDatabase(harness, storeUrl, (query) =>
        query('select position, text, total from world_snapshot_pieces where turn_id = ? order by position', [
          t.id,
        ]),
      );
      expect(
        stored.map((r) => [Number(r.position), r.text, r.total === null ? null : Number(r.total)]),
      ).toEqual([
        [0, cuts[0], null],
        [1, cuts[1], null],
        [2, cuts[2], 3],
      ]);
      const after = await store.getSession(session.id, session.principalId);
      expect(after?.turnCount).toBe(7);
      expect(after?.headTurnId).toBe(cousin.id);
    });

    it('splits a whole snapshot over one piece long without parting a surrogate pair, and reads it back equal', async () => {
      const { world, text: worldText } = worldAcrossPieces(2);
      expect(worldText.length).toBeGreaterThan(2 * SNAPSHOT_PIECE_CHARS);
      const { session, genesis } = await seedSession(store);
      const turn = await step(session.id, genesis.id, 'W', { worldSnapshot: world });
      const below = await step(session.id, turn.id, 'after');
      const base = await store.getWorldBase(session.id, below.id);
      expect(base).toEqual(worldBase({ turn, text: worldText }, [entry(below, 0, { at: 'after' })], 2));
      expect(base?.snapshot?.world).toEqual(world);
      const stored = await withRawDatabase(harness, storeUrl, (query) =>
        query('select position, text, total from world_snapshot_pieces where turn_id = ? order by position', [
          turn.id,
        ]),
      );
      const texts = stored.map((r) => r.text as string);
      expect(texts).toHaveLength(3);
      expect(texts.join('')).toBe(worldText);
      // The first piece is one unit short, so the pair stays whole at the start of the second.
      expect(texts[0]).toHaveLength(SNAPSHOT_PIECE_CHARS - 1);
      expect(texts[1]!.startsWith('😀')).toBe(true);
      expect(texts.every((t) => t.length <= SNAPSHOT_PIECE_CHARS)).toBe(true);
      expect(stored.map((r) => (r.total === null ? null : Number(r.total)))).toEqual([null, null, 3]);

      // A genesis turn's snapshot is stored the same way, once the session is created.
      const created = await store.createSession({
        principalId: session.principalId,
        cartridgeVersionId: session.cartridgeVersionId,
        seed: 1,
        genesis: { ...content({}), input: null },
      });
      if (!created.ok) throw new Error(created.reason);
      await storeProjection(store, created.session.id, created.turn.id, { worldSnapshot: world });
      expect(await store.getWorldBase(created.session.id, created.turn.id)).toEqual(
        worldBase({ turn: created.turn, text: worldText }, [], 0),
      );
    });

    it('refuses malformed snapshot pieces naming the field, writing nothing', async () => {
      const { session, genesis } = await seedSession(store);
      const parent = await step(session.id, genesis.id, 'P');
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ from: 0, pieces: [] }, /^putSnapshotPieces\.pieces: must be a non-empty/],
        [{ from: 0, pieces: '{}' }, /^putSnapshotPieces\.pieces: must be a non-empty/],
        [{ from: 0, pieces: ['{', 7, '}'] }, /^putSnapshotPieces\.pieces\[1\]: must be a string$/],
        [{ from: -1, pieces: ['{}'] }, /^putSnapshotPieces\.from: must be an integer ≥ 0$/],
        [{ from: 0.5, pieces: ['{}'] }, /^putSnapshotPieces\.from: must be an integer ≥ 0$/],
        [{ from: '0', pieces: ['{}'] }, /^putSnapshotPieces\.from: /],
        [
          { from: 1, pieces: ['a', 'b'], total: 4 },
          /^putSnapshotPieces\.total: must be the position after the last piece given \(3\)$/,
        ],
        [
          { from: 1, pieces: ['a', 'b'], total: 2 },
          /^putSnapshotPieces\.total: must be the position after the last piece given \(3\)$/,
        ],
        [
          { from: 0, pieces: ['{}', '{"a":"\u0000"}'] },
          /^putSnapshotPieces\.pieces\[1\]: contains a NUL character \(U\+0000\) at offset 6$/,
        ],
        [
          // A caller's cut inside a surrogate pair leaves a lone half in each piece.
          { from: 0, pieces: ['"\uD83D', '\uDE00"'], total: 2 },
          /^putSnapshotPieces\.pieces\[0\]: contains a lone surrogate/,
        ],
        [{ turnId: '', from: 0, pieces: ['{}'] }, /^putSnapshotPieces\.turnId: must be a non-empty string$/],
      ];
      for (const [given, message] of cases) {
        const error = await store
          .putSnapshotPieces(session.id, { turnId: parent.id, ...given } as unknown as SnapshotPieces)
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        expect(error, String(message)).toBeInstanceOf(StoreInputError);
        expect((error as Error).message).toMatch(message);
      }
      const rows = await withRawDatabase(harness, storeUrl, (query) =>
        query('select count(*) as n from world_snapshot_pieces where turn_id = ?', [parent.id]),
      );
      expect(Number(rows[0]?.n)).toBe(0);
      expect((await store.getWorldBase(session.id, parent.id))?.snapshot).toBeNull();
    });

    it('refuses pieces for a turn of another session or an unknown turn, writing nothing; any turn of the session is taken', async () => {
      const mine = await seedSession(store);
      const theirs = await seedSession(store);
      const theirTurn = await step(theirs.session.id, theirs.genesis.id, 'theirs');
      const a = await step(mine.session.id, mine.genesis.id, 'a');
      const b = await step(mine.session.id, a.id, 'b');
      for (const turnId of [theirTurn.id, 'no-such-turn']) {
        expect(
          await store.putSnapshotPieces(mine.session.id, {
            turnId,
            from: 0,
            pieces: ['{"hijacked":true}'],
            total: 1,
          }),
        ).toEqual({ ok: false, reason: 'turn-not-found' });
        expect(await store.putSnapshot(mine.session.id, turnId, { hijacked: true })).toEqual({
          ok: false,
          reason: 'turn-not-found',
        });
      }
      expect((await store.getWorldBase(theirs.session.id, theirTurn.id))?.snapshot).toBeNull();
      // A turn further up the branch is accepted.
      const own = await step(mine.session.id, b.id, 'own', {
        snapshotPieces: { turnId: a.id, from: 0, pieces: ['{"at":"a"}'], total: 1 },
      });
      expect((await store.getWorldBase(mine.session.id, own.id))?.snapshot).toMatchObject({
        turnId: a.id,
        world: { at: 'a' },
      });
    });

    it(`MAX_SNAPSHOT_PIECE_BYTES: a piece of ${MAX_SNAPSHOT_PIECE_BYTES} UTF-8 bytes is stored and read, one byte more is refused`, async () => {
      const { session, genesis } = await seedSession(store);
      // Two bytes a character: the limit counts bytes, not characters.
      const first = `"${'é'.repeat(MAX_SNAPSHOT_PIECE_BYTES / 2 - 1)}x`;
      expect(Buffer.byteLength(first, 'utf8')).toBe(MAX_SNAPSHOT_PIECE_BYTES);
      await expect(
        store.putSnapshotPieces(session.id, {
          turnId: genesis.id,
          from: 0,
          pieces: [`${first}x`, '"'],
          total: 2,
        }),
      ).rejects.toThrow(
        `putSnapshotPieces.pieces[0]: is ${MAX_SNAPSHOT_PIECE_BYTES + 1} bytes, over the limit MAX_SNAPSHOT_PIECE_BYTES = ${MAX_SNAPSHOT_PIECE_BYTES}`,
      );
      expect((await store.getWorldBase(session.id, genesis.id))?.snapshot).toBeNull();
      const turn = await step(session.id, genesis.id, 'at the limit', {
        snapshotPieces: { from: 0, pieces: [first, '"'], total: 2 },
      });
      expect(await store.getWorldBase(session.id, turn.id)).toEqual(
        worldBase({ turn, text: `${first}"` }, [], 1),
      );
    });

    it(`MAX_SNAPSHOT_PIECES: pieces may end at position ${MAX_SNAPSHOT_PIECES}, not one past it`, async () => {
      const { session, genesis } = await seedSession(store);
      const parent = await step(session.id, genesis.id, 'P');
      const last = MAX_SNAPSHOT_PIECES - 1;
      const own = await step(session.id, parent.id, 'own', { snapshotPieces: { from: last, pieces: ['1'] } });
      const onParent = await step(session.id, own.id, 'on parent', {
        snapshotPieces: { turnId: parent.id, from: last, pieces: ['1'] },
      });
      const over = `would end at position ${MAX_SNAPSHOT_PIECES + 1}, over the limit MAX_SNAPSHOT_PIECES = ${MAX_SNAPSHOT_PIECES}`;
      for (const pieces of [
        { from: MAX_SNAPSHOT_PIECES, pieces: ['1'] },
        { turnId: parent.id, from: last, pieces: ['1', '2'] },
        {
          from: 0,
          pieces: Array.from({ length: MAX_SNAPSHOT_PIECES + 1 }, () => '1'),
          total: MAX_SNAPSHOT_PIECES + 1,
        },
      ]) {
        await expect(store.putSnapshotPieces(session.id, { turnId: onParent.id, ...pieces })).rejects.toThrow(
          `putSnapshotPieces.pieces: ${over}`,
        );
      }
      const after = await store.getSession(session.id, session.principalId);
      expect(after?.turnCount).toBe(4);
      expect(after?.headTurnId).toBe(onParent.id);
      // Neither snapshot has its total piece: both are walked past, to genesis.
      expect(await store.getWorldBase(session.id, onParent.id)).toEqual(
        worldBase(
          null,
          [
            entry(parent, 0, { at: 'P' }),
            entry(own, 0, { at: 'own' }),
            entry(onParent, 0, { at: 'on parent' }),
          ],
          3,
        ),
      );
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

  describe('migration 0007', () => {
    it('moves whole snapshots written by migrations 1–6 into pieces, reading back the same worlds and events', async () => {
      const url = await harness.freshUrl();
      const before = MIGRATIONS.filter((m) => m.version < snapshotPieces.version);
      const old = await harness.open(url, { migrations: before });
      expect(await old.schemaVersion()).toBe(snapshotPieces.version - 1);
      const { session, genesis } = await seedSession(old);
      const step = (parent: string, event: Record<string, unknown>, gameTime?: string) =>
        mustAppend(old, {
          sessionId: session.id,
          parentId: parent,
          ...content(event, {
            ledgerEvents: [event],
            ...(gameTime === undefined ? {} : { ledgerGameTime: gameTime }),
          }),
        });
      // Over 200 pieces: more than one insert statement of the migration (PIECES_PER_INSERT).
      const big = worldAcrossPieces(201);
      const bigPieces = splitSnapshotText(big.text);
      expect(bigPieces.length).toBeGreaterThan(201);
      const first = await step(genesis.id, { step: 1 });
      const bigTurn = await step(first.id, { step: 2 });
      const afterBig = await step(bigTurn.id, { step: 3 }, '1850-01-01T00:00:03Z');
      const belowBig = await step(afterBig.id, { step: 4 });
      // Another branch: a small snapshot on a later turn that has events of its own.
      const other = await step(genesis.id, { other: 1 });
      const small = await step(other.id, { other: 2 });
      const smallText = JSON.stringify({ small: ['world', 2] });
      const belowSmall = await step(small.id, { other: 3 });
      // More snapshots than the migration reads at once (BATCH = 50), each on its own turn.
      const many: { turn: Turn; text: string }[] = [];
      let parent = belowSmall.id;
      for (let i = 0; i < 60; i++) {
        const turn = await step(parent, { many: i });
        many.push({ turn, text: JSON.stringify({ many: i, name: `w${i}` }) });
        parent = turn.id;
      }
      await old.close();

      // The store of this build writes pieces; rows of the schema before 0007 are written here, as it did.
      await withRawDatabase(harness, url, async (query) => {
        expect(await hasTable(harness, query, 'world_snapshots')).toBe(true);
        expect(await hasTable(harness, query, 'world_snapshot_pieces')).toBe(false);
        for (const { turn, text } of [
          { turn: bigTurn, text: big.text },
          { turn: small, text: smallText },
          ...many,
        ])
          await query('insert into world_snapshots (turn_id, session_id, world) values (?, ?, ?)', [
            turn.id,
            session.id,
            text,
          ]);
      });
      // What the schema before 0007 gave: each turn's nearest snapshot on its branch, the events below it.
      const expected = new Map<string, WorldBase>([
        [first.id, worldBase(null, [entry(first, 0, { step: 1 })], 1)],
        [bigTurn.id, worldBase({ turn: bigTurn, text: big.text }, [], 2)],
        [
          belowBig.id,
          worldBase(
            { turn: bigTurn, text: big.text },
            [entry(afterBig, 0, { step: 3 }, '1850-01-01T00:00:03Z'), entry(belowBig, 0, { step: 4 })],
            4,
          ),
        ],
        [other.id, worldBase(null, [entry(other, 0, { other: 1 })], 1)],
        [small.id, worldBase({ turn: small, text: smallText }, [], 2)],
        [belowSmall.id, worldBase({ turn: small, text: smallText }, [entry(belowSmall, 0, { other: 3 })], 3)],
        ...many.map(({ turn, text }): [string, WorldBase] => [
          turn.id,
          worldBase({ turn, text }, [], turn.depth),
        ]),
      ]);

      const current = await harness.open(url);
      try {
        expect(await current.schemaVersion()).toBe(MIGRATIONS.at(-1)!.version);
        for (const [turnId, base] of expected)
          expect(await current.getWorldBase(session.id, turnId)).toEqual(base);
        expect((await current.getWorldBase(session.id, belowBig.id))?.snapshot?.world).toEqual(big.world);
        // Written after the migration, a snapshot in pieces over the migrated one reads as usual.
        const text = JSON.stringify({ later: true });
        const later = await appendProjected(current, {
          sessionId: session.id,
          parentId: belowBig.id,
          ...content({}),
          snapshotPieces: { from: 0, pieces: [text.slice(0, 5), text.slice(5)], total: 2 },
        });
        expect(await current.getWorldBase(session.id, later.id)).toEqual(
          worldBase({ turn: later, text }, [], 5),
        );
      } finally {
        await current.close();
      }
      await withRawDatabase(harness, url, async (query) => {
        expect(await hasTable(harness, query, 'world_snapshots')).toBe(false);
        const rows = await query(
          'select position, text, total from world_snapshot_pieces where turn_id = ? order by position',
          [bigTurn.id],
        );
        expect(rows.map((r) => r.text)).toEqual(bigPieces);
        expect(rows.map((r) => Number(r.position))).toEqual(bigPieces.map((_, i) => i));
        expect(rows.map((r) => (r.total === null ? null : Number(r.total)))).toEqual(
          bigPieces.map((_, i) => (i === bigPieces.length - 1 ? bigPieces.length : null)),
        );
        expect((rows[1]!.text as string).startsWith('😀')).toBe(true);
        const counts = await query(
          'select count(*) as n, count(total) as totals from world_snapshot_pieces where session_id = ?',
          [session.id],
        );
        // The big snapshot's pieces, one each for the 61 small ones and the two written after.
        expect([Number(counts[0]!.n), Number(counts[0]!.totals)]).toEqual([bigPieces.length + 61 + 2, 63]);
      });
    });
  });
}
