// The builder drafts store suite (migration 0006) on SQLite and, when a server answers, on PostgreSQL.

import { afterAll, describe } from 'vitest';
import { draftsSuite } from './drafts-suite.ts';
import { postgresAvailable, postgresHarness, sqliteHarness, testPgUrl } from './harness.ts';

const sqlite = sqliteHarness();
const postgres = postgresHarness(testPgUrl());
const available = await postgresAvailable('the PostgreSQL drafts suite');

afterAll(async () => {
  await sqlite.cleanup();
  if (available) await postgres.cleanup();
});

describe('SQLite store: builder drafts', () => {
  draftsSuite(sqlite);
});

describe.skipIf(!available)('PostgreSQL store: builder drafts', () => {
  draftsSuite(postgres);
});
