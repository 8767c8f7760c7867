// The issue-16 store suite on SQLite and on PostgreSQL (skipped with one visible line when no server
// answers, failed under CI).

import { describe } from 'vitest';
import { hardeningSuite } from './hardening-suite.ts';
import { postgresAvailable, postgresHarness, sqliteHarness, testPgUrl } from './harness.ts';

describe('SQLite store: hardening', () => {
  hardeningSuite(sqliteHarness());
});

const url = testPgUrl();
const available = await postgresAvailable('the PostgreSQL store hardening suite', url);

describe.skipIf(!available)('PostgreSQL store: hardening', () => {
  hardeningSuite(postgresHarness(url));
});
