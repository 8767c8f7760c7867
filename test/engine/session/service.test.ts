// The session service on SQLite: the turn tree (head, explicit parent, undo, regenerate, branches), branch
// isolation of state, messages and ledger, concurrency (in-flight lock, moved head, idempotency), aborts.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createScriptedModels } from '../../../src/adapters/llm/scripted.ts';
import { SessionError } from '../../../src/engine/session/errors.ts';
import { classifyRecord } from '../../../src/engine/session/records.ts';
import { openStore } from '../../../src/adapters/store/open.ts';
import type { Store } from '../../../src/adapters/store/repository.ts';
import { type Fixture, fixture } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnesos-session-test-'));
let n = 0;
const stores: Store[] = [];
async function freshStore(): Promise<Store> {
  n += 1;
  const store = await openStore(join(dir, `s${n}.db`));
  stores.push(store);
  return store;
}
afterAll(async () => {
  for (const store of stores) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function expectSessionError(promise: Promise<unknown>, code: string): Promise<SessionError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SessionError);
  expect((error as SessionError).code).toBe(code);
  return error as SessionError;
}

describe('sessions', () => {
  let f: Fixture;
  beforeEach(async () => {
    f = await fixture(await freshStore());
  });

  it('starts with turn 0: the first message and the initial state, recording the cartridge version', async () => {
    const { session, turn } = await f.service.createSession(f.principal.id, {
      cartridgeVersion: f.version.id,
      seed: 9,
    });
    expect(session.headTurnId).toBe(turn.id);
    expect(turn.depth).toBe(0);
    expect(turn.narration).toContain('Lanternmere');
    expect((turn.state as { player: { hp: number } }).player.hp).toBe(24);
    const record = classifyRecord(turn.record);
    expect(record?.kind).toBe('genesis');
    expect(record?.kind === 'genesis' && record.cartridge.versionId).toBe(f.version.id);
  });

  it('a cartridge version can be named by its content hash; an unknown one is not found', async () => {
    const { session } = await f.service.createSession(f.principal.id, {
      cartridgeVersion: f.version.contentHash,
    });
    expect(session.cartridgeVersionId).toBe(f.version.id);
    await expectSessionError(
      f.service.createSession(f.principal.id, { cartridgeVersion: 'nope' }),
      'not-found',
    );
  });

  it("another principal's session is not found", async () => {
    const { session } = await f.service.createSession(f.principal.id, { cartridgeVersion: f.version.id });
    const other = await f.store.createPrincipal({ name: 'other' });
    await expectSessionError(f.service.getSession(other.id, session.id), 'not-found');
    await expectSessionError(
      f.service.playTurn(other.id, session.id, { turn: { input: '/help' } }),
      'not-found',
    );
  });

  it('plays on the head, undoes, regenerates with a new seed, and branches from any turn', async () => {
    const { session, turn: genesis } = await f.service.createSession(f.principal.id, {
      cartridgeVersion: f.version.id,
    });
    const first = await f.service.playTurn(f.principal.id, session.id, {
      turn: { input: '/travel brine market' },
    });
    expect(first.turn.parentId).toBe(genesis.id);
    expect((await f.service.getSession(f.principal.id, session.id)).headTurnId).toBe(first.turn.id);

    const undone = await f.service.undo(f.principal.id, session.id);
    expect(undone.headTurnId).toBe(genesis.id);
    await expectSessionError(f.service.undo(f.principal.id, session.id), 'invalid');

    const redo = await f.service.moveHead(f.principal.id, session.id, first.turn.id);
    expect(redo.headTurnId).toBe(first.turn.id);

    const prepared = await f.service.prepareRegenerate(f.principal.id, session.id);
    expect(prepared.kind).toBe('ready');
    if (prepared.kind !== 'ready') return;
    expect(prepared.parentId).toBe(genesis.id);
    expect(prepared.seed).not.toBe(first.turn.seed);
    const run = prepared.run();
    let step = await run.next();
    while (!step.done) step = await run.next();
    const swipe = step.value;
    expect(swipe.parentId).toBe(genesis.id);
    expect(swipe.siblingIndex).toBe(1);
    expect(swipe.input).toEqual(first.turn.input);

    const branch = await f.service.playTurn(f.principal.id, session.id, {
      parentId: genesis.id,
      turn: { input: '/check_pack' },
    });
    expect(branch.turn.siblingIndex).toBe(2);
    const children = await f.store.listChildren(session.id, genesis.id);
    expect(children.map((c) => c.id)).toEqual([first.turn.id, swipe.id, branch.turn.id]);
  });
});

describe('branch isolation', () => {
  it('state, messages and ledger of sibling branches never leak into each other', async () => {
    const narrations: string[] = [];
    const models = () => {
      const set = createScriptedModels({
        director: [{ text: 'Nothing happens.' }],
        narrator: [{ text: `narration ${narrations.length + 1}` }],
      });
      narrations.push('');
      captured.push(set);
      return set;
    };
    const captured: ReturnType<typeof createScriptedModels>[] = [];
    const f = await fixture(await freshStore(), { models });
    const { session, turn: genesis } = await f.service.createSession(f.principal.id, {
      cartridgeVersion: f.version.id,
    });

    const a = await f.service.playTurn(f.principal.id, session.id, {
      turn: { input: 'SECRET-A I whistle a tune' },
    });
    const b = await f.service.playTurn(f.principal.id, session.id, {
      parentId: genesis.id,
      turn: { input: 'plain B words' },
    });
    // Branch A's ledger batch, stored the way a turn stores it.
    await f.store.appendTurn({
      sessionId: session.id,
      parentId: a.turn.id,
      input: { kind: 'text', text: 'x' },
      narration: 'n',
      record: { kind: 'turn' },
      state: a.turn.state,
      ledgerEvents: [{ event_type: 'create_entity', entity: 'mara', name: 'Mara', entity_type: 'person' }],
      seed: 1,
      createdAt: Date.now(),
      moveHead: false,
    });
    const worldA = await f.service.worldAt(
      f.principal.id,
      session.id,
      (await f.store.listChildren(session.id, a.turn.id))[0]!.id,
    );
    expect(worldA.result.ok).toBe(true);
    if (worldA.result.ok) expect(Object.keys(worldA.result.world.entities)).toContain('mara');
    const worldB = await f.service.worldAt(f.principal.id, session.id, b.turn.id);
    expect(worldB.result.ok && Object.keys(worldB.result.world.entities)).toEqual([]);

    // Playing on B: the models see B's history only.
    await f.service.playTurn(f.principal.id, session.id, {
      parentId: b.turn.id,
      turn: { input: 'next on B' },
    });
    const last = captured.at(-1)!;
    const seen = [...last.director.requests, ...last.narrator.requests]
      .map((r) => [r.system, ...r.messages.map((m) => m.content)].join('\n'))
      .join('\n');
    expect(seen).toContain('plain B words');
    expect(seen).not.toContain('SECRET-A');

    // State: a travel on one branch does not move the player on the other.
    const moved = await f.service.playTurn(f.principal.id, session.id, {
      parentId: genesis.id,
      turn: { input: 'go' },
    });
    expect(moved.turn.parentId).toBe(genesis.id);
  });

  it('state changes on one branch are absent from its sibling', async () => {
    const f = await fixture(await freshStore());
    const { session, turn: genesis } = await f.service.createSession(f.principal.id, {
      cartridgeVersion: f.version.id,
    });
    const travel = await f.service.playTurn(f.principal.id, session.id, {
      turn: { input: '/travel brine market' },
    });
    const stay = await f.service.playTurn(f.principal.id, session.id, {
      parentId: genesis.id,
      turn: { input: '/check_pack' },
    });
    const loc = (state: unknown) => (state as { player: { location: string } }).player.location;
    expect(loc(travel.turn.state)).toBe('brine market');
    expect(loc(stay.turn.state)).toBe('tallow rest');
    const next = await f.service.playTurn(f.principal.id, session.id, { turn: { input: '/check_pack' } });
    expect(next.turn.parentId).toBe(stay.turn.id);
    expect(loc(next.turn.state)).toBe('tallow rest');
  });
});

describe('concurrency', () => {
  it('one turn in flight per session: a second is refused while the first runs', async () => {
    const f = await fixture(await freshStore());
    const { session } = await f.service.createSession(f.principal.id, { cartridgeVersion: f.version.id });
    const first = await f.service.prepareTurn(f.principal.id, session.id, { turn: { input: '/check_pack' } });
    await expectSessionError(
      f.service.prepareTurn(f.principal.id, session.id, { turn: { input: '/check_pack' } }),
      'turn-in-flight',
    );
    if (first.kind === 'ready') first.release();
    const again = await f.service.prepareTurn(f.principal.id, session.id, { turn: { input: '/check_pack' } });
    expect(again.kind).toBe('ready');
    if (again.kind === 'ready') again.release();
  });

  it('a turn whose head moved meanwhile is a conflict and commits nothing', async () => {
    const store = await freshStore();
    const f = await fixture(store);
    // A second service on the same store stands in for another replica.
    const { SessionService } = await import('../../../src/engine/session/service.ts');
    const other = new SessionService({ store, library: f.library, models: () => null });
    const { session } = await f.service.createSession(f.principal.id, { cartridgeVersion: f.version.id });
    const slow = await f.service.prepareTurn(f.principal.id, session.id, { turn: { input: '/check_pack' } });
    await other.playTurn(f.principal.id, session.id, { turn: { input: '/check_pack' } });
    if (slow.kind !== 'ready') throw new Error('expected ready');
    const run = slow.run();
    const error = await (async () => {
      try {
        for (;;) if ((await run.next()).done) return undefined;
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(SessionError);
    expect((error as SessionError).code).toBe('conflict');
    expect((await store.listTree(session.id)).length).toBe(2);
  });

  it('an Idempotency-Key returns the first result on retry', async () => {
    const f = await fixture(await freshStore());
    const { session } = await f.service.createSession(f.principal.id, { cartridgeVersion: f.version.id });
    const first = await f.service.playTurn(f.principal.id, session.id, {
      turn: { input: '/check_pack' },
      idempotencyKey: 'k1',
    });
    const retry = await f.service.playTurn(f.principal.id, session.id, {
      turn: { input: '/check_pack' },
      idempotencyKey: 'k1',
    });
    expect(retry.replayed).toBe(true);
    expect(retry.turn.id).toBe(first.turn.id);
    expect((await f.store.listTree(session.id)).length).toBe(2);
  });

  it('an aborted turn commits nothing and frees the session', async () => {
    const models = () =>
      createScriptedModels({ director: [{ text: 'ok', delayMs: 5_000 }], narrator: [{ text: 'never' }] });
    const f = await fixture(await freshStore(), { models });
    const { session } = await f.service.createSession(f.principal.id, { cartridgeVersion: f.version.id });
    const controller = new AbortController();
    const pending = f.service.playTurn(
      f.principal.id,
      session.id,
      { turn: { input: 'wait' } },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 20);
    await expectSessionError(pending, 'aborted');
    expect((await f.store.listTree(session.id)).length).toBe(1);
    expect(f.service.turnsInFlight).toBe(0);
  });

  it('a turn past the service’s turn timeout is abandoned with nothing committed', async () => {
    const models = () =>
      createScriptedModels({ director: [{ text: 'ok', delayMs: 5_000 }], narrator: [{ text: 'never' }] });
    const f = await fixture(await freshStore(), { models, service: { admission: { turnTimeoutMs: 30 } } });
    const { session } = await f.service.createSession(f.principal.id, { cartridgeVersion: f.version.id });
    await expectSessionError(
      f.service.playTurn(f.principal.id, session.id, { turn: { input: 'wait' } }),
      'timeout',
    );
    expect((await f.store.listTree(session.id)).length).toBe(1);
  });
});
