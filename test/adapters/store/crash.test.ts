// kill -9 in the middle of a burst of appends leaves every turn whole or absent, and the head consistent.

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/adapters/store/open.ts';
import type { Store } from '../../../src/adapters/store/repository.ts';
import { CRASH_EVENTS_PER_TURN, CRASH_STATE_BLOB_BYTES, isSwipe } from './fixtures/crash-writer.ts';

const WRITER = fileURLToPath(new URL('./fixtures/crash-writer.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Extra wait after the child has shown it is appending, different each round: kill points vary. */
const KILL_DELAYS_MS = [0, 9, 31];

interface Writer {
  child: ChildProcess;
  /** Turns the writer reported as committed. */
  appended: () => number;
  paused: () => boolean;
  stderr: () => string;
}

function startWriter(args: string[]): Writer {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const lines = () => out.split('\n').filter((line) => /^\d+$/.test(line));
  return { child, appended: () => lines().length, paused: () => out.includes('PAUSED\n'), stderr: () => err };
}

async function waitFor(condition: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function checkWhole(store: Store, sessionId: string, principalId: string): Promise<number> {
  const session = await store.getSession(sessionId, principalId);
  if (session === undefined) throw new Error('session missing');
  const tree = await store.listTree(sessionId);
  expect(tree.map((n) => n.seq)).toEqual(Array.from({ length: tree.length }, (_, i) => i));
  expect(session.turnCount).toBe(tree.length);
  for (const node of tree) {
    const turn = await store.getTurn(sessionId, node.id);
    if (turn === undefined) throw new Error(`turn ${node.id} unreadable`);
    const record = turn.record as { seq: number; events: number };
    const state = turn.state as { seq: number; blob: string };
    expect(record.seq).toBe(node.seq);
    expect(state.seq).toBe(node.seq);
    expect(turn.narration).toBe(node.seq === 0 ? 'It begins.' : `narration ${node.seq}`);
    if (node.seq > 0) {
      expect(state.blob).toHaveLength(CRASH_STATE_BLOB_BYTES);
      expect(turn.ledgerEvents).toEqual(
        Array.from({ length: CRASH_EVENTS_PER_TURN }, (_, i) => ({ seq: node.seq, i })),
      );
    }
  }
  // The head is the newest turn that moved it: the latest non-swipe.
  const lastMover = [...tree].reverse().find((n) => n.seq === 0 || !isSwipe(n.seq));
  expect(session.headTurnId).toBe(lastMover?.id);
  return tree.length;
}

/** A store file with one session (turn 0 only), closed again so a child process can write to it. */
async function newCrashSession(path: string, name: string) {
  const setup = await openStore(path);
  const principal = await setup.createPrincipal({ name });
  const version = await setup.putCartridgeVersion({ name, contentHash: `sha256:${name}-0001`, files: {} });
  const created = await setup.createSession({
    principalId: principal.id,
    cartridgeVersionId: version.id,
    seed: 1,
    genesis: {
      narration: 'It begins.',
      record: { seq: 0, events: 0 },
      state: { seq: 0, blob: '' },
      seed: 0,
      createdAt: 1,
    },
  });
  await setup.close();
  if (!created.ok) throw new Error(created.reason);
  return { principal, created };
}

describe('SQLite store: kill -9 during appends', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-crash-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('leaves each turn whole or absent and the head consistent', async () => {
    const path = join(dir, 'crash.db');
    const { principal, created } = await newCrashSession(path, 'crash');

    let turns = 1;
    for (const delay of KILL_DELAYS_MS) {
      const writer = startWriter([path, created.session.id, principal.id]);
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        writer.child.on('exit', (_code, signal) => resolve(signal)),
      );
      await waitFor(
        () => writer.appended() >= 3 || writer.child.exitCode !== null,
        'the writer to append',
        20_000,
      );
      expect(writer.stderr()).toBe('');
      await new Promise((resolve) => setTimeout(resolve, delay));
      writer.child.kill('SIGKILL');
      // Still running when killed: the crash interrupted the burst rather than following its end.
      expect(await exited).toBe('SIGKILL');

      const reopened = await openStore(path);
      try {
        const now = await checkWhole(reopened, created.session.id, principal.id);
        expect(now).toBeGreaterThanOrEqual(turns + writer.appended());
        turns = now;
      } finally {
        await reopened.close();
      }
    }
  }, 60_000);

  it('drops a turn killed inside its transaction, after its row was written', async () => {
    const path = join(dir, 'paused.db');
    const { principal, created } = await newCrashSession(path, 'paused');

    const writer = startWriter([path, created.session.id, principal.id, 'pause']);
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      writer.child.on('exit', (_code, signal) => resolve(signal)),
    );
    await waitFor(() => writer.paused() || writer.child.exitCode !== null, 'the writer to pause', 20_000);
    expect(writer.stderr()).toBe('');
    expect(writer.appended()).toBe(2);
    writer.child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const reopened = await openStore(path);
    try {
      // Genesis and the two committed turns; the third, whose row was written, is gone with its transaction.
      expect(await checkWhole(reopened, created.session.id, principal.id)).toBe(3);
    } finally {
      await reopened.close();
    }
  }, 60_000);
});
