// The shell entry: pick the database from a URL, open it, migrate it, return a Store.
//   ''/undefined            -> SQLite at DEFAULT_SQLITE_PATH (relative to the working directory)
//   sqlite:PATH, a file path -> SQLite at PATH (':memory:' for a throwaway database)
//   postgres://… postgresql://… -> PostgreSQL
// Callers pass `process.env.MNESOS_DATABASE_URL`; the store itself reads no environment.

import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Sqlite from 'better-sqlite3';
import { Kysely, type LogEvent, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { StoreContext } from './context.ts';
import { StoreInputError } from './errors.ts';
import { migrate } from './migrate.ts';
import { MIGRATIONS } from './migrations/index.ts';
import type { Migration } from './migrations/migration.ts';
import type { Store } from './repository.ts';
import type { Database, SqlDialect } from './schema.ts';
import { createStore } from './store.ts';

export const DEFAULT_SQLITE_PATH = '.mnesos/mnesos.db';
/** How long a SQLite write waits for another connection's write lock before failing with SQLITE_BUSY. */
export const SQLITE_BUSY_TIMEOUT_MS = 5_000;
/** Connections per PostgreSQL pool (per server process). */
export const DEFAULT_PG_POOL_SIZE = 10;

export type DatabaseTarget = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

export function parseDatabaseUrl(url: string | undefined): DatabaseTarget {
  const text = (url ?? '').trim();
  if (text === '') return { kind: 'sqlite', path: DEFAULT_SQLITE_PATH };
  if (/^postgres(ql)?:\/\//i.test(text)) return { kind: 'postgres', url: text };
  const sqlite = /^sqlite:(\/\/)?(.*)$/i.exec(text);
  if (sqlite) {
    const path = sqlite[2] ?? '';
    if (path === '') throw new StoreInputError('database url', `'${text}' names no file (use sqlite:PATH)`);
    return { kind: 'sqlite', path };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text);
  if (scheme) {
    throw new StoreInputError(
      'database url',
      `unsupported scheme '${scheme[1]}:'; use postgres://…, sqlite:PATH or a file path`,
    );
  }
  return { kind: 'sqlite', path: text };
}

export interface OpenStoreOptions {
  /** Clock for bookkeeping timestamps when a caller gives none (default Date.now). */
  now?: () => number;
  /** Id source (default crypto.randomUUID). */
  newId?: () => string;
  /** Called with the SQL of every query the store runs (tests count queries with it). */
  onQuery?: (sql: string) => void;
  /** Migrations to apply (default: all of this build's). */
  migrations?: readonly Migration[];
  /** PostgreSQL pool size (default DEFAULT_PG_POOL_SIZE). */
  poolSize?: number;
}

export async function openStore(url?: string, options: OpenStoreOptions = {}): Promise<Store> {
  const target = parseDatabaseUrl(url);
  const log = options.onQuery && queryLogger(options.onQuery);
  const db =
    target.kind === 'sqlite'
      ? new Kysely<Database>({
          dialect: new SqliteDialect({ database: openSqlite(target.path) }),
          ...(log ? { log } : {}),
        })
      : new Kysely<Database>({
          dialect: new PostgresDialect({ pool: openPgPool(target.url, options.poolSize) }),
          ...(log ? { log } : {}),
        });
  const dialect: SqlDialect = target.kind;
  const ctx: StoreContext = { db, dialect, now: options.now ?? Date.now, newId: options.newId ?? randomUUID };
  try {
    await migrate(db, dialect, options.migrations ?? MIGRATIONS, ctx.now());
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return createStore(ctx, () => db.destroy());
}

function queryLogger(onQuery: (sql: string) => void): (event: LogEvent) => void {
  return (event) => {
    if (event.level === 'query') onQuery(event.query.sql);
  };
}

function openSqlite(path: string): Sqlite.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new Sqlite(path, { timeout: SQLITE_BUSY_TIMEOUT_MS });
  // WAL: readers never block the writer. synchronous=NORMAL in WAL keeps every transaction atomic across
  // a process crash (kill -9); only an OS crash or power loss can drop the last commits, never half of one.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  return database;
}

/** PostgreSQL returns BIGINT (INT8, oid 20) as text; every BIGINT here is a millisecond time, seed or count. */
const INT8_OID = 20;

function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`BIGINT ${text} does not fit a JavaScript number`);
  return value;
}

function openPgPool(url: string, poolSize = DEFAULT_PG_POOL_SIZE): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID && format !== 'binary'
          ? parseInt8
          : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection emits 'error' on the pool; unhandled, that would kill the process.
  // The pool drops the client, and the next query reports the failure to its caller.
  pool.on('error', () => undefined);
  return pool;
}
