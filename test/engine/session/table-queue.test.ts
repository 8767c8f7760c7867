// Free order's queue in the session layer, on a real SQLite store with scripted models slow enough to overlap:
// the queue's cap at the limit and just past it, a ticket left by a process that is gone (its heartbeat past
// the lease) dropped so the next turn plays, a waiter whose client goes away leaving the queue, and a waiter
// that waits past the queue's wait given up with nothing played.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalBus } from '../../../src/adapters/bus/index.ts';
import { createScriptedModels } from '../../../src/adapters/llm/index.ts';
import { openStore } from '../../../src/adapters/store/open.ts';
import type { Principal, Store } from '../../../src/adapters/store/repository.ts';
import { driveTurn, SessionError, TableService } from '../../../src/engine/session/index.ts';
import { type Fixture, fixture } from './helpers.ts';

const SLOW_MS = 600;
const slow = () =>
  createScriptedModels({
    director: [{ toolCalls: [{ name: 'check_pack', args: {} }], delayMs: SLOW_MS }, { text: 'On.' }],
    narrator: [{ text: 'The lamps gutter.' }],
  });

describe('the free-order queue', () => {
  let dir: string;
  let store: Store;
  let fx: Fixture;
  let table: TableService;
  let sessionId: string;
  let bob: Principal;
  let carol: Principal;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mnesos-table-queue-'));
    store = await openStore(join(dir, 'db.sqlite'));
    fx = await fixture(store, { models: slow });
    table = new TableService({
      store,
      bus: new LocalBus(),
      sessions: fx.service,
      maxQueued: 2,
      queueWaitMs: 5_000,
    });
    sessionId = (await fx.service.createSession(fx.principal.id, { cartridgeVersion: fx.version.id })).session
      .id;
    bob = await store.createPrincipal({ name: 'bob' });
    carol = await store.createPrincipal({ name: 'carol' });
    for (const principal of [bob, carol]) {
      const { code } = await table.invite(fx.principal, sessionId);
      await table.join(principal, code);
    }
  });
  afterAll(async () => {
    await table.close();
    await fx.service.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const play = async (principalId: string, signal?: AbortSignal) => {
    const prepared = await table.prepareTurn(
      principalId,
      sessionId,
      { turn: { input: 'I check my pack' } },
      { signal },
    );
    if (prepared.kind === 'submitted') throw new Error('free order never submits');
    return driveTurn(prepared);
  };

  it('the cap (2 here): two turns at once fit, a third is refused with table-limit and nothing waits for it', async () => {
    const first = play(fx.principal.id);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = play(bob.id);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const third = await play(carol.id).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(third).toBeInstanceOf(SessionError);
    expect(third).toMatchObject({ code: 'table-limit', details: { limit: 2, what: 'queue' } });
    const [a, b] = await Promise.all([first, second]);
    expect(b.turn.parentId).toBe(a.turn.id);
    expect(await store.listQueue(sessionId)).toEqual([]);
  });

  it('a ticket held by a process that is gone is dropped, and the next turn plays', async () => {
    await store.registerClaimOwner({ ownerId: 'gone', at: 1, pruneBefore: 0 });
    await store.enqueueTurn(
      { id: 'left-behind', sessionId, principalId: bob.id, character: 'bob', ownerId: 'gone', queuedAt: 1 },
      10,
    );
    const played = await play(carol.id);
    expect(played.turn.id).toBeDefined();
    expect((await store.listQueue(sessionId)).map((t) => t.id)).toEqual([]);
  });

  it('a waiter whose client goes away leaves the queue; the turn ahead still plays', async () => {
    const ahead = play(fx.principal.id);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const control = new AbortController();
    const waiting = play(bob.id, control.signal).then(
      () => undefined,
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await store.listQueue(sessionId)).map((t) => t.character)).toEqual(['player', 'bob']);
    control.abort();
    expect(await waiting).toMatchObject({ code: 'aborted' });
    expect((await store.listQueue(sessionId)).map((t) => t.character)).toEqual(['player']);
    await ahead;
  });

  it('a waiter past the queue’s wait gives up with nothing played', async () => {
    const impatient = new TableService({
      store,
      bus: new LocalBus(),
      sessions: fx.service,
      queueWaitMs: 200,
    });
    const ahead = play(fx.principal.id);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = (await store.listTree(sessionId)).length;
    const late = await impatient.prepareTurn(bob.id, sessionId, { turn: { input: 'me next' } }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(late).toMatchObject({ code: 'timeout' });
    await ahead;
    expect((await store.listTree(sessionId)).length).toBe(before + 1);
    await impatient.close();
  });
});
