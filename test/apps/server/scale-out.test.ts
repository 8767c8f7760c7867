// Scale-out for real: two server processes on two ports share one PostgreSQL database (a fresh database for
// this run). Concurrent turns on the same sessions through both: every turn either commits once or is
// refused (409), none is lost, duplicated or interleaved, and `session verify` is clean.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CartridgeLibrary } from '../../../src/engine/session/library.ts';
import { verifySession } from '../../../src/engine/session/verify.ts';
import { openStore } from '../../../src/adapters/store/open.ts';
import { postgresAvailable, postgresHarness, testPgUrl } from '../../adapters/store/harness.ts';
import { post, type ServerProcess, spawnServer } from './processes.ts';

const KEY = 'mnesos_scale_out_key_0123456789';
const url = testPgUrl();
const available = await postgresAvailable('scale-out on PostgreSQL (two server processes)', url);

describe.skipIf(!available)('two server processes on one PostgreSQL', () => {
  const harness = postgresHarness(url);
  let dbUrl: string;
  let servers: ServerProcess[] = [];
  beforeAll(async () => {
    dbUrl = await harness.freshUrl();
    const env = { MNESOS_DATABASE_URL: dbUrl, MNESOS_API_KEYS: KEY };
    // One after the other: both migrate and register the demo cartridge; the second finds them done.
    servers = [await spawnServer(env), await spawnServer(env)];
  }, 90_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await harness.cleanup();
  });

  it('concurrent turns on shared sessions through both: no lost, duplicated or interleaved turns; verify is clean', async () => {
    const auth = { authorization: `Bearer ${KEY}` };
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const sessions: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await post(
        i % 2 === 0 ? a.url : b.url,
        '/v1/sessions',
        { cartridge: 'Lanternmere' },
        auth,
      );
      expect(created.status).toBe(201);
      sessions.push(created.body.session.id);
    }
    const inputs = [
      '/check_pack',
      '/travel reedmaze',
      '/travel brine market',
      '/rest_at_inn',
      '/explore_fen',
    ];
    const committed = new Map<string, string[]>(sessions.map((s) => [s, []]));
    let refused = 0;
    // Rounds of simultaneous requests: each session gets one turn per server per round, and a retry
    // with the same Idempotency-Key through the other server.
    for (let round = 0; round < 6; round++) {
      const requests = sessions.flatMap((sessionId, s) =>
        [a, b].map(async (server, k) => {
          const key = `r${round}-s${s}-k${k}`;
          const body = { input: inputs[(round + s + k) % inputs.length] };
          const first = await post(server.url, `/v1/sessions/${sessionId}/turns`, body, {
            ...auth,
            'idempotency-key': key,
          });
          const retry = await post((k === 0 ? b : a).url, `/v1/sessions/${sessionId}/turns`, body, {
            ...auth,
            'idempotency-key': key,
          });
          if (first.status === 201) {
            committed.get(sessionId)!.push(first.body.turn.id);
            // The retry through the other replica returns the same turn, never a second one.
            expect(retry.status).toBe(200);
            expect(retry.body.turn.id).toBe(first.body.turn.id);
          } else {
            expect([409]).toContain(first.status);
            refused += 1;
            if (retry.status === 201) committed.get(sessionId)!.push(retry.body.turn.id);
            else expect([409]).toContain(retry.status);
          }
        }),
      );
      await Promise.all(requests);
    }
    const store = await openStore(dbUrl, { poolSize: 2 });
    try {
      const library = new CartridgeLibrary(store);
      let total = 0;
      for (const sessionId of sessions) {
        const tree = await store.listTree(sessionId);
        const ids = committed.get(sessionId)!;
        total += ids.length;
        // Every committed turn is stored once; nothing else was stored.
        expect(new Set(ids).size).toBe(ids.length);
        expect(tree.length).toBe(1 + ids.length);
        expect(
          tree
            .slice(1)
            .map((n) => n.id)
            .sort(),
        ).toEqual([...ids].sort());
        // Turns on the head form one chain: each committed turn's parent is the one before it.
        const byId = new Map(tree.map((n) => [n.id, n]));
        for (const node of tree.slice(1)) expect(byId.get(node.parentId!)!.depth).toBe(node.depth - 1);
        expect(new Set(tree.map((n) => n.depth)).size).toBe(tree.length);
        const report = await verifySession(store, library, sessionId);
        expect(report?.divergences).toEqual([]);
      }
      expect(total).toBeGreaterThanOrEqual(sessions.length * 6);
      expect(total + refused).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  }, 120_000);
});
