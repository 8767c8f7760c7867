// The claim of a turn alone, on a real SQLite file: the Idempotency-Key wait ends exactly at
// idempotencyWaitMs, a claim older than claimStaleMs is taken over (one that old exactly is not), and a
// TurnClaim gives the in-flight lock back once, never a later turn's.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CartridgeLibrary } from '../../../../src/engine/session/library.ts';
import {
  CLAIM_RELEASE_WARNING,
  claimIdempotencyKey,
  TurnClaim,
} from '../../../../src/engine/session/turn-job/claim.ts';
import { openStore } from '../../../../src/adapters/store/open.ts';
import type { Store } from '../../../../src/adapters/store/repository.ts';
import { LANTERNMERE_DIR } from '../helpers.ts';
import { stageEnv } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnesos-claim-'));
const stores: Store[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function sessionStore(name: string) {
  const store = await openStore(join(dir, `${name}.db`));
  stores.push(store);
  const library = new CartridgeLibrary(store);
  const registered = await library.registerFolder(LANTERNMERE_DIR);
  if (!registered.ok) throw new Error('cartridge did not register');
  const principal = await store.createPrincipal({ name: 'player' });
  const created = await store.createSession({
    principalId: principal.id,
    cartridgeVersionId: registered.version.id,
    personaId: null,
    seed: 1,
    title: null,
    createdAt: 0,
    genesis: { input: null, narration: '', record: {}, state: {}, seed: 1, createdAt: 0 },
  });
  if (!created.ok) throw new Error(created.reason);
  return { store, library, sessionId: created.session.id };
}

/** A monotonic clock that moves `step` ms each time it is read, and the store's claim attempts counted. */
function steppingDeps(store: Store, step: number) {
  let now = 0;
  const attempts = { claims: 0 };
  const counted: Store = {
    ...store,
    claimIdempotencyKey: (input) => {
      attempts.claims += 1;
      return store.claimIdempotencyKey(input);
    },
  };
  const monotonic = (): number => {
    const read = now;
    now += step;
    return read;
  };
  return { attempts, counted, monotonic };
}

describe('idempotency claim', () => {
  it('a loser gives up with conflict when the wait reaches idempotencyWaitMs, not one attempt earlier', async () => {
    const { store, library, sessionId } = await sessionStore('wait');
    const holder = await claimIdempotencyKey(stageEnv(store, library), sessionId, 'k', 'winner');
    expect(holder).toEqual({ kind: 'claimed' });
    for (const [waitMs, claims] of [
      [200, 2], // deadline 200: attempts read the clock at 100 (wait on) and 200 (give up)
      [201, 3], // one ms more: the read at 200 waits once more, 300 gives up
    ] as const) {
      const { attempts, counted, monotonic } = steppingDeps(store, 100);
      const env = stageEnv(counted, library, { monotonic, idempotencyWaitMs: waitMs });
      const error = await claimIdempotencyKey(env, sessionId, 'k', 'loser').then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error?.message).toBe(
        `another request with this Idempotency-Key is still playing its turn after ${waitMs} ms; retry later`,
      );
      expect(attempts.claims).toBe(claims);
    }
  });

  it('a claim older than claimStaleMs is taken over; one exactly that old is not', async () => {
    const { store, library, sessionId } = await sessionStore('stale');
    const claimedAt = 1_000_000;
    await store.claimIdempotencyKey({ sessionId, key: 'k', turnId: 'dead', claimedAt, staleBefore: 0 });
    const at = (now: number) =>
      stageEnv(store, library, { clock: () => now, claimStaleMs: 5_000, idempotencyWaitMs: 0 });
    const atLimit = await claimIdempotencyKey(at(claimedAt + 5_000), sessionId, 'k', 'mine').then(
      () => 'claimed',
      (e: unknown) => (e as { code?: string }).code,
    );
    expect(atLimit).toBe('conflict');
    expect(await claimIdempotencyKey(at(claimedAt + 5_001), sessionId, 'k', 'mine')).toEqual({
      kind: 'claimed',
    });
  });

  it('a key a stored turn already carries answers with that turn', async () => {
    const { store, library, sessionId } = await sessionStore('stored');
    const head = (await store.listTree(sessionId))[0];
    if (head === undefined) throw new Error('no genesis');
    const appended = await store.appendTurn({
      sessionId,
      parentId: head.id,
      idempotencyKey: 'k',
      input: { kind: 'text', text: 'x' },
      narration: '',
      record: {},
      state: {},
      seed: 2,
      createdAt: 1,
    });
    if (!appended.ok) throw new Error(appended.reason);
    const claimed = await claimIdempotencyKey(stageEnv(store, library), sessionId, 'k', 'late');
    expect(claimed.kind).toBe('replayed');
    expect(claimed.kind === 'replayed' && claimed.turn.id).toBe(appended.turn.id);
  });
});

describe('TurnClaim', () => {
  it('holds the session until released, and a second release does not free a later turn', async () => {
    const { store, library, sessionId } = await sessionStore('lock');
    const env = stageEnv(store, library);
    const first = TurnClaim.acquire(env, sessionId, undefined, 't1');
    expect(() => TurnClaim.acquire(env, sessionId, undefined, 't2')).toThrow(/already being played/);
    first.release();
    expect(first.released).toBe(true);
    const second = TurnClaim.acquire(env, sessionId, undefined, 't3');
    first.release();
    expect(env.inFlight.size).toBe(1);
    expect(() => TurnClaim.acquire(env, sessionId, undefined, 't4')).toThrow(/already being played/);
    second.release();
    expect(env.inFlight.size).toBe(0);
  });

  it('a key release the store refuses is reported as a process warning, and the lock is still given back', async () => {
    const { store, library, sessionId } = await sessionStore('release-fails');
    const failing: Store = {
      ...store,
      releaseIdempotencyKey: () => Promise.reject(new Error('database is locked')),
    };
    const env = { ...stageEnv(store, library), store: failing };
    const warned = new Promise<Error & { code?: string }>((resolve) => process.once('warning', resolve));
    TurnClaim.acquire(env, sessionId, 'key-1', 't1').release();
    const warning = await warned;
    expect(warning.code).toBe(CLAIM_RELEASE_WARNING);
    expect(warning.message).toContain(`turn t1 on session ${sessionId}`);
    expect(warning.message).toContain('database is locked');
    expect(env.inFlight.size).toBe(0);
  });
});
