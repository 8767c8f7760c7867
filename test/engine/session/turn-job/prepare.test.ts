// The prepare stage alone, on a real SQLite file: it claims the key and the in-flight lock, resolves the
// parent's context, ends early with `replayed` for a key already committed, and gives everything back when
// it refuses. Nothing runs and nothing is appended.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createScriptedModels } from '../../../../src/adapters/llm/scripted.ts';
import { SessionError } from '../../../../src/engine/session/errors.ts';
import { prepareTurn } from '../../../../src/engine/session/turn-job/prepare.ts';
import { openStore } from '../../../../src/adapters/store/open.ts';
import type { Store } from '../../../../src/adapters/store/repository.ts';
import { fixture } from '../helpers.ts';
import { stageEnv } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnesos-prepare-'));
const stores: Store[] = [];
let n = 0;
afterAll(async () => {
  for (const store of stores) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function setup() {
  n += 1;
  const store = await openStore(join(dir, `p${n}.db`));
  stores.push(store);
  const f = await fixture(store);
  const { session, turn } = await f.service.createSession(f.principal.id, {
    cartridgeVersion: f.version.id,
    seed: 3,
  });
  return { f, session, genesis: turn, env: stageEnv(store, f.library) };
}

async function refusal(promise: Promise<unknown>): Promise<SessionError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SessionError);
  return error as SessionError;
}

/** Whether another turn can claim `key` now (the claim is then given back). */
async function keyFree(store: Store, sessionId: string, key: string): Promise<boolean> {
  const now = Date.now();
  const probe = await store.claimIdempotencyKey({
    sessionId,
    key,
    turnId: 'probe',
    claimedAt: now,
    staleBefore: now - 60_000,
  });
  if (probe.claimed) await store.releaseIdempotencyKey(sessionId, key, 'probe');
  return probe.claimed;
}

describe('prepare stage', () => {
  it('returns the hydrated context of the head and holds the key claim and the in-flight lock', async () => {
    const { f, session, genesis, env } = await setup();
    const prepared = await prepareTurn(env, f.principal.id, session.id, {
      turn: { input: 'check pack' },
      idempotencyKey: 'k1',
    });
    if (prepared.kind !== 'ready') throw new Error('expected ready');
    const { context, claim } = prepared;
    expect(context.turnId).toBe('stage-turn-1');
    expect(context.parentId).toBe(genesis.id);
    expect(context.expectedHeadId).toBe(genesis.id);
    expect(context.state).toEqual(genesis.state);
    expect(context.messages).toEqual([{ role: 'assistant', content: genesis.narration }]);
    expect(context.ledgerTurn).toBe(1);
    expect(context.cartridge.name).toBe('Lanternmere');
    expect(context.models).toBeNull();
    expect(context.seed).toBe(100);
    expect(env.inFlight.size).toBe(1);
    expect(await keyFree(f.store, session.id, 'k1')).toBe(false);
    expect((await f.store.listTree(session.id)).length).toBe(1);
    claim.release();
    expect(env.inFlight.size).toBe(0);
    await expect.poll(() => keyFree(f.store, session.id, 'k1')).toBe(true);
  });

  it('an explicit parent is hydrated instead of the head; regenerate seeds skip the avoided ones', async () => {
    const { f, session, genesis, env } = await setup();
    const played = await f.service.playTurn(f.principal.id, session.id, { turn: { input: 'check pack' } });
    const prepared = await prepareTurn(
      env,
      f.principal.id,
      session.id,
      { parentId: genesis.id, turn: { input: 'check pack' } },
      new Set([100, 101]),
    );
    if (prepared.kind !== 'ready') throw new Error('expected ready');
    expect(prepared.context.parentId).toBe(genesis.id);
    expect(prepared.context.expectedHeadId).toBe(played.turn.id);
    expect(prepared.context.ledgerTurn).toBe(1);
    expect(prepared.context.seed).toBe(102);
    prepared.claim.release();
  });

  it('a key already committed ends the turn early as replayed, holding nothing', async () => {
    const { f, session, env } = await setup();
    const first = await f.service.playTurn(f.principal.id, session.id, {
      turn: { input: 'check pack' },
      idempotencyKey: 'k2',
    });
    const prepared = await prepareTurn(env, f.principal.id, session.id, {
      turn: { input: 'check pack' },
      idempotencyKey: 'k2',
    });
    expect(prepared).toEqual({ kind: 'replayed', turn: first.turn });
    expect(env.inFlight.size).toBe(0);
  });

  it('models are resolved per principal and timed when the observer wants model calls', async () => {
    const { f, session, env } = await setup();
    const models = createScriptedModels({ director: [], narrator: [] });
    const asked: string[] = [];
    const calls: Array<[string, boolean]> = [];
    const timed = {
      ...env,
      models: (principalId: string) => {
        asked.push(principalId);
        return models;
      },
    };
    const plain = await prepareTurn(timed, f.principal.id, session.id, { turn: { input: 'x' } });
    if (plain.kind !== 'ready') throw new Error('expected ready');
    expect(plain.context.models).toBe(models);
    plain.claim.release();
    const observed = await prepareTurn(
      { ...timed, observer: { onModelCall: (role, _ms, ok) => calls.push([role, ok]) } },
      f.principal.id,
      session.id,
      { turn: { input: 'x' } },
    );
    if (observed.kind !== 'ready') throw new Error('expected ready');
    expect(observed.context.models).not.toBe(models);
    expect(observed.context.models?.director.id).toBe(models.director.id);
    // The script is empty, so the call fails; the observer hears it as a failed director call.
    await expect(observed.context.models?.director.generate({ system: '', messages: [] })).rejects.toThrow(
      /no response left/,
    );
    expect(calls).toEqual([['director', false]]);
    observed.claim.release();
    expect(asked).toEqual([f.principal.id, f.principal.id]);
  });

  it('a second turn on the session is refused while the first holds the lock, and gives its key back', async () => {
    const { f, session, env } = await setup();
    const first = await prepareTurn(env, f.principal.id, session.id, { turn: { input: 'check pack' } });
    const error = await refusal(
      prepareTurn(env, f.principal.id, session.id, { turn: { input: 'check pack' }, idempotencyKey: 'k3' }),
    );
    expect(error.code).toBe('turn-in-flight');
    expect(env.inFlight.size).toBe(1);
    await expect.poll(() => keyFree(f.store, session.id, 'k3')).toBe(true);
    if (first.kind === 'ready') first.claim.release();
    expect(env.inFlight.size).toBe(0);
  });

  it('a missing parent is not found, and the lock and the key claim are given back', async () => {
    const { f, session, env } = await setup();
    const error = await refusal(
      prepareTurn(env, f.principal.id, session.id, {
        parentId: 'no-such-turn',
        turn: { input: 'check pack' },
        idempotencyKey: 'k4',
      }),
    );
    expect(error.code).toBe('not-found');
    expect(error.message).toBe('turn no-such-turn not found');
    expect(env.inFlight.size).toBe(0);
    await expect.poll(() => keyFree(f.store, session.id, 'k4')).toBe(true);
  });

  it("another principal's session is not found before any claim is taken", async () => {
    const { f, session, env } = await setup();
    const other = await f.store.createPrincipal({ name: 'other' });
    const error = await refusal(
      prepareTurn(env, other.id, session.id, { turn: { input: 'check pack' }, idempotencyKey: 'k5' }),
    );
    expect(error.code).toBe('not-found');
    expect(env.inFlight.size).toBe(0);
    expect(await keyFree(f.store, session.id, 'k5')).toBe(true);
  });
});
