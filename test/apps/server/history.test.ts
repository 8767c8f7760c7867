// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are read loosely; each test asserts the fields it needs.
// The routes the web client reads a session with: the public part of the cartridge's state schema, and the
// story of a branch in one request (capped to its newest HISTORY_MAX_TURNS turns).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_MAX_TURNS } from '../../../src/apps/server/limits.ts';
import { KEY_A, KEY_B, newSession, startTestServer, type TestServer } from './helpers.ts';

async function play(server: TestServer, id: string, input: string, parentId?: string, key?: string) {
  const played = await server.json(`/v1/sessions/${id}/turns`, {
    method: 'POST',
    json: { input, ...(parentId ? { parentId } : {}) },
    ...(key ? { key } : {}),
  });
  if (played.status !== 201) throw new Error(`turn: ${played.status} ${JSON.stringify(played.body)}`);
  return played.body.turn;
}

describe('GET /v1/sessions/{id}/schema', () => {
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

  it('lists the public fields with their types and bounds, and never a private one', async () => {
    const { id } = await newSession(server, KEY_A);
    const schema = await server.json(`/v1/sessions/${id}/schema`, { key: KEY_A });
    expect(schema.status).toBe(200);
    const fields: any[] = schema.body.fields;
    expect(fields.map((f) => f.path.join('.'))).toEqual([
      'game_time',
      'player.hp',
      'player.max_hp',
      'player.mana',
      'player.max_mana',
      'player.gold',
      'player.hunger',
      'player.location',
      'player.inventory',
      'foe.name',
      'foe.hp',
      'world.chapel_sealed',
      'market.prices',
    ]);
    expect(fields.find((f) => f.path.join('.') === 'player.hp')).toEqual({
      path: ['player', 'hp'],
      type: 'int',
      min: 0,
      max: 24,
    });
    expect(fields.find((f) => f.path.join('.') === 'foe.hp')).toEqual({
      path: ['foe', 'hp'],
      type: 'int',
      min: 0,
    });
    expect(fields.find((f) => f.path.join('.') === 'player.inventory')).toEqual({
      path: ['player', 'inventory'],
      type: 'list',
    });
    const text = JSON.stringify(schema.body);
    for (const secret of ['attack_bonus', 'armor', 'bestiary', 'chapel_attempts', 'damage_dice', '_pending'])
      expect(text).not.toContain(secret);
  });

  it('is 404 for another principal’s session and for no session', async () => {
    const { id } = await newSession(server, KEY_A);
    const other = await server.json(`/v1/sessions/${id}/schema`, { key: KEY_B });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('not_found');
    expect((await server.json('/v1/sessions/nope/schema', { key: KEY_A })).status).toBe(404);
  });
});

describe('GET /v1/sessions/{id}/history', () => {
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

  it('returns the branch to the head, oldest first, exactly as the turn route shows each turn', async () => {
    const { id, head } = await newSession(server, KEY_A);
    const t1 = await play(server, id, 'I make light', undefined, KEY_A);
    const t2 = await play(server, id, 'I rest at the inn', undefined, KEY_A);
    const history = await server.json(`/v1/sessions/${id}/history`, { key: KEY_A });
    expect(history.status).toBe(200);
    expect(history.body.turnId).toBe(t2.id);
    expect(history.body.complete).toBe(true);
    expect(history.body.turns.map((t: any) => t.id)).toEqual([head, t1.id, t2.id]);
    for (const turn of history.body.turns) {
      const one = await server.json(`/v1/sessions/${id}/turns/${turn.id}`, { key: KEY_A });
      expect(turn).toEqual(one.body.turn);
    }
    // The player view: public state only.
    expect(history.body.turns[2].state.player.hp).toBeTypeOf('number');
    expect(history.body.turns[2].state.player.attack_bonus).toBeUndefined();
    expect(JSON.stringify(history.body)).not.toContain('bestiary');
    expect(history.body.turns[1].input).toBe('I make light');
    expect(history.body.turns[0].input).toBeNull();
  });

  it('follows the branch of the turn asked for, not the head’s', async () => {
    const { id, head } = await newSession(server, KEY_A);
    const left = await play(server, id, 'I check my pack', undefined, KEY_A);
    const right = await play(server, id, 'I travel to the brine market', head, KEY_A);
    const deeper = await play(server, id, 'I make light', undefined, KEY_A);
    const atLeft = await server.json(`/v1/sessions/${id}/history?turnId=${left.id}`, { key: KEY_A });
    expect(atLeft.body.turns.map((t: any) => t.id)).toEqual([head, left.id]);
    const atHead = await server.json(`/v1/sessions/${id}/history`, { key: KEY_A });
    expect(atHead.body.turns.map((t: any) => t.id)).toEqual([head, right.id, deeper.id]);
  });

  it('is 404 for another principal’s session, an unknown turn, or a turn of another session', async () => {
    const mine = await newSession(server, KEY_A);
    const other = await newSession(server, KEY_A);
    expect((await server.json(`/v1/sessions/${mine.id}/history`, { key: KEY_B })).status).toBe(404);
    expect((await server.json(`/v1/sessions/${mine.id}/history?turnId=nope`, { key: KEY_A })).status).toBe(
      404,
    );
    const across = await server.json(`/v1/sessions/${mine.id}/history?turnId=${other.head}`, { key: KEY_A });
    expect(across.status).toBe(404);
    expect(across.body.error.code).toBe('not_found');
  });

  it(`returns a branch of ${HISTORY_MAX_TURNS} turns whole, and the newest ${HISTORY_MAX_TURNS} of a longer one`, async () => {
    const { id, head } = await newSession(server, KEY_A);
    const genesis = await server.store.getTurn(id, head);
    let parentId = head;
    const ids = [head];
    // Stored directly: playing 500 turns through the engine would test the engine, not the cap.
    for (let i = 1; i <= HISTORY_MAX_TURNS; i++) {
      const appended = await server.store.appendTurn({
        sessionId: id,
        parentId,
        input: { kind: 'text', text: `step ${i}` },
        narration: `narration ${i}`,
        record: { kind: 'test' },
        state: genesis!.state,
        seed: i,
        createdAt: i,
      });
      if (!appended.ok) throw new Error(appended.reason);
      parentId = appended.turn.id;
      ids.push(parentId);
    }
    const atLimit = await server.json(`/v1/sessions/${id}/history?turnId=${ids[HISTORY_MAX_TURNS - 1]}`, {
      key: KEY_A,
    });
    expect(atLimit.body.turns).toHaveLength(HISTORY_MAX_TURNS);
    expect(atLimit.body.complete).toBe(true);
    expect(atLimit.body.turns[0].id).toBe(head);

    const past = await server.json(`/v1/sessions/${id}/history`, { key: KEY_A });
    expect(past.body.turnId).toBe(ids[HISTORY_MAX_TURNS]);
    expect(past.body.turns).toHaveLength(HISTORY_MAX_TURNS);
    expect(past.body.complete).toBe(false);
    expect(past.body.turns[0].depth).toBe(1);
    expect(past.body.turns.at(-1).narration).toBe(`narration ${HISTORY_MAX_TURNS}`);
    // The rest of the story: ask again from the parent of the oldest turn received.
    const rest = await server.json(`/v1/sessions/${id}/history?turnId=${past.body.turns[0].parentId}`, {
      key: KEY_A,
    });
    expect(rest.body.turns.map((t: any) => t.id)).toEqual([head]);
    expect(rest.body.complete).toBe(true);

    // `limit` asks for the newest few (the web client opens a story from them): 1 and the cap are
    // accepted, 0 and one past the cap are refused naming the field.
    const one = await server.json(`/v1/sessions/${id}/history?limit=1`, { key: KEY_A });
    expect(one.body.turns.map((t: any) => t.id)).toEqual([ids[HISTORY_MAX_TURNS]]);
    expect(one.body.complete).toBe(false);
    const three = await server.json(`/v1/sessions/${id}/history?turnId=${ids[2]}&limit=3`, { key: KEY_A });
    expect(three.body.turns.map((t: any) => t.id)).toEqual(ids.slice(0, 3));
    expect(three.body.complete).toBe(true);
    const cap = await server.json(`/v1/sessions/${id}/history?limit=${HISTORY_MAX_TURNS}`, { key: KEY_A });
    expect(cap.body.turns).toHaveLength(HISTORY_MAX_TURNS);
    for (const bad of [0, HISTORY_MAX_TURNS + 1]) {
      const refused = await server.json(`/v1/sessions/${id}/history?limit=${bad}`, { key: KEY_A });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain('limit');
    }
  });

  it('is typed in the OpenAPI document', async () => {
    const doc = (await server.json('/openapi.json')).body;
    const history = doc.paths['/v1/sessions/{id}/history'].get;
    expect(history.parameters.map((p: any) => [p.name, p.in, p.required])).toEqual([
      ['id', 'path', true],
      ['turnId', 'query', false],
      ['limit', 'query', false],
    ]);
    const body = history.responses['200'].content['application/json'].schema;
    expect(Object.keys(body.properties)).toEqual(['turnId', 'turns', 'complete']);
    expect(Object.keys(body.properties.turns.items.properties)).toContain('pendingInteraction');
    const schema =
      doc.paths['/v1/sessions/{id}/schema'].get.responses['200'].content['application/json'].schema;
    expect(schema.properties.fields.items.properties.type.enum).toContain('any');
  });
});
