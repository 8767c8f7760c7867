// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are read loosely; each test asserts the fields it needs.
// kill -9 of `mnesos serve` while a turn sent with an Idempotency-Key waits on its model: the claim the
// dead process left is recognised as its (the owner's heartbeat stops), so the retry with the same key
// after a restart plays within about one lease, instead of waiting for the claim to grow stale and
// answering 409, and the turn is stored exactly once. On SQLite and on PostgreSQL (a fresh database on
// the local server, MNESOS_TEST_PG_URL).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/adapters/store/open.ts';
import { CLAIM_LEASE_MS, CLAIM_STALE_MS, IDEMPOTENCY_WAIT_MS } from '../../../src/engine/session/limits.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';
import { postgresAvailable, postgresHarness, testPgUrl } from '../../adapters/store/harness.ts';
import { killHard, post, spawnServe } from './processes.ts';

const pgUrl = testPgUrl();
const pgAvailable = await postgresAvailable('the kill -9 claim test on PostgreSQL', pgUrl);
const pg = postgresHarness(pgUrl);

/** Time the retry may take: the lease, plus a generous margin for a loaded machine; far below the old wait. */
const RETRY_BOUND_MS = CLAIM_LEASE_MS + 10_000;

describe('kill -9 while a turn with an Idempotency-Key holds its claim', () => {
  let dir: string;
  let fake: FakeOpenAI;
  let answering = false;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mnesos-claim-crash-'));
    // Before the kill the model never answers (the turn stays open, its claim held); after it, it does.
    fake = await startFakeOpenAI(() =>
      answering ? { kind: 'text', text: 'The lantern gutters and holds.' } : { kind: 'hang' },
    );
  });
  afterAll(async () => {
    await fake.close();
    await pg.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  async function crashAndRetry(db: string): Promise<void> {
    answering = false;
    const env = { MNESOS_LLM_BASE_URL: fake.url, MNESOS_MODEL: 'fake-model', MNESOS_LLM_MAX_RETRIES: '0' };
    const key = { 'idempotency-key': 'crash-retry-1' };
    const first = await spawnServe(db, env);
    const asked = fake.chatRequests().length;
    let sessionId: string;
    try {
      const created = await post(first.url, '/v1/sessions', { cartridge: 'Lanternmere' });
      expect(created.status).toBe(201);
      sessionId = created.body.session.id;
      const pending = post(first.url, `/v1/sessions/${sessionId}/turns`, { input: 'I wait' }, key).catch(
        (error: unknown) => error,
      );
      // The turn has claimed its key and is waiting on the model.
      const deadline = Date.now() + 30_000;
      while (fake.chatRequests().length === asked) {
        if (Date.now() > deadline) throw new Error(`the turn never reached the model: ${first.stderr()}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      await killHard(first);
      expect(await pending).toBeInstanceOf(Error); // the connection died with the process
    } finally {
      await killHard(first);
    }

    answering = true;
    const second = await spawnServe(db, env);
    try {
      const started = performance.now();
      const retry = await post(second.url, `/v1/sessions/${sessionId}/turns`, { input: 'I wait' }, key);
      const took = performance.now() - started;
      expect(retry.status, JSON.stringify(retry.body)).toBe(201);
      expect(took).toBeLessThan(RETRY_BOUND_MS);
      expect(retry.body.turn.narration).toContain('lantern');
      // The same key again: the stored turn, not a second one.
      const replay = await post(second.url, `/v1/sessions/${sessionId}/turns`, { input: 'I wait' }, key);
      expect(replay.status).toBe(200);
      expect(replay.body.turn.id).toBe(retry.body.turn.id);
    } finally {
      await second.stop();
    }
    const store = await openStore(db);
    try {
      const tree = await store.listTree(sessionId);
      expect(tree).toHaveLength(2); // genesis and the one turn
      const stored = await store.findTurnByIdempotencyKey(sessionId, 'crash-retry-1');
      expect(stored?.id).toBe(tree[1]?.id);
    } finally {
      await store.close();
    }
  }

  it('SQLite: the retry after a restart plays promptly and the turn is stored once', async () => {
    expect(RETRY_BOUND_MS).toBeLessThan(Math.min(IDEMPOTENCY_WAIT_MS, CLAIM_STALE_MS));
    await crashAndRetry(join(dir, 'claims.db'));
  }, 120_000);

  it.skipIf(!pgAvailable)(
    'PostgreSQL: the retry after a restart plays promptly and the turn is stored once',
    async () => {
      await crashAndRetry(await pg.freshUrl());
    },
    120_000,
  );
});
