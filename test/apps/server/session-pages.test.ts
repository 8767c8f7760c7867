// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are read loosely; each test asserts the fields it needs.
// `GET /v1/sessions` in pages, and the per-key session cap, over real HTTP on a real SQLite file: the
// default and the largest page at their size and one past it, a cursor walk that returns every session
// once in the list's order, a cursor the server never gave refused by name, and the cap at its value and
// one past it (409 `session_limit` naming it, nothing stored), per key.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_PAGE,
  MAX_SESSION_PAGE_ITEMS,
} from '../../../src/apps/server/limits.ts';
import { MAX_SESSIONS_PER_PRINCIPAL } from '../../../src/engine/session/limits.ts';
import { KEY_A, KEY_B, newSession, startTestServer, type TestServer } from './helpers.ts';

/** Sessions made directly in the store for the page tests (more than the largest page). */
const MANY = MAX_SESSION_PAGE_ITEMS + 3;

describe('GET /v1/sessions in pages', () => {
  let server: TestServer;
  let versionId: string;
  beforeAll(async () => {
    server = await startTestServer({ limits: { rateLimit: 0 } });
    const first = await newSession(server);
    const session = await server.store.getSession(first.id, 'local-user');
    versionId = session!.cartridgeVersionId;
    // Two sessions share each `updatedAt`, so the id must break ties for the order to be total.
    for (let i = 1; i < MANY; i++) {
      const created = await server.store.createSession({
        principalId: 'local-user',
        cartridgeVersionId: versionId,
        seed: i,
        title: `game ${i}`,
        createdAt: 1_000 + Math.floor(i / 2),
        genesis: { input: null, narration: '', record: {}, state: {}, seed: i, createdAt: 1_000 },
      });
      if (!created.ok) throw new Error(created.reason);
    }
  });
  afterAll(() => server.stop());

  it('the default page holds DEFAULT_SESSION_PAGE sessions and says where the next starts', async () => {
    const page = await server.json('/v1/sessions');
    expect(page.status).toBe(200);
    expect(page.body.sessions).toHaveLength(DEFAULT_SESSION_PAGE);
    expect(typeof page.body.nextCursor).toBe('string');
  });

  it('limit is accepted at MAX_SESSION_PAGE_ITEMS and refused one past it, and below 1', async () => {
    const at = await server.json(`/v1/sessions?limit=${MAX_SESSION_PAGE_ITEMS}`);
    expect(at.status).toBe(200);
    expect(at.body.sessions).toHaveLength(MAX_SESSION_PAGE_ITEMS);
    for (const bad of [MAX_SESSION_PAGE_ITEMS + 1, 0, 'many']) {
      const refused = await server.json(`/v1/sessions?limit=${bad}`);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body.error)).toContain('limit');
    }
  });

  it('walking the cursors returns every session once, most recently played first, then by id', async () => {
    const seen: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const path: string = `/v1/sessions?limit=7${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
      const page = await server.json(path);
      expect(page.status).toBe(200);
      seen.push(...page.body.sessions);
      cursor = page.body.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 100);
    expect(pages).toBe(Math.ceil(MANY / 7));
    expect(seen).toHaveLength(MANY);
    expect(new Set(seen.map((s) => s.id)).size).toBe(MANY);
    const sorted = [...seen].sort(
      (a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    expect(seen.map((s) => s.id)).toEqual(sorted.map((s) => s.id));
    // A page that ends exactly at the last session says so: no cursor to an empty page.
    const exact = await server.json(`/v1/sessions?limit=${MAX_SESSION_PAGE_ITEMS}`);
    const rest = await server.json(
      `/v1/sessions?limit=3&cursor=${encodeURIComponent(exact.body.nextCursor)}`,
    );
    expect(rest.body.sessions).toHaveLength(3);
    expect(rest.body.nextCursor).toBeNull();
  });

  it('a cursor the server did not give is a 400 naming cursor', async () => {
    for (const bad of [
      'not-a-cursor',
      Buffer.from('[1,2]').toString('base64url'),
      Buffer.from('"x"').toString('base64url'),
    ]) {
      const refused = await server.json(`/v1/sessions?cursor=${encodeURIComponent(bad)}`);
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('invalid_request');
      expect(refused.body.error.message).toMatch(/^cursor: /);
    }
  });
});

describe('the session cap', () => {
  const CAP = 3;
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      apiKeys: [
        { label: 'alice', key: KEY_A },
        { label: 'bob', key: KEY_B },
      ],
      limits: { maxSessions: CAP, rateLimit: 0 },
    });
  });
  afterAll(() => server.stop());

  it('is the session layer’s limit by default', () => {
    expect(DEFAULT_MAX_SESSIONS).toBe(MAX_SESSIONS_PER_PRINCIPAL);
  });

  it('creates up to the cap; one past it is 409 session_limit naming the cap, and nothing is stored', async () => {
    const made: string[] = [];
    for (let i = 0; i < CAP; i++) made.push((await newSession(server, KEY_A)).id);
    const over = await server.json('/v1/sessions', {
      method: 'POST',
      json: { cartridge: 'Lanternmere' },
      key: KEY_A,
    });
    expect(over.status).toBe(409);
    expect(over.body.error.code).toBe('session_limit');
    expect(over.body.error.limit).toBe(CAP);
    expect(over.body.error.message).toContain(`${CAP} sessions`);
    expect(over.body.error.message).toContain('MNESOS_MAX_SESSIONS');
    const listed = await server.json(`/v1/sessions?limit=${CAP + 1}`, { key: KEY_A });
    expect(listed.body.sessions.map((s: any) => s.id).sort()).toEqual([...made].sort());
    // Another key has its own cap.
    expect((await newSession(server, KEY_B)).id).toBeTruthy();
    // Deleting one makes room for one.
    const deleted = await server.call(`/v1/sessions/${made[0]}`, { method: 'DELETE', key: KEY_A });
    expect(deleted.status).toBe(204);
    expect((await newSession(server, KEY_A)).id).toBeTruthy();
    const again = await server.json('/v1/sessions', {
      method: 'POST',
      json: { cartridge: 'Lanternmere' },
      key: KEY_A,
    });
    expect(again.status).toBe(409);
  });
});
