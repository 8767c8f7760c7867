// The shell entry: pick the database from a URL, open it, migrate it, return a Store.
//   ''/undefined            -> SQLite at DEFAULT_SQLITE_PATH (relative to the working directory)
//   sqlite:PATH, a file path -> SQLite at PATH (':memory:' for a throwaway database)
//   postgres://… postgresql://… -> PostgreSQL
// Callers pass `process.env.MNESOS_DATABASE_URL`; the store itself reads no environment.

import { randomUUID } from 'node:crypto';
import { mkdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import Sqlite from 'better-sqlite3';
import { Kysely, type LogEvent, PostgresDialect, SqliteDialect } from 'kysely';
import type pg from 'pg';
import type { StoreContext } from './context.ts';
import { StoreInputError } from './errors.ts';
import { migrate } from './migrate.ts';
import { MIGRATIONS } from './migrations/index.ts';
import type { Migration } from './migrations/migration.ts';
import type { Store } from './repository.ts';
import type { Database, SqlDialect } from './schema.ts';
import { withNamedStatements, withStatementCache } from './prepared.ts';
import { DirectSqlite } from './runner.ts';
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

/**
 * The database could not be opened for a reason its operator can fix: a bad URL, a server that is not
 * there, a wrong password, a missing database, a folder that cannot hold the SQLite file. The message
 * names the database (never its password) and what to do; the CLI prints it without a stack trace.
 */
export class StoreOpenError extends Error {
  override readonly name = 'StoreOpenError';
}

export async function openStore(url?: string, options: OpenStoreOptions = {}): Promise<Store> {
  let target: DatabaseTarget;
  try {
    target = parseDatabaseUrl(url);
  } catch (error) {
    if (error instanceof StoreInputError) throw new StoreOpenError(error.message, { cause: error });
    throw error;
  }
  const log = options.onQuery && queryLogger(options.onQuery);
  // The PostgreSQL driver is loaded only for a PostgreSQL URL: a SQLite server starts without it.
  const pgDriver = target.kind === 'postgres' ? (await import('pg')).default : undefined;
  const sqlite = target.kind === 'sqlite' ? openSqlite(target.path) : undefined;
  const db =
    target.kind === 'sqlite'
      ? new Kysely<Database>({
          dialect: new SqliteDialect({ database: withStatementCache(sqlite!) }),
          ...(log ? { log } : {}),
        })
      : new Kysely<Database>({
          dialect: new PostgresDialect({
            pool: withNamedStatements(openPgPool(pgDriver!, target.url, options.poolSize)),
          }),
          ...(log ? { log } : {}),
        });
  const dialect: SqlDialect = target.kind;
  const ctx: StoreContext = {
    db,
    dialect,
    // The connection Kysely drives, for the statements every turn runs (runner.ts).
    ...(sqlite === undefined ? {} : { direct: new DirectSqlite(sqlite, db, options.onQuery) }),
    now: options.now ?? Date.now,
    newId: options.newId ?? randomUUID,
  };
  try {
    await migrate(db, dialect, options.migrations ?? MIGRATIONS, ctx.now());
  } catch (error) {
    await db.destroy();
    throw target.kind === 'postgres'
      ? (postgresOpenError(error, target.url) ?? error)
      : sqliteOpenError(error, target.path);
  }
  return createStore(ctx, () => db.destroy());
}

/** The URL as it may be shown: user, host, port and database, never the password. */
function describePostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const user = parsed.username === '' ? '' : `${decodeURIComponent(parsed.username)}@`;
    return `postgres://${user}${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return 'the PostgreSQL URL given';
  }
}

const WHERE_URL = 'Check --db or MNESOS_DATABASE_URL.';

/** A StoreOpenError for the connection failures an operator can fix; undefined for anything else. */
function postgresOpenError(error: unknown, url: string): StoreOpenError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const at = describePostgresUrl(url);
  const say = (text: string) => new StoreOpenError(`PostgreSQL at ${at}: ${text}`, { cause: error });
  switch (code) {
    case 'ECONNREFUSED':
      return say(`connection refused: is the server running and listening on that port? ${WHERE_URL}`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return say(`unknown host. ${WHERE_URL}`);
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return say(`the server cannot be reached (${code}). ${WHERE_URL}`);
    case 'ECONNRESET':
      return say(`the server closed the connection (does it expect TLS? add ?sslmode=require). ${WHERE_URL}`);
    case '28P01':
      return say(`the password was refused for that user. ${WHERE_URL}`);
    case '28000':
      return say(`the server refused that user or this client's address (pg_hba.conf). ${WHERE_URL}`);
    case '3D000':
      return say(
        `the database does not exist. Create it (createdb ${at.split('/').pop() ?? ''}) or name another. ${WHERE_URL}`,
      );
    default:
      // No password given where the server asks for one: pg says so in a message, without a code.
      if (error instanceof Error && /password must be a string|password authentication/i.test(error.message))
        return say(`the server wants a password and the URL gives none that works. ${WHERE_URL}`);
      return undefined;
  }
}

function queryLogger(onQuery: (sql: string) => void): (event: LogEvent) => void {
  return (event) => {
    if (event.level === 'query') onQuery(event.query.sql);
  };
}

/** Why a SQLite file cannot be used, in the operator's terms, by the error code the file system or SQLite gave. */
const SQLITE_OPEN_HINTS: Readonly<Record<string, string>> = {
  ENOTDIR: 'a part of the path is a file, not a folder',
  EEXIST: 'a part of the path is a file, not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  SQLITE_CANTOPEN: 'the file cannot be opened (is its folder writable?)',
  SQLITE_READONLY: 'the file or its folder is read-only',
  SQLITE_PERM: 'permission denied',
  SQLITE_NOTADB: 'the file is not a SQLite database',
  SQLITE_CORRUPT: 'the file is damaged',
};

function sqliteOpenError(error: unknown, path: string): unknown {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  const hint = SQLITE_OPEN_HINTS[code];
  if (hint === undefined) return error;
  return new StoreOpenError(
    `cannot use the SQLite database ${path}: ${hint}. Choose another path with --db (or MNESOS_DATABASE_URL).`,
    { cause: error },
  );
}

/** Folders of the system's own pseudo-files: a database there could never work (and SQLite may spin on it). */
const SYSTEM_FOLDERS = ['/proc', '/sys', '/dev'];

/** Refuses, at once and by name, a path that cannot be a database file: under a system folder, or not a file. */
function refuseUnusablePath(path: string): void {
  if (path === ':memory:') return;
  const absolute = resolve(path);
  // The nearest existing part of the path with its links resolved, and the rest after it.
  let probe = absolute;
  let rest = '';
  let real = absolute;
  for (;;) {
    try {
      real = rest === '' ? realpathSync(probe) : join(realpathSync(probe), rest);
      break;
    } catch {
      const parent = dirname(probe);
      if (parent === probe) break;
      rest = rest === '' ? basename(probe) : join(basename(probe), rest);
      probe = parent;
    }
  }
  const unusable = (why: string) =>
    new StoreOpenError(
      `cannot use the SQLite database ${path}: ${why}. Choose another path with --db (or MNESOS_DATABASE_URL).`,
    );
  for (const folder of SYSTEM_FOLDERS)
    if (real === folder || real.startsWith(`${folder}/`))
      throw unusable(`it is under ${folder}, the system's own pseudo-files, not a place for a database`);
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(absolute);
  } catch {
    return; // not there yet: SQLite creates it
  }
  if (stat.isFile()) return;
  const kind = stat.isDirectory()
    ? 'a folder'
    : stat.isFIFO()
      ? 'a named pipe (FIFO)'
      : stat.isCharacterDevice() || stat.isBlockDevice()
        ? 'a device'
        : stat.isSocket()
          ? 'a socket'
          : 'not a regular file';
  throw unusable(`it is ${kind}, not a file`);
}

function openSqlite(path: string): Sqlite.Database {
  refuseUnusablePath(path);
  let database: Sqlite.Database | undefined;
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    database = new Sqlite(path, { timeout: SQLITE_BUSY_TIMEOUT_MS });
    // WAL: readers never block the writer. synchronous=NORMAL in WAL keeps every transaction atomic across
    // a process crash (kill -9); only an OS crash or power loss can drop the last commits, never half of one.
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
    return database;
  } catch (error) {
    database?.close();
    throw sqliteOpenError(error, path);
  }
}

/** PostgreSQL returns BIGINT (INT8, oid 20) as text; every BIGINT here is a millisecond time, seed or count. */
const INT8_OID = 20;

function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`BIGINT ${text} does not fit a JavaScript number`);
  return value;
}

function openPgPool(driver: typeof pg, url: string, poolSize = DEFAULT_PG_POOL_SIZE): pg.Pool {
  const pool = new driver.Pool({
    connectionString: url,
    max: poolSize,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID && format !== 'binary'
          ? parseInt8
          : driver.types.getTypeParser(oid, format ?? 'text')) as typeof driver.types.getTypeParser,
    },
  });
  // An idle client losing its connection emits 'error' on the pool; unhandled, that would kill the process.
  // The pool drops the client, and the next query reports the failure to its caller.
  pool.on('error', () => undefined);
  return pool;
}
