// `session verify` checks what the API reads first: the session row, its head turn, the
// turn count the next turn's seq comes from, and that every turn in the tree can be read.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { CartridgeLibrary } from '../../../src/engine/session/library.ts';
import { verifySession } from '../../../src/engine/session/verify.ts';
import { openStore } from '../../../src/adapters/store/open.ts';
import { fixture } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnesos-verify-head-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

async function threeTurns() {
  n += 1;
  const path = join(dir, `h${n}.db`);
  const store = await openStore(path);
  const f = await fixture(store);
  const { session } = await f.service.createSession(f.principal.id, { cartridgeVersion: f.version.id });
  const p = f.principal.id;
  const first = await f.service.playTurn(p, session.id, { turn: { input: '/travel reedmaze' } });
  const head = await f.service.playTurn(p, session.id, { turn: { input: '/check_pack' } });
  await store.close();
  return { path, sessionId: session.id, middle: first.turn.id, head: head.turn.id };
}

function sql(path: string, text: string, ...params: unknown[]): void {
  const db = new Sqlite(path);
  try {
    db.pragma('foreign_keys = ON');
    db.prepare(text).run(...params);
  } finally {
    db.close();
  }
}

async function verifyAt(path: string, sessionId: string) {
  const store = await openStore(path);
  try {
    return await verifySession(store, new CartridgeLibrary(store), sessionId);
  } finally {
    await store.close();
  }
}

describe('verify: the head and every row the API reads', () => {
  it('an intact session is ok', async () => {
    const { path, sessionId } = await threeTurns();
    expect((await verifyAt(path, sessionId))?.divergences).toEqual([]);
  });

  it('the head turn row gone (the reported case: one row fewer than turn_count) is reported, not ok', async () => {
    const { path, sessionId, head } = await threeTurns();
    sql(path, 'delete from turns where id = ?', head);
    const report = await verifyAt(path, sessionId);
    expect(report?.ok).toBe(false);
    const messages = report!.divergences.map((d) => d.message);
    expect(messages).toContain(`the head turn ${head} is not stored: every read of the session fails`);
    expect(messages).toContain('the session counts 3 turns but 2 are stored (a turn row was lost)');
  });

  it('a turn whose record and state are gone is reported at that turn', async () => {
    const { path, sessionId, middle } = await threeTurns();
    sql(path, 'delete from turn_payloads where turn_id = ?', middle);
    const report = await verifyAt(path, sessionId);
    expect(report?.ok).toBe(false);
    expect(report!.divergences).toContainEqual(
      expect.objectContaining({
        turnId: middle,
        kind: 'record',
        message: expect.stringMatching(/cannot be read/),
      }),
    );
  });

  it('a head whose payload is gone cannot be hydrated, and says so', async () => {
    const { path, sessionId, head } = await threeTurns();
    sql(path, 'delete from turn_payloads where turn_id = ?', head);
    const report = await verifyAt(path, sessionId);
    expect(report!.divergences.map((d) => d.message)).toContain(
      'the head turn cannot be hydrated (its record or state is missing)',
    );
  });

  it('a turn count that disagrees with the stored turns is reported', async () => {
    const { path, sessionId } = await threeTurns();
    sql(path, 'update sessions set turn_count = 4 where id = ?', sessionId);
    const report = await verifyAt(path, sessionId);
    expect(report!.divergences.map((d) => d.message)).toEqual([
      'the session counts 4 turns but 3 are stored (a turn row was lost)',
    ]);
  });
});
