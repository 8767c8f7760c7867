// The turns' pictures store suite (migration 0010_turn_pictures) on SQLite and, when a server answers, on PostgreSQL.

import { afterAll, describe } from 'vitest';
import { postgresAvailable, postgresHarness, sqliteHarness, testPgUrl } from './harness.ts';
import { turnPicturesSuite } from './turn-pictures-suite.ts';

const sqlite = sqliteHarness();
const postgres = postgresHarness(testPgUrl());
const available = await postgresAvailable('the PostgreSQL turn pictures suite');

afterAll(async () => {
  await sqlite.cleanup();
  if (available) await postgres.cleanup();
});

describe('SQLite store: turn pictures', () => {
  turnPicturesSuite(sqlite);
});

describe.skipIf(!available)('PostgreSQL store: turn pictures', () => {
  turnPicturesSuite(postgres);
});
