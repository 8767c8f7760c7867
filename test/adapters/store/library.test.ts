// The library store suite (migration 0005) on SQLite and, when a server answers, on PostgreSQL.

import { afterAll, describe } from 'vitest';
import { postgresAvailable, postgresHarness, sqliteHarness, testPgUrl } from './harness.ts';
import { librarySuite } from './library-suite.ts';

const sqlite = sqliteHarness();
const postgres = postgresHarness(testPgUrl());
const available = await postgresAvailable('the PostgreSQL library suite');

afterAll(async () => {
  await sqlite.cleanup();
  if (available) await postgres.cleanup();
});

describe('SQLite store: library', () => {
  librarySuite(sqlite);
});

describe.skipIf(!available)('PostgreSQL store: library', () => {
  librarySuite(postgres);
});
