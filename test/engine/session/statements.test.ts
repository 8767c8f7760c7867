// The fast storage path: an ordinary turn's statements, counted on a real SQLite file. The
// append is one transaction of at most six statements; the cartridge version is read once per process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/adapters/store/open.ts';
import type { Store } from '../../../src/adapters/store/repository.ts';
import { fixture } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnesos-statements-'));
const stores: Store[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('statements per turn', () => {
  it('an offline turn: one append transaction of at most 6 statements, no cartridge re-read', async () => {
    let log: string[] = [];
    const store = await openStore(join(dir, 's.db'), { onQuery: (sql) => log.push(sql) });
    stores.push(store);
    const f = await fixture(store);
    const { session } = await f.service.createSession(f.principal.id, {
      cartridgeVersion: f.version.id,
      seed: 1,
    });
    await f.service.playTurn(f.principal.id, session.id, { turn: { input: 'check pack' } });
    log = [];
    await f.service.playTurn(f.principal.id, session.id, { turn: { input: 'check pack' } });
    const begin = log.findIndex((q) => /^begin/i.test(q));
    const commit = log.findIndex((q) => /^commit/i.test(q));
    expect(begin).toBeGreaterThanOrEqual(0);
    expect(commit - begin - 1).toBeLessThanOrEqual(6);
    expect(log.filter((q) => /^begin/i.test(q))).toHaveLength(1);
    expect(log.some((q) => /from "cartridge_versions"/.test(q))).toBe(false);
    // The parent's state and story window come from memory (window-cache.ts): no branch walk.
    expect(log.some((q) => /with recursive/i.test(q))).toBe(false);
    // Session read, then the append: 8 today (9 with the branch walk, 13 before the window cache).
    expect(log.length).toBeLessThanOrEqual(8);
  });
});
