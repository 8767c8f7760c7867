// Shared tables (migration 0009), run against SQLite and PostgreSQL: opening a table seats its owner; access
// is the owner's or a member's and nobody else's; joining through an invitation (expiry, uses, closing, the
// member cap at the limit and just past it, a character taken, a persona of someone else); the invitation cap;
// live events numbered in order with the oldest dropped past `retain`; the queue (its cap, order, stale
// tickets of a process that is gone); round actions and closing a round once.

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewMember, Principal, Store } from '../../../src/adapters/store/repository.ts';
import { MAX_ROUND_INPUT_BYTES, MAX_TABLE_EVENT_BYTES } from '../../../src/adapters/store/table-log.ts';
import { seedSession, type Seeded } from './fixtures.ts';
import type { StoreHarness } from './harness.ts';

const hash = (code: string) => createHash('sha256').update(code).digest('hex');

function seat(principal: Principal, character: string, joinedAt = 10): NewMember {
  return { principalId: principal.id, character, name: principal.name, personaId: null, joinedAt };
}

export function tablesSuite(harness: StoreHarness): void {
  let store: Store;
  let seeded: Seeded;
  let bob: Principal;
  let carol: Principal;
  let dave: Principal;
  beforeAll(async () => {
    store = await harness.open(await harness.freshUrl());
    seeded = await seedSession(store);
    bob = await store.createPrincipal({ name: 'bob' });
    carol = await store.createPrincipal({ name: 'carol' });
    dave = await store.createPrincipal({ name: 'dave' });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('a session becomes a table with its owner seated; opening again changes nothing', async () => {
    const sessionId = seeded.session.id;
    expect(await store.getTable(sessionId)).toBeUndefined();
    const opened = await store.openTable(sessionId, seat(seeded.principal, 'ada'), 5);
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    expect(opened.table).toMatchObject({ turnOrder: 'free', round: 1, invitesClosed: false, eventSeq: 0 });
    expect(opened.owner).toMatchObject({ role: 'owner', character: 'ada' });
    const again = await store.openTable(sessionId, seat(seeded.principal, 'other'), 6);
    expect(again.ok && again.owner.character).toBe('ada');
    // Only the session's owner can open it.
    expect(await store.openTable(sessionId, seat(bob, 'bob'), 7)).toEqual({
      ok: false,
      reason: 'session-not-found',
    });
  });

  it('access: the owner and members reach the session, anyone else does not', async () => {
    const sessionId = seeded.session.id;
    expect((await store.getSessionAccess(sessionId, seeded.principal.id))?.member?.role).toBe('owner');
    expect(await store.getSessionAccess(sessionId, carol.id)).toBeUndefined();
    expect(await store.getSessionAccess('no-such-session', seeded.principal.id)).toBeUndefined();
  });

  it('joins through an invitation: uses counted, a second join gives the seat back, a closed code lets nobody in', async () => {
    const sessionId = seeded.session.id;
    const created = await store.createInvite({
      sessionId,
      createdBy: seeded.principal.id,
      codeHash: hash('code-1'),
      createdAt: 100,
      expiresAt: 1_000,
      maxUses: 1,
      maxInvites: 10,
    });
    expect(created.ok).toBe(true);
    const joined = await store.joinTable(hash('code-1'), seat(bob, 'bob', 200), 8);
    expect(joined).toMatchObject({ ok: true, joined: true, member: { role: 'player', character: 'bob' } });
    // Used up for anyone new; a member already seated gets the seat back.
    expect(await store.joinTable(hash('code-1'), seat(carol, 'carol', 201), 8)).toEqual({
      ok: false,
      reason: 'invite-not-found',
    });
    const back = await store.joinTable(hash('code-1'), seat(bob, 'bob', 202), 8);
    expect(back).toMatchObject({ ok: true, joined: false });
    expect((await store.listInvites(sessionId))[0]?.uses).toBe(1);
    expect((await store.getSessionAccess(sessionId, bob.id))?.member?.character).toBe('bob');
    expect((await store.listSessions(bob.id)).map((s) => s.id)).toContain(sessionId);
  });

  it('an expired invitation, an unknown code and a closed one are all not found', async () => {
    const sessionId = seeded.session.id;
    await store.createInvite({
      sessionId,
      createdBy: seeded.principal.id,
      codeHash: hash('code-2'),
      createdAt: 100,
      expiresAt: 300,
      maxUses: null,
      maxInvites: 10,
    });
    expect((await store.joinTable(hash('code-2'), seat(carol, 'carol', 300), 8)).ok).toBe(false);
    expect((await store.joinTable(hash('nope'), seat(carol, 'carol', 200), 8)).ok).toBe(false);
    expect((await store.joinTable(hash('code-2'), seat(carol, 'carol', 299), 8)).ok).toBe(true);
    expect(await store.removeMember(sessionId, carol.id)).toBe(true);
    expect(await store.closeInvites(sessionId, 400)).toBe(2);
    expect(await store.joinTable(hash('code-2'), seat(carol, 'carol', 299), 8)).toEqual({
      ok: false,
      reason: 'invite-not-found',
    });
  });

  it('the member cap counts the owner: at the cap a join is refused, one below it a join fits', async () => {
    const { session, principal } = await seedSession(store);
    await store.openTable(session.id, seat(principal, 'owner', 1), 1);
    await store.createInvite({
      sessionId: session.id,
      createdBy: principal.id,
      codeHash: hash(`cap-${session.id}`),
      createdAt: 1,
      expiresAt: 10_000,
      maxUses: null,
      maxInvites: 5,
    });
    const code = hash(`cap-${session.id}`);
    expect((await store.joinTable(code, seat(bob, 'bob'), 3)).ok).toBe(true);
    expect((await store.joinTable(code, seat(carol, 'carol'), 3)).ok).toBe(true);
    expect(await store.joinTable(code, seat(dave, 'dave'), 3)).toEqual({
      ok: false,
      reason: 'member-cap',
      limit: 3,
    });
    // A character already played at the table is refused; the owner cannot be removed or demoted.
    expect(await store.removeMember(session.id, carol.id)).toBe(true);
    expect(await store.joinTable(code, seat(dave, 'bob'), 3)).toEqual({
      ok: false,
      reason: 'character-taken',
    });
    expect(await store.removeMember(session.id, principal.id)).toBe(false);
    expect(await store.setMemberRole(session.id, principal.id, 'player')).toBeUndefined();
    expect((await store.setMemberRole(session.id, bob.id, 'gm'))?.role).toBe('gm');
    expect((await store.listMembers(session.id)).map((m) => m.character)).toEqual(['owner', 'bob']);
  });

  it('a persona must be the joining principal’s own', async () => {
    const { session, principal } = await seedSession(store);
    await store.openTable(session.id, seat(principal, 'owner', 1), 1);
    await store.createInvite({
      sessionId: session.id,
      createdBy: principal.id,
      codeHash: hash(`persona-${session.id}`),
      createdAt: 1,
      expiresAt: 10_000,
      maxUses: null,
      maxInvites: 5,
    });
    const persona = await store.createPersona({ principalId: principal.id, name: 'Mara', data: {} });
    if (!persona.ok) throw new Error('persona');
    const joined = await store.joinTable(
      hash(`persona-${session.id}`),
      { ...seat(bob, 'bob'), personaId: persona.persona.id },
      8,
    );
    expect(joined).toEqual({ ok: false, reason: 'persona-not-found' });
  });

  it('the invitation cap counts usable invitations only: at the cap refused, after one closes room again', async () => {
    const { session, principal } = await seedSession(store);
    expect(
      await store.createInvite({
        sessionId: session.id,
        createdBy: principal.id,
        codeHash: hash('x'),
        createdAt: 1,
        expiresAt: 2,
        maxUses: null,
        maxInvites: 1,
      }),
    ).toEqual({ ok: false, reason: 'table-not-found' });
    await store.openTable(session.id, seat(principal, 'owner', 1), 1);
    const make = (n: number) =>
      store.createInvite({
        sessionId: session.id,
        createdBy: principal.id,
        codeHash: hash(`${session.id}-${n}`),
        createdAt: 10,
        expiresAt: 10_000,
        maxUses: null,
        maxInvites: 2,
      });
    expect((await make(1)).ok).toBe(true);
    expect((await make(2)).ok).toBe(true);
    expect(await make(3)).toEqual({ ok: false, reason: 'invite-cap', limit: 2 });
    const [first] = await store.listInvites(session.id);
    expect(await store.closeInvites(session.id, 11, first!.id)).toBe(1);
    expect((await make(4)).ok).toBe(true);
    await store.setInvitesClosed(session.id, true, 12);
    expect(await make(5)).toEqual({ ok: false, reason: 'invites-closed' });
  });

  it('live events are numbered in order; past `retain` the oldest are dropped', async () => {
    const { session, principal } = await seedSession(store);
    expect(
      await store.appendTableEvent(session.id, { kind: 'x', payload: {}, createdAt: 1 }, 3),
    ).toBeUndefined();
    await store.openTable(session.id, seat(principal, 'owner', 1), 1);
    const seqs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const event = await store.appendTableEvent(
        session.id,
        { kind: 'turn', payload: { i }, createdAt: 2 + i },
        3,
      );
      seqs.push(event!.seq);
    }
    expect(seqs).toEqual([1, 2, 3, 4, 5]);
    expect(await store.oldestTableEvent(session.id)).toBe(3);
    const after = await store.listTableEvents(session.id, 3, 10);
    expect(after.map((e) => [e.seq, e.payload])).toEqual([
      [4, { i: 3 }],
      [5, { i: 4 }],
    ]);
    expect((await store.getTable(session.id))?.eventSeq).toBe(5);
  });

  it('concurrent events never share a number', async () => {
    const { session, principal } = await seedSession(store);
    await store.openTable(session.id, seat(principal, 'owner', 1), 1);
    const made = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        store.appendTableEvent(session.id, { kind: 'k', payload: i, createdAt: 5 }, 100),
      ),
    );
    expect(new Set(made.map((e) => e!.seq)).size).toBe(12);
  });

  it('the queue keeps order, refuses past its cap, and drops the tickets of a process that is gone', async () => {
    const { session, principal } = await seedSession(store);
    await store.openTable(session.id, seat(principal, 'owner', 1), 1);
    await store.registerClaimOwner({ ownerId: 'live-proc', at: 1_000, pruneBefore: 0 });
    await store.registerClaimOwner({ ownerId: 'dead-proc', at: 10, pruneBefore: 0 });
    const ticket = (id: string, ownerId: string) => ({
      id,
      sessionId: session.id,
      principalId: principal.id,
      character: 'owner',
      ownerId,
      queuedAt: 1,
    });
    expect((await store.enqueueTurn(ticket('t1', 'dead-proc'), 2)).ok).toBe(true);
    expect((await store.enqueueTurn(ticket('t2', 'live-proc'), 2)).ok).toBe(true);
    expect(await store.enqueueTurn(ticket('t3', 'live-proc'), 2)).toEqual({
      ok: false,
      reason: 'queue-full',
      limit: 2,
    });
    expect((await store.listQueue(session.id)).map((t) => t.id)).toEqual(['t1', 't2']);
    expect(await store.dropStaleTickets(session.id, 500)).toBe(1);
    expect((await store.listQueue(session.id)).map((t) => [t.id, t.position])).toEqual([['t2', 2]]);
    expect(await store.removeTicket(session.id, 't2')).toBe(true);
    expect((await store.enqueueTurn(ticket('t4', 'live-proc'), 2)).ok).toBe(true);
  });

  it('round actions: one per member, replaced on resubmit, refused once the round moved; a round closes once', async () => {
    const { session, principal } = await seedSession(store);
    await store.openTable(session.id, seat(principal, 'owner', 1), 1);
    const action = (input: string, round = 1) => ({
      sessionId: session.id,
      round,
      principalId: principal.id,
      character: 'owner',
      input: { kind: 'text', text: input },
      whisper: false,
      submittedAt: 5,
    });
    expect(await store.submitRoundAction(action('first'))).toMatchObject({ ok: true, replaced: false });
    expect(await store.submitRoundAction(action('second'))).toMatchObject({ ok: true, replaced: true });
    expect((await store.listRoundActions(session.id, 1)).map((a) => a.input)).toEqual([
      { kind: 'text', text: 'second' },
    ]);
    expect((await store.closeRound(session.id, 1, 6))?.round).toBe(2);
    expect(await store.closeRound(session.id, 1, 7)).toBeUndefined();
    expect(await store.listRoundActions(session.id, 1)).toEqual([]);
    expect(await store.submitRoundAction(action('late'))).toEqual({ ok: false, reason: 'round-moved' });
  });

  it('byte limits: an event payload of MAX_TABLE_EVENT_BYTES and a round input of MAX_ROUND_INPUT_BYTES fit, one more byte does not', async () => {
    const { session, principal } = await seedSession(store);
    await store.openTable(session.id, seat(principal, 'owner', 1), 1);
    // JSON text of exactly `bytes` bytes: a string of x's in quotes.
    const ofBytes = (bytes: number) => 'x'.repeat(bytes - 2);
    expect(
      await store.appendTableEvent(
        session.id,
        { kind: 'k', payload: ofBytes(MAX_TABLE_EVENT_BYTES), createdAt: 2 },
        10,
      ),
    ).toBeDefined();
    await expect(
      store.appendTableEvent(
        session.id,
        { kind: 'k', payload: ofBytes(MAX_TABLE_EVENT_BYTES + 1), createdAt: 2 },
        10,
      ),
    ).rejects.toThrow(/MAX_TABLE_EVENT_BYTES/);
    const action = (bytes: number) => ({
      sessionId: session.id,
      round: 1,
      principalId: principal.id,
      character: 'owner',
      input: ofBytes(bytes),
      whisper: false,
      submittedAt: 3,
    });
    expect((await store.submitRoundAction(action(MAX_ROUND_INPUT_BYTES))).ok).toBe(true);
    await expect(store.submitRoundAction(action(MAX_ROUND_INPUT_BYTES + 1))).rejects.toThrow(
      /MAX_ROUND_INPUT_BYTES/,
    );
  });

  it('a character key is an identifier of at most 32 characters', async () => {
    const { session, principal } = await seedSession(store);
    expect((await store.openTable(session.id, seat(principal, 'c'.repeat(32), 1), 1)).ok).toBe(true);
    const other = await seedSession(store);
    await expect(
      store.openTable(other.session.id, seat(other.principal, 'c'.repeat(33), 1), 1),
    ).rejects.toThrow(/member.character/);
    await expect(store.openTable(other.session.id, seat(other.principal, '9lives', 1), 1)).rejects.toThrow(
      /member.character/,
    );
  });

  it('deleting the session removes its table, members, invitations, events, queue and actions', async () => {
    const { session, principal } = await seedSession(store);
    await store.openTable(session.id, seat(principal, 'owner', 1), 1);
    await store.appendTableEvent(session.id, { kind: 'k', payload: 1, createdAt: 2 }, 10);
    expect(await store.deleteSession(session.id, principal.id)).toBe(true);
    expect(await store.getTable(session.id)).toBeUndefined();
    expect(await store.listMembers(session.id)).toEqual([]);
    expect(await store.listTableEvents(session.id, 0, 10)).toEqual([]);
  });
}

export function describeTables(name: string, harness: StoreHarness, skip = false): void {
  describe.skipIf(skip)(name, () => tablesSuite(harness));
}
