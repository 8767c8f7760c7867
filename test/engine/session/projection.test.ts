// The world projection beside the turn log, on a real SQLite file: the append of a played turn carries no
// snapshot (the log's input has no snapshot fields and touches no snapshot table); the session's projector
// stores the snapshot pieces the branch is due, in the snapshot store, after the turn is in the log; and a
// snapshot write that fails leaves the committed turn, a process warning, and a world that still reads
// exactly as a full replay of the ledger.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { canonicalJson } from '../../../src/core/ledger/index.ts';
import { createScriptedModels } from '../../../src/adapters/llm/scripted.ts';
import { openStore } from '../../../src/adapters/store/open.ts';
import type { AppendTurnInput, SnapshotPieces, Store } from '../../../src/adapters/store/index.ts';
import { SNAPSHOT_WRITE_WARNING } from '../../../src/engine/session/branch-world.ts';
import { cartridgeLedger, worldFromRows } from '../../../src/engine/session/ledger.ts';
import { fixture } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnesos-projection-'));
const stores: Store[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A Narrator that creates one new entity every turn, so the world grows and snapshots fall due. */
function growingWorld(turns: number, who = 'stranger') {
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
                entity: `${who}_${i + 1}`,
                name: `${who} ${i + 1}`,
                entity_type: 'person',
              },
            ],
          },
        },
      ],
    })),
    npc: [],
  });
}

/** The store with its appends and snapshot writes recorded (and the writes made to fail on demand). */
function watched(store: Store) {
  const appends: AppendTurnInput[] = [];
  const writes: SnapshotPieces[] = [];
  const control = { failWrites: false };
  const wrapped: Store = {
    ...store,
    appendTurn: (input) => {
      appends.push(input);
      return store.appendTurn(input);
    },
    putSnapshotPieces: async (sessionId, pieces) => {
      writes.push(pieces);
      if (control.failWrites) throw new Error('the disk is full');
      return store.putSnapshotPieces(sessionId, pieces);
    },
  };
  return { wrapped, appends, writes, control };
}

const TURNS = 12;

describe('the world projection', () => {
  it('snapshot pieces go to the snapshot store, after the append, never with it', async () => {
    const store = await openStore(join(dir, 'fed.db'));
    stores.push(store);
    const { wrapped, appends, writes } = watched(store);
    const script = growingWorld(TURNS);
    const f = await fixture(wrapped, {
      models: () => script,
      service: { snapshotRule: { ratio: 4, minEventChars: 200 } },
    });
    const { session } = await f.service.createSession(f.principal.id, {
      cartridgeVersion: f.version.id,
      seed: 1,
    });
    const played: string[] = [];
    for (let i = 0; i < TURNS; i++)
      played.push(
        (await f.service.playTurn(f.principal.id, session.id, { turn: { input: 'I walk on' } })).turn.id,
      );
    expect(appends).toHaveLength(TURNS);
    for (const input of appends) {
      expect('snapshotPieces' in input).toBe(false);
      expect('worldSnapshot' in input).toBe(false);
    }
    // Several snapshots were due; each write names a played turn, which was in the log when it was written.
    expect(writes.filter((w) => w.total !== undefined).length).toBeGreaterThan(1);
    for (const write of writes) expect(played).toContain(write.turnId);
    const head = played.at(-1)!;
    const base = await store.getWorldBase(session.id, head);
    expect(base?.snapshot).not.toBeNull();
    expect(played).toContain(base!.snapshot!.turnId);
  });

  it('a snapshot write that fails keeps the turn, warns, and the world still reads as the full replay', async () => {
    const store = await openStore(join(dir, 'failing.db'));
    stores.push(store);
    const { wrapped, writes, control } = watched(store);
    const script = growingWorld(TURNS);
    const f = await fixture(wrapped, {
      models: () => script,
      service: { snapshotRule: { ratio: 4, minEventChars: 200 } },
    });
    const { session } = await f.service.createSession(f.principal.id, {
      cartridgeVersion: f.version.id,
      seed: 1,
    });
    // The warnings are caught where they are emitted (and kept off the test output).
    const emitted = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    control.failWrites = true;
    const played: string[] = [];
    try {
      for (let i = 0; i < TURNS; i++) {
        const turn = await f.service.playTurn(f.principal.id, session.id, { turn: { input: 'I walk on' } });
        played.push(turn.turn.id);
      }
    } finally {
      control.failWrites = false;
    }
    const warnings = emitted.mock.calls
      .filter(([, options]) => (options as { code?: string } | undefined)?.code === SNAPSHOT_WRITE_WARNING)
      .map(([message]) => String(message));
    emitted.mockRestore();
    expect(writes.length).toBeGreaterThan(0);
    expect(warnings.length).toBe(writes.length);
    expect(warnings[0]).toContain('the disk is full');
    // Every turn is in the log, the head is the last one, and no snapshot was stored.
    const now = await store.getSession(session.id, f.principal.id);
    expect(now?.headTurnId).toBe(played.at(-1));
    expect(now?.turnCount).toBe(TURNS + 1);
    expect((await store.getWorldBase(session.id, played.at(-1)!))?.snapshot).toBeNull();
    // The world at the head, from memory and from a cold read, is the full replay's.
    const { cartridge } = await f.service.cartridgeOf(session);
    const replayed = worldFromRows(
      (await store.getLedgerLog(session.id, played.at(-1)!))!,
      cartridgeLedger(cartridge).policy,
    );
    const warm = await f.service.worldAt(f.principal.id, session.id, played.at(-1)!);
    const cold = await fixture(store, { service: { worldCacheSize: 0 } });
    const fromStore = await cold.service.worldAt(f.principal.id, session.id, played.at(-1)!);
    expect(replayed.ok && warm.result.ok && fromStore.result.ok).toBe(true);
    if (!replayed.ok || !warm.result.ok || !fromStore.result.ok) return;
    expect(canonicalJson(warm.result.world)).toBe(canonicalJson(replayed.world));
    expect(canonicalJson(fromStore.result.world)).toBe(canonicalJson(replayed.world));
    // Writes working again, play goes on and snapshots are stored once more.
    const more = growingWorld(TURNS, 'wanderer');
    const again = await fixture(wrapped, {
      models: () => more,
      service: { snapshotRule: { ratio: 4, minEventChars: 200 } },
    });
    let last = '';
    for (let i = 0; i < TURNS; i++)
      last = (await again.service.playTurn(f.principal.id, session.id, { turn: { input: 'I walk on' } })).turn
        .id;
    expect((await store.getWorldBase(session.id, last))?.snapshot).not.toBeNull();
  });
});
