// Prepared statements kept by SQL text, so a turn's dozen statements are parsed and planned once per
// connection instead of once per use. Kysely prepares every query again (SQLite) or sends it unnamed
// (PostgreSQL); these wrappers sit between Kysely and the driver and change nothing else.

import { createHash } from 'node:crypto';
import type Sqlite from 'better-sqlite3';
import type pg from 'pg';

/** Statements kept per connection; the least recently used are dropped past it. */
export const STATEMENT_CACHE_SIZE = 256;

/** A Map used as an LRU cache. */
export function remember<V>(cache: Map<string, V>, key: string, make: () => V, size: number): V {
  const hit = cache.get(key);
  if (hit !== undefined) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const value = make();
  cache.set(key, value);
  if (cache.size > size) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return value;
}

/**
 * The SQLite database with `prepare` answered from a cache. better-sqlite3 runs statements synchronously
 * and Kysely never streams here, so one statement object is never in use twice at once.
 */
export function withStatementCache(db: Sqlite.Database, size = STATEMENT_CACHE_SIZE): Sqlite.Database {
  const cache = new Map<string, Sqlite.Statement>();
  const prepare = db.prepare.bind(db);
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'prepare')
        return (source: string) => remember(cache, source, () => prepare(source), size);
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Statements worth naming: data statements with a plan. Transaction control and DDL go unnamed. */
const PLANNED = /^\s*(select|insert|update|delete|with)\b/i;

/** The statement name for a SQL text: the same text always gets the same name, on every connection. */
export function statementName(text: string): string {
  return `m_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
}

/**
 * The pool with every client sending data statements as named prepared statements: pg parses a name once
 * per connection and binds it after that. One wrapper per client, so Kysely's own per-client bookkeeping
 * sees the same object each time.
 */
export function withNamedStatements(pool: pg.Pool): pg.Pool {
  const wrapped = new WeakMap<pg.PoolClient, pg.PoolClient>();
  const names = new Map<string, string>();
  const nameOf = (text: string): string =>
    remember(names, text, () => statementName(text), 4 * STATEMENT_CACHE_SIZE);
  const wrap = (client: pg.PoolClient): pg.PoolClient => {
    const known = wrapped.get(client);
    if (known !== undefined) return known;
    const proxy = new Proxy(client, {
      get(target, property, receiver) {
        if (property === 'query') {
          return (query: unknown, values?: unknown[]) =>
            typeof query === 'string' && PLANNED.test(query)
              ? target.query({ name: nameOf(query), text: query, values: values ?? [] })
              : target.query(query as string, values);
        }
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    wrapped.set(client, proxy);
    return proxy;
  };
  return new Proxy(pool, {
    get(target, property, receiver) {
      if (property === 'connect') return async () => wrap(await target.connect());
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
