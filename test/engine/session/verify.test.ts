// `session verify`: a played session (branches, swipes, author events) replays clean; a tampered state,
// record, seed or ledger row is reported with the turn and the kind of divergence. Also the CLI command.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { Command } from 'commander';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { register } from '../../../src/apps/cli/commands/session.ts';
import { verifySession } from '../../../src/engine/session/verify.ts';
import { openStore } from '../../../src/adapters/store/open.ts';
import { fixture } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnesos-verify-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** A session with two branches, a swipe and an author event, in its own SQLite file. */
async function playedSession() {
  n += 1;
  const path = join(dir, `v${n}.db`);
  const store = await openStore(path);
  const f = await fixture(store);
  const { session, turn: genesis } = await f.service.createSession(f.principal.id, {
    cartridgeVersion: f.version.id,
  });
  const p = f.principal.id;
  const a = await f.service.playTurn(p, session.id, { turn: { input: '/travel reedmaze' } });
  await f.service.playTurn(p, session.id, { turn: { input: '/explore_fen' } });
  await f.service.playTurn(p, session.id, { turn: { input: '/attack' } });
  await f.service.playTurn(p, session.id, { parentId: genesis.id, turn: { input: '/check_pack' } });
  await f.service.playTurn(p, session.id, { parentId: a.turn.id, turn: { input: '/rest_at_inn' } });
  await f.service.runAuthorEvent(p, session.id, {
    event: 'travel',
    inputs: { destination: 'brine market' },
    commit: true,
  });
  await store.close();
  return { path, sessionId: session.id, turnId: a.turn.id };
}

async function verifyAt(path: string, sessionId: string) {
  const store = await openStore(path);
  try {
    const { CartridgeLibrary } = await import('../../../src/engine/session/library.ts');
    return await verifySession(store, new CartridgeLibrary(store), sessionId);
  } finally {
    await store.close();
  }
}

function tamper(path: string, sql: string, ...params: unknown[]): void {
  const db = new Sqlite(path);
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

describe('verifySession', () => {
  it('a played session with branches, swipes and author events replays clean', async () => {
    const { path, sessionId } = await playedSession();
    const report = await verifyAt(path, sessionId);
    expect(report?.divergences).toEqual([]);
    expect(report?.ok).toBe(true);
    expect(report?.turns).toBe(7);
    expect(report?.branches).toBe(3);
  });

  it('an unknown session is undefined', async () => {
    const { path } = await playedSession();
    expect(await verifyAt(path, 'nope')).toBeUndefined();
  });

  it('a tampered state is reported at its turn', async () => {
    const { path, sessionId, turnId } = await playedSession();
    tamper(
      path,
      `update turn_payloads set state = json_set(state, '$.player.gold', 9999) where turn_id = ?`,
      turnId,
    );
    const report = await verifyAt(path, sessionId);
    expect(report?.ok).toBe(false);
    const kinds = report!.divergences.filter((d) => d.turnId === turnId).map((d) => d.kind);
    expect(kinds).toContain('state');
    expect(kinds).toContain('record');
  });

  it('rolls carry labels; a record written before labels (none on its rolls) still verifies; a changed label does not', async () => {
    const { path, sessionId } = await playedSession();
    const db = new Sqlite(path);
    const rows = db.prepare('select turn_id, record from turn_payloads').all() as {
      turn_id: string;
      record: string;
    }[];
    const rolled = rows.filter((r) => (JSON.parse(r.record).rolls ?? []).length > 0);
    expect(rolled.length).toBeGreaterThan(0);
    for (const row of rolled) {
      for (const roll of JSON.parse(row.record).rolls) expect(roll.label?.event).toEqual(expect.any(String));
    }
    // The same records as they were written before rolls carried labels.
    const update = db.prepare('update turn_payloads set record = ? where turn_id = ?');
    for (const row of rolled) {
      const record = JSON.parse(row.record);
      record.rolls = record.rolls.map(({ label: _label, ...roll }: { label?: unknown }) => roll);
      update.run(JSON.stringify(record), row.turn_id);
    }
    db.close();
    const old = await verifyAt(path, sessionId);
    expect(old?.divergences).toEqual([]);
    expect(old?.ok).toBe(true);

    // A label that is recorded must be the one the replay gives.
    const first = rolled[0]!;
    const record = JSON.parse(first.record);
    record.rolls[0].label.event = 'somewhere_else';
    tamper(
      path,
      'update turn_payloads set record = ? where turn_id = ?',
      JSON.stringify(record),
      first.turn_id,
    );
    const relabelled = await verifyAt(path, sessionId);
    expect(relabelled?.divergences).toEqual([
      expect.objectContaining({ turnId: first.turn_id, kind: 'rolls' }),
    ]);
  });

  it('an unlabelled old record with a changed face is still caught', async () => {
    const { path, sessionId } = await playedSession();
    const db = new Sqlite(path);
    const rows = db.prepare('select turn_id, record from turn_payloads').all() as {
      turn_id: string;
      record: string;
    }[];
    db.close();
    const row = rows.find((r) => (JSON.parse(r.record).rolls ?? []).length > 0)!;
    const record = JSON.parse(row.record);
    record.rolls = record.rolls.map(({ label: _label, ...roll }: { label?: unknown }) => roll);
    record.rolls[0].faces = [record.rolls[0].faces[0] === 1 ? 2 : 1];
    tamper(
      path,
      'update turn_payloads set record = ? where turn_id = ?',
      JSON.stringify(record),
      row.turn_id,
    );
    const report = await verifyAt(path, sessionId);
    expect(report?.divergences).toEqual([expect.objectContaining({ turnId: row.turn_id, kind: 'rolls' })]);
  });

  it('a tampered seed is reported', async () => {
    const { path, sessionId, turnId } = await playedSession();
    tamper(path, `update turns set seed = seed + 1 where id = ?`, turnId);
    const report = await verifyAt(path, sessionId);
    expect(
      report!.divergences.some((d) => d.turnId === turnId && d.kind === 'record' && /seed/.test(d.message)),
    ).toBe(true);
  });

  it('a forged ledger event is reported on its branch', async () => {
    const { path, sessionId, turnId } = await playedSession();
    tamper(
      path,
      `insert into ledger_events (turn_id, session_id, position, event) values (?, ?, 0, ?)`,
      turnId,
      sessionId,
      JSON.stringify({ event_type: 'set_possession', item: 'ghost_item', owner: 'player' }),
    );
    const report = await verifyAt(path, sessionId);
    expect(report!.divergences.some((d) => d.kind === 'ledger')).toBe(true);
  });

  it('a lost turn (a gap in seq) is reported as a tree divergence', async () => {
    const { path, sessionId, turnId } = await playedSession();
    tamper(path, `update turns set seq = seq + 100 where id = ?`, turnId);
    const report = await verifyAt(path, sessionId);
    expect(report!.divergences.some((d) => d.kind === 'tree')).toBe(true);
  });
});

async function cli(args: string[]): Promise<{ stdout: string; exitCode: number | undefined }> {
  const out: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const program = new Command('mnesos').exitOverride();
  register(program);
  const before = process.exitCode;
  try {
    await program.parseAsync(['session', 'verify', ...args], { from: 'user' });
  } finally {
    vi.restoreAllMocks();
  }
  const code = process.exitCode;
  process.exitCode = before;
  return { stdout: out.join(''), exitCode: typeof code === 'number' ? code : undefined };
}

describe('mnesos session verify', () => {
  it('exit 0 and an ok line for a clean session; exit 1 with each divergence when tampered', async () => {
    const { path, sessionId, turnId } = await playedSession();
    const clean = await cli([sessionId, '--db', path]);
    expect(clean.exitCode).toBe(0);
    expect(clean.stdout).toMatch(/^ok: 7 turns, 3 branch\(es\), 0 divergence/m);
    tamper(
      path,
      `update turn_payloads set state = json_set(state, '$.player.hp', 1) where turn_id = ?`,
      turnId,
    );
    const bad = await cli([sessionId, '--db', path, '--json']);
    expect(bad.exitCode).toBe(1);
    const report = JSON.parse(bad.stdout) as { ok: boolean; divergences: Array<{ turnId: string }> };
    expect(report.ok).toBe(false);
    expect(report.divergences.some((d) => d.turnId === turnId)).toBe(true);
    expect((await cli(['nope', '--db', path])).exitCode).toBe(1);
  });
});
