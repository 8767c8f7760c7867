// `mnesos explore` as a user runs it (the compiled CLI in a child process): exit codes (0 clean, 1
// violations, 2 usage), exactly one JSON document with --json whatever the outcome, the same report byte
// for byte for the same seed, the run and depth limits at the limit and one past, --state, and
// --write-failures writing scenario files that `mnesos test` runs and fails while the bug is there.
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_EXPLORE_DEPTH, MAX_EXPLORE_RUNS } from '../../../src/tools/authoring/explore/limits.ts';
import { ROOT, runCli, tempDir, useCompiledCli } from '../../apps/cli/helpers.ts';

useCompiledCli();

const KEEPER = resolve(ROOT, 'test/fixtures/cartridges/explore-keeper');
const temps: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of temps.splice(0)) cleanup();
});

function workspace() {
  const t = tempDir();
  temps.push(t.cleanup);
  return t;
}

/** stdout is exactly one JSON document (and a newline). */
function oneJson(stdout: string): Record<string, unknown> {
  expect(stdout.endsWith('\n')).toBe(true);
  expect(stdout.trimEnd().includes('\n')).toBe(false);
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('mnesos explore', () => {
  it('finds the fixture’s violations (exit 1), and the same seed prints the same report byte for byte', async () => {
    const { dir } = workspace();
    const args = ['explore', KEEPER, '--runs', '20', '--depth', '20', '--seed', '7', '--json'];
    const first = await runCli(args, { cwd: dir });
    const second = await runCli(args, { cwd: dir });
    expect(first.code).toBe(1);
    expect(second.stdout).toBe(first.stdout);
    const out = oneJson(first.stdout) as { ok: boolean; report: { violations: { kind: string }[] } };
    expect(out.ok).toBe(false);
    expect(out.report.violations.length).toBeGreaterThanOrEqual(5);
    const text = await runCli(['explore', KEEPER, '--runs', '20', '--depth', '20', '--seed', '7'], {
      cwd: dir,
    });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("event 'forgotten' never run");
    expect(text.stdout).toMatch(/shortest sequence \(2 steps, from \d+\):/);
  }, 120_000);

  it('a clean cartridge exits 0', async () => {
    const { dir } = workspace();
    const run = await runCli(['explore', 'lanternmere', '--runs', '10', '--depth', '10', '--json'], {
      cwd: dir,
    });
    expect(run.code).toBe(0);
    expect(oneJson(run.stdout)).toMatchObject({ ok: true, report: { violations: [] } });
  }, 120_000);

  it('runs and depth at their limits are played; one past each is a usage error (exit 2) in JSON', async () => {
    const { dir } = workspace();
    const atRuns = await runCli(
      ['explore', 'lanternmere', '--runs', String(MAX_EXPLORE_RUNS), '--depth', '1', '--json'],
      { cwd: dir },
    );
    expect(atRuns.code).toBe(0);
    expect(oneJson(atRuns.stdout)).toMatchObject({ report: { runs: MAX_EXPLORE_RUNS } });
    const atDepth = await runCli(
      ['explore', 'lanternmere', '--runs', '1', '--depth', String(MAX_EXPLORE_DEPTH), '--json'],
      { cwd: dir },
    );
    expect(atDepth.code).toBe(0);
    expect(oneJson(atDepth.stdout)).toMatchObject({
      report: { depth: MAX_EXPLORE_DEPTH, stepsPlayed: MAX_EXPLORE_DEPTH },
    });
    const pastRuns = await runCli(
      ['explore', 'lanternmere', '--runs', String(MAX_EXPLORE_RUNS + 1), '--json'],
      { cwd: dir },
    );
    expect(pastRuns.code).toBe(2);
    expect(oneJson(pastRuns.stdout)).toEqual({
      ok: false,
      error: {
        kind: 'usage',
        message: `runs must be a whole number from 1 to ${MAX_EXPLORE_RUNS} (MAX_EXPLORE_RUNS), got ${MAX_EXPLORE_RUNS + 1}`,
      },
    });
    const pastDepth = await runCli(['explore', 'lanternmere', '--depth', String(MAX_EXPLORE_DEPTH + 1)], {
      cwd: dir,
    });
    expect(pastDepth.code).toBe(2);
    expect(pastDepth.stderr).toContain('MAX_EXPLORE_DEPTH');
  }, 180_000);

  it('usage errors and an unknown cartridge are one JSON document too', async () => {
    const { dir } = workspace();
    const bogus = await runCli(['explore', 'lanternmere', '--bogus', '--json'], { cwd: dir });
    expect(bogus.code).toBe(2);
    expect(oneJson(bogus.stdout)).toEqual({
      ok: false,
      error: { kind: 'usage', message: "unknown option '--bogus'" },
    });
    const word = await runCli(['explore', 'lanternmere', '--seed', 'x', '--json'], { cwd: dir });
    expect(word.code).toBe(2);
    expect(oneJson(word.stdout)).toMatchObject({ error: { kind: 'usage' } });
    const missing = await runCli(['explore', 'no-such-cartridge', '--json'], { cwd: dir });
    expect(missing.code).toBe(1);
    expect(oneJson(missing.stdout)).toMatchObject({ ok: false, error: { kind: 'cartridge' } });
  }, 120_000);

  it('--write-failures writes scenarios that mnesos test runs and fails; fixing the rules makes one pass', async () => {
    const { dir } = workspace();
    const copy = join(dir, 'keeper');
    cpSync(KEEPER, copy, { recursive: true });
    const tests = join(copy, 'tests');
    const run = await runCli(
      ['explore', copy, '--runs', '20', '--depth', '20', '--json', '--write-failures', tests],
      { cwd: dir },
    );
    expect(run.code).toBe(1);
    const out = oneJson(run.stdout) as { report: { violations: unknown[] }; written: string[] };
    const files = readdirSync(tests).sort();
    expect(files).toHaveLength(out.report.violations.length);
    expect(out.written.map((p) => p.slice(tests.length + 1)).sort()).toEqual(files);
    const tested = await runCli(['test', copy, '--json'], { cwd: dir });
    expect(tested.code).toBe(1);
    const cases = (JSON.parse(tested.stdout) as { cases: { file: string; ok: boolean }[] }).cases;
    expect(cases).toHaveLength(files.length);
    expect(cases.every((c) => !c.ok)).toBe(true);
    // Borrowing that adds to the debt instead keeps the invariant: its scenario passes now.
    const yare = join(copy, 'yare.yaml');
    writeFileSync(
      yare,
      readFileSync(yare, 'utf8').replace(
        'var: state.keeper.debt, op: sub, value: "@ inputs.n"',
        'var: state.keeper.debt, op: add, value: "@ max(inputs.n, 0)"',
      ),
    );
    const fixed = await runCli(['test', copy, '--json', '--filter', 'debt_never_negative'], { cwd: dir });
    const after = JSON.parse(fixed.stdout) as { ok: boolean; cases: { ok: boolean }[] };
    expect(after.cases).toHaveLength(1);
    expect(after.ok).toBe(true);
  }, 180_000);

  it('--state starts every playthrough there; a written scenario starts there too', async () => {
    const { dir, file } = workspace();
    const state = file('broke.json', JSON.stringify({ keeper: { debt: -2 } }));
    const copy = join(dir, 'keeper');
    cpSync(KEEPER, copy, { recursive: true });
    mkdirSync(join(copy, 'tests'));
    const run = await runCli(
      [
        'explore',
        copy,
        '--runs',
        '1',
        '--depth',
        '1',
        '--state',
        state,
        '--json',
        '--write-failures',
        join(copy, 'tests'),
      ],
      { cwd: dir },
    );
    expect(run.code).toBe(1);
    const out = oneJson(run.stdout) as {
      report: { violations: { subject?: string; steps: unknown[] }[] };
      written: string[];
    };
    const debt = out.report.violations.find((v) => v.subject === 'debt_never_negative')!;
    expect(debt.steps).toEqual([]);
    const written = out.written.find((p) => p.includes('debt_never_negative'))!;
    expect(readFileSync(written, 'utf8')).toContain('debt: -2');
  }, 120_000);
});
