// The issue-16 store suite on SQLite and on PostgreSQL (skipped with one visible line when no server
// answers, failed under CI).

import { describe, it } from 'vitest';
import { hardeningSuite } from './hardening-suite.ts';
import { postgresHarness, probePostgres, sqliteHarness, testPgUrl } from './harness.ts';

describe('SQLite store: hardening', () => {
  hardeningSuite(sqliteHarness());
});

const url = testPgUrl();
const unreachable = await probePostgres(url);
if (unreachable !== null && process.env.CI) {
  describe('PostgreSQL store: hardening', () => {
    it('needs a reachable PostgreSQL server under CI', () => {
      throw new Error(`PostgreSQL is unreachable (${unreachable}); .ci/run must start it`);
    });
  });
} else if (unreachable !== null) {
  console.log(`[store] SKIPPING PostgreSQL hardening tests: server unreachable (${unreachable})`);
  describe.skip('PostgreSQL store: hardening (unreachable)', () => {
    it('needs a PostgreSQL server', () => undefined);
  });
} else {
  describe('PostgreSQL store: hardening', () => {
    hardeningSuite(postgresHarness(url));
  });
}
