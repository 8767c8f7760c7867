// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are read loosely; each test asserts the fields it needs.
// The shared table's limits over the real HTTP server, each at the limit and just past it: an invitation's
// lifetime and uses, the name a member plays under, the live streams one server holds, a round's actions
// together against the input limit, and a Last-Event-ID older than the events kept (the stream starts over).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseApiKeys } from '../../../src/apps/server/auth.ts';
import {
  MAX_INVITE_TTL_MS,
  MAX_INVITE_USES,
  MAX_MEMBER_NAME_CHARS,
  MIN_INVITE_TTL_MS,
} from '../../../src/engine/session/index.ts';
import { KEY_A, KEY_B, newSession, startTestServer, type TestServer } from './helpers.ts';
import { openLive } from './live-client.ts';

const INPUT_LIMIT = 160;

describe('table limits', () => {
  let server: TestServer;
  let sessionId: string;
  beforeAll(async () => {
    server = await startTestServer({
      apiKeys: parseApiKeys(`alice=${KEY_A},bob=${KEY_B}`),
      limits: { maxLiveStreams: 2, maxInputChars: INPUT_LIMIT },
    });
    sessionId = (await newSession(server, KEY_A)).id;
  });
  afterAll(() => server.stop());

  const invite = (body: unknown) =>
    server.json(`/v1/sessions/${sessionId}/invites`, { method: 'POST', json: body, key: KEY_A });

  it('an invitation lives MIN_INVITE_TTL_MS to MAX_INVITE_TTL_MS and allows 1 to MAX_INVITE_USES joins', async () => {
    expect((await invite({ ttlMs: MIN_INVITE_TTL_MS })).status).toBe(201);
    expect((await invite({ ttlMs: MIN_INVITE_TTL_MS - 1 })).status).toBe(400);
    expect((await invite({ ttlMs: MAX_INVITE_TTL_MS })).status).toBe(201);
    expect((await invite({ ttlMs: MAX_INVITE_TTL_MS + 1 })).status).toBe(400);
    expect((await invite({ maxUses: MAX_INVITE_USES })).status).toBe(201);
    expect((await invite({ maxUses: MAX_INVITE_USES + 1 })).status).toBe(400);
    expect((await invite({ maxUses: 0 })).status).toBe(400);
  });

  it('a member’s name is at most MAX_MEMBER_NAME_CHARS characters', async () => {
    const code = (await invite({})).body.invite.code;
    const tooLong = await server.json(`/v1/invites/${code}/join`, {
      method: 'POST',
      json: { name: 'b'.repeat(MAX_MEMBER_NAME_CHARS + 1) },
      key: KEY_B,
    });
    expect(tooLong.status).toBe(400);
    const atLimit = await server.json(`/v1/invites/${code}/join`, {
      method: 'POST',
      json: { name: 'b'.repeat(MAX_MEMBER_NAME_CHARS) },
      key: KEY_B,
    });
    expect(atLimit.status).toBe(200);
    // The character key is cut to a size the state can use, the shown name kept whole.
    expect(atLimit.body.member.name).toHaveLength(MAX_MEMBER_NAME_CHARS);
    expect(atLimit.body.member.character.length).toBeLessThanOrEqual(32);
  });

  it('the streams one server holds (2 here): at the limit a third is refused with 429', async () => {
    const one = await openLive(server.url, sessionId, { key: KEY_A });
    const two = await openLive(server.url, sessionId, { key: KEY_B });
    expect([one.status, two.status]).toEqual([200, 200]);
    const three = await openLive(server.url, sessionId, { key: KEY_A });
    expect(three.status).toBe(429);
    expect(three.refused.error).toMatchObject({ code: 'too_many_streams', limit: 2 });
    one.close();
    two.close();
    for (let i = 0; i < 100 && server.deps.live.open > 0; i++) await new Promise((r) => setTimeout(r, 20));
  });

  it('a round’s actions together fit the input limit: at the limit the round plays, one more is refused', async () => {
    await server.json(`/v1/sessions/${sessionId}/table`, {
      method: 'PATCH',
      json: { turnOrder: 'rounds' },
      key: KEY_A,
    });
    const members = (await server.json(`/v1/sessions/${sessionId}/table`, { key: KEY_A })).body.members;
    const bob = members.find((m: any) => m.role === 'player').name as string;
    const bobSays = '/check_pack';
    expect(
      (
        await server.json(`/v1/sessions/${sessionId}/turns`, {
          method: 'POST',
          json: { input: bobSays },
          key: KEY_B,
        })
      ).status,
    ).toBe(202);
    // The round's text: "<bob's name>: /check_pack\nalice: <words>", as long as the limit at most.
    const room = INPUT_LIMIT - `${bob}: ${bobSays}\nalice: `.length;
    const over = await server.json(`/v1/sessions/${sessionId}/turns`, {
      method: 'POST',
      json: { input: `/check_pack${' '.repeat(room - '/check_pack'.length + 1)}` },
      key: KEY_A,
    });
    expect(over.status).toBe(413);
    expect(over.body.error.code).toBe('input_too_long');
    const at = await server.json(`/v1/sessions/${sessionId}/turns`, {
      method: 'POST',
      json: { input: `/check_pack${' '.repeat(room - '/check_pack'.length)}` },
      key: KEY_A,
    });
    expect(at.status).toBe(201);
  });

  it('a Last-Event-ID older than the events kept starts over with reset and hello; the newest kept resumes', async () => {
    // Events the store drops past a retention of one (the server keeps TABLE_EVENTS_KEPT).
    for (let i = 0; i < 3; i++)
      await server.store.appendTableEvent(
        sessionId,
        { kind: 'queue', payload: { queue: [] }, createdAt: Date.now() },
        1,
      );
    const newest = (await server.store.getTable(sessionId))!.eventSeq;
    expect(await server.store.oldestTableEvent(sessionId)).toBe(newest);
    const behind = await openLive(server.url, sessionId, { key: KEY_B, lastEventId: String(newest - 2) });
    await behind.next((e) => e.event === 'reset');
    await behind.next((e) => e.event === 'hello');
    behind.close();
    const resumed = await openLive(server.url, sessionId, { key: KEY_B, lastEventId: String(newest - 1) });
    const queue = await resumed.next((e) => e.event === 'queue');
    expect(Number(queue.id)).toBe(newest);
    expect(resumed.events.some((e) => e.event === 'reset' || e.event === 'hello')).toBe(false);
    resumed.close();
  });
});
