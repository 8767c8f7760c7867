// biome-ignore-all lint/suspicious/noExplicitAny: the API's answers are read loosely; each use names the fields it needs.
// Shared tables benchmark (`npm run bench -- table`): BENCH_TABLES tables of BENCH_PLAYERS players each on two
// server replicas (child processes, this file re-run with `--replica`) sharing one fresh PostgreSQL database,
// their buses joined by LISTEN/NOTIFY. Every player holds a live stream (`GET …/live`) on one replica or the
// other (half of each table on each); turns are played offline (no model: the offline matcher and
// narration), each by the next player of the table on that player's replica. Two phases:
// - saturated: every table plays BENCH_TURNS_PER_TABLE turns with one request in flight per table, as fast
//   as the replicas answer: `turnsPerSecond` (turns committed over the phase's wall time), and the arrival
//   times under that backlog (`saturatedArrivalP50Ms`, `…P99Ms`), which are mostly the queue of requests
//   waiting in the replicas.
// - paced: the tables play BENCH_PACED_TURNS turns each at a steady rate of BENCH_PACED_SHARE of the
//   saturated throughput (players think between turns): `arrivalP50Ms`, `arrivalP99Ms`, the goal.
// An arrival time is, for a turn and one member's stream, the time from the turn's commit (its `createdAt`,
// the wall clock of the replica that played it, set as it is written) to the `turn` event's arrival on that
// stream (this process's wall clock; one machine, one clock). `missing` counts arrivals that did not come
// within BENCH_ARRIVAL_WAIT_MS. Goal: paced p99 under TARGET_P99_MS.
// `heapPerStreamBytes`, `rssPerStreamBytes`: what one open stream costs a replica: its heap (after a full
// collection) and RSS with the streams open, less before they opened, over the streams it holds.
// `loadAverage` names the load the machine was under; on a loaded machine compare the ratios, not seconds.

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SseParser } from '../src/core/sse.ts';
import { call, percentile } from './common.ts';
import { withPostgres } from './server.ts';

/** Tables played at once. */
export const BENCH_TABLES = 50;
/** Players at each table (the owner and three who joined). */
export const BENCH_PLAYERS = 4;
/** Turns each table plays in the saturated phase (one request in flight per table). */
export const BENCH_TURNS_PER_TABLE = 8;
/** Turns each table plays in the paced phase. */
export const BENCH_PACED_TURNS = 4;
/** The paced phase's rate as a share of the saturated throughput. */
export const BENCH_PACED_SHARE = 0.3;
/** Milliseconds the last arrivals may take after the last turn is answered. */
export const BENCH_ARRIVAL_WAIT_MS = 10_000;
/** The goal for the commit-to-arrival p99, on one machine. */
export const TARGET_P99_MS = 250;

const SELF = fileURLToPath(import.meta.url);
const INPUTS = ['I check my pack', 'I look through my pack again'];
const round = (n: number, digits = 2) => Number(n.toFixed(digits));

// --- a replica (child process) ---

async function runReplica(): Promise<void> {
  const { startServer } = await import('../src/apps/server/start.ts');
  const { parseApiKeys } = await import('../src/apps/server/auth.ts');
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    databaseUrl: process.env.MNESOS_DATABASE_URL,
    apiKeys: parseApiKeys(process.env.MNESOS_API_KEYS),
    limits: { rateLimit: 0 },
  });
  const gc = (globalThis as { gc?: () => void }).gc;
  process.on('message', (message) => {
    if (message !== 'memory') return;
    gc?.();
    const { heapUsed, rss } = process.memoryUsage();
    process.send?.({ heapUsed, rss, streams: server.deps.live.open });
  });
  process.stdout.write(`LISTENING ${server.url}\n`);
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
}

interface Replica {
  readonly child: ChildProcess;
  readonly url: URL;
  memory(): Promise<{ heapUsed: number; rss: number; streams: number }>;
}

function spawnReplica(env: Record<string, string>): Promise<Replica> {
  const args = SELF.endsWith('.ts') ? ['--import', 'tsx', SELF] : [SELF];
  const child = spawn(process.execPath, ['--expose-gc', ...args, '--replica'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /LISTENING (\S+)\n/.exec(out);
      if (found?.[1] === undefined) return;
      resolve({
        child,
        url: new URL(found[1]),
        memory: () =>
          new Promise((answered) => {
            child.once('message', (m) => answered(m as { heapUsed: number; rss: number; streams: number }));
            child.send('memory');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`replica exited with ${code}`)));
  });
}

// --- HTTP and live streams (this process: the players) ---

/** One request on the player's keep-alive agent; its status and JSON answer. */
async function callJson(
  agent: Agent,
  url: URL,
  method: 'GET' | 'POST',
  path: string,
  key: string,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const { status, text } = await call(agent, url, method, path, key, body);
  return { status, json: text === '' ? undefined : JSON.parse(text) };
}

/** A member's live stream: the wall-clock arrival of each turn event, by turn id. */
interface Stream {
  readonly arrivals: Map<string, number>;
  readonly ready: Promise<void>;
  close(): void;
}

function openStream(url: URL, sessionId: string, key: string): Stream {
  const arrivals = new Map<string, number>();
  let hello: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    hello = resolve;
  });
  const parser = new SseParser(
    (message) => {
      if (message.event === 'hello') hello();
      if (message.event === 'turn') arrivals.set((JSON.parse(message.data) as any).turn.id, Date.now());
    },
    { maxMessageChars: 1_000_000, tooLong: () => new Error('event too long') },
  );
  const req = request({
    host: url.hostname,
    port: url.port,
    path: `/v1/sessions/${sessionId}/live`,
    headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
  });
  req.on('response', (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => parser.push(chunk));
    // A stream cut when the run ends (or a replica stops) is not the run's failure.
    res.on('error', () => undefined);
  });
  req.on('error', () => undefined);
  req.end();
  return { arrivals, ready, close: () => req.destroy() };
}

interface Table {
  readonly sessionId: string;
  /** The players' keys, the owner first, and the replica each one talks to. */
  readonly players: ReadonlyArray<{ key: string; replica: Replica; agent: Agent }>;
}

async function setUp(replicas: readonly Replica[], keys: readonly string[]): Promise<Table[]> {
  const tables: Table[] = [];
  for (let t = 0; t < BENCH_TABLES; t++) {
    const players = Array.from({ length: BENCH_PLAYERS }, (_, p) => ({
      key: keys[t * BENCH_PLAYERS + p]!,
      replica: replicas[(t + p) % replicas.length]!,
      agent: new Agent({ keepAlive: true, maxSockets: 1 }),
    }));
    const owner = players[0]!;
    const created = await callJson(owner.agent, owner.replica.url, 'POST', '/v1/sessions', owner.key, {
      cartridge: 'Lanternmere',
    });
    if (created.status !== 201) throw new Error(`session not created: ${created.status}`);
    const sessionId = created.json.session.id as string;
    const invite = await callJson(
      owner.agent,
      owner.replica.url,
      'POST',
      `/v1/sessions/${sessionId}/invites`,
      owner.key,
      {},
    );
    for (const player of players.slice(1)) {
      const joined = await callJson(
        player.agent,
        player.replica.url,
        'POST',
        `/v1/invites/${invite.json.invite.code}/join`,
        player.key,
        {},
      );
      if (joined.status !== 200) throw new Error(`join refused: ${joined.status}`);
    }
    tables.push({ sessionId, players });
  }
  return tables;
}

type Committed = Array<{ id: string; createdAt: number }>;

/** One turn of a table by its `n`th player; its id and commit time. */
async function playOne(table: Table, n: number, agent?: Agent): Promise<{ id: string; createdAt: number }> {
  const player = table.players[n % table.players.length]!;
  const path = `/v1/sessions/${table.sessionId}/turns`;
  const answer = await callJson(agent ?? player.agent, player.replica.url, 'POST', path, player.key, {
    input: INPUTS[n % INPUTS.length],
  });
  if (answer.status !== 201) throw new Error(`turn refused: ${answer.status} ${JSON.stringify(answer.json)}`);
  return { id: answer.json.turn.id, createdAt: answer.json.turn.createdAt };
}

/** Plays `turns` turns at every table at once, one request in flight per table. */
async function play(tables: readonly Table[], turns: number, first = 0): Promise<Committed> {
  const committed: Committed = [];
  await Promise.all(
    tables.map(async (table) => {
      for (let n = first; n < first + turns; n++) committed.push(await playOne(table, n));
    }),
  );
  return committed;
}

/** Plays `turns` turns at every table, the tables together at `perSecond` turns a second, evenly spread. */
async function playPaced(
  tables: readonly Table[],
  turns: number,
  perSecond: number,
  first: number,
): Promise<Committed> {
  const committed: Committed = [];
  // Players who think between turns open a connection each time: an idle keep-alive socket the server has
  // just closed would fail a request now and then (a client's race, not the table's).
  const fresh = new Agent({ keepAlive: false });
  const gapMs = (1000 * tables.length) / perSecond;
  await Promise.all(
    tables.map(async (table, t) => {
      await sleep((gapMs * t) / tables.length);
      for (let n = first; n < first + turns; n++) {
        const started = performance.now();
        committed.push(await playOne(table, n, fresh));
        await sleep(Math.max(0, gapMs - (performance.now() - started)));
      }
    }),
  );
  return committed;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for every member's arrival of every turn (or BENCH_ARRIVAL_WAIT_MS); the delays, sorted, and how many never came. */
async function arrivals(
  streams: readonly Stream[],
  committed: Committed,
): Promise<{ delays: number[]; missing: number }> {
  const byTurn = new Map(committed.map((c) => [c.id, c.createdAt]));
  const count = () => streams.reduce((n, s) => n + committed.filter((c) => s.arrivals.has(c.id)).length, 0);
  const expected = committed.length * BENCH_PLAYERS;
  const deadline = Date.now() + BENCH_ARRIVAL_WAIT_MS;
  while (count() < expected && Date.now() < deadline) await sleep(50);
  const delays: number[] = [];
  for (const stream of streams)
    for (const [id, at] of stream.arrivals) {
      const createdAt = byTurn.get(id);
      if (createdAt !== undefined) delays.push(at - createdAt);
    }
  return { delays: delays.sort((a, b) => a - b), missing: expected - delays.length };
}

async function measure(
  replicas: readonly Replica[],
  keys: readonly string[],
): Promise<Record<string, unknown>> {
  const tables = await setUp(replicas, keys);
  await play(tables, 1); // warm-up: cartridges loaded, pools and caches filled on both replicas
  const before = await Promise.all(replicas.map((r) => r.memory()));
  const opened = tables.flatMap((table) =>
    table.players.map((player) => openStream(player.replica.url, table.sessionId, player.key)),
  );
  await Promise.all(opened.map((s) => s.ready));
  const after = await Promise.all(replicas.map((r) => r.memory()));
  const started = performance.now();
  const saturated = await play(tables, BENCH_TURNS_PER_TABLE, 1);
  const turnsPerSecond = saturated.length / ((performance.now() - started) / 1000);
  const underLoad = await arrivals(opened, saturated);
  const paced = await playPaced(
    tables,
    BENCH_PACED_TURNS,
    turnsPerSecond * BENCH_PACED_SHARE,
    1 + BENCH_TURNS_PER_TABLE,
  );
  const steady = await arrivals(opened, paced);
  for (const s of opened) s.close();
  const perStream = (field: 'heapUsed' | 'rss') =>
    Math.round(
      after.reduce((sum, a, i) => sum + (a[field] - before[i]![field]), 0) / Math.max(1, opened.length),
    );
  const p99 = percentile(steady.delays, 99);
  return {
    bench: 'table',
    tables: BENCH_TABLES,
    players: BENCH_PLAYERS,
    replicas: replicas.length,
    turns: saturated.length,
    turnsPerSecond: round(turnsPerSecond, 1),
    saturatedArrivalP50Ms: percentile(underLoad.delays, 50),
    saturatedArrivalP99Ms: percentile(underLoad.delays, 99),
    pacedTurns: paced.length,
    pacedTurnsPerSecond: round(turnsPerSecond * BENCH_PACED_SHARE, 1),
    arrivals: steady.delays.length + underLoad.delays.length,
    missing: steady.missing + underLoad.missing,
    arrivalP50Ms: percentile(steady.delays, 50),
    arrivalP99Ms: p99,
    targetP99Ms: TARGET_P99_MS,
    pass: p99 < TARGET_P99_MS && steady.missing + underLoad.missing === 0,
    streamsPerReplica: after.map((a) => a.streams),
    heapPerStreamBytes: perStream('heapUsed'),
    rssPerStreamBytes: perStream('rss'),
    loadAverage: loadavg().map((n) => round(n)),
  };
}

export async function benchTable(): Promise<Array<Record<string, unknown>>> {
  const keys = Array.from(
    { length: BENCH_TABLES * BENCH_PLAYERS },
    (_, i) => `bench-table-${i}-${randomBytes(8).toString('hex')}`,
  );
  const row = await withPostgres(async (url) => {
    const env = {
      MNESOS_DATABASE_URL: url,
      MNESOS_API_KEYS: keys.map((key, i) => `p${i}=${key}`).join(','),
    };
    // One after the other: the first migrates and registers the demo, the second finds them done.
    const replicas = [await spawnReplica(env), await spawnReplica(env)];
    try {
      return await measure(replicas, keys);
    } finally {
      for (const replica of replicas) replica.child.kill('SIGTERM');
      await Promise.all(replicas.map((r) => new Promise((resolve) => r.child.once('exit', resolve))));
    }
  });
  return [row ?? { bench: 'table', skipped: 'PostgreSQL unreachable' }];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv.includes('--replica')) await runReplica();
  else
    for (const row of await benchTable())
      process.stdout.write(`${JSON.stringify({ suite: 'table', ...row })}\n`);
}
