// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are read loosely; each test asserts the fields it needs.
// A shared table across replicas for real: two server processes on one PostgreSQL database (a fresh one for
// this run), their buses joined by PostgreSQL's LISTEN/NOTIFY. A turn played on one replica reaches a member
// streaming from the other within a second (its prose as it streams, then the committed turn); a member who
// sends on one replica while another's turn plays on the other is queued, never refused, and plays next.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable, postgresHarness, testPgUrl } from '../../adapters/store/harness.ts';
import { contractProblems, openLive } from './live-client.ts';
import { post, type ServerProcess, spawnServer } from './processes.ts';

const ALICE = 'mnesos_replica_key_alice_0123456';
const BOB = 'mnesos_replica_key_bob_012345678';
const url = testPgUrl();
const available = await postgresAvailable('a shared table on two replicas over PostgreSQL', url);

describe.skipIf(!available)('a table on two server processes', () => {
  const harness = postgresHarness(url);
  let servers: ServerProcess[] = [];
  let sessionId: string;
  const auth = (key: string) => ({ authorization: `Bearer ${key}` });
  beforeAll(async () => {
    const dbUrl = await harness.freshUrl();
    const env = {
      MNESOS_DATABASE_URL: dbUrl,
      MNESOS_API_KEYS: `alice=${ALICE},bob=${BOB}`,
      MNESOS_TEST_DIRECTOR_MS: '600',
    };
    servers = [await spawnServer(env), await spawnServer(env)];
    const [a, b] = servers as [ServerProcess, ServerProcess];
    sessionId = (await post(a.url, '/v1/sessions', { cartridge: 'Lanternmere' }, auth(ALICE))).body.session
      .id;
    const code = (await post(a.url, `/v1/sessions/${sessionId}/invites`, {}, auth(ALICE))).body.invite.code;
    const joined = await post(b.url, `/v1/invites/${code}/join`, {}, auth(BOB));
    expect(joined.status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await harness.cleanup();
  });

  it('a turn played on one replica streams to a member on the other within a second', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const bob = await openLive(b.url, sessionId, { key: BOB });
    await bob.next((e) => e.event === 'hello');
    const played = await post(
      a.url,
      `/v1/sessions/${sessionId}/turns`,
      { input: 'I check my pack' },
      auth(ALICE),
    );
    const committedAt = performance.now();
    expect(played.status).toBe(201);
    const narration = await bob.next((e) => e.event === 'narration');
    expect(narration.data.turnId).toBe(played.body.turn.id);
    const turn = await bob.next((e) => e.event === 'turn', 5_000);
    expect(turn.data.turn.id).toBe(played.body.turn.id);
    expect(turn.data.turn.narration).toBe('The lamps gutter.');
    expect(turn.at - committedAt).toBeLessThan(1_000);
    bob.close();
  });

  it('a member sending on one replica during a turn on the other is queued and plays next', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const watcher = await openLive(a.url, sessionId, { key: ALICE });
    await watcher.next((e) => e.event === 'hello');
    const first = post(a.url, `/v1/sessions/${sessionId}/turns`, { input: 'I look around' }, auth(ALICE));
    await watcher.next((e) => e.event === 'turn_started');
    const second = post(b.url, `/v1/sessions/${sessionId}/turns`, { input: 'I follow' }, auth(BOB));
    const queued = await watcher.next((e) => e.event === 'queue' && e.data.queue.length === 2);
    expect(queued.data.queue.map((q: any) => q.character)).toEqual(['alice', 'bob']);
    const [one, two] = await Promise.all([first, second]);
    expect(one.status).toBe(201);
    expect(two.status).toBe(201);
    expect(two.body.turn.parentId).toBe(one.body.turn.id);
    expect(two.body.turn.by).toEqual({ character: 'bob', name: 'bob' });
    expect(contractProblems(watcher.events)).toEqual([]);
    watcher.close();
  });
});
