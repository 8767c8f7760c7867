// Server benchmark (`npm run bench:server`, or `npx tsx bench/server.ts`): one JSON object per line.
// - turns per second and p50/p99 latency over HTTP, driven from a second process (this file re-run with
//   `--load`: a small fetch-based load generator), with a zero-latency model, on SQLite and (when
//   reachable) PostgreSQL; any error answer fails the row;
// - the time to hydrate and prepare a turn at depth 10,000;
// - memory per idle session (the server keeps none: sessions live in the store).

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import type { ChatModel, ModelResponse, ModelSet } from '../src/llm/types.ts';
import { startServer } from '../src/server/start.ts';
import { openStore } from '../src/store/open.ts';
import type { Store } from '../src/store/repository.ts';

/** Concurrent sessions the load generator plays (one request in flight per session). */
export const BENCH_SESSIONS = 16;
/** Turns played per session. */
export const BENCH_TURNS_PER_SESSION = 40;
/** Depth of the branch a turn is prepared on. */
export const BENCH_DEPTH = 10_000;
/** Sessions created to measure the memory of idle sessions. */
export const BENCH_IDLE_SESSIONS = 500;
const DEFAULT_PG_URL = 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const SELF = fileURLToPath(import.meta.url);

/** A model that answers at once, forever: the Director gives directives, the Narrator one sentence. */
function instantModels(): ModelSet {
  const response: ModelResponse = {
    text: 'The lamps burn on.',
    toolCalls: [],
    usage: { inputTokens: 100, outputTokens: 5 },
    finishReason: 'stop',
    modelId: 'bench-instant',
  };
  const model: ChatModel = {
    id: 'bench-instant',
    generate: async () => response,
    async *stream() {
      yield { type: 'text-delta', text: response.text };
      yield { type: 'finish', response };
    },
  };
  return { director: model, narrator: model, npc: model };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));

// --- the load generator (child process) ---

async function runLoad(url: string, sessions: number, turns: number): Promise<void> {
  const ids: string[] = [];
  for (let i = 0; i < sessions; i++) {
    const response = await fetch(`${url}/v1/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cartridge: 'Lanternmere' }),
    });
    ids.push(((await response.json()) as { session: { id: string } }).session.id);
  }
  const latencies: number[] = [];
  const errors: Record<string, number> = {};
  const started = performance.now();
  await Promise.all(
    ids.map(async (id, s) => {
      for (let t = 0; t < turns; t++) {
        const t0 = performance.now();
        const response = await fetch(`${url}/v1/sessions/${id}/turns`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ input: `I keep watch (${s}.${t})` }),
        });
        await response.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (response.status !== 201) errors[response.status] = (errors[response.status] ?? 0) + 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  process.stdout.write(
    `${JSON.stringify({ turns: latencies.length, seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors })}\n`,
  );
}

function loadFromChild(
  url: string,
): Promise<{ turns: number; seconds: number; p50: number; p99: number; errors: Record<string, number> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', SELF, '--load', url, String(BENCH_SESSIONS), String(BENCH_TURNS_PER_SESSION)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '{}'));
    });
  });
}

// --- the benchmark (parent process) ---

async function withPostgres<T>(work: (url: string) => Promise<T>): Promise<T | undefined> {
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

async function throughput(database: 'sqlite' | 'postgres', store: Store): Promise<Record<string, unknown>> {
  const server = await startServer({
    port: 0,
    store,
    models: instantModels,
    modelMode: 'online',
    limits: { rateLimit: 1_000_000 },
  });
  try {
    const load = await loadFromChild(server.url);
    const errorCount = Object.values(load.errors).reduce((a, b) => a + b, 0);
    return {
      bench: 'http-turns',
      database,
      sessions: BENCH_SESSIONS,
      turns: load.turns,
      turnsPerSecond: round(load.turns / load.seconds, 1),
      p50Ms: round(load.p50),
      p99Ms: round(load.p99),
      errors: errorCount,
      ok: errorCount === 0,
    };
  } finally {
    await server.close();
  }
}

async function deepTurn(database: 'sqlite' | 'postgres', store: Store): Promise<Record<string, unknown>> {
  const server = await startServer({ port: 0, store, models: instantModels, modelMode: 'online' });
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
      const prepared = await service.prepareTurn(principal, session.id, { turn: { input: 'look' } });
      times.push(performance.now() - t0);
      if (prepared.kind === 'ready') prepared.release();
    }
    const t0 = performance.now();
    await service.playTurn(principal, session.id, { turn: { input: 'look' } });
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

async function idleMemory(store: Store): Promise<Record<string, unknown>> {
  const server = await startServer({ port: 0, store, models: instantModels, modelMode: 'online' });
  const gc = (globalThis as { gc?: () => void }).gc;
  try {
    const version = (await store.listCartridges())[0]!.latest.id;
    // Warm the cartridge cache first, so only the sessions themselves are measured.
    await server.deps.service.createSession('local-user', { cartridgeVersion: version });
    gc?.();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < BENCH_IDLE_SESSIONS; i++)
      await server.deps.service.createSession('local-user', { cartridgeVersion: version });
    gc?.();
    const after = process.memoryUsage().heapUsed;
    return {
      bench: 'idle-session-memory',
      sessions: BENCH_IDLE_SESSIONS,
      bytesPerSession: Math.max(0, Math.round((after - before) / BENCH_IDLE_SESSIONS)),
      gcExposed: gc !== undefined,
      note: 'the server holds no per-session memory; sessions live in the store',
    };
  } finally {
    await server.close();
  }
}

export async function benchServer(): Promise<Array<Record<string, unknown>>> {
  const rows: Array<Record<string, unknown>> = [];
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-bench-server-'));
  try {
    const sqlite = await openStore(join(dir, 'throughput.db'));
    rows.push(await throughput('sqlite', sqlite));
    await sqlite.close();
    const deep = await openStore(join(dir, 'deep.db'));
    rows.push(await deepTurn('sqlite', deep));
    await deep.close();
    const idle = await openStore(join(dir, 'idle.db'));
    rows.push(await idleMemory(idle));
    await idle.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const pgRows = await withPostgres(async (url) => {
    const out: Array<Record<string, unknown>> = [];
    const store = await openStore(url);
    try {
      out.push(await throughput('postgres', store));
      out.push(await deepTurn('postgres', store));
    } finally {
      await store.close();
    }
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
    await runLoad(args[1]!, Number(args[2]), Number(args[3]));
  } else {
    let failed = false;
    for (const row of await benchServer()) {
      if (row.ok === false) failed = true;
      process.stdout.write(`${JSON.stringify({ suite: 'server', ...row })}\n`);
    }
    process.exitCode = failed ? 1 : 0;
  }
}
