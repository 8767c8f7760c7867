// The shared-table store suite (migration 0009) on SQLite and, when a server answers, on PostgreSQL.

import { afterAll } from 'vitest';
import { postgresAvailable, postgresHarness, sqliteHarness, testPgUrl } from './harness.ts';
import { describeTables } from './tables-suite.ts';

const sqlite = sqliteHarness();
const postgres = postgresHarness(testPgUrl());
const available = await postgresAvailable('the PostgreSQL tables suite');

afterAll(async () => {
  await sqlite.cleanup();
  if (available) await postgres.cleanup();
});

describeTables('SQLite store: shared tables', sqlite);
describeTables('PostgreSQL store: shared tables', postgres, !available);
