// Every store limit at the limit and just past it, plus the pure helpers (URL parsing, migration list,
// key hashing). Database round-trips of limits run in the repository suite and on an in-memory SQLite here.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Sqlite from 'better-sqlite3';
import {
  isForeignKeyViolation,
  isUniqueViolation,
  StoreInputError,
  StoreMigrationError,
} from '../../src/store/errors.ts';
import { API_KEY_PREFIX, generateApiKey, hashApiKey } from '../../src/store/keys.ts';
import {
  MAX_CARTRIDGE_BYTES,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  MAX_INPUT_BYTES,
  MAX_LEDGER_EVENT_BYTES,
  MAX_NAME_LENGTH,
  MAX_NARRATION_BYTES,
  MAX_PERSONA_BYTES,
  MAX_RECORD_BYTES,
  MAX_WORLD_SNAPSHOT_BYTES,
} from '../../src/store/limits.ts';
import { checkMigrationList } from '../../src/store/migrate.ts';
import { MIGRATIONS } from '../../src/store/migrations/index.ts';
import { DEFAULT_SQLITE_PATH, openStore, parseDatabaseUrl } from '../../src/store/open.ts';
import type { Store, TurnContent } from '../../src/store/repository.ts';
import { encodeTurnContent } from '../../src/store/turn-content.ts';
import { checkIdempotencyKey, checkName } from '../../src/store/validate.ts';

/** A JSON string value whose encoding is exactly `bytes` bytes long. */
function jsonOfBytes(bytes: number): string {
  return 'x'.repeat(bytes - 2);
}

function turn(overrides: Partial<TurnContent>): TurnContent {
  return { narration: '', record: {}, state: {}, seed: 1, createdAt: 1, ...overrides };
}

describe('turn content limits', () => {
  const cases: [string, number, (bytes: number) => Partial<TurnContent>][] = [
    ['MAX_RECORD_BYTES', MAX_RECORD_BYTES, (n) => ({ record: jsonOfBytes(n) })],
    ['MAX_INPUT_BYTES', MAX_INPUT_BYTES, (n) => ({ input: jsonOfBytes(n) })],
    ['MAX_NARRATION_BYTES', MAX_NARRATION_BYTES, (n) => ({ narration: 'x'.repeat(n) })],
    ['MAX_LEDGER_EVENT_BYTES', MAX_LEDGER_EVENT_BYTES, (n) => ({ ledgerEvents: [{}, jsonOfBytes(n)] })],
    ['MAX_WORLD_SNAPSHOT_BYTES', MAX_WORLD_SNAPSHOT_BYTES, (n) => ({ worldSnapshot: jsonOfBytes(n) })],
  ];
  for (const [name, limit, make] of cases) {
    it(`${name}: ${limit} bytes pass, ${limit + 1} fail with the limit named`, () => {
      expect(() => encodeTurnContent('t', turn(make(limit)))).not.toThrow();
      expect(() => encodeTurnContent('t', turn(make(limit + 1)))).toThrow(
        new RegExp(`is ${limit + 1} bytes, over the limit ${name} = ${limit}`),
      );
    });
  }

  it('counts UTF-8 bytes, not characters', () => {
    const half = MAX_NARRATION_BYTES / 2;
    expect(() => encodeTurnContent('t', turn({ narration: 'é'.repeat(half) }))).not.toThrow();
    expect(() => encodeTurnContent('t', turn({ narration: 'é'.repeat(half + 1) }))).toThrow(
      /MAX_NARRATION_BYTES/,
    );
  });

  it('names the offending event and refuses what JSON cannot hold', () => {
    expect(() =>
      encodeTurnContent('appendTurn', turn({ ledgerEvents: [{}, jsonOfBytes(MAX_LEDGER_EVENT_BYTES + 1)] })),
    ).toThrow(/^appendTurn\.ledgerEvents\[1\]: /);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => encodeTurnContent('appendTurn', turn({ state: cyclic }))).toThrow(
      /appendTurn\.state: not serialisable/,
    );
    expect(() => encodeTurnContent('appendTurn', turn({ record: undefined }))).toThrow(/appendTurn\.record/);
    expect(() => encodeTurnContent('appendTurn', turn({ state: { n: 1n } }))).toThrow(StoreInputError);
    expect(() => encodeTurnContent('appendTurn', turn({ seed: 1.5 }))).toThrow(/appendTurn\.seed/);
    expect(() => encodeTurnContent('appendTurn', turn({ createdAt: -1 }))).toThrow(/appendTurn\.createdAt/);
  });
});

describe('name and key limits', () => {
  it(`MAX_NAME_LENGTH: ${MAX_NAME_LENGTH} characters pass, one more fails`, () => {
    expect(checkName('n', 'a'.repeat(MAX_NAME_LENGTH))).toHaveLength(MAX_NAME_LENGTH);
    expect(() => checkName('createSave.name', 'a'.repeat(MAX_NAME_LENGTH + 1))).toThrow(
      `createSave.name: is ${MAX_NAME_LENGTH + 1} characters, over the limit MAX_NAME_LENGTH = ${MAX_NAME_LENGTH}`,
    );
    expect(() => checkName('n', '  ')).toThrow(/must not be empty/);
  });

  it(`MAX_IDEMPOTENCY_KEY_LENGTH: ${MAX_IDEMPOTENCY_KEY_LENGTH} characters pass, one more fails`, () => {
    expect(checkIdempotencyKey('k', 'k'.repeat(MAX_IDEMPOTENCY_KEY_LENGTH))).toHaveLength(
      MAX_IDEMPOTENCY_KEY_LENGTH,
    );
    expect(() => checkIdempotencyKey('k', 'k'.repeat(MAX_IDEMPOTENCY_KEY_LENGTH + 1))).toThrow(
      /MAX_IDEMPOTENCY_KEY_LENGTH = 200/,
    );
  });
});

describe('limits enforced by an open store', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore('sqlite::memory:');
  });
  afterAll(() => store.close());

  it(`MAX_CARTRIDGE_BYTES: ${MAX_CARTRIDGE_BYTES} bytes pass, one more fails`, async () => {
    const ok = await store.putCartridgeVersion({
      name: 'big',
      contentHash: 'sha256:big00001',
      files: jsonOfBytes(MAX_CARTRIDGE_BYTES),
    });
    expect(ok.files).toHaveLength(MAX_CARTRIDGE_BYTES - 2);
    await expect(
      store.putCartridgeVersion({
        name: 'big',
        contentHash: 'sha256:big00002',
        files: jsonOfBytes(MAX_CARTRIDGE_BYTES + 1),
      }),
    ).rejects.toThrow(/putCartridgeVersion\.files: is \d+ bytes, over the limit MAX_CARTRIDGE_BYTES/);
  });

  it(`MAX_PERSONA_BYTES: ${MAX_PERSONA_BYTES} bytes pass, one more fails`, async () => {
    const principal = await store.createPrincipal({ name: 'p' });
    const made = await store.createPersona({
      principalId: principal.id,
      name: 'p',
      data: jsonOfBytes(MAX_PERSONA_BYTES),
    });
    expect(made.ok).toBe(true);
    await expect(
      store.createPersona({ principalId: principal.id, name: 'p', data: jsonOfBytes(MAX_PERSONA_BYTES + 1) }),
    ).rejects.toThrow(/createPersona\.data: .*MAX_PERSONA_BYTES/);
    if (!made.ok) return;
    await expect(
      store.updatePersona(made.persona.id, principal.id, { data: jsonOfBytes(MAX_PERSONA_BYTES + 1) }),
    ).rejects.toThrow(/updatePersona\.data: .*MAX_PERSONA_BYTES/);
  });

  it('refuses malformed content hashes', async () => {
    await expect(store.putCartridgeVersion({ name: 'x', contentHash: 'short', files: {} })).rejects.toThrow(
      /putCartridgeVersion\.contentHash/,
    );
    await expect(
      store.putCartridgeVersion({ name: 'x', contentHash: 'has space 123', files: {} }),
    ).rejects.toThrow(StoreInputError);
  });
});

describe('parseDatabaseUrl', () => {
  it('defaults to the SQLite file under .mnesos/', () => {
    expect(parseDatabaseUrl(undefined)).toEqual({ kind: 'sqlite', path: DEFAULT_SQLITE_PATH });
    expect(parseDatabaseUrl('  ')).toEqual({ kind: 'sqlite', path: DEFAULT_SQLITE_PATH });
    expect(DEFAULT_SQLITE_PATH).toBe('.mnesos/mnesos.db');
  });

  it('recognises sqlite: URLs, file paths and PostgreSQL URLs', () => {
    expect(parseDatabaseUrl('sqlite:data/game.db')).toEqual({ kind: 'sqlite', path: 'data/game.db' });
    expect(parseDatabaseUrl('sqlite:///abs/game.db')).toEqual({ kind: 'sqlite', path: '/abs/game.db' });
    expect(parseDatabaseUrl('sqlite::memory:')).toEqual({ kind: 'sqlite', path: ':memory:' });
    expect(parseDatabaseUrl('./game.db')).toEqual({ kind: 'sqlite', path: './game.db' });
    expect(parseDatabaseUrl('postgres://u@127.0.0.1/db')).toEqual({
      kind: 'postgres',
      url: 'postgres://u@127.0.0.1/db',
    });
    expect(parseDatabaseUrl('postgresql://u@127.0.0.1/db').kind).toBe('postgres');
  });

  it('refuses unknown schemes and empty sqlite paths with a clear message', () => {
    expect(() => parseDatabaseUrl('mysql://127.0.0.1/db')).toThrow(/unsupported scheme 'mysql:'/);
    expect(() => parseDatabaseUrl('sqlite:')).toThrow(/names no file/);
  });
});

describe('checkMigrationList', () => {
  it('accepts the shipped list', () => {
    expect(() => checkMigrationList(MIGRATIONS)).not.toThrow();
  });

  it('refuses gaps, reordering and missing names', () => {
    const init = MIGRATIONS[0]!;
    const up = async () => undefined;
    expect(() => checkMigrationList([init, { version: 3, name: 'x', up }])).toThrow(StoreMigrationError);
    expect(() => checkMigrationList([{ version: 2, name: 'x', up }, init])).toThrow(/expected 1/);
    expect(() => checkMigrationList([init, { version: 2, name: ' ', up }])).toThrow(/has no name/);
  });
});

describe('API keys', () => {
  it('hash with sha256 to 64 lowercase hex digits', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('generate distinct prefixed keys', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(a).not.toBe(b);
    expect(a.length).toBe(API_KEY_PREFIX.length + 43);
  });
});

describe('constraint error classification', () => {
  function sqliteError(statement: string): unknown {
    const db = new Sqlite(':memory:');
    db.pragma('foreign_keys = ON');
    db.exec(
      'create table p (id text primary key, name text unique); create table c (p_id text references p(id))',
    );
    db.exec("insert into p values ('a', 'x')");
    try {
      db.exec(statement);
      return undefined;
    } catch (error) {
      return error;
    } finally {
      db.close();
    }
  }

  it('tells unique from foreign-key violations on SQLite', () => {
    const unique = sqliteError("insert into p values ('b', 'x')");
    const primary = sqliteError("insert into p values ('a', 'y')");
    const foreign = sqliteError("insert into c values ('missing')");
    expect([isUniqueViolation(unique), isForeignKeyViolation(unique)]).toEqual([true, false]);
    expect([isUniqueViolation(primary), isForeignKeyViolation(primary)]).toEqual([true, false]);
    expect([isUniqueViolation(foreign), isForeignKeyViolation(foreign)]).toEqual([false, true]);
  });

  it('reads PostgreSQL SQLSTATE codes and ignores anything else', () => {
    expect(isUniqueViolation({ code: '23505' })).toBe(true);
    expect(isForeignKeyViolation({ code: '23503' })).toBe(true);
    expect(isUniqueViolation({ code: '23503' })).toBe(false);
    expect(isUniqueViolation(new Error('23505'))).toBe(false);
    expect(isForeignKeyViolation(null)).toBe(false);
  });
});
