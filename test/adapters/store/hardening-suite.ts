// Issue 16 in the store, on both databases: owners' cartridge libraries (namespaced names, access, usage,
// deletion), idempotency claims (one winner, also across connection pools), and one string policy (NUL
// and lone surrogates refused the same way on SQLite and PostgreSQL).

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_OWNER } from '../../../src/adapters/store/cartridge-entries.ts';
import { StoreInputError } from '../../../src/adapters/store/errors.ts';
import { MAX_SESSION_PAGE } from '../../../src/adapters/store/limits.ts';
import type { Store } from '../../../src/adapters/store/repository.ts';
import { content, mustAppend, seedSession } from './fixtures.ts';
import type { StoreHarness } from './harness.ts';

async function putVersion(store: Store, name: string) {
  return store.putCartridgeVersion({
    name,
    contentHash: `sha256:${randomUUID().replaceAll('-', '')}`,
    files: { 'yare.yaml': `# ${name}` },
  });
}

export function hardeningSuite(harness: StoreHarness): void {
  let store: Store;
  let url: string;
  beforeAll(async () => {
    url = await harness.freshUrl();
    store = await harness.open(url);
  });
  afterAll(async () => {
    await store.close();
    await harness.cleanup();
  });

  describe('cartridge libraries', () => {
    it('a name resolves to the operator’s version first, then the caller’s own, never another principal’s', async () => {
      const alice = await store.createPrincipal({ name: 'alice' });
      const bob = await store.createPrincipal({ name: 'bob' });
      const demo = await putVersion(store, 'Demo');
      await store.addCartridgeEntry({ ownerId: OPERATOR_OWNER, versionId: demo.id, name: 'Demo', bytes: 10 });
      const bobsDemo = await putVersion(store, 'Demo');
      await store.addCartridgeEntry({ ownerId: bob.id, versionId: bobsDemo.id, name: 'Demo', bytes: 10 });
      const bobsOwn = await putVersion(store, 'Bogmere');
      await store.addCartridgeEntry({ ownerId: bob.id, versionId: bobsOwn.id, name: 'Bogmere', bytes: 25 });

      expect(await store.resolveCartridgeName(alice.id, 'Demo')).toBe(demo.id);
      expect(await store.resolveCartridgeName(bob.id, 'Demo')).toBe(demo.id);
      expect(await store.resolveCartridgeName(bob.id, 'Bogmere')).toBe(bobsOwn.id);
      expect(await store.resolveCartridgeName(alice.id, 'Bogmere')).toBeUndefined();
      expect((await store.listOwnedCartridges(alice.id)).map((c) => [c.name, c.owner])).toEqual([
        ['Demo', 'operator'],
      ]);
      expect((await store.listOwnedCartridges(bob.id)).map((c) => [c.name, c.owner])).toEqual([
        ['Bogmere', 'self'],
        ['Demo', 'operator'],
      ]);
      expect(await store.cartridgeAccess(alice.id, bobsOwn.id)).toBeUndefined();
      expect(await store.cartridgeAccess(bob.id, bobsOwn.id)).toBe('owner');
      expect(await store.cartridgeAccess(alice.id, demo.id)).toBe('operator');
      expect(await store.cartridgeUsage(bob.id)).toEqual({
        bytes: 35,
        cartridgeBytes: 35,
        coverBytes: 0,
        draftBytes: 0,
        pictureBytes: 0,
        versions: 2,
      });
      expect(await store.cartridgeUsage(alice.id)).toEqual({
        bytes: 0,
        cartridgeBytes: 0,
        coverBytes: 0,
        draftBytes: 0,
        pictureBytes: 0,
        versions: 0,
      });
    });

    it('adding an entry again re-stamps it as the newest of its name', async () => {
      const first = await putVersion(store, 'Stamp');
      const second = await putVersion(store, 'Stamp');
      await store.addCartridgeEntry({
        ownerId: OPERATOR_OWNER,
        versionId: first.id,
        name: 'Stamp',
        bytes: 1,
        createdAt: 10,
      });
      await store.addCartridgeEntry({
        ownerId: OPERATOR_OWNER,
        versionId: second.id,
        name: 'Stamp',
        bytes: 1,
        createdAt: 20,
      });
      const someone = await store.createPrincipal({ name: 'someone' });
      expect(await store.resolveCartridgeName(someone.id, 'Stamp')).toBe(second.id);
      await store.addCartridgeEntry({
        ownerId: OPERATOR_OWNER,
        versionId: first.id,
        name: 'Stamp',
        bytes: 1,
        createdAt: 30,
      });
      expect(await store.resolveCartridgeName(someone.id, 'Stamp')).toBe(first.id);
    });

    it('deletion: not the owner’s is not found; in use by the owner’s session is refused; else the version goes', async () => {
      const seeded = await seedSession(store);
      const owner = seeded.principal.id;
      const other = await store.createPrincipal({ name: 'other' });
      await store.addCartridgeEntry({
        ownerId: owner,
        versionId: seeded.cartridgeVersionId,
        name: 'x',
        bytes: 5,
      });
      expect(await store.deleteCartridgeEntry(other.id, seeded.cartridgeVersionId)).toEqual({
        ok: false,
        reason: 'not-found',
      });
      expect(await store.deleteCartridgeEntry(owner, seeded.cartridgeVersionId)).toEqual({
        ok: false,
        reason: 'in-use',
        sessions: 1,
      });
      expect(await store.deleteSession(seeded.session.id, owner)).toBe(true);
      expect(await store.deleteCartridgeEntry(owner, seeded.cartridgeVersionId)).toEqual({
        ok: true,
        versionDeleted: true,
      });
      expect(await store.getCartridgeVersion(seeded.cartridgeVersionId)).toBeUndefined();
      expect(await store.cartridgeUsage(owner)).toEqual({
        bytes: 0,
        cartridgeBytes: 0,
        coverBytes: 0,
        draftBytes: 0,
        pictureBytes: 0,
        versions: 0,
      });
    });

    it('deleting one owner’s entry keeps a version another owner still holds', async () => {
      const a = await store.createPrincipal({ name: 'a' });
      const b = await store.createPrincipal({ name: 'b' });
      const shared = await putVersion(store, 'Shared');
      for (const p of [a, b])
        await store.addCartridgeEntry({ ownerId: p.id, versionId: shared.id, name: 'Shared', bytes: 3 });
      expect(await store.deleteCartridgeEntry(a.id, shared.id)).toEqual({ ok: true, versionDeleted: false });
      expect(await store.getCartridgeVersion(shared.id)).toBeDefined();
      expect(await store.cartridgeAccess(a.id, shared.id)).toBeUndefined();
      expect(await store.cartridgeAccess(b.id, shared.id)).toBe('owner');
    });
  });

  describe('idempotency claims', () => {
    it('the first claim wins; others see the winner’s turn id; a released claim can be won again', async () => {
      const { session } = await seedSession(store);
      const claim = (turnId: string, at = 1_000, staleBefore = 0) =>
        store.claimIdempotencyKey({ sessionId: session.id, key: 'k1', turnId, claimedAt: at, staleBefore });
      expect(await claim('t1')).toEqual({ claimed: true });
      expect(await claim('t1')).toEqual({ claimed: true });
      expect(await claim('t2')).toEqual({ claimed: false, turnId: 't1', claimedAt: 1_000 });
      await store.releaseIdempotencyKey(session.id, 'k1', 't2'); // not t2's: nothing happens
      expect(await claim('t3')).toEqual({ claimed: false, turnId: 't1', claimedAt: 1_000 });
      await store.releaseIdempotencyKey(session.id, 'k1', 't1');
      expect(await claim('t3')).toEqual({ claimed: true });
    });

    it('a claim older than staleBefore is taken over (at the limit it is not)', async () => {
      const { session } = await seedSession(store);
      const claim = (turnId: string, at: number, staleBefore: number) =>
        store.claimIdempotencyKey({ sessionId: session.id, key: 'k', turnId, claimedAt: at, staleBefore });
      expect(await claim('dead', 5_000, 0)).toEqual({ claimed: true });
      expect(await claim('waiter', 9_000, 5_000)).toEqual({
        claimed: false,
        turnId: 'dead',
        claimedAt: 5_000,
      });
      expect(await claim('waiter', 9_001, 5_001)).toEqual({ claimed: true });
    });

    it('a claim whose owner’s heartbeat is older than leaseBefore is taken over at once (at the limit it is not)', async () => {
      const { session } = await seedSession(store);
      const dead = `owner-${randomUUID()}`;
      const live = `owner-${randomUUID()}`;
      await store.registerClaimOwner({ ownerId: dead, at: 10_000, pruneBefore: 0 });
      await store.registerClaimOwner({ ownerId: live, at: 10_000, pruneBefore: 0 });
      const claim = (turnId: string, ownerId: string, leaseBefore: number) =>
        store.claimIdempotencyKey({
          sessionId: session.id,
          key: 'lease',
          turnId,
          claimedAt: 12_000,
          staleBefore: 0,
          ownerId,
          leaseBefore,
        });
      expect(await claim('first', dead, 0)).toEqual({ claimed: true });
      await store.heartbeatClaimOwner(dead, 11_000);
      // Heard from at 11 000: alive for a lease that began at 11 000, gone for one that began a ms later.
      expect(await claim('retry', live, 11_000)).toEqual({
        claimed: false,
        turnId: 'first',
        claimedAt: 12_000,
      });
      expect(await claim('retry', live, 11_001)).toEqual({ claimed: true });
      // The new holder is alive: the old owner cannot take it back.
      await store.heartbeatClaimOwner(live, 11_000);
      expect(await claim('first', dead, 11_000)).toEqual({
        claimed: false,
        turnId: 'retry',
        claimedAt: 12_000,
      });
    });

    it('an ended owner’s claim is taken over at once; a claim without owner is judged by age alone', async () => {
      const { session } = await seedSession(store);
      const owner = `owner-${randomUUID()}`;
      await store.registerClaimOwner({ ownerId: owner, at: 50_000, pruneBefore: 0 });
      const claim = (key: string, turnId: string, ownerId?: string) =>
        store.claimIdempotencyKey({
          sessionId: session.id,
          key,
          turnId,
          claimedAt: 50_000,
          staleBefore: 0,
          ...(ownerId === undefined ? {} : { ownerId }),
          leaseBefore: 49_000,
        });
      expect(await claim('ended', 'held', owner)).toEqual({ claimed: true });
      expect(await claim('ended', 'retry')).toEqual({ claimed: false, turnId: 'held', claimedAt: 50_000 });
      await store.endClaimOwner(owner);
      expect(await store.heartbeatClaimOwner(owner, 50_001)).toBe(false);
      expect(await claim('ended', 'retry')).toEqual({ claimed: true });
      // Written without an owner (as before owners existed): a lease says nothing about it.
      expect(await claim('legacy', 'old')).toEqual({ claimed: true });
      expect(await claim('legacy', 'new', `owner-${randomUUID()}`)).toEqual({
        claimed: false,
        turnId: 'old',
        claimedAt: 50_000,
      });
    });

    it('registering prunes owners silent since before pruneBefore, never itself', async () => {
      const { session } = await seedSession(store);
      const silent = `owner-${randomUUID()}`;
      const fresh = `owner-${randomUUID()}`;
      await store.registerClaimOwner({ ownerId: silent, at: 1_000, pruneBefore: 0 });
      await store.registerClaimOwner({ ownerId: fresh, at: 2_000, pruneBefore: 1_000 });
      expect(await store.heartbeatClaimOwner(silent, 2_000)).toBe(true); // heard at 1 000: not before 1 000
      await store.registerClaimOwner({ ownerId: fresh, at: 3_000, pruneBefore: 2_001 });
      expect(await store.heartbeatClaimOwner(silent, 3_000)).toBe(false);
      expect(await store.heartbeatClaimOwner(fresh, 3_000)).toBe(true);
      // A claim of the pruned owner counts as its owner's: gone.
      await store.registerClaimOwner({ ownerId: silent, at: 3_000, pruneBefore: 0 });
      expect(
        await store.claimIdempotencyKey({
          sessionId: session.id,
          key: 'p',
          turnId: 'a',
          claimedAt: 3_000,
          staleBefore: 0,
          ownerId: silent,
          leaseBefore: 0,
        }),
      ).toEqual({ claimed: true });
      await store.registerClaimOwner({ ownerId: fresh, at: 9_000, pruneBefore: 8_000 });
      expect(
        await store.claimIdempotencyKey({
          sessionId: session.id,
          key: 'p',
          turnId: 'b',
          claimedAt: 9_000,
          staleBefore: 0,
          ownerId: fresh,
          leaseBefore: 0,
        }),
      ).toEqual({ claimed: true });
    });

    it('twenty simultaneous claims through two connection pools: exactly one wins', async () => {
      const { session } = await seedSession(store);
      const second = await harness.open(url);
      try {
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            (i % 2 === 0 ? store : second).claimIdempotencyKey({
              sessionId: session.id,
              key: 'race',
              turnId: `turn-${i}`,
              claimedAt: 1,
              staleBefore: 0,
            }),
          ),
        );
        const winners = results.filter((r) => r.claimed);
        expect(winners).toHaveLength(1);
        const winner = `turn-${results.findIndex((r) => r.claimed)}`;
        for (const r of results) if (!r.claimed) expect(r.turnId).toBe(winner);
      } finally {
        await second.close();
      }
    });
  });

  describe('sessions in pages, and the cap', () => {
    const create = (target: Store, seeded: Awaited<ReturnType<typeof seedSession>>, maxSessions: number) =>
      target.createSession({
        principalId: seeded.principal.id,
        cartridgeVersionId: seeded.cartridgeVersionId,
        seed: 1,
        maxSessions,
        genesis: { ...content({}), input: null },
      });

    it('a create at the cap is refused with session-cap; below it, it is made', async () => {
      const seeded = await seedSession(store); // one session already
      expect((await create(store, seeded, 2)).ok).toBe(true);
      expect(await create(store, seeded, 2)).toEqual({ ok: false, reason: 'session-cap', limit: 2 });
      expect(await store.countSessions(seeded.principal.id)).toBe(2);
      expect((await create(store, seeded, 3)).ok).toBe(true);
    });

    it('ten simultaneous creates (through two connection pools on PostgreSQL) never pass the cap', async () => {
      const seeded = await seedSession(store);
      // Two SQLite connections in one process would block each other's event loop (better-sqlite3 waits
      // for the write lock synchronously); one connection serialises its transactions, as BEGIN
      // IMMEDIATE serialises those of several processes.
      const second = harness.name === 'postgres' ? await harness.open(url) : store;
      try {
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => create(i % 2 === 0 ? store : second, seeded, 4)),
        );
        expect(results.filter((r) => r.ok)).toHaveLength(3);
        expect(await store.countSessions(seeded.principal.id)).toBe(4);
      } finally {
        if (second !== store) await second.close();
      }
    });

    it('a page starts after its cursor, ties broken by id; its size is checked against MAX_SESSION_PAGE', async () => {
      const seeded = await seedSession(store);
      for (let i = 0; i < 4; i++)
        await store.createSession({
          principalId: seeded.principal.id,
          cartridgeVersionId: seeded.cartridgeVersionId,
          seed: i,
          createdAt: 5,
          genesis: { ...content({}), input: null },
        });
      const all = await store.listSessions(seeded.principal.id);
      expect(all).toHaveLength(5);
      const pages: string[] = [];
      let after: { updatedAt: number; id: string } | undefined;
      for (;;) {
        const page = await store.listSessions(seeded.principal.id, { limit: 2, ...(after ? { after } : {}) });
        pages.push(...page.map((s) => s.id));
        const last = page.at(-1);
        if (page.length < 2 || last === undefined) break;
        after = { updatedAt: last.updatedAt, id: last.id };
      }
      expect(pages).toEqual(all.map((s) => s.id));
      const tied = all.filter((s) => s.updatedAt === 5).map((s) => s.id);
      expect(tied).toEqual([...tied].sort());
      await expect(
        store.listSessions(seeded.principal.id, { limit: MAX_SESSION_PAGE }),
      ).resolves.toHaveLength(5);
      await expect(store.listSessions(seeded.principal.id, { limit: MAX_SESSION_PAGE + 1 })).rejects.toThrow(
        /MAX_SESSION_PAGE/,
      );
      await expect(store.listSessions(seeded.principal.id, { limit: 0 })).rejects.toThrow(StoreInputError);
    });
  });

  describe('one string policy', () => {
    const refusals: Array<[string, string]> = [
      ['NUL', 'a\u0000b'],
      ['a lone high surrogate', 'a\uD800b'],
      ['a lone low surrogate', 'a\uDC00'],
      ['a newline', 'two\nlines'],
      ['ESC', 'esc\u001B[31m'],
      ['a bidirectional override', 'abc\u202Edef'],
      ['a tag character', 'tag\u{E0041}'],
    ];
    it.each(refusals)('a name with %s is refused on every table that stores names', async (_what, bad) => {
      const seeded = await seedSession(store);
      await expect(store.createPrincipal({ name: bad })).rejects.toThrow(StoreInputError);
      await expect(
        store.createPersona({ principalId: seeded.principal.id, name: bad, data: {} }),
      ).rejects.toThrow(StoreInputError);
      await expect(store.renameSession(seeded.session.id, seeded.principal.id, bad)).rejects.toThrow(
        StoreInputError,
      );
      await expect(
        store.createSave({ sessionId: seeded.session.id, turnId: seeded.genesis.id, name: bad }),
      ).rejects.toThrow(StoreInputError);
      expect((await store.getSession(seeded.session.id, seeded.principal.id))?.title).toBe('test run');
    });

    it('names with emoji (surrogate pairs), accents and joiners are kept exactly', async () => {
      const seeded = await seedSession(store);
      const title = 'Ærwyn’s 🧙🏽‍♀️ run';
      expect((await store.renameSession(seeded.session.id, seeded.principal.id, title))?.title).toBe(title);
      expect((await store.getSession(seeded.session.id, seeded.principal.id))?.title).toBe(title);
    });

    it('narration with NUL or a lone surrogate is refused; nothing is appended', async () => {
      const seeded = await seedSession(store);
      for (const narration of ['x\u0000y', 'x\uDFFFy']) {
        await expect(
          store.appendTurn({
            sessionId: seeded.session.id,
            parentId: seeded.genesis.id,
            ...content({ hp: 1 }, { narration }),
          }),
        ).rejects.toThrow(StoreInputError);
      }
      expect(await store.listTree(seeded.session.id)).toHaveLength(1);
      const ok = await mustAppend(store, {
        sessionId: seeded.session.id,
        parentId: seeded.genesis.id,
        ...content({ hp: 1 }, { narration: 'tab\tand\nnewline kept' }),
      });
      expect(ok.narration).toBe('tab\tand\nnewline kept');
    });
  });
}
