// The world at a turn without the world in the record (issue 10): records keep only their batch, snapshots
// are written on some turns of each branch, and the world read from memory, from the nearest snapshot, and
// from a full replay of the branch are one and the same.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/ledger/index.ts';
import { createScriptedModels } from '../../src/llm/scripted.ts';
import { worldFromRows } from '../../src/session/ledger.ts';
import { cartridgeLedger } from '../../src/session/ledger.ts';
import { SNAPSHOT_CHARS_PER_WALKED_TURN } from '../../src/session/limits.ts';
import { snapshotDue, WorldCache } from '../../src/session/world-cache.ts';
import { verifySession } from '../../src/session/verify.ts';
import { openStore } from '../../src/store/open.ts';
import type { Store } from '../../src/store/repository.ts';
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
    let firstRecordChars = 0;
    let lastRecordChars = 0;
    for (let i = 0; i < TURNS; i++) {
      const played = await f.service.playTurn(f.principal.id, session.id, { turn: { input: 'I walk on' } });
      const record = played.turn.record as { ledger: Record<string, unknown> };
      expect(record.ledger.status).toBe('applied');
      expect('worldAfter' in record.ledger).toBe(false);
      const stored = await store.getTurn(session.id, played.turn.id);
      expect('worldAfter' in (stored!.record as { ledger: object }).ledger).toBe(false);
      const chars = JSON.stringify(stored!.record).length;
      if (i === 0) firstRecordChars = chars;
      lastRecordChars = chars;
      turnIds.push(played.turn.id);
    }
    // The record does not grow with the world (a few characters of turn numbers at most).
    expect(lastRecordChars).toBeLessThan(firstRecordChars * 1.1);

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
      worldSnapshot: { version: 1, entities: { 'not a key': {} } },
    });
    expect(appended.ok).toBe(true);
    if (!appended.ok) return;
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
