import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/adapters/store/open.ts';
import { sqliteHarness } from './harness.ts';
import { repositorySuite } from './repository-suite.ts';
import { worldStorageSuite } from './world-storage-suite.ts';
import { rebasedSuite } from './rebased-suite.ts';

describe('SQLite store: repository suite', () => {
  repositorySuite(sqliteHarness());
});

describe('SQLite store: rebased turns', () => {
  rebasedSuite(sqliteHarness());
});

describe('SQLite store: world storage', () => {
  worldStorageSuite(sqliteHarness());
});

describe('SQLite store: files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-sqlite-files-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates missing parent folders and turns on WAL and foreign keys', async () => {
    const path = join(dir, 'a', 'b', 'game.db');
    const store = await openStore(`sqlite:${path}`);
    expect(store.dialect).toBe('sqlite');
    await store.createPrincipal({ name: 'p' });
    await store.close();
    expect(existsSync(path)).toBe(true);
    const raw = new Sqlite(path, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(raw.prepare('select count(*) as n from principals').get()).toEqual({ n: 1 });
    } finally {
      raw.close();
    }
  });

  it('opens a bare file path and an in-memory database', async () => {
    const path = join(dir, 'plain.db');
    const plain = await openStore(path);
    await plain.close();
    expect(existsSync(path)).toBe(true);
    const memory = await openStore('sqlite::memory:');
    expect(await memory.schemaVersion()).toBeGreaterThan(0);
    await memory.close();
  });
});
