// The API's resources end to end over real HTTP: sessions, the turn tree (undo, regenerate, head, tree,
// children), saves, state views, the world ledger, author-mode event runs, the stateless turn, the
// OpenAPI document, health and offline mode.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/apps/server/app.ts';
import { newSession, startTestServer, type TestServer } from './helpers.ts';

describe('the API (author mode)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ authorMode: true });
  });
  afterAll(() => server.stop());

  it('health says the store, offline mode and the auth mode', async () => {
    const health = await server.json('/healthz');
    expect(health.body).toEqual({
      status: 'ok',
      store: 'sqlite',
      modelMode: 'offline',
      auth: 'local',
      authorMode: true,
      media: { speech: false, pictures: false },
    });
  });

  it('the demo cartridge is registered at start', async () => {
    const list = await server.json('/v1/cartridges');
    expect(list.body.cartridges.map((c: { name: string }) => c.name)).toContain('Lanternmere');
    const version = await server.json(`/v1/cartridge-versions/${list.body.cartridges[0].latest.id}`);
    expect(Object.keys(version.body.version.files).sort()).toEqual([
      'bot_lore.md',
      'first-message.md',
      'intents.yaml',
      'prompt_directives.yaml',
      'yare.yaml',
    ]);
    expect(version.body.version.view).toBe('full');
    expect((await server.json('/v1/cartridges/Nope/versions')).status).toBe(404);
  });

  it('session lifecycle: create (turn 0 is the first message), get, rename, list, delete', async () => {
    const created = await server.json('/v1/sessions', {
      method: 'POST',
      json: { cartridge: 'Lanternmere', title: 'first', seed: 5 },
    });
    expect(created.status).toBe(201);
    expect(created.body.turn.depth).toBe(0);
    expect(created.body.turn.narration.length).toBeGreaterThan(0);
    expect(created.body.modelMode).toBe('offline');
    const id = created.body.session.id;
    expect(
      (await server.json(`/v1/sessions/${id}`, { method: 'PATCH', json: { title: 'renamed' } })).body.session
        .title,
    ).toBe('renamed');
    expect((await server.json('/v1/sessions')).body.sessions.map((s: { id: string }) => s.id)).toContain(id);
    expect((await server.call(`/v1/sessions/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await server.call(`/v1/sessions/${id}`)).status).toBe(404);
    expect((await server.call(`/v1/sessions/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect(
      (await server.json('/v1/sessions', { method: 'POST', json: { cartridge: 'no-such' } })).status,
    ).toBe(404);
  });

  it('the tree: play, undo, regenerate (a sibling with a new seed), branch, move the head', async () => {
    const { id, head: genesis } = await newSession(server);
    const a = await server.json(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      json: { input: '/travel brine market' },
    });
    expect(a.status).toBe(201);
    const undo = await server.json(`/v1/sessions/${id}/undo`, { method: 'POST', json: {} });
    expect(undo.body.session.headTurnId).toBe(genesis);
    expect((await server.json(`/v1/sessions/${id}/undo`, { method: 'POST', json: {} })).status).toBe(422);
    await server.json(`/v1/sessions/${id}/head`, { method: 'POST', json: { turnId: a.body.turn.id } });
    const regen = await server.json(`/v1/sessions/${id}/regenerate`, {
      method: 'POST',
      json: {},
      headers: {},
    });
    expect(regen.status).toBe(201);
    expect(regen.body.turn.parentId).toBe(genesis);
    expect(regen.body.turn.siblingIndex).toBe(1);
    expect(regen.body.turn.input).toBe('/travel brine market');
    const branch = await server.json(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      json: { input: '/check_pack', parentId: genesis },
    });
    expect(branch.body.turn.siblingIndex).toBe(2);
    const children = await server.json(`/v1/sessions/${id}/turns/${genesis}/children`);
    expect(children.body.turns.map((t: { siblingIndex: number }) => t.siblingIndex)).toEqual([0, 1, 2]);
    const tree = await server.json(`/v1/sessions/${id}/tree`);
    expect(tree.body.turns).toHaveLength(4);
    expect(tree.body.headTurnId).toBe(branch.body.turn.id);
    // Moving the head with a stale expectation is a conflict.
    const stale = await server.json(`/v1/sessions/${id}/head`, {
      method: 'POST',
      json: { turnId: genesis, expectedHeadId: a.body.turn.id },
    });
    expect(stale.status).toBe(409);
    // Regenerating the first message is refused.
    expect(
      (await server.json(`/v1/sessions/${id}/regenerate`, { method: 'POST', json: { turnId: genesis } }))
        .status,
    ).toBe(422);
  });

  it('saves: create (unique names), list, rename, load (moves the head), delete', async () => {
    const { id, head: genesis } = await newSession(server);
    await server.json(`/v1/sessions/${id}/turns`, { method: 'POST', json: { input: '/check_pack' } });
    const save = await server.json(`/v1/sessions/${id}/saves`, {
      method: 'POST',
      json: { name: 'start', turnId: genesis },
    });
    expect(save.status).toBe(201);
    expect(
      (await server.json(`/v1/sessions/${id}/saves`, { method: 'POST', json: { name: 'start' } })).status,
    ).toBe(409);
    const renamed = await server.json(`/v1/sessions/${id}/saves/${save.body.save.id}`, {
      method: 'PATCH',
      json: { name: 'dawn' },
    });
    expect(renamed.body.save.name).toBe('dawn');
    const loaded = await server.json(`/v1/sessions/${id}/saves/${save.body.save.id}/load`, {
      method: 'POST',
    });
    expect(loaded.body.session.headTurnId).toBe(genesis);
    expect((await server.json(`/v1/sessions/${id}/saves`)).body.saves).toHaveLength(1);
    expect(
      (await server.call(`/v1/sessions/${id}/saves/${save.body.save.id}`, { method: 'DELETE' })).status,
    ).toBe(204);
    expect(
      (await server.json(`/v1/sessions/${id}/saves`, { method: 'POST', json: { name: 'x', turnId: 'nope' } }))
        .status,
    ).toBe(404);
  });

  it('state: public fields by default; the full state with view=full in author mode', async () => {
    const { id } = await newSession(server);
    const pub = await server.json(`/v1/sessions/${id}/state`);
    expect(pub.body.state.player.hp).toBe(24);
    expect(pub.body.state.player.armor).toBeUndefined();
    expect(pub.body.state.player.attack_bonus).toBeUndefined();
    const full = await server.json(`/v1/sessions/${id}/state?view=full`);
    expect(full.body.state.player.armor).toBe(12);
  });

  it('the world ledger at a turn and its log', async () => {
    const { id } = await newSession(server);
    const world = await server.json(`/v1/sessions/${id}/world`);
    expect(world.status).toBe(200);
    expect(world.body.world.entities).toEqual({});
    const log = await server.json(`/v1/sessions/${id}/ledger`);
    expect(log.body.entries).toEqual([]);
    expect((await server.json(`/v1/sessions/${id}/world?turnId=nope`)).status).toBe(404);
  });

  it('author events: a dry run changes nothing; a committed run becomes a turn', async () => {
    const { id, head } = await newSession(server);
    const dry = await server.json(`/v1/sessions/${id}/events`, {
      method: 'POST',
      json: { event: 'travel', inputs: { destination: 'reedmaze' } },
    });
    expect(dry.status).toBe(200);
    expect(dry.body.record.stateAfter.player.location).toBe('reedmaze');
    expect((await server.json(`/v1/sessions/${id}`)).body.session.headTurnId).toBe(head);
    const done = await server.json(`/v1/sessions/${id}/events`, {
      method: 'POST',
      json: { event: 'travel', inputs: { destination: 'reedmaze' }, commit: true },
    });
    expect(done.status).toBe(201);
    expect(done.body.turn.state.player.location).toBe('reedmaze');
    const unknown = await server.json(`/v1/sessions/${id}/events`, {
      method: 'POST',
      json: { event: 'grant_gold' },
    });
    expect(unknown.status).toBe(422);
    const failing = await server.json(`/v1/sessions/${id}/events`, {
      method: 'POST',
      json: { event: 'travel', inputs: { destination: 'the moon' } },
    });
    expect(failing.status).toBe(422);
  });

  it('the stateless turn: public state by default; state and record with view=full; nothing stored', async () => {
    const before = (await server.json('/v1/sessions')).body.sessions.length;
    const shown = await server.json('/v1/turn', {
      method: 'POST',
      json: { cartridge: 'Lanternmere', input: '/travel reedmaze', seed: 3 },
    });
    expect(shown.status).toBe(200);
    expect(shown.body.view).toBe('public');
    expect(shown.body.record).toBeUndefined();
    expect(shown.body.state.player.location).toBe('reedmaze');
    expect(shown.body.state.player.attack_bonus).toBeUndefined();
    const result = await server.json('/v1/turn?view=full', {
      method: 'POST',
      json: { cartridge: 'Lanternmere', input: '/travel reedmaze', seed: 3 },
    });
    expect(result.status).toBe(200);
    expect(result.body.view).toBe('full');
    expect(result.body.state.player.attack_bonus).toBe(4);
    expect(result.body.state.player.location).toBe('reedmaze');
    expect(result.body.record.seed).toBe(3);
    expect(result.body.modelMode).toBe('offline');
    const next = await server.json('/v1/turn?view=full', {
      method: 'POST',
      json: { cartridge: 'Lanternmere', state: result.body.state, input: '/check_pack', seed: 4 },
    });
    expect(next.body.state.player.location).toBe('reedmaze');
    expect((await server.json('/v1/sessions')).body.sessions.length).toBe(before);
    expect(
      (
        await server.json('/v1/turn', {
          method: 'POST',
          json: { cartridge: 'Lanternmere', state: [], input: 'x' },
        })
      ).status,
    ).toBe(400);
  });

  it('the OpenAPI document describes every route with its schemas', async () => {
    const doc = await server.json('/openapi.json');
    expect(doc.body.openapi).toBe('3.1.0');
    // Every route the app registers (an app built from the same deps), but the document itself.
    const registered = new Set(
      createApp(server.deps)
        .app.routes.filter((r) => r.method !== 'ALL' && r.path !== '/openapi.json')
        .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`),
    );
    expect(registered.size).toBeGreaterThan(30);
    const undocumented = [...registered].filter((route) => {
      const [method, path] = route.split(' ') as [string, string];
      return doc.body.paths[path]?.[method] === undefined;
    });
    expect(undocumented).toEqual([]);
    const turns = doc.body.paths['/v1/sessions/{id}/turns'].post;
    expect(turns.requestBody.content['application/json'].schema.properties.input).toBeDefined();
    expect(Object.keys(turns.responses)).toEqual(expect.arrayContaining(['201', '404', '409', '413', '429']));
    expect(doc.body.paths['/v1/cartridges'].post.requestBody.content['application/zip']).toBeDefined();
    expect(doc.body.paths['/healthz'].get.security).toEqual([]);
    // Every JSON success answer documents its shape (fields), but the documents that are JSON Schemas and
    // the OpenAI wire format (openai/).
    const shapeless: string[] = [];
    for (const [path, operations] of Object.entries(doc.body.paths as Record<string, Record<string, any>>))
      for (const [method, operation] of Object.entries(operations))
        for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
          const schema = response.content?.['application/json']?.schema;
          if (!status.startsWith('2') || schema === undefined) continue;
          if (schema.properties === undefined && schema.oneOf === undefined && schema.anyOf === undefined)
            shapeless.push(`${method} ${path} ${status}`);
        }
    expect(shapeless.sort()).toEqual(['get /v1/schemas/{kind} 200', 'post /openai/v1/chat/completions 200']);
    // A status that also streams says so beside its JSON.
    expect(
      Object.keys(doc.body.paths['/v1/sessions/{id}/turns/{turnId}'].get.responses['200'].content),
    ).toEqual(['application/json', 'text/event-stream']);
  });

  it('unknown routes are a JSON 404', async () => {
    const response = await server.json('/v1/nothing-here');
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });
});

describe('the API without author mode', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('the full state view and direct event runs are refused with 403', async () => {
    const { id } = await newSession(server);
    expect((await server.json(`/v1/sessions/${id}/state?view=full`)).status).toBe(403);
    const run = await server.json(`/v1/sessions/${id}/events`, {
      method: 'POST',
      json: { event: 'check_pack' },
    });
    expect([run.status, run.body.error.code]).toEqual([403, 'author_mode_off']);
    expect((await server.store.listTree(id)).length).toBe(1);
  });
});
