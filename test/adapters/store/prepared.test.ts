// Prepared statements kept by SQL text: SQLite prepares a text once per connection, PostgreSQL
// clients send data statements as named statements (one name per text), and nothing else changes.

import Sqlite from 'better-sqlite3';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  statementName,
  withNamedStatements,
  withStatementCache,
} from '../../../src/adapters/store/prepared.ts';

describe('the SQLite statement cache', () => {
  it('prepares a text once, keeps at most `size` statements, and runs them like fresh ones', () => {
    const raw = new Sqlite(':memory:');
    let prepared = 0;
    const original = raw.prepare.bind(raw);
    raw.prepare = ((source: string) => {
      prepared += 1;
      return original(source);
    }) as typeof raw.prepare;
    const db = withStatementCache(raw, 2);
    db.prepare('create table t (n integer)').run();
    const insert = 'insert into t (n) values (?)';
    for (let n = 0; n < 5; n++) db.prepare(insert).run(n);
    expect(prepared).toBe(2);
    expect(db.prepare('select sum(n) as s from t').get()).toEqual({ s: 10 });
    expect(prepared).toBe(3);
    // Two texts fit; the least recently used one (the create) was dropped, the insert was kept.
    db.prepare(insert).run(5);
    expect(prepared).toBe(3);
    db.prepare('create table u (n integer)').run();
    expect(prepared).toBe(4);
    expect(db.prepare('select count(*) as c from t').get()).toEqual({ c: 6 });
    expect(db.open).toBe(true);
    db.close();
  });
});

describe('PostgreSQL named statements', () => {
  function fakePool() {
    const sent: unknown[] = [];
    const client = {
      query: async (query: unknown, values?: unknown[]) => {
        sent.push(values === undefined ? query : [query, values]);
        return { rows: [], rowCount: 0, command: 'SELECT' };
      },
      release: () => undefined,
    };
    const pool = { connect: async () => client, end: async () => undefined };
    return { sent, client, pool: withNamedStatements(pool as unknown as pg.Pool) };
  }

  it('names data statements by their text and leaves transaction control unnamed', async () => {
    const { sent, pool } = fakePool();
    const client = await pool.connect();
    await client.query('begin', []);
    await client.query('select * from turns where id = $1', ['a']);
    await client.query('  WITH x as (select 1) select * from x', []);
    await client.query('select * from turns where id = $1', ['b']);
    expect(sent[0]).toEqual(['begin', []]);
    const name = statementName('select * from turns where id = $1');
    expect(sent[1]).toEqual({ name, text: 'select * from turns where id = $1', values: ['a'] });
    expect((sent[2] as { name: string }).name).toBe(statementName('  WITH x as (select 1) select * from x'));
    expect(sent[3]).toEqual({ name, text: 'select * from turns where id = $1', values: ['b'] });
    expect(name).toMatch(/^m_[0-9a-f]{20}$/);
    expect(statementName('select 2')).not.toBe(name);
  });

  it('gives Kysely the same wrapper for the same client', async () => {
    const { pool } = fakePool();
    expect(await pool.connect()).toBe(await pool.connect());
  });
});
