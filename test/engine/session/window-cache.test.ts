// The parent's state and story window from memory (window-cache.ts): a turn on the head of a game
// this process plays reads no branch from the store, and what it reads equals the store's own hydration
// at every depth, below, at and past the window; an entry answers only for its own session and cannot be
// changed by the turns that share it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TURN_HISTORY_WINDOW } from '../../../src/engine/session/limits.ts';
import { keepChildWindow, turnWindow, WindowCache } from '../../../src/engine/session/window-cache.ts';
import { openStore } from '../../../src/adapters/store/open.ts';
import type { Store } from '../../../src/adapters/store/repository.ts';
import { fixture } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnesos-window-cache-'));
const stores: Store[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The store, counting the branch walks (`hydrate`) made through it. */
async function countingStore(name: string): Promise<{ store: Store; walks: () => number }> {
  const inner = await openStore(join(dir, `${name}.db`));
  stores.push(inner);
  let walks = 0;
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      if (property === 'hydrate')
        return (...args: Parameters<Store['hydrate']>) => {
          walks++;
          return target.hydrate(...args);
        };
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store, walks: () => walks };
}

describe('window cache', () => {
  it('turns on the head walk no branch, and each window equals the store’s at, below and past the limit', async () => {
    const { store, walks } = await countingStore('head');
    const { service, principal, version } = await fixture(store);
    const { session } = await service.createSession(principal.id, { cartridgeVersion: version.id });
    // The first turn walks from genesis once; every later one reads its parent from memory.
    const turns = TURN_HISTORY_WINDOW + 2;
    for (let i = 0; i < turns; i++)
      await service.playTurn(principal.id, session.id, { turn: { input: '/check_pack' } });
    expect(walks()).toBe(1);
    const probe = new WindowCache(TURN_HISTORY_WINDOW);
    const cold = new WindowCache(TURN_HISTORY_WINDOW);
    const head = (await store.getSession(session.id, principal.id))!.headTurnId;
    const lineage = (await store.getLineage(session.id, head))!;
    // Rebuild every depth's window turn by turn from genesis, as commits do, and compare with the store.
    const first = await turnWindow(store, probe, session.id, lineage[0]!.id);
    expect(first?.messages.length).toBe(1);
    for (const turn of lineage.slice(1)) {
      keepChildWindow(probe, turn.parentId!, (await store.getTurn(session.id, turn.id))!);
      const kept = probe.get(turn.id)!;
      const read = (await turnWindow(store, cold, session.id, turn.id))!;
      expect(kept).toEqual(read);
      expect(kept.messages.length).toBe(Math.min(turn.depth + 1, TURN_HISTORY_WINDOW));
      expect(kept.complete).toBe(turn.depth + 1 <= TURN_HISTORY_WINDOW);
    }
  });

  it('a cached window or world answers for its own session only', async () => {
    const { store } = await countingStore('sessions');
    const { service, principal, version } = await fixture(store);
    const a = await service.createSession(principal.id, { cartridgeVersion: version.id });
    const b = await service.createSession(principal.id, { cartridgeVersion: version.id });
    const played = await service.playTurn(principal.id, a.session.id, { turn: { input: '/check_pack' } });
    // Session B asked to play after session A's turn: not found, though A's window is in memory.
    await expect(
      service.playTurn(principal.id, b.session.id, {
        parentId: played.turn.id,
        turn: { input: '/check_pack' },
      }),
    ).rejects.toMatchObject({ code: 'not-found' });
    const cache = new WindowCache(TURN_HISTORY_WINDOW);
    expect(await turnWindow(store, cache, a.session.id, played.turn.id)).toBeDefined();
    expect(await turnWindow(store, cache, b.session.id, played.turn.id)).toBeUndefined();
    // The same for the world kept in memory: session B's world read at session A's turn is not found.
    expect((await service.worldAt(principal.id, a.session.id, played.turn.id)).result.ok).toBe(true);
    await expect(service.worldAt(principal.id, b.session.id, played.turn.id)).rejects.toMatchObject({
      code: 'not-found',
    });
  });

  it('an entry is frozen: a turn cannot change the state or story the next one starts from', async () => {
    const { store } = await countingStore('frozen');
    const { service, principal, version } = await fixture(store);
    const { session, turn } = await service.createSession(principal.id, { cartridgeVersion: version.id });
    const cache = new WindowCache(TURN_HISTORY_WINDOW);
    const entry = (await turnWindow(store, cache, session.id, turn.id))!;
    const state = entry.state as Record<string, unknown>;
    expect(() => {
      state.player = null;
    }).toThrow(TypeError);
    expect(() => (entry.messages as unknown[]).push(null)).toThrow(TypeError);
  });

  it('size 0 keeps nothing: every turn walks its branch', async () => {
    const { store, walks } = await countingStore('off');
    const { service, principal, version } = await fixture(store, { service: { worldCacheSize: 0 } });
    const { session } = await service.createSession(principal.id, { cartridgeVersion: version.id });
    for (let i = 0; i < 3; i++)
      await service.playTurn(principal.id, session.id, { turn: { input: '/check_pack' } });
    expect(walks()).toBe(3);
  });
});
