// Start-up cost of the `mnesos` command, as ratios to `node -e 0` measured in the same run (medians of 7,
// the commands taking turns so load from other processes hits them alike): `--help`, `validate lanternmere`,
// `run-event lanternmere explore_fen`, `eval lanternmere '1 + 1'`, and `serve` until its first `/healthz`
// 200 (on a database it has used before; the very first start, which creates the database, is reported
// too). Plus the ES modules `--help` loads from the bundle, and the heavy ones (server, store, model layer)
// the commands' import graph reaches (dist/src, unbundled: the lazy command registry keeps them out).
// Runs the compiled CLI: bin/mnesos when dist/ is up to date, else its bundle dist/cli/main.js directly (a
// development checkout with newer sources would make bin/mnesos run them through tsx).

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROJECT_ROOT } from '../src/adapters/project-root.ts';
import { median } from './common.ts';

type Row = Record<string, unknown>;

const ROUNDS = 7;
/** Ratios to `node -e 0`: every command within 3× (issue 37.6); `serve` also opens the store and the HTTP app. */
const TARGETS = { help: 3, validate: 3, run_event: 3, eval: 3, serve_first_healthz: 10 } as const;

/** Milliseconds from spawn to exit; fails on a non-zero exit. */
function timeRun(args: readonly string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(performance.now() - started);
      else reject(new Error(`${args.join(' ')} exited ${code}: ${stderr.slice(0, 300)}`));
    });
  });
}

/** Milliseconds from spawning `serve` on `db` to its first `/healthz` 200; the server is stopped afterwards. */
function timeServe(entry: readonly string[], dir: string, db: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...entry, 'serve', '--port', '0', '--db', db], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let polling = false;
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (!polling)
        reject(new Error(`serve exited ${code ?? signal} before listening: ${out.slice(0, 300)}`));
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stdout.on('data', async (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url === undefined || polling) return;
      polling = true;
      for (;;) {
        const ok = await fetch(`${url}/healthz`).then(
          (r) => r.status === 200,
          () => false,
        );
        if (ok) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      const elapsed = performance.now() - started;
      child.once('close', () => resolve(elapsed));
      child.kill('SIGTERM');
    });
  });
}

/**
 * What a command must not load to start fast: the server, the store, the model layer, the turn engine's
 * index (which loads the model layer) and their packages, installed or bundled under dist/vendor/ (their
 * small constant modules, such as default ports or limits, are fine).
 */
export const HEAVY_MODULE =
  /node_modules\/(kysely|hono|@hono|pg|better-sqlite3|ai|@ai-sdk|openai|zod)\/|\/dist\/vendor\/(kysely|zod|zod-mini)\.js$|\/src\/(apps\/server\/(app|start)|adapters\/store\/(open|store)|adapters\/llm\/(index|providers|sdk-model)|engine\/session\/service|engine\/turn\/index)\.[jt]s$/;

/**
 * The file: URLs of the ES modules `node <entry> <args>` loads. A module-resolve hook (which runs on its own
 * thread) appends each resolved URL to a file, read once the command has exited.
 */
export async function loadedModules(
  entry: readonly string[],
  args: readonly string[],
  dir: string,
  /** For a command that keeps running (serve): stop it with SIGTERM once its output so far passes this. */
  stopWhen?: (stdout: string) => boolean,
): Promise<string[]> {
  const log = join(dir, `modules-${process.pid}-${Date.now()}.txt`);
  writeFileSync(log, '');
  const hooks = join(dir, 'count-hooks.mjs');
  writeFileSync(
    hooks,
    [
      "import { appendFileSync } from 'node:fs';",
      'let log;',
      'export function initialize(data) { log = data.log; }',
      'export async function resolve(specifier, context, next) {',
      '  const resolved = await next(specifier, context);',
      "  if (resolved.url.startsWith('file:')) appendFileSync(log, resolved.url + '\\n');",
      '  return resolved;',
      '}',
      '',
    ].join('\n'),
  );
  const register = join(dir, 'count-register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)}, { data: { log: ${JSON.stringify(log)} } });\n`,
  );
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', register, ...entry, ...args], {
      cwd: dir,
      stdio: ['ignore', stopWhen ? 'pipe' : 'ignore', 'ignore'],
    });
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stopWhen?.(stdout)) child.kill('SIGTERM');
    });
    child.on('error', reject);
    child.on('close', () => resolve());
  });
  const urls = new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean));
  urls.delete(pathToFileURL(register).href);
  return [...urls];
}

export async function benchStartup(): Promise<Row[]> {
  // By path from the project root: this file also runs compiled, from dist/bench/.
  const build = (await import(
    pathToFileURL(join(PROJECT_ROOT, 'bin', 'build.mjs')).href
  )) as typeof import('../bin/build.mjs');
  const stale = build.compiledStale();
  const entry = stale
    ? [join(PROJECT_ROOT, 'dist', 'cli', 'main.js')]
    : [join(PROJECT_ROOT, 'bin', 'mnesos')];
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-bench-startup-'));
  try {
    const commands: Record<Exclude<keyof typeof TARGETS, 'serve_first_healthz'>, string[]> = {
      help: ['--help'],
      validate: ['validate', 'lanternmere'],
      run_event: ['run-event', 'lanternmere', 'explore_fen'],
      eval: ['eval', 'lanternmere', '1 + 1'],
    };
    // `serve` is timed on a database it has used before (every start after the first); the first start,
    // which also creates and migrates the database, is reported beside it without a target.
    const servedDb = join(dir, 'served.db');
    await timeServe(entry, dir, servedDb);
    const firstStart: number[] = [];
    const times: Record<string, number[]> = {
      node: [],
      help: [],
      validate: [],
      run_event: [],
      eval: [],
      serve_first_healthz: [],
    };
    await timeRun(['-e', '0'], dir); // warm the file cache
    await timeRun([...entry, '--help'], dir);
    for (let round = 0; round < ROUNDS; round++) {
      times.node!.push(await timeRun(['-e', '0'], dir));
      for (const [name, args] of Object.entries(commands))
        times[name]!.push(await timeRun([...entry, ...args], dir));
      times.serve_first_healthz!.push(await timeServe(entry, dir, servedDb));
      firstStart.push(await timeServe(entry, dir, join(dir, `new-${round}.db`)));
    }
    const base = median(times.node!);
    const rows: Row[] = [{ bench: 'startup.node_e_0', median_ms: Number(base.toFixed(1)), rounds: ROUNDS }];
    let allMet = true;
    for (const [name, target] of Object.entries(TARGETS)) {
      const ms = median(times[name]!);
      const ratio = ms / base;
      allMet &&= ratio <= target;
      rows.push({
        bench: `startup.${name}`,
        median_ms: Number(ms.toFixed(1)),
        ratio_to_node: Number(ratio.toFixed(2)),
        target_ratio_max: target,
        meets_target: ratio <= target,
      });
    }
    const first = median(firstStart);
    rows.push({
      bench: 'startup.serve_first_healthz_new_database',
      median_ms: Number(first.toFixed(1)),
      ratio_to_node: Number((first / base).toFixed(2)),
    });
    const modules = await loadedModules(entry, ['--help'], dir);
    const graph = [join(PROJECT_ROOT, 'dist', 'src', 'apps', 'cli', 'main.js')];
    let heavy = 0;
    for (const args of Object.values(commands))
      heavy += (await loadedModules(graph, args, dir)).filter((url) => HEAVY_MODULE.test(url)).length;
    rows.push({
      bench: 'startup.help_modules',
      es_modules: modules.length,
      heavy_modules_of_commands: heavy,
      meets_target: heavy === 0,
    });
    rows.push({
      bench: 'startup.summary',
      entry: stale
        ? 'dist/cli/main.js (sources newer than dist/: bin/mnesos would run them through tsx)'
        : 'bin/mnesos',
      meets_targets: allMet && heavy === 0,
      load_average: loadavg().map((n) => Number(n.toFixed(2))),
    });
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
