// kill -9 of a server process in the middle of a burst of turns (SQLite, the one-machine deployment):
// after a restart on the same file every acknowledged turn is there, nothing is half-written, every
// session verifies clean, and play goes on.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CartridgeLibrary } from '../../../src/engine/session/library.ts';
import { verifySession } from '../../../src/engine/session/verify.ts';
import { openStore } from '../../../src/adapters/store/open.ts';
import { post, spawnServer } from './processes.ts';

const KEY = 'mnesos_crash_test_key_0123456789';
const auth = { authorization: `Bearer ${KEY}` };
/** Extra time the burst runs before the kill, different each round so kill points vary. */
const KILL_AFTER_MS = [40, 120];

describe('kill -9 during a burst of turns', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-server-crash-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(KILL_AFTER_MS)(
    'acknowledged turns survive, nothing is half-written (kill after %i ms)',
    async (killAfter) => {
      const db = join(dir, `crash-${killAfter}.db`);
      const env = { MNESOS_DATABASE_URL: db, MNESOS_API_KEYS: KEY };
      const server = await spawnServer(env);
      const sessions: string[] = [];
      for (let i = 0; i < 3; i++)
        sessions.push(
          (await post(server.url, '/v1/sessions', { cartridge: 'Lanternmere' }, auth)).body.session.id,
        );
      const acknowledged = new Map<string, string[]>(sessions.map((s) => [s, []]));
      let stop = false;
      let started = 0;
      const burst = sessions.map(async (sessionId) => {
        while (!stop) {
          started += 1;
          try {
            const result = await post(
              server.url,
              `/v1/sessions/${sessionId}/turns`,
              { input: '/check_pack' },
              auth,
            );
            if (result.status === 201) acknowledged.get(sessionId)!.push(result.body.turn.id);
          } catch {
            return; // the connection died with the server
          }
        }
      });
      while (started < 6) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, killAfter));
      server.child.kill('SIGKILL');
      stop = true;
      await Promise.all(burst);
      await new Promise<void>((resolve) =>
        server.child.exitCode !== null || server.child.signalCode !== null
          ? resolve()
          : server.child.once('exit', () => resolve()),
      );

      const store = await openStore(db);
      try {
        const library = new CartridgeLibrary(store);
        for (const sessionId of sessions) {
          const tree = await store.listTree(sessionId);
          const ids = new Set(tree.map((n) => n.id));
          for (const id of acknowledged.get(sessionId)!) expect(ids.has(id)).toBe(true);
          const report = await verifySession(store, library, sessionId);
          expect(report?.divergences).toEqual([]);
        }
        expect([...acknowledged.values()].flat().length).toBeGreaterThan(0);
      } finally {
        await store.close();
      }

      // The restarted server plays on.
      const again = await spawnServer(env);
      try {
        const next = await post(
          again.url,
          `/v1/sessions/${sessions[0]}/turns`,
          { input: '/check_pack' },
          auth,
        );
        expect(next.status).toBe(201);
      } finally {
        await again.stop();
      }
    },
    90_000,
  );
});
