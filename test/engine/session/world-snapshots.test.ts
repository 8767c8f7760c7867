// The world at a turn without the world in the record: records keep only their batch, snapshots
// are written on some turns of each branch, and the world read from memory, from the nearest snapshot, and
// from a full replay of the branch are one and the same.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/core/ledger/index.ts';
import { createScriptedModels } from '../../../src/adapters/llm/scripted.ts';
import { worldFromRows } from '../../../src/engine/session/ledger.ts';
import type { SessionService } from '../../../src/engine/session/service.ts';
import { cartridgeLedger } from '../../../src/engine/session/ledger.ts';
import { SNAPSHOT_CHARS_PER_WALKED_TURN } from '../../../src/engine/session/limits.ts';
import {
  nextSnapshotProgress,
  type SnapshotProgress,
  snapshotDue,
  WorldCache,
} from '../../../src/engine/session/world-cache.ts';
import type { SnapshotPieces } from '../../../src/adapters/store/index.ts';
import { verifySession } from '../../../src/engine/session/verify.ts';
import { openStore } from '../../../src/adapters/store/open.ts';
import type { Store } from '../../../src/adapters/store/repository.ts';
import { fixture } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnesos-world-snapshots-'));
const stores: Store[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const TURNS = 30;

/** A Narrator that creates one new entity and records one fact about it every turn. */
function growingWorld(turns: number) {
  return createScriptedModels({
    director: Array.from({ length: turns }, () => ({ text: 'Factual outcomes: the player walks on.' })),
    narrator: Array.from({ length: turns }, (_, i) => ({
      text: `Turn ${i + 1}: a stranger appears.`,
      toolCalls: [
        {
          name: 'record_world_changes',
          args: {
            events: [
              {
                event_type: 'create_entity',
                entity: `stranger_${i + 1}`,
                name: `Stranger ${i + 1}`,
                entity_type: 'person',
              },
              {
                event_type: 'add_fact',
                subject: `stranger_${i + 1}`,
                predicate: 'arrived_on_turn',
                value: i + 1,
              },
            ],
          },
        },
      ],
    })),
    npc: [],
  });
}

describe('world snapshots', () => {
  it('records keep only their batch; memory, snapshot and full replay give the same world', async () => {
    const store = await openStore(join(dir, 'grow.db'));
    stores.push(store);
    const script = growingWorld(TURNS);
    // A small snapshot threshold, so 30 turns write several snapshots.
    const f = await fixture(store, {
      models: () => script,
      service: { snapshotRule: { ratio: 4, minEventChars: 600 } },
    });
    const { session } = await f.service.createSession(f.principal.id, {
      cartridgeVersion: f.version.id,
      seed: 1,
    });
    const turnIds: string[] = [];
    const recordChars: number[] = [];
    for (let i = 0; i < TURNS; i++) {
      const played = await f.service.playTurn(f.principal.id, session.id, { turn: { input: 'I walk on' } });
      const record = played.turn.record as { ledger: Record<string, unknown> };
      expect(record.ledger.status).toBe('applied');
      expect('worldAfter' in record.ledger).toBe(false);
      const stored = await store.getTurn(session.id, played.turn.id);
      expect('worldAfter' in (stored!.record as { ledger: object }).ledger).toBe(false);
      recordChars.push(JSON.stringify(stored!.record).length);
      turnIds.push(played.turn.id);
    }
    // The record does not grow with the world: its prompt receipts grow with the world summary and the
    // history until each section keeps MAX_SECTION_RECEIPTS of them, then it stays flat (a few characters of
    // turn numbers at most). Before that it grows by a few hundred characters a turn.
    const settled = recordChars.slice(-5);
    expect(Math.max(...settled)).toBeLessThan(Math.min(...settled) * 1.02);
    expect(recordChars.at(-1)!).toBeGreaterThan(recordChars[0]!);

    const head = turnIds.at(-1)!;
    const base = await store.getWorldBase(session.id, head);
    expect(base?.snapshot).not.toBeNull();
    expect(base!.snapshot!.depth).toBeGreaterThan(1);
    expect(base!.snapshot!.depth).toBeLessThanOrEqual(TURNS);
    // Only the batches after the snapshot are read.
    expect(new Set(base!.entries.map((e) => e.depth)).size).toBe(TURNS - base!.snapshot!.depth);

    const warm = await f.service.worldAt(f.principal.id, session.id, head);
    const cold = await fixture(store, { service: { worldCacheSize: 0 } });
    const fromSnapshot = await cold.service.worldAt(f.principal.id, session.id, head);
    const rows = await store.getLedgerLog(session.id, head);
    const { cartridge } = await f.service.cartridgeOf(session);
    const replayed = worldFromRows(rows!, cartridgeLedger(cartridge).policy);
    expect(warm.result.ok && fromSnapshot.result.ok && replayed.ok).toBe(true);
    if (!warm.result.ok || !fromSnapshot.result.ok || !replayed.ok) return;
    expect(canonicalJson(fromSnapshot.result.world)).toBe(canonicalJson(warm.result.world));
    expect(canonicalJson(replayed.world)).toBe(canonicalJson(warm.result.world));
    expect(Object.keys(warm.result.world.entities)).toContain(`stranger_${TURNS}`);
    // Every turn's world matches its full replay, including the story clock the batch was stamped with.
    for (const id of [turnIds[0]!, turnIds[9]!, turnIds[20]!]) {
      const at = await cold.service.worldAt(f.principal.id, session.id, id);
      const full = worldFromRows(
        (await store.getLedgerLog(session.id, id))!,
        cartridgeLedger(cartridge).policy,
      );
      expect(at.result.ok && full.ok).toBe(true);
      if (at.result.ok && full.ok) expect(canonicalJson(at.result.world)).toBe(canonicalJson(full.world));
    }
    const verified = await verifySession(store, f.library, session.id);
    expect(verified?.ok).toBe(true);
  });

  it('a branch from an old turn, played by a process that never saw it, starts from that turn’s world', async () => {
    const store = await openStore(join(dir, 'branch.db'));
    stores.push(store);
    const script = growingWorld(8);
    const f = await fixture(store, {
      models: () => script,
      service: { snapshotRule: { ratio: 4, minEventChars: 300 } },
    });
    const { session } = await f.service.createSession(f.principal.id, {
      cartridgeVersion: f.version.id,
      seed: 2,
    });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      ids.push((await f.service.playTurn(f.principal.id, session.id, { turn: { input: 'on' } })).turn.id);
    }
    const newcomer = createScriptedModels({
      director: [{ text: 'Factual outcomes: someone new.' }],
      narrator: [
        {
          text: 'A newcomer.',
          toolCalls: [
            {
              name: 'record_world_changes',
              args: { events: [{ event_type: 'create_entity', entity: 'newcomer', name: 'Newcomer' }] },
            },
          ],
        },
      ],
      npc: [],
    });
    const other = await fixture(store, {
      models: () => newcomer,
      service: { worldCacheSize: 0, snapshotRule: { ratio: 4, minEventChars: 300 } },
    });
    const branch = await other.service.playTurn(f.principal.id, session.id, {
      parentId: ids[1]!,
      turn: { input: 'someone new' },
    });
    expect((branch.turn.record as { ledger: { status: string } }).ledger.status).toBe('applied');
    const world = await other.service.worldAt(f.principal.id, session.id, branch.turn.id);
    expect(world.result.ok).toBe(true);
    if (world.result.ok) {
      const keys = Object.keys(world.result.world.entities);
      expect(keys.filter((k) => k.startsWith('stranger_')).sort()).toEqual(['stranger_1', 'stranger_2']);
      expect(keys).toContain('newcomer');
    }
  });

  it('a tampered snapshot fails the read with its depth, not a crash', async () => {
    const store = await openStore(join(dir, 'tamper.db'));
    stores.push(store);
    const f = await fixture(store);
    const { session, turn } = await f.service.createSession(f.principal.id, {
      cartridgeVersion: f.version.id,
      seed: 3,
    });
    const appended = await store.appendTurn({
      sessionId: session.id,
      parentId: turn.id,
      narration: '',
      record: {},
      state: turn.state,
      seed: 1,
      createdAt: 1,
    });
    expect(appended.ok).toBe(true);
    if (!appended.ok) return;
    const tampered = { version: 1, entities: { 'not a key': {} } };
    expect(await store.putSnapshot(session.id, appended.turn.id, tampered)).toEqual({ ok: true });
    const cold = await fixture(store, { service: { worldCacheSize: 0 } });
    const read = await cold.service.worldAt(f.principal.id, session.id, appended.turn.id);
    expect(read.result.ok).toBe(false);
    if (!read.result.ok) {
      expect(read.result.turn).toBe(1);
      expect(read.result.errors[0]!.message).toContain('snapshot at depth 1');
    }
  });
});

describe('the snapshot rule and the world cache', () => {
  it('snapshots once the events since the last one reach a quarter of it, and at least the minimum', () => {
    const rule = { ratio: 4, minEventChars: 100 };
    expect(snapshotDue(99, 0, rule)).toBe(false);
    expect(snapshotDue(100, 0, rule)).toBe(true);
    expect(snapshotDue(249, 1_000, rule)).toBe(false);
    expect(snapshotDue(250, 1_000, rule)).toBe(true);
    // However few the events, at most `maxTurns` turns pass between two snapshots…
    const turns = { ...rule, maxTurns: 3 };
    expect(snapshotDue(0, 200, turns, 2)).toBe(false);
    expect(snapshotDue(0, 200, turns, 3)).toBe(true);
    // …or one turn per SNAPSHOT_CHARS_PER_WALKED_TURN characters of the last snapshot, when that is more.
    const big = 10 * SNAPSHOT_CHARS_PER_WALKED_TURN;
    expect(snapshotDue(0, big, turns, 9)).toBe(false);
    expect(snapshotDue(0, big, turns, 10)).toBe(true);
  });

  it('a branch of turns that record nothing (offline play) still gets a snapshot every maxTurns turns', async () => {
    const store = await openStore(join(dir, 'offline.db'));
    stores.push(store);
    const f = await fixture(store, {
      service: { snapshotRule: { ratio: 2, minEventChars: 16_384, maxTurns: 3 } },
    });
    const { session } = await f.service.createSession(f.principal.id, {
      cartridgeVersion: f.version.id,
      seed: 4,
    });
    let head = '';
    for (let i = 0; i < 7; i++)
      head = (await f.service.playTurn(f.principal.id, session.id, { turn: { input: 'check pack' } })).turn
        .id;
    const base = await store.getWorldBase(session.id, head);
    expect(base?.snapshot?.depth).toBe(6);
    expect(base?.depth).toBe(7);
  });

  it('keeps the most recently used worlds up to its size', () => {
    const cache = new WorldCache(2);
    const entry = (n: number) => ({
      world: { n } as never,
      sinceSnapshotChars: n,
      snapshotChars: 0,
      sinceSnapshotTurns: 0,
    });
    cache.set('a', entry(1));
    cache.set('b', entry(2));
    expect(cache.get('a')?.sinceSnapshotChars).toBe(1);
    cache.set('c', entry(3));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.size).toBe(2);
    const off = new WorldCache(0);
    off.set('a', entry(1));
    expect(off.get('a')).toBeUndefined();
  });
});

describe('snapshots stored a few pieces a turn', () => {
  const step = (turnId: string, eventChars: number, text: string) => ({
    turnId,
    eventChars,
    worldText: () => text,
  });
  const start = { sinceSnapshotChars: 0, snapshotChars: 0, sinceSnapshotTurns: 0 };

  it('a world that fits in one piece is stored whole by the turn the rule falls due', () => {
    const rule = { ratio: 4, minEventChars: 100, pieceChars: 50 };
    const quiet = nextSnapshotProgress(start, step('t1', 99, '{"w":1}'), rule);
    expect(quiet.write).toBeUndefined();
    expect(quiet.progress).toEqual({ sinceSnapshotChars: 99, snapshotChars: 0, sinceSnapshotTurns: 1 });
    const due = nextSnapshotProgress(quiet.progress, step('t2', 1, '{"w":2}'), rule);
    expect(due.write).toEqual({ turnId: 't2', from: 0, pieces: ['{"w":2}'], total: 1 });
    expect(due.progress).toEqual({ sinceSnapshotChars: 0, snapshotChars: 7, sinceSnapshotTurns: 0 });
  });

  it('a big world is stored over about as many turns as its cycle took, at most a piece over its pace', () => {
    const rule = { ratio: 4, minEventChars: 100, pieceChars: 10 };
    const text = JSON.stringify({ entities: 'x'.repeat(185) }); // 200 characters: 20 pieces
    // Ten turns of 10 event characters each bring the rule due on the tenth.
    let progress: SnapshotProgress = start;
    let write: SnapshotPieces | undefined;
    for (let t = 1; t <= 10; t++)
      ({ progress, write } = nextSnapshotProgress(progress, step(`t${t}`, 10, text), rule));
    // The turn it falls due on stores the first piece at once and its share (200 / 10 turns).
    expect(write).toEqual({
      turnId: 't10',
      from: 0,
      pieces: [text.slice(0, 10), text.slice(10, 20), text.slice(20, 30)],
    });
    expect(progress.pending?.turnId).toBe('t10');
    const stored = [...write!.pieces];
    const perTurn: number[] = [];
    let turns = 0;
    while (progress.pending !== undefined && turns < 100) {
      turns += 1;
      ({ progress, write } = nextSnapshotProgress(progress, step(`u${turns}`, 10, 'unused'), rule));
      if (write === undefined) continue;
      // Later pieces name the snapshot's turn and follow on from the last one stored.
      expect(write.turnId).toBe('t10');
      expect(write.from).toBe(stored.length);
      stored.push(...write.pieces);
      perTurn.push(write.pieces.join('').length);
    }
    expect(stored.join('')).toBe(text);
    expect(write?.total).toBe(stored.length);
    expect(turns).toBeGreaterThanOrEqual(8);
    expect(turns).toBeLessThanOrEqual(10);
    // Pace 20 characters a turn, whole pieces of 10: never more than pace + a piece in one turn.
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(20 + 10);
    // The events of the turns meanwhile count towards the next snapshot.
    expect(progress).toEqual({
      sinceSnapshotChars: turns * 10,
      snapshotChars: 200,
      sinceSnapshotTurns: turns,
    });
  });

  it('no snapshot begins while one is pending, even when the events say one is due', () => {
    const rule = { ratio: 4, minEventChars: 10, pieceChars: 10 };
    const text = 'y'.repeat(100);
    const begun = nextSnapshotProgress({ ...start, sinceSnapshotTurns: 9 }, step('t1', 10, text), rule);
    expect(begun.progress.pending?.turnId).toBe('t1');
    const next = nextSnapshotProgress(begun.progress, step('t2', 1_000, 'z'.repeat(100)), rule);
    expect(next.progress.pending?.turnId).toBe('t1');
    expect(next.write?.turnId).toBe('t1');
  });

  it('a branch found twice past the rule (a pending snapshot was abandoned) stores a fresh one whole', () => {
    const rule = { ratio: 4, minEventChars: 100, pieceChars: 10 };
    const text = 'w'.repeat(95);
    // Below twice the threshold: paced.
    const paced = nextSnapshotProgress({ ...start, sinceSnapshotTurns: 40 }, step('t1', 199, text), rule);
    expect(paced.progress.pending).toBeDefined();
    // At twice the threshold: whole, at once.
    const overdue = nextSnapshotProgress({ ...start, sinceSnapshotTurns: 40 }, step('t1', 200, text), rule);
    expect(overdue.progress.pending).toBeUndefined();
    expect(overdue.write?.pieces.join('')).toBe(text);
    expect(overdue.write?.total).toBe(10);
  });

  it('played turns: every turn’s world from the store equals the one in memory while snapshots are pending', async () => {
    const store = await openStore(join(dir, 'pieces.db'));
    stores.push(store);
    const turns = 24;
    // Two more replies for the swipes at the end.
    const script = growingWorld(turns + 2);
    const rule = { ratio: 4, minEventChars: 600, pieceChars: 256 };
    const f = await fixture(store, { models: () => script, service: { snapshotRule: rule } });
    const { session } = await f.service.createSession(f.principal.id, {
      cartridgeVersion: f.version.id,
      seed: 5,
    });
    const cold = await fixture(store, { service: { worldCacheSize: 0, snapshotRule: rule } });
    const snapshotDepths = new Set<number>();
    let pendingSeen = 0;
    const pendingTurns: string[] = [];
    for (let i = 0; i < turns; i++) {
      const played = await f.service.playTurn(f.principal.id, session.id, { turn: { input: 'I walk on' } });
      await expectSameWorld(f.service, cold.service, f.principal.id, session.id, played.turn.id);
      const base = await store.getWorldBase(session.id, played.turn.id);
      if (base?.snapshot) snapshotDepths.add(base.snapshot.depth);
      // A snapshot begun on an earlier turn and not complete yet: the read walks past it.
      const rows = await sqliteRows(join(dir, 'pieces.db'), session.id);
      if (rows.incomplete > 0) {
        pendingSeen += 1;
        pendingTurns.push(played.turn.id);
      }
    }
    expect(pendingSeen).toBeGreaterThan(0);
    // Swipes from a turn whose snapshot was still pending: this process holds its text, so each sibling
    // stores the same next pieces (the second finds them stored) and reads back the same world.
    const from = pendingTurns[0]!;
    for (let i = 0; i < 2; i++) {
      const swipe = await f.service.playTurn(f.principal.id, session.id, {
        parentId: from,
        turn: { input: 'I walk on' },
      });
      await expectSameWorld(f.service, cold.service, f.principal.id, session.id, swipe.turn.id);
    }
    expect(snapshotDepths.size).toBeGreaterThan(1);
    expect(
      Math.max(...(await sqliteRows(join(dir, 'pieces.db'), session.id)).pieceChars),
    ).toBeLessThanOrEqual(256);
    expect((await verifySession(store, f.library, session.id))?.ok).toBe(true);
  });
});

describe('a pending snapshot abandoned by its process', () => {
  it('a fresh process reads past it, completes a snapshot of its own, and every world reads back equal', async () => {
    const path = join(dir, 'abandoned.db');
    const store = await openStore(path);
    stores.push(store);
    const rule = { ratio: 4, minEventChars: 400, pieceChars: 128 };
    const first = growingWorld(40);
    const a = await fixture(store, { models: () => first, service: { snapshotRule: rule } });
    const { session } = await a.service.createSession(a.principal.id, {
      cartridgeVersion: a.version.id,
      seed: 6,
    });
    // Process A plays until one of its snapshots is begun and not complete, then goes away.
    let played = 0;
    while ((await sqliteRows(path, session.id)).incomplete === 0 && played < 40) {
      await a.service.playTurn(a.principal.id, session.id, { turn: { input: 'I walk on' } });
      played += 1;
    }
    expect((await sqliteRows(path, session.id)).incomplete).toBe(1);
    const head = (await store.getSession(session.id, a.principal.id))!.headTurnId!;
    const before = await store.getWorldBase(session.id, head);

    // Process B never saw the pending text: it plays on from the store.
    const second = growingWorld(40);
    const b = await fixture(store, { models: () => second, service: { snapshotRule: rule } });
    const cold = await fixture(store, { service: { worldCacheSize: 0, snapshotRule: rule } });
    let newer = false;
    for (let i = 0; i < 30; i++) {
      const turn = await b.service.playTurn(a.principal.id, session.id, { turn: { input: 'I walk on' } });
      await expectSameWorld(b.service, cold.service, a.principal.id, session.id, turn.turn.id);
      const base = await store.getWorldBase(session.id, turn.turn.id);
      if ((base?.snapshot?.depth ?? 0) > (before?.snapshot?.depth ?? 0)) newer = true;
    }
    // A snapshot newer than the abandoned one's base was completed by B; the abandoned pieces stay unread.
    expect(newer).toBe(true);
    expect((await sqliteRows(path, session.id)).incomplete).toBeGreaterThanOrEqual(1);
    expect((await verifySession(store, b.library, session.id))?.ok).toBe(true);
  });
});

/** The world at a turn as `warm` holds it (in memory) equals the one `cold` reads from the store. */
async function expectSameWorld(
  warm: SessionService,
  cold: SessionService,
  principalId: string,
  sessionId: string,
  turnId: string,
): Promise<void> {
  const inMemory = await warm.worldAt(principalId, sessionId, turnId);
  const fromStore = await cold.worldAt(principalId, sessionId, turnId);
  expect(inMemory.result.ok && fromStore.result.ok).toBe(true);
  if (inMemory.result.ok && fromStore.result.ok)
    expect(canonicalJson(fromStore.result.world)).toBe(canonicalJson(inMemory.result.world));
}

/** Snapshot pieces of a session straight from the SQLite file: incomplete snapshots and piece sizes. */
async function sqliteRows(
  path: string,
  sessionId: string,
): Promise<{ incomplete: number; pieceChars: number[] }> {
  const db = new Sqlite(path, { readonly: true });
  try {
    const incomplete = db
      .prepare(
        `select count(*) as n from (select turn_id from world_snapshot_pieces where session_id = ?
           group by turn_id having max(total) is null)`,
      )
      .get(sessionId) as { n: number };
    const sizes = db
      .prepare('select length(text) as n from world_snapshot_pieces where session_id = ?')
      .all(sessionId) as Array<{ n: number }>;
    return { incomplete: incomplete.n, pieceChars: sizes.map((r) => r.n) };
  } finally {
    db.close();
  }
}
