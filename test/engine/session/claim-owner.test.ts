// The claim owner on a real SQLite file: while it holds a claim its heartbeat keeps the claim its own past
// many leases; once it lets go (or ends) the heartbeat stops and another owner takes the claim over.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/adapters/store/open.ts';
import type { Store } from '../../../src/adapters/store/repository.ts';
import { ClaimOwner } from '../../../src/engine/session/claim-owner.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnesos-claim-owner-'));
const stores: Store[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const LEASE_MS = 200;
const HEARTBEAT_MS = 40;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function seeded(name: string) {
  const store = await openStore(join(dir, `${name}.db`));
  stores.push(store);
  const principal = await store.createPrincipal({ name: 'p' });
  const version = await store.putCartridgeVersion({ name: 'c', contentHash: `sha256:${name}`, files: {} });
  const created = await store.createSession({
    principalId: principal.id,
    cartridgeVersionId: version.id,
    seed: 1,
    genesis: { input: null, narration: '', record: {}, state: {}, seed: 1, createdAt: 0 },
  });
  if (!created.ok) throw new Error(created.reason);
  return { store, sessionId: created.session.id };
}

function claimBy(store: Store, sessionId: string, owner: ClaimOwner, turnId: string) {
  const now = Date.now();
  return store.claimIdempotencyKey({
    sessionId,
    key: 'k',
    turnId,
    claimedAt: now,
    staleBefore: 0,
    ownerId: owner.id,
    leaseBefore: owner.leaseBefore(now),
  });
}

describe('ClaimOwner', () => {
  it('a held claim outlives many leases; let go, it is taken over after one', async () => {
    const { store, sessionId } = await seeded('held');
    const options = { clock: Date.now, leaseMs: LEASE_MS, heartbeatMs: HEARTBEAT_MS };
    const holder = new ClaimOwner(store, { id: 'holder', ...options });
    const other = new ClaimOwner(store, { id: 'other', ...options });
    await holder.hold();
    expect(await claimBy(store, sessionId, holder, 'first')).toEqual({ claimed: true });
    await other.hold();
    await sleep(LEASE_MS * 3);
    expect(await claimBy(store, sessionId, other, 'second')).toMatchObject({
      claimed: false,
      turnId: 'first',
    });
    holder.letGo();
    expect(holder.held).toBe(0);
    await sleep(LEASE_MS + HEARTBEAT_MS * 2);
    expect(await claimBy(store, sessionId, other, 'second')).toEqual({ claimed: true });
    other.letGo();
  });

  it('end removes the owner: its claim is taken over at once', async () => {
    const { store, sessionId } = await seeded('ended');
    const options = { clock: Date.now, leaseMs: 60_000, heartbeatMs: 1_000 };
    const holder = new ClaimOwner(store, { id: 'holder', ...options });
    const other = new ClaimOwner(store, { id: 'other', ...options });
    await holder.hold();
    await other.hold();
    expect(await claimBy(store, sessionId, holder, 'first')).toEqual({ claimed: true });
    expect(await claimBy(store, sessionId, other, 'second')).toMatchObject({ claimed: false });
    await holder.end();
    expect(await claimBy(store, sessionId, other, 'second')).toEqual({ claimed: true });
    await other.end();
  });

  it('a heartbeat as long as the lease is refused', async () => {
    const { store } = await seeded('bounds');
    expect(() => new ClaimOwner(store, { id: 'x', clock: Date.now, leaseMs: 100, heartbeatMs: 100 })).toThrow(
      /shorter than the lease/,
    );
    expect(
      new ClaimOwner(store, { id: 'y', clock: Date.now, leaseMs: 100, heartbeatMs: 99 }).heartbeatMs,
    ).toBe(99);
  });
});
