// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are read loosely; each test asserts the fields it needs.
// Turns at a shared table over the real HTTP server, with scripted models slow enough to overlap: in free
// order a member who sends while another's turn plays waits in the queue (visible to all) and plays next,
// never a 409; each member acts as their own character of the demo (its `player` is per character);
// undo, swipe and branch are the owner's and the game master's; in rounds every member submits and the
// round plays as one turn when the last one acts, or when the owner closes it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModels } from '../../../src/adapters/llm/index.ts';
import { parseApiKeys } from '../../../src/apps/server/auth.ts';
import { verifySession } from '../../../src/engine/session/verify.ts';
import { KEY_A, KEY_B, newSession, startTestServer, type TestServer } from './helpers.ts';

/** Every turn: the Director takes `DIRECTOR_MS`, calls check_pack, and the Narrator says one line. */
const DIRECTOR_MS = 700;
const models = () =>
  createScriptedModels({
    director: [{ toolCalls: [{ name: 'check_pack', args: {} }], delayMs: DIRECTOR_MS }, { text: 'On.' }],
    narrator: [{ text: 'The lamps gutter.' }],
  });

async function seatBob(server: TestServer, sessionId: string): Promise<void> {
  const code = (
    await server.json(`/v1/sessions/${sessionId}/invites`, { method: 'POST', json: {}, key: KEY_A })
  ).body.invite.code;
  const joined = await server.json(`/v1/invites/${code}/join`, { method: 'POST', json: {}, key: KEY_B });
  expect(joined.status).toBe(200);
}

const turn = (server: TestServer, sessionId: string, key: string, body: unknown) =>
  server.json(`/v1/sessions/${sessionId}/turns`, { method: 'POST', json: body, key });

describe('free order', () => {
  let server: TestServer;
  let sessionId: string;
  beforeAll(async () => {
    server = await startTestServer({
      apiKeys: parseApiKeys(`alice=${KEY_A},bob=${KEY_B}`),
      models,
      modelMode: 'online',
    });
    sessionId = (await newSession(server, KEY_A)).id;
    await seatBob(server, sessionId);
  });
  afterAll(() => server.stop());

  it('a member sending during another’s turn is queued, visible to all, and plays next on the new head', async () => {
    const first = turn(server, sessionId, KEY_A, { input: 'I check my pack' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    const second = turn(server, sessionId, KEY_B, { input: 'I check mine too' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    const seen = await server.json(`/v1/sessions/${sessionId}/table`, { key: KEY_B });
    expect(seen.body.queue.map((q: any) => q.character)).toEqual(['alice', 'bob']);
    const [a, b] = await Promise.all([first, second]);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.turn.parentId).toBe(a.body.turn.id);
    const after = await server.json(`/v1/sessions/${sessionId}/table`, { key: KEY_A });
    expect(after.body.queue).toEqual([]);
  });

  it('each turn records who played it, each character has their own pack, and verify replays it clean', async () => {
    const history = await server.json(`/v1/sessions/${sessionId}/history`, { key: KEY_A });
    const played = history.body.turns.slice(1);
    expect(played.map((t: any) => t.by?.character)).toEqual(['alice', 'bob']);
    const stored = await server.store.getTurn(sessionId, played[1].id);
    const state = stored!.state as any;
    expect(Object.keys(state.players).sort()).toEqual(['alice', 'bob']);
    const report = await verifySession(server.store, server.deps.library, sessionId);
    expect(report?.divergences).toEqual([]);
  });

  it('undo, swipe and branch are the owner’s; a game master may too; everyone else gets 403', async () => {
    const head = (await server.json(`/v1/sessions/${sessionId}`, { key: KEY_A })).body.session.headTurnId;
    const undo = await server.json(`/v1/sessions/${sessionId}/undo`, {
      method: 'POST',
      json: {},
      key: KEY_B,
    });
    expect(undo.status).toBe(403);
    expect(undo.body.error.code).toBe('not_allowed');
    const swipe = await server.json(`/v1/sessions/${sessionId}/regenerate`, {
      method: 'POST',
      json: {},
      key: KEY_B,
    });
    expect(swipe.status).toBe(403);
    const genesis = (await server.json(`/v1/sessions/${sessionId}/history`, { key: KEY_B })).body.turns[0].id;
    const branch = await turn(server, sessionId, KEY_B, { input: 'back then', parentId: genesis });
    expect(branch.status).toBe(403);
    await server.json(`/v1/sessions/${sessionId}/members/bob`, {
      method: 'PATCH',
      json: { role: 'gm' },
      key: KEY_A,
    });
    const gmUndo = await server.json(`/v1/sessions/${sessionId}/undo`, {
      method: 'POST',
      json: {},
      key: KEY_B,
    });
    expect(gmUndo.status).toBe(200);
    expect(gmUndo.body.session.headTurnId).not.toBe(head);
    // A swipe by the game master plays the undone turn's actor again: Bob's input, as Bob.
    const redo = await server.json(`/v1/sessions/${sessionId}/regenerate`, {
      method: 'POST',
      json: { turnId: head },
      key: KEY_B,
    });
    expect(redo.status).toBe(201);
    expect(redo.body.turn).toMatchObject({ by: { character: 'bob', name: 'bob' }, round: false });
    await server.json(`/v1/sessions/${sessionId}/members/bob`, {
      method: 'PATCH',
      json: { role: 'player' },
      key: KEY_A,
    });
  });
});

describe('rounds', () => {
  let server: TestServer;
  let sessionId: string;
  beforeAll(async () => {
    server = await startTestServer({ apiKeys: parseApiKeys(`alice=${KEY_A},bob=${KEY_B}`) });
    sessionId = (await newSession(server, KEY_A)).id;
    await seatBob(server, sessionId);
    const order = await server.json(`/v1/sessions/${sessionId}/table`, {
      method: 'PATCH',
      json: { turnOrder: 'rounds' },
      key: KEY_A,
    });
    expect(order.body.table.turnOrder).toBe('rounds');
  });
  afterAll(() => server.stop());

  it('an action waits for the others (202); the last one plays the round as one turn for everyone', async () => {
    const bobs = await turn(server, sessionId, KEY_B, { input: '/check_pack' });
    expect(bobs.status).toBe(202);
    expect(bobs.body.submitted).toEqual({ round: 1, submitted: ['bob'], waiting: ['alice'] });
    // The owner reads the words; another member would see only that bob acted.
    const asOwner = await server.json(`/v1/sessions/${sessionId}/table`, { key: KEY_A });
    expect(asOwner.body.roundActions).toEqual([{ character: 'bob', whisper: false, input: '/check_pack' }]);
    const alices = await turn(server, sessionId, KEY_A, { input: '/check_pack' });
    expect(alices.status).toBe(201);
    expect(alices.body.turn.input).toBe('bob: /check_pack\nalice: /check_pack');
    expect(alices.body.turn).toMatchObject({ by: null, round: true });
    const table = await server.json(`/v1/sessions/${sessionId}/table`, { key: KEY_B });
    expect(table.body.table.round).toBe(2);
    expect(table.body.roundActions).toEqual([]);
  });

  it('the owner closes a round early; a member may not; whispers are for free order', async () => {
    expect((await turn(server, sessionId, KEY_B, { input: '/check_pack' })).status).toBe(202);
    const refused = await server.json(`/v1/sessions/${sessionId}/round`, {
      method: 'POST',
      json: {},
      key: KEY_B,
    });
    expect(refused.status).toBe(403);
    const closed = await server.json(`/v1/sessions/${sessionId}/round`, {
      method: 'POST',
      json: {},
      key: KEY_A,
    });
    expect(closed.status).toBe(201);
    expect(closed.body.turn.input).toBe('bob: /check_pack');
    const whisper = await turn(server, sessionId, KEY_B, { input: 'psst', whisper: true });
    expect(whisper.status).toBe(422);
    const empty = await server.json(`/v1/sessions/${sessionId}/round`, {
      method: 'POST',
      json: {},
      key: KEY_A,
    });
    expect(empty.status).toBe(422);
  });
});
