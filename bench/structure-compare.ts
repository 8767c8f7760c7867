// Before/after figures for a restructuring, in one run: checks out a given git ref into a temporary folder
// (`git archive`, so the repository's worktree list is left alone), builds it with its own bin/build.mjs,
// and runs the same bench suites there and in this tree — by default `yare` (the interpreter's speed
// ratio and compile time), `startup` (CLI start-up ratios) and `server` (throughput) — the two trees
// taking turns suite by suite so load from other processes hits both alike.
//
//   npm run build && node dist/bench/structure-compare.js <ref> [--rounds N] [suite ...]
//
// `--against REF2` puts a second ref's checkout in place of this tree (to isolate one span of history).
// `--rounds N` runs each suite N times in each tree, alternating which goes first; the summary then gives
// each numeric field's median over the rounds. Prints one JSON object per row, with `tree: "ref"` or
// `tree: "current"` and its round, then one summary object pairing each row of the ref with the current
// tree's row of the same name (its text fields: bench, cartridge, runner…). The ref's tree
// borrows this tree's node_modules (a symbolic link); a ref whose lockfile differs is reported as such.
// BENCH_SERVER_ONLY (see bench/server.ts) passes through to both runs.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from '../src/adapters/project-root.ts';

type Row = Record<string, unknown>;

const DEFAULT_SUITES = ['yare', 'startup', 'server'];

/** A command's standard output; a non-zero exit throws unless `rowsOnFailure` (a bench run reports its
 * failures as rows and exits 1). */
function run(command: string, args: readonly string[], cwd: string, rowsOnFailure = false): string {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: process.env,
  });
  if (result.error) throw result.error;
  if (result.status !== 0 && !rowsOnFailure) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr.slice(0, 500)}`);
  }
  return result.stdout;
}

/** The ref's files in a fresh folder, with this tree's node_modules linked in, built by its own script. */
function prepareRef(ref: string): { parent: string; dir: string } {
  // The tree sits in a folder of its own beside a link to ../shared, as a clone sits beside it, so the
  // suites that read the shared cartridges find them in both trees.
  const parent = mkdtempSync(join(tmpdir(), 'mnesos-structure-compare-'));
  const dir = join(parent, 'tree');
  mkdirSync(dir);
  const shared = resolve(PROJECT_ROOT, '../shared');
  if (existsSync(shared)) symlinkSync(shared, join(parent, 'shared'), 'dir');
  const archive = spawnSync('git', ['archive', '--format=tar', ref], {
    cwd: PROJECT_ROOT,
    maxBuffer: 1024 * 1024 * 1024,
  });
  if (archive.status !== 0) throw new Error(`git archive ${ref} failed: ${archive.stderr.toString()}`);
  const untar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr.toString()}`);
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  run(process.execPath, ['bin/build.mjs', '--type-errors-ok'], dir);
  if (!existsSync(join(dir, 'dist', 'bench', 'run.js')))
    throw new Error(`${ref}: no dist/bench/run.js built`);
  return { parent, dir };
}

/** What names a row within its suite: its text fields (bench, cartridge, runner, database…). */
function rowKey(row: Row): string {
  return JSON.stringify(
    Object.entries(row)
      .filter(([key, value]) => typeof value === 'string' && key !== 'tree' && key !== 'ref')
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

function benchRows(root: string, suite: string): Row[] {
  const out = run(process.execPath, ['--expose-gc', 'dist/bench/run.js', suite], root, true);
  return out
    .split('\n')
    .filter((line) => line.trim().startsWith('{'))
    .map((line) => JSON.parse(line) as Row);
}

/** Each numeric field's median over the rounds' rows of one name; text fields from the first. */
function medianRow(rows: readonly Row[]): Row {
  const out: Row = { ...rows[0], rounds: rows.length };
  for (const [key, value] of Object.entries(rows[0] ?? {})) {
    if (typeof value !== 'number') continue;
    const values = rows
      .map((row) => row[key])
      .filter((v): v is number => typeof v === 'number')
      .sort((a, b) => a - b);
    const mid = values.length >> 1;
    out[key] = values.length % 2 === 1 ? values[mid] : (values[mid - 1]! + values[mid]!) / 2;
  }
  return out;
}

function byKey(rows: readonly Row[]): Map<string, Row[]> {
  const out = new Map<string, Row[]>();
  for (const row of rows) {
    const key = rowKey(row);
    out.set(key, [...(out.get(key) ?? []), row]);
  }
  return out;
}

function main(): void {
  const args = process.argv.slice(2);
  const option = (name: string): string | undefined => {
    const at = args.indexOf(name);
    if (at < 0) return undefined;
    const value = args[at + 1];
    args.splice(at, 2);
    return value ?? '';
  };
  const roundsText = option('--rounds');
  const rounds = roundsText === undefined ? 1 : Number(roundsText);
  const against = option('--against');
  const [ref, ...named] = args;
  if (!ref || !Number.isInteger(rounds) || rounds < 1 || rounds > 20) {
    process.stderr.write(
      'usage: node dist/bench/structure-compare.js <git ref> [--against <git ref>] [--rounds 1-20] [suite ...]\n',
    );
    process.exitCode = 2;
    return;
  }
  const suites = named.length > 0 ? named : DEFAULT_SUITES;
  const lockOf = (root: string) => readFileSync(join(root, 'package-lock.json'), 'utf8');
  const { parent, dir: refDir } = prepareRef(ref);
  const second = against === undefined ? undefined : prepareRef(against);
  const currentDir = second?.dir ?? PROJECT_ROOT;
  try {
    const sameLock = lockOf(refDir) === lockOf(currentDir);
    const paired: Row[] = [];
    for (const suite of suites) {
      const before: Row[] = [];
      const after: Row[] = [];
      // Rounds alternate which tree goes first, so a load that rises or falls over the run hits both.
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? (['ref', 'current'] as const) : (['current', 'ref'] as const);
        for (const tree of order) {
          const rows = benchRows(tree === 'ref' ? refDir : currentDir, suite);
          for (const row of rows)
            process.stdout.write(
              `${JSON.stringify({ tree, ...(tree === 'ref' ? { ref } : {}), round, ...row })}\n`,
            );
          (tree === 'ref' ? before : after).push(...rows);
        }
      }
      const afterByKey = byKey(after);
      for (const [key, rows] of byKey(before)) {
        const current = afterByKey.get(key);
        paired.push({
          suite,
          bench: rows[0]?.bench ?? null,
          ref: medianRow(rows),
          current: current ? medianRow(current) : null,
        });
      }
    }
    process.stdout.write(
      `${JSON.stringify({ bench: 'structure-compare', ref, current: against ?? 'this tree', suites, rounds, same_lockfile: sameLock, rows: paired })}\n`,
    );
  } finally {
    rmSync(parent, { recursive: true, force: true });
    if (second) rmSync(second.parent, { recursive: true, force: true });
  }
}

main();
