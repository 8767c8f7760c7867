// Turn isolation (in `npm run bench` as the `turn-isolation` suite, or `npx tsx bench/turn-isolation.ts`): a
// real HTTP server (src/apps/server) in this process, and a second process (this file re-run with
// `--clients`) in which one client plays the worst cartridge this bench can build within the limits in a
// loop while another polls `/healthz` every HEALTHZ_INTERVAL_MS and plays a cheap turn of the demo
// cartridge on another key every CHEAP_TURN_EVERY polls. The worst cartridge (built below, offline turns):
// a `world_info.json` at the byte limit (MAX_WI_ENTRIES entries of ~95 keys each, two-word keys that need a
// substring search, a few regex keys), scanned over a long history at MAX_WI_SCAN_DEPTH with recursion; a
// `bot_lore.md` near the file limit (7,000 sections); cycle ticks that spend nine tenths of the turn's rule
// budget (DEFAULT_MAX_RULE_STEPS, in MAX_STEPS_PER_RUN runs); and a player input at MAX_INPUT_CHARS.
//
// One row per mode, measured in one run:
// - `idle`: the worst cartridge's client does not play: the other client's figures on this machine as it is
//   loaded now (the floor the other rows are read against);
// - `before`: the turn's budget at its ceilings (MAX_TURN_STEPS_LIMIT, MAX_TURN_MS_LIMIT) and a `yieldNow`
//   that is a microtask (no request is served meanwhile): one turn's work holds the event loop as it did;
// - `after`: the defaults (the budget, the turn giving the loop back every TURN_SLICE_MS).
// Each row: the worst cartridge's turns (count, HTTP latency p50, the server process's CPU per turn —
// process.cpuUsage over the run divided by those turns, the poller's and cheap turns' small share
// included), the other key's `/healthz` p50/p99/max and cheap-turn p50/p99, and `pass` (`after` only:
// `/healthz` p99 under TARGET_HEALTHZ_P99_MS and every worst-cartridge turn answered 201).

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PROJECT_ROOT } from '../src/adapters/project-root.ts';
import { startServer } from '../src/apps/server/start.ts';
import { openStore } from '../src/adapters/store/open.ts';
import { MAX_WI_ENTRIES, MAX_WI_SCAN_DEPTH } from '../src/core/lore/world-info-limits.ts';
import { MAX_STEPS_PER_RUN } from '../src/core/yare/limits.ts';
import {
  DEFAULT_MAX_RULE_STEPS,
  MAX_TURN_MS_LIMIT,
  MAX_TURN_STEPS_LIMIT,
  MAX_INPUT_CHARS,
} from '../src/engine/turn/limits.ts';
import { call, lcg, percentile } from './common.ts';

/** Milliseconds the clients play in each mode. */
export const ISOLATION_RUN_MS = Number(process.env.BENCH_ISOLATION_MS ?? 20_000);
/** Milliseconds between two `/healthz` polls of the other client (one in flight at a time). */
export const HEALTHZ_INTERVAL_MS = 20;
/** A cheap turn of the demo cartridge every this many polls. */
export const CHEAP_TURN_EVERY = 10;
const TARGET_HEALTHZ_P99_MS = 100;
const SELF = fileURLToPath(import.meta.url);
const HOSTILE_NAME = 'Hostile Fen';

const round = (n: number, digits = 1) => Number(n.toFixed(digits));
const cpuMs = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1000;

// --- the worst cartridge ---

const SYLLABLES = 'ka ri tho mel an dor vex lu sa gor in el mar ath quen bri os tal fen yr'.split(' ');

/**
 * What the worst cartridge's player says: its `ponder` command followed by words of the book's own syllables
 * up to the input limit, so its keys are searched over the longest text a turn may bring (and some match,
 * which starts recursion passes).
 */
export function hostileInput(turn: number): string {
  const random = lcg(1_000 + turn);
  const words: string[] = [];
  let length = '/ponder'.length;
  while (length < MAX_INPUT_CHARS - 20) {
    const word = Array.from({ length: 3 }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join('');
    words.push(word);
    length += word.length + 1;
  }
  return `/ponder ${words.join(' ')}`;
}

export function hostileFiles(): Map<string, string> {
  const random = lcg(7);
  const word = () =>
    Array.from({ length: 3 }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join('');
  const entries: Record<string, unknown> = {};
  for (let uid = 0; uid < MAX_WI_ENTRIES; uid++) {
    // A regex key in the first entries (RE2 runs them; their work is bounded by MAX_WI_REGEX_WORK); the rest
    // two words, which a whole-word set lookup cannot answer (a substring search over the scan text).
    const key = Array.from({ length: 95 }, (_, k) =>
      uid < 5 && k < 20 ? `/a{0,20}${word()}[a-z]{0,30}b/i` : `${word()} ${word()}`,
    );
    entries[uid] = { uid, key, content: Array.from({ length: 20 }, word).join(' '), order: uid };
  }
  const worldInfo = JSON.stringify({
    entries,
    scan_depth: MAX_WI_SCAN_DEPTH,
    recursive: true,
    token_budget: 32_000,
  });
  const lore = Array.from(
    { length: 7_000 },
    (_, i) => `# ${word()} ${i}\n\n${Array.from({ length: 30 }, word).join(' ')}\n`,
  ).join('\n');
  // Cycle ticks whose loops spend nine tenths of the turn's rule budget (MAX_STEPS_PER_RUN per tick), so the
  // player's `ponder` still runs and the turn is committed.
  const ticks = Math.floor((0.9 * DEFAULT_MAX_RULE_STEPS) / MAX_STEPS_PER_RUN);
  const items = `[${Array.from({ length: 100 }, (_, i) => i).join(', ')}]`;
  const tickEvents = Array.from(
    { length: ticks },
    (_, i) => `  t${i}: { internal: true, trigger_on: cycle_tick, steps: [{ action: call, event: work }] }\n`,
  ).join('');
  const yare = `version: "1.0"
bot_name: "${HOSTILE_NAME}"
state_schema:
  n: { type: int, default: 0 }
  items: { type: list, default: ${items} }
events:
  work:
    internal: true
    steps:
      - action: foreach
        array: "@ state.items"
        steps:
          - action: foreach
            array: "@ state.items"
            steps:
              - { action: mutate, var: state.n, op: add, value: 1 }
  ponder:
    description: Ponder the fen and look around.
    steps:
      - { action: note, message: "You look around the fen." }
${tickEvents}`;
  return new Map([
    ['yare.yaml', yare],
    ['bot_lore.md', lore],
    ['world_info.json', worldInfo],
  ]);
}

// --- the clients (child process) ---

interface ClientResult {
  readonly hostile: {
    readonly turns: number;
    readonly p50: number;
    readonly statuses: Record<string, number>;
    /** The body of the first answer that was not 201. */
    readonly firstRefusal?: string;
  };
  readonly healthz: {
    readonly polls: number;
    readonly p50: number;
    readonly p99: number;
    readonly max: number;
  };
  readonly cheap: { readonly turns: number; readonly p50: number; readonly p99: number };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function session(agent: Agent, base: URL, key: string, cartridge: string): Promise<string> {
  const created = await call(agent, base, 'POST', '/v1/sessions', key, { cartridge });
  if (created.status !== 201) throw new Error(`session not created: ${created.status} ${created.text}`);
  return (JSON.parse(created.text) as { session: { id: string } }).session.id;
}

async function runClients(
  url: string,
  hostileKey: string,
  otherKey: string,
  runMs: number,
  idle: boolean,
): Promise<void> {
  const base = new URL(url);
  const hostileAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const pollAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const cheapAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const hostileSession = await session(hostileAgent, base, hostileKey, HOSTILE_NAME);
  const cheapSession = await session(cheapAgent, base, otherKey, 'Lanternmere');
  // One worst-cartridge turn before the timed part (its lore index and World Info keys are built then).
  await call(hostileAgent, base, 'POST', `/v1/sessions/${hostileSession}/turns`, hostileKey, {
    input: hostileInput(0),
  });
  process.stdout.write('timed\n');
  const until = performance.now() + runMs;
  const hostile: number[] = [];
  const statuses: Record<string, number> = {};
  let firstRefusal: string | undefined;
  const hostileLoop = (async () => {
    for (let t = 0; !idle && performance.now() < until; t++) {
      const t0 = performance.now();
      const answer = await call(
        hostileAgent,
        base,
        'POST',
        `/v1/sessions/${hostileSession}/turns`,
        hostileKey,
        {
          input: hostileInput(t + 1),
        },
      );
      hostile.push(performance.now() - t0);
      if (answer.status !== 201) firstRefusal ??= answer.text.slice(0, 300);
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    }
  })();
  const polls: number[] = [];
  const cheap: number[] = [];
  const pollLoop = (async () => {
    for (let i = 1; performance.now() < until; i++) {
      const t0 = performance.now();
      const health = await call(pollAgent, base, 'GET', '/healthz', otherKey);
      if (health.status !== 200) throw new Error(`/healthz answered ${health.status}`);
      polls.push(performance.now() - t0);
      if (i % CHEAP_TURN_EVERY === 0) {
        const c0 = performance.now();
        const turn = await call(cheapAgent, base, 'POST', `/v1/sessions/${cheapSession}/turns`, otherKey, {
          input: 'I check my pack',
        });
        if (turn.status !== 201) throw new Error(`cheap turn answered ${turn.status}: ${turn.text}`);
        cheap.push(performance.now() - c0);
      }
      await sleep(HEALTHZ_INTERVAL_MS);
    }
  })();
  await Promise.all([hostileLoop, pollLoop]);
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const at = (values: readonly number[], p: number) => (values.length === 0 ? 0 : percentile(values, p));
  const h = sorted(hostile);
  const p = sorted(polls);
  const c = sorted(cheap);
  const result: ClientResult = {
    hostile: {
      turns: h.length,
      p50: at(h, 50),
      statuses,
      ...(firstRefusal === undefined ? {} : { firstRefusal }),
    },
    healthz: { polls: p.length, p50: at(p, 50), p99: at(p, 99), max: p.at(-1) ?? 0 },
    cheap: { turns: c.length, p50: at(c, 50), p99: at(c, 99) },
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  for (const agent of [hostileAgent, pollAgent, cheapAgent]) agent.destroy();
}

function clientsFromChild(
  url: string,
  hostileKey: string,
  otherKey: string,
  idle: boolean,
  onTimed: () => void,
): Promise<ClientResult> {
  const args = SELF.endsWith('.ts') ? ['--import', 'tsx', SELF] : [SELF];
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...args, '--clients', url, hostileKey, otherKey, String(ISOLATION_RUN_MS), idle ? 'idle' : 'play'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const before = out;
      out += chunk.toString();
      if (!before.includes('timed\n') && out.includes('timed\n')) onTimed();
    });
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`the clients exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as ClientResult);
    });
  });
}

// --- the benchmark (parent process) ---

type Mode = 'idle' | 'before' | 'after';

async function isolationRow(mode: Mode, cartridgeDir: string, dir: string): Promise<Record<string, unknown>> {
  const keys = [
    { label: 'hostile', key: `bench-hostile-${randomBytes(8).toString('hex')}` },
    { label: 'other', key: `bench-other-${randomBytes(8).toString('hex')}` },
  ];
  const store = await openStore(join(dir, `${mode}.db`));
  const server = await startServer({
    port: 0,
    store,
    apiKeys: keys,
    limits: { rateLimit: 0 },
    cartridgeDirs: [join(PROJECT_ROOT, 'cartridges', 'lanternmere'), cartridgeDir],
    ...(mode === 'before'
      ? {
          turnLimits: { maxTurnSteps: MAX_TURN_STEPS_LIMIT, maxTurnMs: MAX_TURN_MS_LIMIT },
          turnYield: () => Promise.resolve(),
        }
      : {}),
  });
  try {
    let cpu: NodeJS.CpuUsage | undefined;
    const result = await clientsFromChild(server.url, keys[0]!.key, keys[1]!.key, mode === 'idle', () => {
      cpu = process.cpuUsage();
    });
    const serverCpu = cpu === undefined ? Number.NaN : cpuMs(process.cpuUsage(cpu));
    const allAnswered = result.hostile.turns > 0 && result.hostile.statuses['201'] === result.hostile.turns;
    return {
      bench: 'turn-isolation',
      mode,
      worstCartridge: {
        turns: result.hostile.turns,
        statuses: result.hostile.statuses,
        ...(result.hostile.firstRefusal === undefined ? {} : { firstRefusal: result.hostile.firstRefusal }),
        turnMsP50: result.hostile.turns === 0 ? null : round(result.hostile.p50),
        serverCpuMsPerTurn: result.hostile.turns === 0 ? null : round(serverCpu / result.hostile.turns),
      },
      healthz: {
        polls: result.healthz.polls,
        p50Ms: round(result.healthz.p50, 2),
        p99Ms: round(result.healthz.p99, 2),
        maxMs: round(result.healthz.max, 2),
        targetP99Ms: TARGET_HEALTHZ_P99_MS,
      },
      cheapTurn: {
        turns: result.cheap.turns,
        p50Ms: round(result.cheap.p50),
        p99Ms: round(result.cheap.p99),
      },
      loadAverage: loadavg().map((n) => round(n, 2)),
      ...(mode === 'after' ? { pass: result.healthz.p99 < TARGET_HEALTHZ_P99_MS && allAnswered } : {}),
    };
  } finally {
    await server.close();
    await store.close();
  }
}

export async function benchTurnIsolation(): Promise<Array<Record<string, unknown>>> {
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-bench-isolation-'));
  try {
    const cartridgeDir = join(dir, 'hostile-fen');
    mkdirSync(cartridgeDir);
    for (const [name, text] of hostileFiles()) writeFileSync(join(cartridgeDir, name), text);
    const rows: Array<Record<string, unknown>> = [];
    for (const mode of ['idle', 'before', 'after'] as const)
      rows.push(await isolationRow(mode, cartridgeDir, dir));
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  if (args[0] === '--clients') {
    await runClients(args[1]!, args[2]!, args[3]!, Number(args[4]), args[5] === 'idle');
  } else {
    let failed = false;
    for (const row of await benchTurnIsolation()) {
      if (row.pass === false) failed = true;
      process.stdout.write(`${JSON.stringify({ suite: 'turn-isolation', ...row })}\n`);
    }
    process.exitCode = failed ? 1 : 0;
  }
}
