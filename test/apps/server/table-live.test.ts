// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are read loosely; each test asserts the fields it needs.
// A member's live stream over the real HTTP server (one process, SQLite): `hello`, another member's turn as
// it plays and commits, a whisper shown to others only as a turn that happened, catching up from
// Last-Event-ID after a reconnect, head moves, a removed member's stream ending, the stream limits at the
// limit and just past it, and a reader that stops reading dropped while the others go on at full speed.

import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseApiKeys } from '../../../src/apps/server/auth.ts';
import { KEY_A, KEY_B, newSession, startTestServer, type TestServer } from './helpers.ts';
import { contractProblems, openLive } from './live-client.ts';

const KEY_C = 'mnesos_test_key_carol_0123456789a';

describe('live streams of a table', () => {
  let server: TestServer;
  let sessionId: string;
  beforeAll(async () => {
    server = await startTestServer({
      apiKeys: parseApiKeys(`alice=${KEY_A},bob=${KEY_B},carol=${KEY_C}`),
      limits: { maxLiveStreamsPerPrincipal: 2 },
    });
    sessionId = (await newSession(server, KEY_A)).id;
    const code = (
      await server.json(`/v1/sessions/${sessionId}/invites`, { method: 'POST', json: {}, key: KEY_A })
    ).body.invite.code;
    await server.json(`/v1/invites/${code}/join`, { method: 'POST', json: {}, key: KEY_B });
    await server.json(`/v1/invites/${code}/join`, { method: 'POST', json: {}, key: KEY_C });
  });
  afterAll(() => server.stop());

  /** Waits until the server holds `open` streams (a closed client is noticed a moment later). */
  const closedOnServer = async (open: number) => {
    for (let i = 0; i < 100 && server.deps.live.open !== open; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.deps.live.open).toBe(open);
  };

  const play = (key: string, body: unknown) =>
    server.json(`/v1/sessions/${sessionId}/turns`, { method: 'POST', json: body, key });

  it('says hello, then streams another member’s turn as it plays and commits', async () => {
    const bob = await openLive(server.url, sessionId, { key: KEY_B });
    const hello = await bob.next((e) => e.event === 'hello');
    expect(hello.data.you).toEqual({ role: 'player', character: 'bob', steers: false });
    expect(hello.data.members.map((m: any) => m.character)).toEqual(['alice', 'bob', 'carol']);
    const played = await play(KEY_A, { input: '/check_pack' });
    expect(played.status).toBe(201);
    const narration = await bob.next((e) => e.event === 'narration');
    expect(narration.data.text).toBe(played.body.turn.narration);
    const turn = await bob.next((e) => e.event === 'turn');
    expect(turn.data.turn.id).toBe(played.body.turn.id);
    expect(turn.data.turn.by).toEqual({ character: 'alice', name: 'alice' });
    expect(Number(turn.id)).toBeGreaterThan(0);
    const order = bob.events.map((e) => e.event);
    expect(order.indexOf('turn_started')).toBeLessThan(order.indexOf('turn'));
    expect(contractProblems(bob.events)).toEqual([]);
    bob.close();
  });

  it('a whisper reaches its player and the owner whole, and the others only as a turn that happened', async () => {
    const [alice, bob, carol] = await Promise.all(
      [KEY_A, KEY_B, KEY_C].map((key) => openLive(server.url, sessionId, { key })),
    );
    await Promise.all([alice, bob, carol].map((s) => s!.next((e) => e.event === 'hello')));
    // A whisper whose prose no other turn of this table has.
    const whisper = await play(KEY_C, { input: '/travel reedmaze', whisper: true });
    expect(whisper.status).toBe(201);
    const words = whisper.body.turn.narration as string;
    const forBob = await bob!.next((e) => e.event === 'turn' && e.data.turn.id === whisper.body.turn.id);
    expect(forBob.data.turn).toMatchObject({
      hidden: true,
      input: null,
      narration: '',
      outcome: null,
      whisper: true,
    });
    expect(JSON.stringify(bob!.events)).not.toContain(words);
    const forAlice = await alice!.next((e) => e.event === 'turn' && e.data.turn.id === whisper.body.turn.id);
    expect(forAlice.data.turn.narration).toBe(words);
    const forCarol = await carol!.next((e) => e.event === 'turn' && e.data.turn.id === whisper.body.turn.id);
    expect(forCarol.data.turn.narration).toBe(words);
    expect(carol!.events.some((e) => e.event === 'narration' && e.data.text === words)).toBe(true);
    // The history says the same.
    const history = await server.json(`/v1/sessions/${sessionId}/history`, { key: KEY_B });
    expect(history.body.turns.at(-1)).toMatchObject({ hidden: true, narration: '' });
    expect(JSON.stringify(history.body)).not.toContain(words);
    for (const s of [alice, bob, carol]) expect(contractProblems(s!.events)).toEqual([]);
    for (const s of [alice, bob, carol]) s!.close();
  });

  it('a member who reconnects with Last-Event-ID gets exactly what they missed, in order', async () => {
    const bob = await openLive(server.url, sessionId, { key: KEY_B });
    await bob.next((e) => e.event === 'hello');
    const first = await play(KEY_A, { input: '/check_pack' });
    const seen = await bob.next((e) => e.event === 'turn' && e.data.turn.id === first.body.turn.id);
    bob.close();
    const missed = [await play(KEY_A, { input: '/check_pack' }), await play(KEY_C, { input: '/check_pack' })];
    const undo = await server.json(`/v1/sessions/${sessionId}/undo`, {
      method: 'POST',
      json: {},
      key: KEY_A,
    });
    expect(undo.status).toBe(200);
    const again = await openLive(server.url, sessionId, { key: KEY_B, lastEventId: seen.id });
    const head = await again.next((e) => e.event === 'head');
    expect(head.data).toMatchObject({ headTurnId: undo.body.session.headTurnId, move: 'undo', by: 'alice' });
    const turns = again.events.filter((e) => e.event === 'turn').map((e) => e.data.turn.id);
    expect(turns).toEqual(missed.map((m) => m.body.turn.id));
    expect(again.events.some((e) => e.event === 'hello')).toBe(false);
    const ids = again.events.filter((e) => e.id !== '').map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids[0]).toBe(Number(seen.id) + 1);
    expect(contractProblems(again.events)).toEqual([]);
    again.close();
  });

  it('a Last-Event-ID older than what is kept starts over with reset and hello', async () => {
    const stale = await openLive(server.url, sessionId, { key: KEY_B, lastEventId: '999999' });
    await stale.next((e) => e.event === 'reset');
    await stale.next((e) => e.event === 'hello');
    expect(contractProblems(stale.events)).toEqual([]);
    // The check itself finds what the contract does not describe.
    const at = performance.now();
    expect(
      contractProblems([
        { event: 'reset', id: '', data: { eventSeq: 'seven' }, at },
        { event: 'gossip', id: '', data: {}, at },
      ]),
    ).toEqual([
      'reset: eventSeq: Invalid input: expected number, received string',
      'gossip: not in the contract',
    ]);
    stale.close();
    expect((await openLive(server.url, sessionId, { key: KEY_B, lastEventId: 'abc' })).status).toBe(400);
  });

  it('streams per key (2 here): at the limit refused with 429, after one closes there is room', async () => {
    await closedOnServer(0);
    const one = await openLive(server.url, sessionId, { key: KEY_B });
    const two = await openLive(server.url, sessionId, { key: KEY_B });
    expect([one.status, two.status]).toEqual([200, 200]);
    const three = await openLive(server.url, sessionId, { key: KEY_B });
    expect(three.status).toBe(429);
    expect(three.refused.error).toMatchObject({ code: 'too_many_streams', limit: 2 });
    one.close();
    await closedOnServer(1);
    const four = await openLive(server.url, sessionId, { key: KEY_B });
    expect(four.status).toBe(200);
    two.close();
    four.close();
  });

  it('a key that is not a member gets 404; a member removed loses the stream', async () => {
    expect((await openLive(server.url, sessionId, { key: 'mnesos_test_key_nobody_0123456789' })).status).toBe(
      401,
    );
    const outsider = await newSession(server, KEY_C);
    expect((await openLive(server.url, outsider.id, { key: KEY_B })).status).toBe(404);
    const carol = await openLive(server.url, sessionId, { key: KEY_C });
    await carol.next((e) => e.event === 'hello');
    const removed = await server.call(`/v1/sessions/${sessionId}/members/carol`, {
      method: 'DELETE',
      key: KEY_A,
    });
    expect(removed.status).toBe(204);
    await carol.next((e) => e.event === 'member_left' && e.data.character === 'carol');
    await carol.ended;
    expect((await openLive(server.url, sessionId, { key: KEY_C })).status).toBe(404);
  });

  it('a reader that stops reading is dropped; the others get everything at once', async () => {
    const reader = await openLive(server.url, sessionId, { key: KEY_B });
    await reader.next((e) => e.event === 'hello');
    // A client that reads nothing after the headers: its socket fills, then the server's buffer.
    const stalled = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
      const req = request(`${server.url}/v1/sessions/${sessionId}/live`, {
        headers: { authorization: `Bearer ${KEY_A}`, accept: 'text/event-stream' },
      });
      req.on('response', (res) => {
        res.pause();
        res.socket.pause();
        resolve(res);
      });
      req.on('error', reject);
      req.end();
    });
    expect(stalled.statusCode).toBe(200);
    const droppedBefore = server.deps.live.dropped;
    const text = 'x'.repeat(2_000);
    const count = 6_000;
    const started = performance.now();
    for (let i = 0; i < count; i++) {
      server.deps.table.bus.publish({
        kind: 'passing',
        sessionId,
        payload: { type: 'narration', turnId: `t${i}`, character: 'alice', text, whisper: false },
      });
      // At a pace a reader can follow (a model streams far slower): 40 kB, then the loop turns.
      if (i % 20 === 19) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await reader.next((e) => e.event === 'narration' && e.data.turnId === `t${count - 1}`, 20_000);
    const took = performance.now() - started;
    expect(reader.events.filter((e) => e.event === 'narration').length).toBeGreaterThanOrEqual(count);
    expect(server.deps.live.dropped).toBe(droppedBefore + 1);
    expect(took).toBeLessThan(20_000);
    stalled.destroy();
    reader.close();
  });
});
