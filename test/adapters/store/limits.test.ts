// Every store limit at the limit and just past it, plus the pure helpers (URL parsing, migration list,
// key hashing). Database round-trips of limits run in the repository suite and on an in-memory SQLite here.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Sqlite from 'better-sqlite3';
import {
  isForeignKeyViolation,
  isUniqueViolation,
  StoreInputError,
  StoreMigrationError,
} from '../../../src/adapters/store/errors.ts';
import { API_KEY_PREFIX, generateApiKey, hashApiKey } from '../../../src/adapters/store/keys.ts';
import {
  MAX_CARTRIDGE_BYTES,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  MAX_INPUT_BYTES,
  MAX_LEDGER_EVENT_BYTES,
  MAX_NAME_LENGTH,
  MAX_NARRATION_BYTES,
  MAX_PERSONA_BYTES,
  MAX_RECORD_BYTES,
  MAX_SNAPSHOT_PIECE_BYTES,
  MAX_SNAPSHOT_PIECES,
  MAX_WORLD_SNAPSHOT_BYTES,
} from '../../../src/adapters/store/limits.ts';
import { checkMigrationList } from '../../../src/adapters/store/migrate.ts';
import { MIGRATIONS } from '../../../src/adapters/store/migrations/index.ts';
import { DEFAULT_SQLITE_PATH, openStore, parseDatabaseUrl } from '../../../src/adapters/store/open.ts';
import type { Store, TurnContent } from '../../../src/adapters/store/repository.ts';
import { encodeJson } from '../../../src/adapters/store/json.ts';
import {
  encodeSnapshotPieces,
  pieceEnd,
  SNAPSHOT_PIECE_CHARS,
  splitSnapshotText,
} from '../../../src/adapters/store/snapshot-pieces.ts';
import { encodeTurnContent } from '../../../src/adapters/store/turn-content.ts';
import { checkIdempotencyKey, checkName } from '../../../src/adapters/store/validate.ts';

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

describe('snapshot pieces', () => {
  /** A high surrogate: the first half of a pair, which a piece may never end with. */
  const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
  const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

  it(`MAX_SNAPSHOT_PIECE_BYTES: a piece of ${MAX_SNAPSHOT_PIECE_BYTES} bytes passes, one more byte fails with the limit named`, () => {
    const write = (n: number) => ({ turnId: 't1', from: 0, pieces: ['{', 'x'.repeat(n)] });
    expect(() => encodeSnapshotPieces('p', write(MAX_SNAPSHOT_PIECE_BYTES))).not.toThrow();
    expect(() => encodeSnapshotPieces('p', write(MAX_SNAPSHOT_PIECE_BYTES + 1))).toThrow(
      `p.pieces[1]: is ${MAX_SNAPSHOT_PIECE_BYTES + 1} bytes, over the limit MAX_SNAPSHOT_PIECE_BYTES = ${MAX_SNAPSHOT_PIECE_BYTES}`,
    );
  });

  it(`MAX_SNAPSHOT_PIECES: pieces may end at position ${MAX_SNAPSHOT_PIECES}, not one past it`, () => {
    const pieces = (from: number, count: number) =>
      encodeSnapshotPieces('p', { turnId: 't1', from, pieces: Array.from({ length: count }, () => 'p') });
    const over = `would end at position ${MAX_SNAPSHOT_PIECES + 1}, over the limit MAX_SNAPSHOT_PIECES = ${MAX_SNAPSHOT_PIECES}`;
    expect(pieces(MAX_SNAPSHOT_PIECES - 1, 1)).toMatchObject({
      turnId: 't1',
      from: MAX_SNAPSHOT_PIECES - 1,
      total: null,
    });
    expect(pieces(0, MAX_SNAPSHOT_PIECES).pieces).toHaveLength(MAX_SNAPSHOT_PIECES);
    expect(() => pieces(MAX_SNAPSHOT_PIECES, 1)).toThrow(`p.pieces: ${over}`);
    expect(() => pieces(0, MAX_SNAPSHOT_PIECES + 1)).toThrow(`p.pieces: ${over}`);
  });

  it('pieces name the turn whose world they hold', () => {
    expect(() => encodeSnapshotPieces('p', { from: 0, pieces: ['{}'] })).toThrow(
      /^p\.turnId: must be a non-empty string$/,
    );
  });

  it('a whole snapshot of MAX_WORLD_SNAPSHOT_BYTES fits in MAX_SNAPSHOT_PIECES pieces of MAX_SNAPSHOT_PIECE_BYTES; one byte more is refused', async () => {
    // One byte a character is the most characters, so the most pieces, a snapshot's bytes allow.
    const text = encodeJson(
      'w',
      jsonOfBytes(MAX_WORLD_SNAPSHOT_BYTES),
      MAX_WORLD_SNAPSHOT_BYTES,
      'MAX_WORLD_SNAPSHOT_BYTES',
    );
    expect(splitSnapshotText(text)).toHaveLength(MAX_SNAPSHOT_PIECES);
    // Three bytes at most a UTF-16 unit: a full piece of any text is within the byte limit.
    expect(SNAPSHOT_PIECE_CHARS * 3).toBeLessThanOrEqual(MAX_SNAPSHOT_PIECE_BYTES);
    const store = await openStore(':memory:');
    try {
      await expect(store.putSnapshot('s', 't', jsonOfBytes(MAX_WORLD_SNAPSHOT_BYTES + 1))).rejects.toThrow(
        `putSnapshot.world: is ${MAX_WORLD_SNAPSHOT_BYTES + 1} bytes, over the limit MAX_WORLD_SNAPSHOT_BYTES = ${MAX_WORLD_SNAPSHOT_BYTES}`,
      );
    } finally {
      await store.close();
    }
  });

  it('splitSnapshotText never ends a piece with half a surrogate pair, and the pieces join back', () => {
    // A '😀' across the first boundary of 16 Ki characters, and one across where the second falls then.
    const lead = 'a'.repeat(SNAPSHOT_PIECE_CHARS - 1);
    const text = `${lead}😀${'b'.repeat(SNAPSHOT_PIECE_CHARS - 3)}😀${'c'.repeat(20_000)}`;
    // Both pairs start on the last unit of a full piece: the first at 16383, the second at 16383 + 16383.
    expect(isHigh(text.charCodeAt(SNAPSHOT_PIECE_CHARS - 1))).toBe(true);
    expect(isHigh(text.charCodeAt(2 * SNAPSHOT_PIECE_CHARS - 2))).toBe(true);
    const pieces = splitSnapshotText(text);
    expect(pieces.join('')).toBe(text);
    expect(pieces.map((p) => p.length)).toEqual([
      SNAPSHOT_PIECE_CHARS - 1,
      SNAPSHOT_PIECE_CHARS - 1,
      SNAPSHOT_PIECE_CHARS,
      text.length - 3 * SNAPSHOT_PIECE_CHARS + 2,
    ]);
    for (const piece of pieces) {
      expect(isHigh(piece.charCodeAt(piece.length - 1))).toBe(false);
      expect(isLow(piece.charCodeAt(0))).toBe(false);
      expect(piece.length).toBeLessThanOrEqual(SNAPSHOT_PIECE_CHARS);
    }
    expect(pieces[0]).toBe(lead);
    expect(pieces[1]!.startsWith('😀')).toBe(true);
    expect(pieceEnd('ab😀', 0, 3)).toBe(2);
    expect(pieceEnd('ab😀', 0, 4)).toBe(4);
    expect(splitSnapshotText('')).toEqual(['']);
  });

  it('splitSnapshotText keeps every pair whole at any piece size from 2 on, over mixed texts', () => {
    // A fixed-seed generator: the same texts every run.
    let seed = 12345;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    const units = ['a', 'é', '😀', '€', '🎲'];
    for (let round = 0; round < 300; round++) {
      const text = Array.from({ length: next() % 60 }, () => units[next() % units.length]).join('');
      const size = 2 + (next() % 7);
      const pieces = splitSnapshotText(text, size);
      expect(pieces.join('')).toBe(text);
      for (const [i, piece] of pieces.entries()) {
        expect(piece.length).toBeLessThanOrEqual(size);
        // Only the last piece is short by more than the one unit a pair can cost.
        if (i < pieces.length - 1) expect(piece.length).toBeGreaterThanOrEqual(size - 1);
        if (text !== '') expect(piece.length).toBeGreaterThan(0);
        expect(isHigh(piece.charCodeAt(piece.length - 1))).toBe(false);
        expect(isLow(piece.charCodeAt(0))).toBe(false);
      }
    }
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
