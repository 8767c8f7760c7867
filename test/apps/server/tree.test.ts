// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are read loosely; each test asserts the fields it needs.
// The tree route (src/apps/server/routes/turns.ts): the whole tree, or with `limit` only the newest turns of a
// branch and the siblings of each — what the web client opens a long game from (docs/web.md).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_MAX_TURNS } from '../../../src/apps/server/limits.ts';
import { KEY_A, KEY_B, newSession, startTestServer, type TestServer } from './helpers.ts';

/** Appends a turn directly to the store (the engine is not what is tested). */
async function stored(server: TestServer, sessionId: string, parentId: string, i: number): Promise<string> {
  const genesis = await server.store.getTurn(sessionId, parentId);
  const appended = await server.store.appendTurn({
    sessionId,
    parentId,
    input: { kind: 'text', text: `step ${i}` },
    narration: `narration ${i}`,
    record: { kind: 'test' },
    state: genesis!.state,
    seed: i,
    createdAt: i,
  });
  if (!appended.ok) throw new Error(appended.reason);
  return appended.turn.id;
}

const idsOf = (body: any): string[] => body.turns.map((t: any) => t.id);

describe('GET /v1/sessions/{id}/tree', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      apiKeys: [
        { label: 'alice', key: KEY_A },
        { label: 'bob', key: KEY_B },
      ],
    });
  });
  afterAll(() => server.stop());

  it('with `limit`, gives the newest turns of the branch and each one’s siblings, nothing else', async () => {
    const { id, head } = await newSession(server, KEY_A);
    // head → a1 → a2 → a3 (the head), with a swipe of a2 (b2, which has a child b3) and of a1 (c1).
    const a1 = await stored(server, id, head, 1);
    const c1 = await stored(server, id, head, 2);
    const a2 = await stored(server, id, a1, 3);
    const b2 = await stored(server, id, a1, 4);
    const b3 = await stored(server, id, b2, 5);
    const a3 = await stored(server, id, a2, 6);
    await server.store.setHead(id, a3);

    const whole = await server.json(`/v1/sessions/${id}/tree`, { key: KEY_A });
    expect(idsOf(whole.body)).toEqual([head, a1, c1, a2, b2, b3, a3]);

    const two = await server.json(`/v1/sessions/${id}/tree?limit=2`, { key: KEY_A });
    expect(two.status).toBe(200);
    expect(two.body.headTurnId).toBe(a3);
    // a3 and a2 with a2's swipe b2; not b3 (under a swipe), nor a1 and its swipe c1 (older than the limit).
    expect(idsOf(two.body)).toEqual([a2, b2, a3]);
    expect(two.body.turns).toEqual(whole.body.turns.filter((t: any) => [a2, b2, a3].includes(t.id)));

    const three = await server.json(`/v1/sessions/${id}/tree?limit=3`, { key: KEY_A });
    expect(idsOf(three.body)).toEqual([a1, c1, a2, b2, a3]);
    const all = await server.json(`/v1/sessions/${id}/tree?limit=4`, { key: KEY_A });
    expect(idsOf(all.body)).toEqual([head, a1, c1, a2, b2, a3]);

    // `turnId`: the branch of another turn (a swipe's).
    const atB3 = await server.json(`/v1/sessions/${id}/tree?turnId=${b3}&limit=2`, { key: KEY_A });
    expect(idsOf(atB3.body)).toEqual([a2, b2, b3]);
  });

  it('is 404 for an unknown turn, a turn of another session, and another principal’s session', async () => {
    const mine = await newSession(server, KEY_A);
    const other = await newSession(server, KEY_A);
    const unknown = await server.json(`/v1/sessions/${mine.id}/tree?turnId=nope&limit=5`, { key: KEY_A });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    const across = await server.json(`/v1/sessions/${mine.id}/tree?turnId=${other.head}&limit=5`, {
      key: KEY_A,
    });
    expect(across.status).toBe(404);
    expect((await server.json(`/v1/sessions/${mine.id}/tree?limit=5`, { key: KEY_B })).status).toBe(404);
  });

  it(`accepts a limit of 1 and ${HISTORY_MAX_TURNS}, refuses 0 and ${HISTORY_MAX_TURNS + 1} naming the field`, async () => {
    const { id, head } = await newSession(server, KEY_A);
    let parentId = head;
    const ids = [head];
    for (let i = 1; i <= HISTORY_MAX_TURNS; i++) {
      parentId = await stored(server, id, parentId, i);
      ids.push(parentId);
    }
    await server.store.setHead(id, parentId);
    const one = await server.json(`/v1/sessions/${id}/tree?limit=1`, { key: KEY_A });
    expect(idsOf(one.body)).toEqual([parentId]);
    // At the cap: the newest HISTORY_MAX_TURNS of HISTORY_MAX_TURNS + 1 turns, the first message left out.
    const cap = await server.json(`/v1/sessions/${id}/tree?limit=${HISTORY_MAX_TURNS}`, { key: KEY_A });
    expect(cap.status).toBe(200);
    expect(idsOf(cap.body)).toEqual(ids.slice(1));
    for (const bad of [0, HISTORY_MAX_TURNS + 1]) {
      const refused = await server.json(`/v1/sessions/${id}/tree?limit=${bad}`, { key: KEY_A });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain('limit');
    }
    // Without `limit`, the whole tree as before.
    expect(idsOf((await server.json(`/v1/sessions/${id}/tree`, { key: KEY_A })).body)).toEqual(ids);
  });

  it('is typed in the OpenAPI document', async () => {
    const doc = (await server.json('/openapi.json')).body;
    const tree = doc.paths['/v1/sessions/{id}/tree'].get;
    expect(tree.parameters.map((p: any) => [p.name, p.in, p.required])).toEqual([
      ['id', 'path', true],
      ['turnId', 'query', false],
      ['limit', 'query', false],
    ]);
  });
});
