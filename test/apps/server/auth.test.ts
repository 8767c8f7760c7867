// Auth and ownership over real HTTP: API keys map to principals (only hashes stored), every route of
// another principal's session is a 404, missing or wrong keys are 401; the loopback rule for a server
// without keys (refuses to bind elsewhere; Host and Origin checks against DNS rebinding and CSRF).

import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../../src/adapters/store/keys.ts';
import { checkBindRule, StartRefused, startServer } from '../../../src/apps/server/start.ts';
import { parseApiKeys } from '../../../src/apps/server/auth.ts';
import { KEY_A, KEY_B, newSession, startTestServer, type TestServer } from './helpers.ts';

/** A raw request, so the Host header can be anything (fetch does not let a test set it). */
function rawGet(url: string, path: string, headers: Record<string, string>): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path, method: 'GET', headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('API keys and ownership', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ apiKeys: parseApiKeys(`alice=${KEY_A},${KEY_B}`), authorMode: true });
  });
  afterAll(() => server.stop());

  it('stores only the hashes of the keys', async () => {
    const alice = await server.store.findPrincipalByKeyHash(hashApiKey(KEY_A));
    expect(alice?.name).toBe('alice');
    expect(await server.store.findPrincipalByKeyHash(KEY_A)).toBeUndefined();
  });

  it('401 without a key or with a wrong one; health, metrics and the OpenAPI document are open', async () => {
    expect((await server.call('/v1/sessions')).status).toBe(401);
    expect((await server.call('/v1/sessions', { key: 'mnesos_not_a_real_key_000000' })).status).toBe(401);
    expect((await server.call('/v1/sessions', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
    expect((await server.call('/healthz')).status).toBe(200);
    expect((await server.call('/metrics')).status).toBe(200);
    expect((await server.call('/openapi.json')).status).toBe(200);
  });

  it("another principal's session is a 404 on every session route, and nothing changes", async () => {
    const { id, head } = await newSession(server, KEY_A);
    const played = await server.json(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      key: KEY_A,
      json: { input: '/check_pack' },
    });
    expect(played.status).toBe(201);
    const turnId = played.body.turn.id as string;
    const save = await server.json(`/v1/sessions/${id}/saves`, {
      method: 'POST',
      key: KEY_A,
      json: { name: 'a' },
    });
    const saveId = save.body.save.id as string;
    const matrix: Array<[string, string, unknown?]> = [
      ['GET', `/v1/sessions/${id}`],
      ['PATCH', `/v1/sessions/${id}`, { title: 'stolen' }],
      ['POST', `/v1/sessions/${id}/turns`, { input: '/check_pack' }],
      ['POST', `/v1/sessions/${id}/turns`, { input: '/check_pack', parentId: head }],
      ['POST', `/v1/sessions/${id}/regenerate`, {}],
      ['POST', `/v1/sessions/${id}/undo`, {}],
      ['POST', `/v1/sessions/${id}/head`, { turnId: head }],
      ['GET', `/v1/sessions/${id}/tree`],
      ['GET', `/v1/sessions/${id}/turns/${turnId}`],
      ['GET', `/v1/sessions/${id}/turns/${turnId}/children`],
      ['GET', `/v1/sessions/${id}/state`],
      ['GET', `/v1/sessions/${id}/state?view=full`],
      ['GET', `/v1/sessions/${id}/world`],
      ['GET', `/v1/sessions/${id}/ledger`],
      ['POST', `/v1/sessions/${id}/events`, { event: 'check_pack' }],
      ['GET', `/v1/sessions/${id}/saves`],
      ['POST', `/v1/sessions/${id}/saves`, { name: 'b' }],
      ['PATCH', `/v1/sessions/${id}/saves/${saveId}`, { name: 'c' }],
      ['POST', `/v1/sessions/${id}/saves/${saveId}/load`],
      ['DELETE', `/v1/sessions/${id}/saves/${saveId}`],
      ['DELETE', `/v1/sessions/${id}`],
    ];
    for (const [method, path, json] of matrix) {
      const response = await server.json(path, {
        method,
        key: KEY_B,
        ...(json === undefined ? {} : { json }),
      });
      expect([method, path, response.status]).toEqual([method, path, 404]);
    }
    const own = await server.json(`/v1/sessions/${id}`, { key: KEY_A });
    expect(own.status).toBe(200);
    expect(own.body.session.title).toBeNull();
    expect(own.body.session.headTurnId).toBe(turnId);
    expect((await server.store.listTree(id)).length).toBe(2);
    expect((await server.json(`/v1/sessions/${id}/saves`, { key: KEY_A })).body.saves).toHaveLength(1);
  });

  it('lists only the caller’s sessions and personas', async () => {
    await newSession(server, KEY_A);
    const persona = await server.json('/v1/personas', {
      method: 'POST',
      key: KEY_A,
      json: {
        name: 'Ada',
        pronoun_sub: 'she',
        pronoun_obj: 'her',
        pronoun_poss: 'her',
        pronoun_poss_obj: 'hers',
      },
    });
    expect(persona.status).toBe(201);
    const mine = await server.json('/v1/sessions', { key: KEY_A });
    const theirs = await server.json('/v1/sessions', { key: KEY_B });
    expect(mine.body.sessions.length).toBeGreaterThan(0);
    for (const s of mine.body.sessions)
      expect(theirs.body.sessions.map((t: { id: string }) => t.id)).not.toContain(s.id);
    expect((await server.json(`/v1/personas/${persona.body.persona.id}`, { key: KEY_B })).status).toBe(404);
    // B cannot start a session with A's persona.
    const stolen = await server.json('/v1/sessions', {
      method: 'POST',
      key: KEY_B,
      json: { cartridge: 'Lanternmere', personaId: persona.body.persona.id },
    });
    expect(stolen.status).toBe(404);
  });
});

describe('the loopback rule without keys', () => {
  it('refuses to bind beyond loopback without keys, and says why', async () => {
    expect(() => checkBindRule('0.0.0.0', 0)).toThrow(/MNESOS_API_KEYS/);
    expect(() => checkBindRule('192.168.1.10', 0)).toThrow(StartRefused);
    expect(() => checkBindRule('::', 0)).toThrow(StartRefused);
    expect(() => checkBindRule('127.0.0.1', 0)).not.toThrow();
    expect(() => checkBindRule('localhost', 0)).not.toThrow();
    expect(() => checkBindRule('::1', 0)).not.toThrow();
    expect(() => checkBindRule('0.0.0.0', 1)).not.toThrow();
    await expect(startServer({ host: '0.0.0.0', port: 0, databaseUrl: ':memory:' })).rejects.toThrow(
      StartRefused,
    );
  });

  it('a short key in MNESOS_API_KEYS is refused', () => {
    expect(() => parseApiKeys('short')).toThrow(/16 characters/);
    expect(parseApiKeys(' , ')).toEqual([]);
  });

  describe('a local server', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer();
    });
    afterAll(() => server.stop());

    it('serves the local user without a key', async () => {
      const me = await server.json('/v1/me');
      expect(me.status).toBe(200);
      expect(me.body.principal.id).toBe('local-user');
    });

    it('403 for a Host header that is not loopback (DNS rebinding)', async () => {
      const { port } = new URL(server.url);
      expect(await rawGet(server.url, '/v1/me', { host: `127.0.0.1:${port}` })).toBe(200);
      expect(await rawGet(server.url, '/v1/me', { host: `localhost:${port}` })).toBe(200);
      expect(await rawGet(server.url, '/v1/me', { host: 'attacker.example' })).toBe(403);
      expect(await rawGet(server.url, '/v1/me', { host: `attacker.example:${port}` })).toBe(403);
      expect(await rawGet(server.url, '/healthz', { host: 'attacker.example' })).toBe(403);
      expect(await rawGet(server.url, '/v1/me', { host: '127.0.0.1.attacker.example' })).toBe(403);
    });

    it('403 for a cross-site Origin (CSRF); a loopback Origin is fine', async () => {
      const cross = await server.json('/v1/sessions', {
        method: 'POST',
        headers: { origin: 'https://evil.example' },
        json: { cartridge: 'Lanternmere' },
      });
      expect(cross.status).toBe(403);
      expect(cross.body.error.code).toBe('origin_not_allowed');
      expect((await server.json('/v1/sessions', { headers: { origin: 'null' } })).status).toBe(403);
      expect((await server.json('/v1/me', { headers: { origin: server.url } })).status).toBe(200);
      expect((await server.store.listSessions('local-user')).length).toBe(0);
    });
  });
});
