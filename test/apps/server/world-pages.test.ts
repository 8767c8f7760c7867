// GET /world and GET /ledger are bounded at any depth and any world size: both answer one page,
// and following the cursors reads everything exactly once.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LEDGER_PAGE_TURNS } from '../../../src/adapters/store/limits.ts';
import { MAX_WORLD_PAGE_RECORDS } from '../../../src/apps/server/limits.ts';
import { newSession, startTestServer, type TestServer } from './helpers.ts';

const TURNS = 5;

describe('paged world and ledger', () => {
  let server: TestServer;
  let id: string;
  let turnIds: string[];
  beforeAll(async () => {
    server = await startTestServer();
    const created = await newSession(server);
    id = created.id;
    const genesis = await server.store.getTurn(id, created.head);
    turnIds = [];
    let parent = created.head;
    for (let t = 1; t <= TURNS; t++) {
      const appended = await server.store.appendTurn({
        sessionId: id,
        parentId: parent,
        narration: `turn ${t}`,
        record: {},
        state: genesis!.state,
        ledgerEvents: [
          { event_type: 'create_entity', entity: `e${t}`, name: `E${t}` },
          { event_type: 'add_fact', fact_id: `fact_${t}`, subject: `e${t}`, predicate: 'seen' },
        ],
        seed: t,
        createdAt: t,
      });
      if (!appended.ok) throw new Error(appended.reason);
      parent = appended.turn.id;
      turnIds.push(parent);
    }
  });
  afterAll(() => server.stop());

  it('the world comes in pages of `limit` records; the cursors read every record once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const page = await server.json(`/v1/sessions/${id}/world?limit=3${query}`);
      expect(page.status).toBe(200);
      const world = page.body.world;
      const facts = Object.values(world.facts as Record<string, Record<string, unknown>>).flatMap((b) =>
        Object.keys(b),
      );
      const keys = [...Object.keys(world.entities), ...facts];
      expect(keys.length).toBe(page.body.page.records);
      expect(keys.length).toBeLessThanOrEqual(3);
      seen.push(...keys);
      cursor = page.body.page.next;
      pages += 1;
      expect(page.body.summary.text).toContain('Facts:');
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(4);
    expect(seen.sort()).toEqual(
      [
        ...Array.from({ length: TURNS }, (_, i) => `e${i + 1}`),
        ...Array.from({ length: TURNS }, (_, i) => `fact_${i + 1}`),
      ].sort(),
    );
  });

  it('refuses a limit past MAX_WORLD_PAGE_RECORDS and a cursor it did not make', async () => {
    expect((await server.json(`/v1/sessions/${id}/world?limit=${MAX_WORLD_PAGE_RECORDS}`)).status).toBe(200);
    expect((await server.json(`/v1/sessions/${id}/world?limit=${MAX_WORLD_PAGE_RECORDS + 1}`)).status).toBe(
      400,
    );
    const bad = await server.json(`/v1/sessions/${id}/world?cursor=${encodeURIComponent('entities:nobody')}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('bad_cursor');
    expect((await server.json(`/v1/sessions/${id}/world?cursor=nonsense`)).status).toBe(400);
  });

  it('the ledger comes newest turns first, `limit` turns a page, to the first turn', async () => {
    const first = await server.json(`/v1/sessions/${id}/ledger?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.entries.map((e: { depth: number }) => e.depth)).toEqual([4, 4, 5, 5]);
    expect(first.body.nextTurnId).toBe(turnIds[2]);
    const rest = await server.json(`/v1/sessions/${id}/ledger?limit=10&turnId=${first.body.nextTurnId}`);
    expect(rest.body.entries.map((e: { depth: number }) => e.depth)).toEqual([1, 1, 2, 2, 3, 3]);
    expect(rest.body.nextTurnId).toBeNull();
    expect((await server.json(`/v1/sessions/${id}/ledger?limit=${MAX_LEDGER_PAGE_TURNS}`)).status).toBe(200);
    expect((await server.json(`/v1/sessions/${id}/ledger?limit=${MAX_LEDGER_PAGE_TURNS + 1}`)).status).toBe(
      400,
    );
  });
});
