// Storage benchmark: hydration at depth 10,000 and append throughput, on SQLite and (when reachable) on
// PostgreSQL. Standalone: `npx tsx bench/store.ts` prints one JSON object per line.
// PostgreSQL URL: MNESOS_TEST_PG_URL or the loopback default; a scratch database is created and dropped.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { openStore } from '../src/store/open.ts';
import type { Store } from '../src/store/repository.ts';

/** Depth of the branch hydrated (the target: under 5 ms here). */
export const BENCH_DEPTH = 10_000;
/** Hydrations timed per database. */
export const BENCH_HYDRATIONS = 300;
const DEFAULT_PG_URL = 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

/** A game state of realistic size (~4 KB of JSON). */
function gameState(turn: number): unknown {
  return {
    turn,
    player: {
      hp: 20 - (turn % 7),
      gold: turn * 3,
      inventory: Array.from({ length: 20 }, (_, i) => `item-${i}`),
    },
    npcs: Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [
        `npc_${i}`,
        { mood: i % 3, trust: (turn + i) % 10, notes: 'x'.repeat(150) },
      ]),
    ),
  };
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Number((sorted[Math.max(0, index)] ?? Number.NaN).toFixed(3));
}

async function benchOne(db: 'sqlite' | 'postgres', store: Store): Promise<Record<string, unknown>[]> {
  const principal = await store.createPrincipal({ name: 'bench' });
  const version = await store.putCartridgeVersion({
    name: 'bench',
    contentHash: `sha256:${randomBytes(16).toString('hex')}`,
    files: {},
  });
  const created = await store.createSession({
    principalId: principal.id,
    cartridgeVersionId: version.id,
    seed: 1,
    genesis: { narration: 'It begins.', record: {}, state: gameState(0), seed: 1, createdAt: 1 },
  });
  if (!created.ok) throw new Error(created.reason);
  const sessionId = created.session.id;

  let head = created.turn.id;
  const appendStart = performance.now();
  for (let turn = 1; turn <= BENCH_DEPTH; turn++) {
    const result = await store.appendTurn({
      sessionId,
      parentId: head,
      expectedHeadId: head,
      input: `I do thing ${turn}`,
      narration: `Something happens on turn ${turn}. `.repeat(8),
      record: { turn, tools: [{ name: 'act', ok: true }], rolls: [turn % 20] },
      state: gameState(turn),
      ledgerEvents: [{ event_type: 'note', turn }],
      seed: turn,
      createdAt: 1 + turn,
    });
    if (!result.ok) throw new Error(result.reason);
    head = result.turn.id;
  }
  const appendMs = performance.now() - appendStart;

  const times: number[] = [];
  for (let i = 0; i < BENCH_HYDRATIONS; i++) {
    const start = performance.now();
    const hydrated = await store.hydrate(sessionId, head);
    times.push(performance.now() - start);
    if (hydrated?.turn.depth !== BENCH_DEPTH) throw new Error('hydrated the wrong turn');
  }
  times.sort((a, b) => a - b);

  const lineageTimes: number[] = [];
  for (let i = 0; i < 10; i++) {
    const start = performance.now();
    const lineage = await store.getLineage(sessionId, head);
    lineageTimes.push(performance.now() - start);
    if (lineage?.length !== BENCH_DEPTH + 1) throw new Error('short lineage');
  }
  lineageTimes.sort((a, b) => a - b);

  return [
    {
      bench: 'store.append_turn',
      db,
      turns: BENCH_DEPTH,
      turns_per_s: Math.round((BENCH_DEPTH / appendMs) * 1000),
      mean_ms: Number((appendMs / BENCH_DEPTH).toFixed(3)),
    },
    {
      bench: 'store.hydrate',
      db,
      depth: BENCH_DEPTH,
      runs: BENCH_HYDRATIONS,
      p50_ms: percentile(times, 50),
      p99_ms: percentile(times, 99),
      target_ms: 5,
    },
    {
      bench: 'store.full_lineage',
      db,
      depth: BENCH_DEPTH,
      runs: lineageTimes.length,
      p50_ms: percentile(lineageTimes, 50),
    },
  ];
}

async function benchSqlite(): Promise<Record<string, unknown>[]> {
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-bench-'));
  const store = await openStore(join(dir, 'bench.db'));
  try {
    return await benchOne('sqlite', store);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchPostgres(adminUrl: string): Promise<Record<string, unknown>[]> {
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
  } catch (error) {
    await admin.end().catch(() => undefined);
    return [{ bench: 'store', db: 'postgres', skipped: `unreachable: ${(error as Error).message}` }];
  }
  const name = `mnesos_bench_${randomBytes(4).toString('hex')}`;
  await admin.query(`create database ${name}`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const store = await openStore(url.toString());
    try {
      return await benchOne('postgres', store);
    } finally {
      await store.close();
    }
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

export async function benchStore(): Promise<Record<string, unknown>[]> {
  return [
    ...(await benchSqlite()),
    ...(await benchPostgres(process.env.MNESOS_TEST_PG_URL || DEFAULT_PG_URL)),
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await benchStore()) console.log(JSON.stringify(line));
}
