// Server benchmark (in `npm run bench` as the `server` suite, or `npx tsx bench/server.ts`): one
// JSON object per line. What each row covers:
// - `http-turns`: offline turns (no model configured: the offline matcher and narration) over HTTP, each of
//   BENCH_SESSIONS sessions played by its own API key (so the per-principal rate limit is per player, and
//   off here), one request in flight per session, driven from a second process (this file re-run with
//   `--load`, plain node:http, one keep-alive connection per player). The server runs in this process:
//   `serverCpuMsPerTurn` is this process's CPU (process.cpuUsage, user + system) over the run divided by the
//   turns, the figure that does not depend on the machine's load; PostgreSQL's own CPU is not in it. `loadAverage` names the load
//   the machine was under. The SQLite run also reports the server's RSS after warm-up and after its turns.
// - `playTurn-cpu`: SessionService.playTurn offline on SQLite without HTTP, CPU per turn (p50 of 400).
// - `breakdown`: where the SQLite server's CPU per turn goes: HTTP, the session layer, the store, the turn
//   engine (bench/server-breakdown.ts says how each is measured), in ms a turn and as shares of the server's.
// - `workers`: `mnesos serve --workers 1` and `--workers 2` on PostgreSQL as child processes, the same load
//   against each, alternating BENCH_WORKER_ROUNDS times; the figure is the ratio of their median turns/s.
//   Beside it, the CPU a turn costs in the server, in PostgreSQL and in the load generator (from /proc,
//   one-worker runs) and `ceilingRatio`, the most two workers could give when all three share the cores.
// - `prepare-at-depth`: the time to prepare a turn at depth BENCH_DEPTH.
// Any error answer fails its row. Throughput targets are for this 2-core machine with the load generator
// on it; on a loaded machine compare the CPU per turn and the ratios.

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { createServer } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { PROJECT_ROOT } from '../src/adapters/project-root.ts';
import { startServer } from '../src/apps/server/start.ts';
import { CartridgeLibrary } from '../src/engine/session/library.ts';
import { SessionService } from '../src/engine/session/service.ts';
import { openStore } from '../src/adapters/store/open.ts';
import type { Store } from '../src/adapters/store/repository.ts';
import { call, median, percentile } from './common.ts';
import { type Breakdown, turnBreakdown } from './server-breakdown.ts';

/** Concurrent sessions the load generator plays (one request in flight per session), each with its own key. */
export const BENCH_SESSIONS = 16;
/** Turns played per session in a throughput run (16 × 125 = 2,000 turns). */
export const BENCH_TURNS_PER_SESSION = 125;
/** Turns per session before the timed part (JIT, caches, connection pools). */
export const BENCH_WARMUP_TURNS = 10;
/** Depth of the branch a turn is prepared on. */
export const BENCH_DEPTH = 10_000;
/** Runs of one worker and of two, alternating, in the workers row. */
export const BENCH_WORKER_ROUNDS = 3;
/** Turns timed for the in-process playTurn CPU figure. */
export const BENCH_PLAY_TURNS = 400;
const DEFAULT_PG_URL = 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const SELF = fileURLToPath(import.meta.url);
/**
 * What the players say: free text through the offline matcher, every request a committed turn of the demo
 * cartridge: its pack, and travel between the market and the inn (each walk moves the player and the clock).
 */
const INPUTS = ['I check my pack', 'head to the market', 'I look through my pack again', 'return to the inn'];

const TARGET_TURNS_PER_SECOND = { sqlite: 600, postgres: 150 } as const;
/** p99 latency of a turn over HTTP at that rate (issue 34.3), ms. */
const TARGET_P99_MS = 200;
const TARGET_PLAY_CPU_MS = 2;
const TARGET_WORKERS_RATIO = 1.6;

const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const cpuMs = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1000;
const load = (): number[] => loadavg().map((n) => round(n, 2));

/** One bench key per session (at least 16 characters, as MNESOS_API_KEYS requires). */
function benchKeys(count: number): Array<{ label: string; key: string }> {
  return Array.from({ length: count }, (_, i) => ({
    label: `bench-${i}`,
    key: `bench-key-${i}-${randomBytes(8).toString('hex')}`,
  }));
}

// --- the load generator (child process) ---

interface LoadResult {
  readonly turns: number;
  readonly seconds: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: Record<string, number>;
  readonly clientCpuMs: number;
}

async function runLoad(base: string, keys: readonly string[], turns: number, warmup: number): Promise<void> {
  const url = new URL(base);
  // One keep-alive connection per player, as each player's client keeps its own: with `--workers` a
  // session's turns then stay on the worker that holds its state in memory.
  const agents = keys.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
  const ids: string[] = [];
  for (const [s, key] of keys.entries()) {
    const created = await call(agents[s]!, url, 'POST', '/v1/sessions', key, { cartridge: 'Lanternmere' });
    if (created.status !== 201) throw new Error(`session not created: ${created.status} ${created.text}`);
    ids.push((JSON.parse(created.text) as { session: { id: string } }).session.id);
  }
  const latencies: number[] = [];
  const errors: Record<string, number> = {};
  // Each session says the inputs in turn across warm-up and timed part alike (a walk to where the player
  // already is would be answered, not played).
  const said = ids.map(() => 0);
  const play = async (count: number, timed: boolean) => {
    await Promise.all(
      ids.map(async (id, s) => {
        for (let t = 0; t < count; t++) {
          const t0 = performance.now();
          const answer = await call(agents[s]!, url, 'POST', `/v1/sessions/${id}/turns`, keys[s]!, {
            input: INPUTS[said[s]!++ % INPUTS.length],
          });
          if (!timed) continue;
          latencies.push(performance.now() - t0);
          if (answer.status !== 201) errors[answer.status] = (errors[answer.status] ?? 0) + 1;
        }
      }),
    );
  };
  await play(warmup, false);
  // Tell the parent the timed part starts (it reads its own CPU counter now).
  process.stdout.write('timed\n');
  const cpu = process.cpuUsage();
  const started = performance.now();
  await play(turns, true);
  const seconds = (performance.now() - started) / 1000;
  const result: LoadResult = {
    turns: latencies.length,
    seconds,
    p50: percentile(
      latencies.sort((a, b) => a - b),
      50,
    ),
    p99: percentile(latencies, 99),
    errors,
    clientCpuMs: cpuMs(process.cpuUsage(cpu)),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  for (const agent of agents) agent.destroy();
}

/** Runs the load generator against `url`; `onTimed` runs when its warm-up is over. */
function loadFromChild(url: string, keys: readonly string[], onTimed: () => void): Promise<LoadResult> {
  const args = SELF.endsWith('.ts') ? ['--import', 'tsx', SELF] : [SELF];
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...args, '--load', url, keys.join(','), String(BENCH_TURNS_PER_SESSION), String(BENCH_WARMUP_TURNS)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const before = out;
      out += chunk.toString();
      if (!before.includes('timed\n') && out.includes('timed\n')) onTimed();
    });
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as LoadResult);
    });
  });
}

// --- the benchmark (parent process) ---

export async function withPostgres<T>(work: (url: string) => Promise<T>): Promise<T | undefined> {
  const admin = process.env.MNESOS_TEST_PG_URL || DEFAULT_PG_URL;
  const client = new pg.Client({ connectionString: admin, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
  } catch {
    return undefined;
  }
  const name = `mnesos_bench_server_${randomBytes(4).toString('hex')}`;
  await client.query(`create database ${name}`);
  try {
    const url = new URL(admin);
    url.pathname = `/${name}`;
    return await work(url.toString());
  } finally {
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  }
}

function loadRow(
  database: 'sqlite' | 'postgres',
  result: LoadResult,
  extra: Record<string, unknown>,
): Record<string, unknown> {
  const errorCount = Object.values(result.errors).reduce((a, b) => a + b, 0);
  const turnsPerSecond = result.turns / result.seconds;
  return {
    sessions: BENCH_SESSIONS,
    turns: result.turns,
    turnsPerSecond: round(turnsPerSecond, 1),
    p50Ms: round(result.p50),
    p99Ms: round(result.p99),
    ...extra,
    clientCpuMsPerTurn: round(result.clientCpuMs / result.turns, 3),
    errors: errorCount,
    target: `≥ ${TARGET_TURNS_PER_SECOND[database]} turns/s${database === 'sqlite' ? `, p99 < ${TARGET_P99_MS} ms` : ''}`,
    pass:
      errorCount === 0 &&
      turnsPerSecond >= TARGET_TURNS_PER_SECOND[database] &&
      (database !== 'sqlite' || result.p99 < TARGET_P99_MS),
  };
}

async function throughput(database: 'sqlite' | 'postgres', store: Store): Promise<Record<string, unknown>> {
  const keys = benchKeys(BENCH_SESSIONS);
  const server = await startServer({ port: 0, store, apiKeys: keys, limits: { rateLimit: 0 } });
  try {
    const loadBefore = load();
    let cpu: NodeJS.CpuUsage | undefined;
    let rssWarm = 0;
    const result = await loadFromChild(
      server.url,
      keys.map((k) => k.key),
      () => {
        cpu = process.cpuUsage();
        rssWarm = process.memoryUsage().rss;
      },
    );
    const serverCpu = cpu === undefined ? Number.NaN : cpuMs(process.cpuUsage(cpu));
    return {
      bench: 'http-turns',
      database,
      mode: 'offline',
      ...loadRow(database, result, {
        serverCpuMsPerTurn: round(serverCpu / result.turns, 3),
        ...(database === 'sqlite'
          ? {
              rssWarmMiB: round(rssWarm / 2 ** 20, 1),
              rssAfterMiB: round(process.memoryUsage().rss / 2 ** 20, 1),
            }
          : {}),
      }),
      loadAverage: { before: loadBefore, after: load() },
    };
  } finally {
    await server.close();
  }
}

/** playTurn offline without HTTP: CPU per turn of this process (store, hydrate, world, runTurn, append). */
async function playTurnCpu(store: Store): Promise<Record<string, unknown>> {
  const library = new CartridgeLibrary(store);
  const registered = await library.registerFolder(join(PROJECT_ROOT, 'cartridges', 'lanternmere'));
  if (!registered.ok) throw new Error('the demo cartridge does not load');
  const principal = await store.createPrincipal({ name: 'bench' });
  const service = new SessionService({ store, library, models: () => null });
  const { session } = await service.createSession(principal.id, { cartridgeVersion: registered.version.id });
  const times: number[] = [];
  for (let i = 0; i < BENCH_PLAY_TURNS + 50; i++) {
    const cpu = process.cpuUsage();
    await service.playTurn(principal.id, session.id, { turn: { input: INPUTS[i % INPUTS.length]! } });
    if (i >= 50) times.push(cpuMs(process.cpuUsage(cpu)));
  }
  times.sort((a, b) => a - b);
  const p50 = percentile(times, 50);
  return {
    bench: 'playTurn-cpu',
    database: 'sqlite',
    mode: 'offline',
    turns: BENCH_PLAY_TURNS,
    cpuP50Ms: round(p50, 3),
    cpuP99Ms: round(percentile(times, 99), 3),
    target: `≤ ${TARGET_PLAY_CPU_MS} ms`,
    pass: p50 <= TARGET_PLAY_CPU_MS,
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** `mnesos serve --workers N` as a child process; resolves once it says it listens. */
async function spawnServe(
  workers: number,
  databaseUrl: string,
  keys: ReadonlyArray<{ label: string; key: string }>,
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      join(PROJECT_ROOT, 'bin', 'mnesos'),
      'serve',
      '--port',
      String(port),
      '--db',
      databaseUrl,
      '--workers',
      String(workers),
      '--rate-limit',
      '0',
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        PATH: process.env.PATH ?? '',
        MNESOS_API_KEYS: keys.map((k) => `${k.label}=${k.key}`).join(','),
      },
    },
  );
  let out = '';
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`serve --workers ${workers} exited with ${code}: ${out}`)));
  });
  return { url: await listening, child };
}

async function stopServe(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** CPU milliseconds (user + system) of the processes `pick` selects from /proc; null where there is no /proc. */
function procCpuMs(
  pick: (pid: number, comm: string, parents: Map<number, number>) => boolean,
): number | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^[0-9]+$/.test(name));
  } catch {
    return null;
  }
  const stats = new Map<number, { comm: string; ppid: number; ticks: number }>();
  for (const name of entries) {
    let text: string;
    try {
      text = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid … utime(14) stime(15): the comm may hold spaces, so split after its ')'.
    const close = text.lastIndexOf(')');
    const fields = text.slice(close + 2).split(' ');
    stats.set(Number(name), {
      comm: text.slice(text.indexOf('(') + 1, close),
      ppid: Number(fields[1]),
      ticks: Number(fields[11]) + Number(fields[12]),
    });
  }
  const parents = new Map([...stats].map(([pid, s]) => [pid, s.ppid]));
  let ticks = 0;
  for (const [pid, s] of stats) if (pick(pid, s.comm, parents)) ticks += s.ticks;
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** Linux's USER_HZ: /proc times are in hundredths of a second on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

function descendsFrom(pid: number, root: number, parents: Map<number, number>): boolean {
  for (
    let at: number | undefined = pid, hops = 0;
    at !== undefined && hops < 64;
    at = parents.get(at), hops++
  )
    if (at === root) return true;
  return false;
}

/** CPU of the serve process and its workers, and of every PostgreSQL process on the machine. */
function cpuSplit(servePid: number): { serve: number | null; postgres: number | null } {
  return {
    serve: procCpuMs((pid, _comm, parents) => descendsFrom(pid, servePid, parents)),
    postgres: procCpuMs((_pid, comm) => comm === 'postgres'),
  };
}

async function workersRatio(databaseUrl: string): Promise<Record<string, unknown>> {
  const keys = benchKeys(BENCH_SESSIONS);
  // One worker and two in turn, BENCH_WORKER_ROUNDS times, and the medians compared: on a machine shared
  // with other work one run of each says more about the neighbours' load than about the workers.
  const perSecond: Record<1 | 2, number[]> = { 1: [], 2: [] };
  // Where the CPU of a turn goes (ms a turn, one worker's runs): the server, PostgreSQL, the load generator.
  const split: Record<'serve' | 'postgres' | 'load', number[]> = { serve: [], postgres: [], load: [] };
  let errorCount = 0;
  for (let round = 0; round < BENCH_WORKER_ROUNDS; round++) {
    for (const workers of [1, 2] as const) {
      const { url, child } = await spawnServe(workers, databaseUrl, keys);
      try {
        let before: ReturnType<typeof cpuSplit> | undefined;
        const result = await loadFromChild(
          url,
          keys.map((k) => k.key),
          () => {
            before = cpuSplit(child.pid!);
          },
        );
        const after = cpuSplit(child.pid!);
        perSecond[workers].push(result.turns / result.seconds);
        errorCount += Object.values(result.errors).reduce((a, b) => a + b, 0);
        if (workers === 1 && before?.serve != null && after.serve !== null && before.postgres != null) {
          split.serve.push((after.serve - before.serve) / result.turns);
          split.postgres.push((after.postgres! - before.postgres) / result.turns);
          split.load.push(result.clientCpuMs / result.turns);
        }
      } finally {
        await stopServe(child);
      }
    }
  }
  const one = median(perSecond[1]);
  const two = median(perSecond[2]);
  const ratio = two / one;
  return {
    bench: 'workers',
    database: 'postgres',
    mode: 'offline',
    sessions: BENCH_SESSIONS,
    oneWorkerTurnsPerSecond: round(one, 1),
    twoWorkersTurnsPerSecond: round(two, 1),
    runs: { one: perSecond[1].map((n) => round(n, 1)), two: perSecond[2].map((n) => round(n, 1)) },
    ratio: round(ratio, 2),
    ...workersCeiling(split),
    errors: errorCount,
    loadAverage: load(),
    target: `≥ ${TARGET_WORKERS_RATIO}× (medians of ${BENCH_WORKER_ROUNDS} alternating runs)`,
    pass: errorCount === 0 && ratio >= TARGET_WORKERS_RATIO,
  };
}

/**
 * CPU ms a turn by process (medians of the one-worker runs) and the ratio two workers could reach at most on
 * this machine's cores: with every core busy, turns/s is cores ÷ (all CPU a turn), against one worker's
 * 1 ÷ (the server's CPU a turn) — PostgreSQL and the load generator share the same cores.
 */
function workersCeiling(split: Record<'serve' | 'postgres' | 'load', number[]>): Record<string, unknown> {
  if (split.serve.length === 0) return { cpuMsPerTurn: 'unavailable (no /proc)' };
  const serve = median(split.serve);
  const postgres = median(split.postgres);
  const loadGen = median(split.load);
  const cores = availableParallelism();
  const total = serve + postgres + loadGen;
  return {
    cpuMsPerTurn: { serve: round(serve), postgres: round(postgres), loadGenerator: round(loadGen) },
    cores,
    ceilingRatio: round(Math.min(cores, 2) * (serve / total), 2),
  };
}

async function deepTurn(database: 'sqlite' | 'postgres', store: Store): Promise<Record<string, unknown>> {
  const server = await startServer({ port: 0, store });
  try {
    const { service } = server.deps;
    const principal = 'local-user';
    const version = (await store.listCartridges())[0]!.latest.id;
    const { session, turn } = await service.createSession(principal, { cartridgeVersion: version });
    // Written without ledger events or snapshots: the first prepare reads the branch back to genesis once
    // (the cold path); the later ones take the world from the service's memory, as a played turn leaves it.
    const record = { kind: 'bench' };
    let parent = turn;
    for (let depth = 1; depth <= BENCH_DEPTH; depth++) {
      const appended = await store.appendTurn({
        sessionId: session.id,
        parentId: parent.id,
        input: { kind: 'text', text: `turn ${depth}` },
        narration: `narration ${depth}`,
        record,
        state: turn.state,
        seed: depth,
        createdAt: Date.now(),
      });
      if (!appended.ok) throw new Error(`append failed: ${appended.reason}`);
      parent = appended.turn;
    }
    const times: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t0 = performance.now();
      const prepared = await service.prepareTurn(principal, session.id, { turn: { input: INPUTS[0]! } });
      times.push(performance.now() - t0);
      if (prepared.kind === 'ready') prepared.release();
    }
    const t0 = performance.now();
    await service.playTurn(principal, session.id, { turn: { input: INPUTS[0]! } });
    const played = performance.now() - t0;
    times.sort((a, b) => a - b);
    return {
      bench: 'prepare-at-depth',
      database,
      depth: BENCH_DEPTH,
      prepareP50Ms: round(percentile(times, 50)),
      prepareP99Ms: round(percentile(times, 99)),
      playOneTurnMs: round(played),
    };
  } finally {
    await server.close();
  }
}

/** The breakdown row: ms of CPU a turn by part, and each part's share of the HTTP server's CPU a turn. */
function breakdownRow(parts: Breakdown, httpServerMs: number | undefined): Record<string, unknown> {
  const ms = {
    ...(httpServerMs === undefined ? {} : { http: Math.max(0, httpServerMs - parts.playTurnMs) }),
    session: parts.sessionMs,
    store: parts.storeMs,
    engine: parts.engineMs,
  };
  const whole = httpServerMs ?? parts.playTurnMs;
  return {
    bench: 'breakdown',
    database: 'sqlite',
    mode: 'offline',
    cpuMsPerTurn: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, round(v, 3)])),
    share: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, `${Math.round((100 * v) / whole)} %`])),
    of: httpServerMs === undefined ? 'playTurn (run the sqlite part for HTTP)' : 'the HTTP server',
    playTurnMs: round(parts.playTurnMs, 3),
  };
}

/** Which parts to run: all by default; `BENCH_SERVER_ONLY=sqlite,postgres,workers,play,breakdown,deep` picks some. */
function wanted(part: string): boolean {
  const only = process.env.BENCH_SERVER_ONLY;
  return only === undefined || only === '' || only.split(',').includes(part);
}

export async function benchServer(): Promise<Array<Record<string, unknown>>> {
  const rows: Array<Record<string, unknown>> = [];
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-bench-server-'));
  try {
    if (wanted('sqlite')) {
      const sqlite = await openStore(join(dir, 'throughput.db'));
      rows.push(await throughput('sqlite', sqlite));
      await sqlite.close();
    }
    if (wanted('play')) {
      const play = await openStore(join(dir, 'play.db'));
      rows.push(await playTurnCpu(play));
      await play.close();
    }
    if (wanted('breakdown')) {
      const store = await openStore(join(dir, 'breakdown.db'));
      const http = rows.find((row) => row.bench === 'http-turns')?.serverCpuMsPerTurn;
      rows.push(
        breakdownRow(await turnBreakdown(store, INPUTS), typeof http === 'number' ? http : undefined),
      );
      await store.close();
    }
    if (wanted('deep')) {
      const deep = await openStore(join(dir, 'deep.db'));
      rows.push(await deepTurn('sqlite', deep));
      await deep.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (!wanted('postgres') && !wanted('workers')) return rows;
  const pgRows = await withPostgres(async (url) => {
    const out: Array<Record<string, unknown>> = [];
    if (wanted('postgres')) {
      const store = await openStore(url);
      try {
        out.push(await throughput('postgres', store));
        if (wanted('deep')) out.push(await deepTurn('postgres', store));
      } finally {
        await store.close();
      }
    }
    if (wanted('workers')) out.push(await workersRatio(url));
    return out;
  });
  rows.push(
    ...(pgRows ?? [{ bench: 'http-turns', database: 'postgres', skipped: 'PostgreSQL unreachable' }]),
  );
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  if (args[0] === '--load') {
    await runLoad(args[1]!, args[2]!.split(','), Number(args[3]), Number(args[4]));
  } else {
    let failed = false;
    for (const row of await benchServer()) {
      if (row.pass === false) failed = true;
      process.stdout.write(`${JSON.stringify({ suite: 'server', ...row })}\n`);
    }
    process.exitCode = failed ? 1 : 0;
  }
}
