// Test databases for the shared repository suite. SQLite: a file in a temporary folder per database.
// PostgreSQL: a fresh database per use on the local server (MNESOS_TEST_PG_URL, loopback default),
// named mnesos_test_<run>_<n> and dropped when the file's tests end.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type OpenStoreOptions, openStore } from '../../../src/adapters/store/open.ts';
import type { Store } from '../../../src/adapters/store/repository.ts';

export interface StoreHarness {
  readonly name: 'sqlite' | 'postgres';
  /** URL of a new, empty database. */
  freshUrl(): Promise<string>;
  open(url: string, options?: OpenStoreOptions): Promise<Store>;
  /** Removes every database this harness made. */
  cleanup(): Promise<void>;
}

export function sqliteHarness(): StoreHarness {
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-store-test-'));
  let n = 0;
  return {
    name: 'sqlite',
    async freshUrl() {
      n += 1;
      return join(dir, `db-${n}`, 'mnesos.db');
    },
    open: (url, options) => openStore(url, options),
    async cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const DEFAULT_TEST_PG_URL = 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

export function testPgUrl(): string {
  return process.env.MNESOS_TEST_PG_URL || DEFAULT_TEST_PG_URL;
}

/** Null when the server answers; otherwise the reason it did not. */
export async function probePostgres(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return (error as Error).message || String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Whether the PostgreSQL suites can run, for `describe.skipIf(!postgresAvailable(…))`: every test of a
 * skipped suite is still collected, so the run's summary counts each one as skipped. Unreachable: one
 * visible line naming what is skipped and why; under CI=true a throw instead, so the file fails.
 */
export async function postgresAvailable(what: string, url = testPgUrl()): Promise<boolean> {
  const unreachable = await probePostgres(url);
  if (unreachable === null) return true;
  const shown = url.replace(/\/\/[^@/]*@/, '//…@');
  if (process.env.CI === 'true' || process.env.CI === '1') {
    throw new Error(`${what}: PostgreSQL at ${shown} is unreachable (${unreachable}), and CI requires it`);
  }
  console.log(
    `skipped: ${what} — PostgreSQL at ${shown} is unreachable (${unreachable}); set MNESOS_TEST_PG_URL`,
  );
  return false;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export function postgresHarness(adminUrl: string): StoreHarness {
  const run = randomBytes(4).toString('hex');
  const made: string[] = [];
  async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }
  return {
    name: 'postgres',
    async freshUrl() {
      const name = `mnesos_test_${run}_${made.length + 1}`;
      await admin((c) => c.query(`create database ${name}`));
      made.push(name);
      return withDatabase(adminUrl, name);
    },
    open: (url, options) => openStore(url, { poolSize: 4, ...options }),
    async cleanup() {
      // A teardown never fails for a resource it never made: with no database made, the server is not asked.
      if (made.length === 0) return;
      await admin(async (c) => {
        for (const name of made.splice(0)) await c.query(`drop database if exists ${name} with (force)`);
      });
    },
  };
}
