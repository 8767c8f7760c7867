// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are read loosely; each test asserts the fields it needs.
// A shared table over the real HTTP server: the owner invites, another key joins and reads the session, a key
// that is not a member gets 404 for everything about it, roles, leaving, the member and invitation caps at
// the limit and just past it, and keyless local play, where a second person joins as a guest with a key of
// their own while every other request stays the local user's.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseApiKeys } from '../../../src/apps/server/auth.ts';
import { KEY_A, KEY_B, newSession, startTestServer, type TestServer } from './helpers.ts';

const KEY_C = 'mnesos_test_key_carol_0123456789a';

async function invite(server: TestServer, sessionId: string, key?: string, body: unknown = {}) {
  return server.json(`/v1/sessions/${sessionId}/invites`, {
    method: 'POST',
    json: body,
    ...(key ? { key } : {}),
  });
}

async function join(server: TestServer, code: string, key?: string, body: unknown = {}) {
  return server.json(`/v1/invites/${code}/join`, { method: 'POST', json: body, ...(key ? { key } : {}) });
}

describe('members and invitations with API keys', () => {
  let server: TestServer;
  let sessionId: string;
  let code: string;
  beforeAll(async () => {
    server = await startTestServer({
      apiKeys: parseApiKeys(`alice=${KEY_A},bob=${KEY_B},carol=${KEY_C}`),
      limits: { maxTableMembers: 2, maxTableInvites: 2 },
    });
    sessionId = (await newSession(server, KEY_A)).id;
  });
  afterAll(() => server.stop());

  it('a key that is not a member gets 404 for the session, its history, table and invitations', async () => {
    for (const path of ['', '/history', '/table', '/tree', '/state', '/schema', '/invites'])
      expect((await server.json(`/v1/sessions/${sessionId}${path}`, { key: KEY_B })).status).toBe(404);
    expect((await invite(server, sessionId, KEY_B)).status).toBe(404);
  });

  it('the owner invites: a code and a link, shown once; the list never shows codes', async () => {
    const made = await invite(server, sessionId, KEY_A, { maxUses: 5 });
    expect(made.status).toBe(201);
    code = made.body.invite.code;
    expect(code).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(made.body.invite.link).toBe(`/?join=${code}`);
    expect(made.body.invite).toMatchObject({ maxUses: 5, uses: 0, closedAt: null });
    const listed = await server.json(`/v1/sessions/${sessionId}/invites`, { key: KEY_A });
    expect(listed.body.invites).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(code);
  });

  it('another key joins, reads the session, history and table; a third key still finds nothing', async () => {
    const joined = await join(server, code, KEY_B);
    expect(joined.status).toBe(200);
    expect(joined.body.member).toMatchObject({ character: 'bob', name: 'bob', role: 'player', you: true });
    expect(joined.body.session.id).toBe(sessionId);
    expect((await server.json(`/v1/sessions/${sessionId}`, { key: KEY_B })).status).toBe(200);
    const history = await server.json(`/v1/sessions/${sessionId}/history`, { key: KEY_B });
    expect(history.status).toBe(200);
    expect(history.body.turns).toHaveLength(1);
    const table = await server.json(`/v1/sessions/${sessionId}/table`, { key: KEY_B });
    expect(table.body.members.map((m: any) => [m.character, m.role, m.you])).toEqual([
      ['alice', 'owner', false],
      ['bob', 'player', true],
    ]);
    expect(table.body.you).toEqual({ role: 'player', character: 'bob', steers: false });
    expect(JSON.stringify(table.body)).not.toContain('key-');
    const listed = await server.json('/v1/sessions', { key: KEY_B });
    expect(listed.body.sessions.map((s: any) => s.id)).toContain(sessionId);
    expect((await server.json(`/v1/sessions/${sessionId}`, { key: KEY_C })).status).toBe(404);
    // Joining again gives the seat back.
    expect((await join(server, code, KEY_B)).body.member.character).toBe('bob');
  });

  it('a member may not invite, rename, delete or change the table; the owner’s rename and delete stay theirs', async () => {
    const asked = await invite(server, sessionId, KEY_B);
    expect(asked.status).toBe(403);
    expect(asked.body.error.code).toBe('not_allowed');
    const order = await server.json(`/v1/sessions/${sessionId}/table`, {
      method: 'PATCH',
      json: { turnOrder: 'rounds' },
      key: KEY_B,
    });
    expect(order.status).toBe(403);
    const renamed = await server.json(`/v1/sessions/${sessionId}`, {
      method: 'PATCH',
      json: { title: 'mine' },
      key: KEY_B,
    });
    expect(renamed.status).toBe(404);
    expect((await server.call(`/v1/sessions/${sessionId}`, { method: 'DELETE', key: KEY_B })).status).toBe(
      404,
    );
  });

  it('the member cap (2 here): a table at its cap refuses a third member with 409 table_limit', async () => {
    const refused = await join(server, code, KEY_C);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'table_limit', limit: 2, what: 'members' });
  });

  it('the invitation cap (2 here): at the cap refused, after closing one there is room', async () => {
    const second = await invite(server, sessionId, KEY_A);
    expect(second.status).toBe(201);
    const third = await invite(server, sessionId, KEY_A);
    expect(third.status).toBe(409);
    expect(third.body.error).toMatchObject({ code: 'table_limit', limit: 2, what: 'invites' });
    const closed = await server.call(`/v1/sessions/${sessionId}/invites/${second.body.invite.id}`, {
      method: 'DELETE',
      key: KEY_A,
    });
    expect(closed.status).toBe(204);
    expect((await join(server, second.body.invite.code, KEY_C)).status).toBe(404);
    expect((await invite(server, sessionId, KEY_A)).status).toBe(201);
  });

  it('roles: the owner makes a game master, who may invite; a member leaves and finds nothing again', async () => {
    const made = await server.json(`/v1/sessions/${sessionId}/members/bob`, {
      method: 'PATCH',
      json: { role: 'gm' },
      key: KEY_A,
    });
    expect(made.body.member.role).toBe('gm');
    const seat = await server.json(`/v1/sessions/${sessionId}/table`, { key: KEY_B });
    expect(seat.body.you).toEqual({ role: 'gm', character: 'bob', steers: true });
    expect((await invite(server, sessionId, KEY_B)).status).toBe(409); // at the invitation cap, but allowed
    const owner = await server.call(`/v1/sessions/${sessionId}/members/alice`, {
      method: 'DELETE',
      key: KEY_B,
    });
    expect(owner.status).toBe(403);
    const left = await server.call(`/v1/sessions/${sessionId}/members/bob`, { method: 'DELETE', key: KEY_B });
    expect(left.status).toBe(204);
    expect((await server.json(`/v1/sessions/${sessionId}`, { key: KEY_B })).status).toBe(404);
  });

  it('an unknown code, a malformed one and guests on a keyed server are refused', async () => {
    expect((await join(server, 'A'.repeat(32), KEY_C)).status).toBe(404);
    expect((await join(server, 'not a code', KEY_C)).status).toBe(404);
    const guest = await join(server, code, KEY_C, { guest: true });
    expect(guest.status).toBe(403);
    expect(guest.body.error.code).toBe('guests_off');
  });
});

describe('keyless local play: a second person joins as a guest', () => {
  let server: TestServer;
  let sessionId: string;
  beforeAll(async () => {
    server = await startTestServer();
    sessionId = (await newSession(server)).id;
  });
  afterAll(() => server.stop());

  it('the guest gets a key of their own; without it every request is still the local user', async () => {
    const code = (await invite(server, sessionId)).body.invite.code;
    const joined = await join(server, code, undefined, { guest: true, name: 'Mara Venn' });
    expect(joined.status).toBe(200);
    const guestKey: string = joined.body.guestKey;
    expect(guestKey.startsWith('mnesos_guest_')).toBe(true);
    expect(joined.body.member).toMatchObject({ character: 'mara_venn', name: 'Mara Venn', role: 'player' });
    const asGuest = await server.json(`/v1/sessions/${sessionId}/table`, { key: guestKey });
    expect(asGuest.body.you).toEqual({ role: 'player', character: 'mara_venn', steers: false });
    const asLocal = await server.json(`/v1/sessions/${sessionId}/table`);
    expect(asLocal.body.you).toMatchObject({ role: 'owner', steers: true });
    expect(asLocal.body.members.map((m: any) => m.character)).toEqual(['local_user', 'mara_venn']);
    // A key that only looks like a guest's is refused; any other bearer text is ignored as before.
    expect((await server.json(`/v1/sessions/${sessionId}`, { key: 'mnesos_guest_nope' })).status).toBe(401);
    expect((await server.json(`/v1/sessions/${sessionId}`, { key: 'anything-else' })).status).toBe(200);
  });

  it('no guest is made for a code that lets nobody in', async () => {
    const refused = await join(server, 'B'.repeat(32), undefined, { guest: true });
    expect(refused.status).toBe(404);
    expect(refused.body.guestKey).toBeUndefined();
  });
});
