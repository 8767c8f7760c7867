// Real `mnesos serve` processes on local model files, a turn played over HTTP, and `/healthz` polled on
// several servers at once: an attacked one beside an idle control, in the same seconds, so a loaded machine
// slows both alike (startAttackRig). Used by test/apps/server/local-model-files.test.ts and bench/local-model.ts
// (no vitest here).

import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { percentile } from '../../bench/common.ts';
import { spawnServe } from '../apps/server/processes.ts';
import { startFakeOpenAI } from './fake-openai-server.ts';

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Milliseconds from the signal to the exit. */
  readonly ms: number;
}

export interface ServeProcess {
  readonly url: string;
  readonly pid: number;
  output(): string;
  /** The server's child processes now (its model hosts). */
  childPids(): number[];
  /** Sends `signal` and resolves once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

/** The processes whose parent is `pid` (Linux /proc). */
export function childPidsOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(join('/proc', entry, 'stat'), 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * `bin/mnesos serve` (test/apps/server/processes.ts spawnServe) on a free loopback port with a SQLite file in
 * `dir`, `env` (MNESOS_MODEL_FILE, …) and `flags` (`--allow-user-base-url`, …).
 */
export async function startServe(
  dir: string,
  name: string,
  env: Readonly<Record<string, string>>,
  flags: readonly string[] = [],
): Promise<ServeProcess> {
  const server = await spawnServe(join(dir, `${name}.sqlite`), { ...env }, 120_000, flags);
  const { child } = server;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const pid = child.pid!;
  return {
    url: server.url,
    pid,
    output: () => server.stdout() + server.stderr(),
    childPids: () => childPidsOf(pid),
    async stop(signal = 'SIGTERM') {
      const started = performance.now();
      child.kill(signal);
      const { code, signal: by } = await exited;
      return { code, signal: by, ms: performance.now() - started };
    },
  };
}

export interface HttpAnswer {
  readonly status: number;
  readonly text: string;
  readonly ms: number;
}

function call(
  agent: Agent,
  url: string,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
): Promise<HttpAnswer> {
  const base = new URL(url);
  const payload = body === undefined ? '' : JSON.stringify(body);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        path,
        method,
        headers:
          body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, ms: performance.now() - started }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** A session of the demo cartridge on `url` (the local user of a key-less server). */
export async function openSession(url: string): Promise<string> {
  const created = await call(new Agent(), url, 'POST', '/v1/sessions', { cartridge: 'Lanternmere' });
  if (created.status !== 201) throw new Error(`no session: ${created.status} ${created.text}`);
  return (JSON.parse(created.text) as { session: { id: string } }).session.id;
}

/** The local user's model settings (PUT /v1/settings): `{}` for the server's own models. */
export async function putSettings(url: string, settings: Record<string, unknown>): Promise<void> {
  const answer = await call(new Agent(), url, 'PUT', '/v1/settings', settings);
  if (answer.status !== 200) throw new Error(`settings refused: ${answer.status} ${answer.text}`);
}

/** One turn of `session` on `url`. */
export function playTurn(url: string, session: string, input: string): Promise<HttpAnswer> {
  return call(new Agent(), url, 'POST', `/v1/sessions/${session}/turns`, { input });
}

export interface LatencySummary {
  readonly polls: number;
  readonly failures: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/** Milliseconds between the end of one poll and the start of the next, per server. */
export const HEALTHZ_INTERVAL_MS = 20;

/** `/healthz` polled on each URL in its own loop (one request in flight per server) until stopped. */
export function pollHealthz(urls: readonly string[]): { stop(): Promise<LatencySummary[]> } {
  let running = true;
  const loops = urls.map(async (url) => {
    const agent = new Agent({ keepAlive: true });
    const times: number[] = [];
    let failures = 0;
    while (running) {
      const started = performance.now();
      try {
        const answer = await call(agent, url, 'GET', '/healthz');
        if (answer.status === 200) times.push(performance.now() - started);
        else failures += 1;
      } catch {
        failures += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, HEALTHZ_INTERVAL_MS));
    }
    agent.destroy();
    const sorted = times.sort((a, b) => a - b);
    const at = (p: number) => (sorted.length === 0 ? Number.NaN : percentile(sorted, p));
    return { polls: sorted.length, failures, p50: at(50), p99: at(99), max: sorted.at(-1) ?? Number.NaN };
  });
  return {
    async stop() {
      running = false;
      return Promise.all(loops);
    },
  };
}

/** The server's child processes seen while `run` runs (sampled every 50 ms; a model host lives far longer). */
export async function childrenDuring<T>(
  server: ServeProcess,
  run: () => Promise<T>,
): Promise<[T, Set<number>]> {
  const seen = new Set<number>();
  const sample = () => {
    for (const pid of server.childPids()) seen.add(pid);
  };
  const timer = setInterval(sample, 50);
  try {
    const result = await run();
    sample();
    return [result, seen];
  } finally {
    clearInterval(timer);
  }
}

export interface TurnBesideControl {
  readonly turn: HttpAnswer;
  /** The attacked server's child processes (model hosts) seen during the turn. */
  readonly hosts: Set<number>;
  /** `/healthz` on the attacked server, and on the idle control in the same seconds. */
  readonly busy: LatencySummary;
  readonly idle: LatencySummary;
}

/**
 * Two `mnesos serve --allow-user-base-url` processes whose own models are a fake OpenAI-compatible server:
 * an attacked one, whose local user names model files in their settings, and an idle control. The attacked
 * server has opened a session and played one turn on the operator's model before anything is measured, so
 * a measure is the model file's cost, not a fresh server's first session and turn.
 */
export interface AttackRig {
  readonly attacked: ServeProcess;
  readonly control: ServeProcess;
  /** Names the local model file of the attacked server's next turns (PUT /v1/settings). */
  useModelFile(file: string): Promise<void>;
  /** Back to the operator's models for the attacked server's next turns. */
  useServerModels(): Promise<void>;
  /** One turn on the attacked server while it and the control are polled (300 ms of polls before and after). */
  turnBesideControl(input: string): Promise<TurnBesideControl>;
  close(): Promise<void>;
}

export async function startAttackRig(dir: string): Promise<AttackRig> {
  const operator = await startFakeOpenAI(() => ({ kind: 'text', text: 'The lamps gutter.' }));
  const env = {
    MNESOS_LLM_BASE_URL: operator.url,
    MNESOS_MODEL: 'operator-model',
    MNESOS_LLM_MAX_RETRIES: '0',
  };
  const [control, attacked] = await Promise.all([
    startServe(dir, 'control', env, ['--allow-user-base-url']),
    startServe(dir, 'attacked', env, ['--allow-user-base-url']),
  ]);
  const session = await openSession(attacked.url);
  const warm = await playTurn(attacked.url, session, 'look around');
  if (warm.status !== 201) throw new Error(`warm-up turn: ${warm.status} ${warm.text}`);
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  return {
    attacked,
    control,
    useModelFile: (file) => putSettings(attacked.url, { provider: 'file', modelFile: file }),
    useServerModels: () => putSettings(attacked.url, {}),
    async turnBesideControl(input) {
      const probe = pollHealthz([attacked.url, control.url]);
      try {
        await sleep(300);
        const [turn, hosts] = await childrenDuring(attacked, () => playTurn(attacked.url, session, input));
        await sleep(300);
        const [busy, idle] = await probe.stop();
        return { turn, hosts, busy: busy!, idle: idle! };
      } finally {
        await probe.stop();
      }
    },
    async close() {
      await Promise.all([control.stop(), attacked.stop()]);
      await operator.close();
    },
  };
}
