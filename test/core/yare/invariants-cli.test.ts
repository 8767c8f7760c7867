// Invariants from the command line (the compiled CLI in a child process): `mnesos turn` keeps a breach in
// the record and names it on stderr; `--strict` refuses the turn (exit 1, the invariant's file:line:col).
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDir, useCompiledCli } from '../../apps/cli/helpers.ts';

useCompiledCli();

const KEEPER = resolve(ROOT, 'test/fixtures/cartridges/explore-keeper');
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function cwd(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

describe('mnesos turn and invariants', () => {
  it('a turn that breaks an invariant keeps the breach in its record, and says so on stderr', async () => {
    const dir = cwd();
    const json = await runCli(['turn', KEEPER, '--input', '/borrow n=3', '--json'], { cwd: dir });
    expect(json.code).toBe(0);
    const out = JSON.parse(json.stdout) as { record: { invariants: unknown[] } };
    expect(out.record.invariants).toEqual([
      expect.objectContaining({
        invariant: 'debt_never_negative',
        kind: 'false',
        event: 'borrow',
        source: 'offline',
        place: expect.objectContaining({ line: 18, col: 24 }),
      }),
    ]);
    const text = await runCli(['turn', KEEPER, '--input', '/borrow n=3'], { cwd: dir });
    expect(text.code).toBe(0);
    expect(text.stderr).toMatch(
      /invariant broken: .*yare\.yaml:18:24: invariant 'debt_never_negative' does not hold/,
    );
  }, 120_000);

  it('--strict refuses the turn: exit 1, the invariant named at its place, no state', async () => {
    const dir = cwd();
    const run = await runCli(['turn', KEEPER, '--input', '/borrow n=3', '--json', '--strict'], { cwd: dir });
    expect(run.code).toBe(1);
    const out = JSON.parse(run.stdout) as {
      ok: boolean;
      error: { kind: string; message: string };
      state?: unknown;
    };
    expect(out.ok).toBe(false);
    expect(out.error.kind).toBe('invariant');
    expect(out.error.message).toMatch(
      /yare\.yaml:18:24: invariant 'debt_never_negative'.*after event 'borrow'/,
    );
    expect(out.state).toBeUndefined();
    // A turn that keeps the invariants plays as usual under --strict.
    const fine = await runCli(['turn', KEEPER, '--input', '/borrow n=0', '--json', '--strict'], { cwd: dir });
    expect(fine.code).toBe(0);
  }, 120_000);
});

describe('mnesos play and invariants', () => {
  it('keeps a breach in the turn and shows it in /debug; --strict refuses the turn and nothing is played', async () => {
    const kept = await runCli(['play', KEEPER, '--seed', '1'], {
      cwd: cwd(),
      input: '/borrow n=3\n/debug\n/quit\n',
    });
    expect(kept.code).toBe(0);
    expect(kept.stdout).toMatch(
      /Invariants broken:\n {2}yare\.yaml:18:24: invariant 'debt_never_negative' does not hold.*after event 'borrow' \(rule call 1\)/,
    );
    const strict = await runCli(['play', KEEPER, '--seed', '1', '--strict'], {
      cwd: cwd(),
      input: '/borrow n=3\n/debug\n/borrow n=0\n/debug\n/quit\n',
    });
    expect(strict.code).toBe(0);
    expect(strict.stdout).toMatch(
      /yare\.yaml:18:24: invariant 'debt_never_negative' does not hold.*the turn is refused \(strict mode\) and nothing changed/,
    );
    // The refused turn left the session at its first message; a turn that keeps the invariants plays.
    expect(strict.stdout).toContain('No turn played yet: this is the first message.');
    expect(strict.stdout).toMatch(/Input: \/borrow n=0[\s\S]*Invariants broken: none/);
  }, 120_000);
});
