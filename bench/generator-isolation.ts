// Generator isolation (in `npm run bench` as the `generator-isolation` suite, or `npx tsx
// bench/generator-isolation.ts`): issue 35's attack on the AI generator, measured beside its idle control in
// one run. A real HTTP server (src/apps/server) in this process; a fake OpenAI-compatible model in a second
// process (test/helpers/fake-openai-server.ts, real HTTP and SSE; at FAKE_MODEL_NICE, as a provider
// elsewhere) answering every round with an invalid cartridge of ~590,000 characters, checked whole
// (test/helpers/invalid-cartridge.ts); the clients in a third: one key keeps N
// `POST /v1/builder/generate` streams open at once (half read their stream, half never read it), while another key polls `/healthz`
// every HEALTHZ_INTERVAL_MS. Rows: `idle` (no generations: the floor on this machine as it is loaded now),
// then N = 10 and N = 40. Each row: the generations' answers by status (200 streams, 429 refused past the
// key's queue) and how the streams read to their end ended (`done`, or `error:<code>`), the server's CPU
// (all its threads) split into the request thread's, the generator's worker's and the helper threads'
// (Linux), `/healthz` p50/p99/max, and `pass`: `/healthz` p99 within TARGET_EXTRA_P99_MS of the idle row's.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadModelConfig } from '../src/adapters/llm/config.ts';
import { openStore } from '../src/adapters/store/open.ts';
import { GENERATE_WORKER_NICE } from '../src/apps/server/generate/protocol.ts';
import { startServer } from '../src/apps/server/start.ts';
import { invalidCartridge } from '../test/helpers/invalid-cartridge.ts';
import { percentile } from './common.ts';

/** Milliseconds the clients attack in each row. */
export const GENERATOR_RUN_MS = Number(process.env.BENCH_GENERATOR_MS ?? 15_000);
/** Milliseconds between two `/healthz` polls (one in flight at a time). */
const HEALTHZ_INTERVAL_MS = 20;
/** `/healthz` p99 under attack may exceed the idle row's by at most this. */
export const TARGET_EXTRA_P99_MS = 100;
/** Streams the attacking key keeps open, one row each (BENCH_GENERATOR_STREAMS=10,40). */
const ATTACK_STREAMS = (process.env.BENCH_GENERATOR_STREAMS ?? '10,40').split(',').map(Number);
/** Characters of the invalid cartridge the fake model answers. */
export const ANSWER_CHARS = 590_000;
const SELF = fileURLToPath(import.meta.url);

const round = (n: number, digits = 1) => Number(n.toFixed(digits));
const cpuMs = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1000;

/** One thread's CPU milliseconds (10 ms ticks) and niceness, from Linux's per-thread counters. */
interface ThreadCpu {
  readonly ms: number;
  readonly nice: number;
}

/**
 * The CPU this process's threads have used, by thread id (Linux; undefined elsewhere): `process.cpuUsage`
 * counts every thread together, the generator's worker included.
 */
function threadsCpu(): Map<string, ThreadCpu> | undefined {
  try {
    const threads = new Map<string, ThreadCpu>();
    for (const task of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime, stime and nice are fields 14, 15 and 19 of the whole line, 12, 13 and 17 after the ')'.
      threads.set(task, { ms: (Number(fields[11]) + Number(fields[12])) * 10, nice: Number(fields[16]) });
    }
    return threads;
  } catch {
    return undefined;
  }
}

/**
 * The CPU used between two readings: the request thread's (the main thread), the generator's worker's (the
 * thread at GENERATE_WORKER_NICE) and the helpers' (V8's garbage collection and compiler threads, libuv's
 * pool: shared by every thread, at the process's priority).
 */
function cpuSplit(before: Map<string, ThreadCpu>, after: Map<string, ThreadCpu>) {
  const split = { requestThreadCpuMs: 0, generatorWorkerCpuMs: 0, helperThreadsCpuMs: 0 };
  for (const [task, now] of after) {
    const used = now.ms - (before.get(task)?.ms ?? 0);
    if (task === String(process.pid)) split.requestThreadCpuMs += used;
    else if (now.nice === GENERATE_WORKER_NICE) split.generatorWorkerCpuMs += used;
    else split.helperThreadsCpuMs += used;
  }
  return split;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// --- the fake model (child process) ---

async function runFakeModel(): Promise<void> {
  const { startFakeOpenAI } = await import('../test/helpers/fake-openai-server.ts');
  const answer = invalidCartridge(ANSWER_CHARS);
  // Streamed in chunks of 512 characters (a real model's are smaller; the client's per-chunk cost is
  // bench/model-client.ts's concern).
  const chunks: string[] = [];
  for (let i = 0; i < answer.length; i += 512) chunks.push(answer.slice(i, i + 512));
  const fake = await startFakeOpenAI(() => ({ kind: 'text', text: answer, chunks }));
  process.stdout.write(`ready ${fake.url}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void fake.close().then(() => process.exit(0)));
}

// --- the clients (child process) ---

interface ClientResult {
  readonly generations: {
    readonly statuses: Record<string, number>;
    readonly streamsRead: number;
    /** How the streams read to their end ended: `done`, or `error:<code>`. */
    readonly ends: Record<string, number>;
  };
  readonly healthz: {
    readonly polls: number;
    readonly p50: number;
    readonly p99: number;
    readonly max: number;
  };
}

/** How a generation's stream ended: its last event, `done` or `error:<code>` (`cut` when neither came). */
function endOf(stream: string): { end: string; message?: string } {
  const events = [...stream.matchAll(/^event: (\w+)\ndata: (.*)$/gm)];
  const last = events.at(-1);
  if (last?.[1] === 'done') return { end: 'done' };
  if (last?.[1] !== 'error') return { end: 'cut' };
  const error = JSON.parse(last[2] ?? '{}') as { code?: string; message?: string };
  return { end: `error:${error.code}`, ...(error.message === undefined ? {} : { message: error.message }) };
}

/**
 * One generation: its status, Retry-After and (read to its end) how it ended; a reader reads the stream to
 * its end, a non-reader pauses it and holds the connection until the row ends (or the server drops it).
 */
function generation(
  base: URL,
  key: string,
  read: boolean,
  until: number,
): Promise<{ status: number; retryAfterMs: number; end?: string; message?: string }> {
  return new Promise((resolve) => {
    const body = JSON.stringify({ requirements: 'A mill pond with a flood.', rounds: 2 });
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        path: '/v1/builder/generate',
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          accept: 'text/event-stream',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const retryAfterMs = 1_000 * Number(res.headers['retry-after'] ?? 0);
        const done = () => resolve({ status, retryAfterMs });
        if (status !== 200 || read) {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status, retryAfterMs, ...(status === 200 ? endOf(text) : {}) }));
          res.on('error', done);
          return;
        }
        res.pause();
        res.on('close', done);
        // Ended by the row's end whatever the socket did meanwhile: a stream small enough to arrive whole is
        // complete, and its response may never close once the server has closed the idle connection.
        setTimeout(
          () => {
            req.destroy();
            done();
          },
          Math.max(0, until - performance.now()),
        );
      },
    );
    req.on('error', () => resolve({ status: 0, retryAfterMs: 0 }));
    req.end(body);
  });
}

async function runClients(url: string, attackKey: string, otherKey: string, runMs: number, streams: number) {
  const base = new URL(url);
  // One generation read to its end before the timed part, in every row: the generator's worker starts and the
  // modules load then (from sources under tsx that is seconds of CPU a compiled server does not spend).
  const warm = await generation(base, attackKey, true, Number.POSITIVE_INFINITY);
  if (warm.status !== 200 || warm.end !== 'done')
    throw new Error(`the warm-up generation answered ${warm.status}, ending ${warm.end}: ${warm.message}`);
  process.stdout.write('timed\n');
  const until = performance.now() + runMs;
  const statuses: Record<string, number> = {};
  let streamsRead = 0;
  const ends: Record<string, number> = {};
  const attackers = Array.from({ length: streams }, async (_, i) => {
    const read = i % 2 === 0;
    while (performance.now() < until) {
      const { status, retryAfterMs, end } = await generation(base, attackKey, read, until);
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (end !== undefined) ends[end] = (ends[end] ?? 0) + 1;
      if (read && status === 200) streamsRead++;
      // A refused client tries again after the Retry-After it was given (the rate limiter is off here, so
      // one that does not is a request-rate attack, not this one).
      if (status !== 200)
        await sleep(Math.min(Math.max(200, retryAfterMs), Math.max(0, until - performance.now())));
    }
  });
  const pollAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const polls: number[] = [];
  const poll = (async () => {
    while (performance.now() < until) {
      const t0 = performance.now();
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(
          {
            agent: pollAgent,
            host: base.hostname,
            port: base.port,
            path: '/healthz',
            headers: { authorization: `Bearer ${otherKey}` },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end();
      });
      if (status !== 200) throw new Error(`/healthz answered ${status}`);
      polls.push(performance.now() - t0);
      await sleep(HEALTHZ_INTERVAL_MS);
    }
  })();
  await Promise.all([poll, ...attackers]);
  pollAgent.destroy();
  const sorted = [...polls].sort((a, b) => a - b);
  const at = (p: number) => (sorted.length === 0 ? 0 : percentile(sorted, p));
  const result: ClientResult = {
    generations: { statuses, streamsRead, ends },
    healthz: { polls: sorted.length, p50: at(50), p99: at(99), max: sorted.at(-1) ?? 0 },
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

// --- the benchmark (parent process) ---

function child(args: string[]): ReturnType<typeof spawn> {
  const entry = SELF.endsWith('.ts') ? ['--import', 'tsx', SELF] : [SELF];
  return spawn(process.execPath, [...entry, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
}

/**
 * The niceness the fake model runs at: it stands in for a provider on another machine, so on this shared
 * two-core one its streaming (590,000 characters a round, each generation) yields to the server under test
 * instead of competing with its request thread as no remote provider does.
 */
export const FAKE_MODEL_NICE = 19;

function startFakeModel(): Promise<{ url: string; stop: () => void }> {
  const fake = child(['--fake-model']);
  try {
    if (fake.pid !== undefined) setPriority(fake.pid, FAKE_MODEL_NICE);
  } catch {
    // Not allowed here: the fake model competes with the server at its priority.
  }
  return new Promise((resolve, reject) => {
    let out = '';
    fake.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const ready = /ready (\S+)/.exec(out);
      if (ready) resolve({ url: ready[1]!, stop: () => fake.stdin!.end() });
    });
    fake.once('exit', (code) => reject(new Error(`the fake model exited with ${code}`)));
  });
}

function clients(
  url: string,
  attackKey: string,
  otherKey: string,
  streams: number,
  onTimed: () => void,
): Promise<ClientResult> {
  const run = child(['--clients', url, attackKey, otherKey, String(GENERATOR_RUN_MS), String(streams)]);
  run.stdin!.end();
  return new Promise((resolve, reject) => {
    let out = '';
    run.stdout!.on('data', (chunk: Buffer) => {
      const before = out;
      out += chunk.toString();
      if (!before.includes('timed\n') && out.includes('timed\n')) onTimed();
    });
    run.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`the clients exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as ClientResult);
    });
  });
}

async function row(streams: number, modelUrl: string, dir: string, idleP99?: number) {
  const keys = [
    { label: 'attack', key: `bench-attack-${randomBytes(8).toString('hex')}` },
    { label: 'other', key: `bench-other-${randomBytes(8).toString('hex')}` },
  ];
  const store = await openStore(join(dir, `generator-${streams}.db`));
  const server = await startServer({
    port: 0,
    store,
    apiKeys: keys,
    limits: { rateLimit: 0 },
    modelConfig: loadModelConfig({
      MNESOS_LLM_BASE_URL: modelUrl,
      MNESOS_MODEL: 'fake-model',
      // One retry (the default allows more): the fake model's server ends an idle keep-alive connection after
      // Node's 5 s, and so does Node 20's agent on its hint, with no margin; a round asked after a check of
      // about 5 s can meet the socket as it closes ("socket hang up"), which a retry answers.
      MNESOS_LLM_MAX_RETRIES: '1',
    }),
  });
  try {
    let cpu: NodeJS.CpuUsage | undefined;
    let threadsBefore: Map<string, ThreadCpu> | undefined;
    // The longest the server's event loop was held, measured in the timed part only.
    const delay = monitorEventLoopDelay({ resolution: 5 });
    const result = await clients(server.url, keys[0]!.key, keys[1]!.key, streams, () => {
      cpu = process.cpuUsage();
      threadsBefore = threadsCpu();
      delay.enable();
    });
    delay.disable();
    const serverCpu = cpu === undefined ? Number.NaN : cpuMs(process.cpuUsage(cpu));
    const threadsAfter = threadsCpu();
    const p99 = result.healthz.p99;
    return {
      bench: 'generator-isolation',
      mode: streams === 0 ? 'idle' : `${streams} streams`,
      answerChars: ANSWER_CHARS,
      generations: result.generations,
      serverCpuMs: round(serverCpu),
      ...(threadsBefore === undefined || threadsAfter === undefined
        ? {}
        : cpuSplit(threadsBefore, threadsAfter)),
      eventLoopDelay: { p99Ms: round(delay.percentile(99) / 1e6, 2), maxMs: round(delay.max / 1e6, 2) },
      healthz: {
        polls: result.healthz.polls,
        p50Ms: round(result.healthz.p50, 2),
        p99Ms: round(p99, 2),
        maxMs: round(result.healthz.max, 2),
        ...(idleP99 === undefined
          ? {}
          : { extraP99Ms: round(p99 - idleP99, 2), targetExtraP99Ms: TARGET_EXTRA_P99_MS }),
      },
      loadAverage: loadavg().map((n) => round(n, 2)),
      ...(idleP99 === undefined ? {} : { pass: p99 - idleP99 <= TARGET_EXTRA_P99_MS }),
    };
  } finally {
    await server.close();
    await store.close();
  }
}

export async function benchGeneratorIsolation(): Promise<Array<Record<string, unknown>>> {
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-bench-generator-'));
  const fake = await startFakeModel();
  try {
    const idle = await row(0, fake.url, dir);
    const rows: Array<Record<string, unknown>> = [idle];
    const idleP99 = (idle.healthz as { p99Ms: number }).p99Ms;
    for (const streams of ATTACK_STREAMS) rows.push(await row(streams, fake.url, dir, idleP99));
    return rows;
  } finally {
    fake.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  if (args[0] === '--fake-model') await runFakeModel();
  else if (args[0] === '--clients')
    await runClients(args[1]!, args[2]!, args[3]!, Number(args[4]), Number(args[5]));
  else {
    let failed = false;
    for (const r of await benchGeneratorIsolation()) {
      if (r.pass === false) failed = true;
      process.stdout.write(`${JSON.stringify({ suite: 'generator-isolation', ...r })}\n`);
    }
    process.exitCode = failed ? 1 : 0;
  }
}
