// `npm run bench -- rebase` (or `npx tsx bench/rebase.ts`): an edit of the first player message of a 200-turn
// chat through the OpenAI endpoint (issue 35 item 2, docs/deploy.md "Rebases"). A real server in this process
// on loopback with a SQLite file plays Lanternmere offline; the clients run in a second process (this file
// re-run with `--clients`), as a front end and a monitor would: one builds a chat of CHAT_TURNS turns through
// the endpoint, then sends EDITS different edits of its first message, each request carrying every later turn
// onto the edited message (from their records, no model call) and playing one new turn; the other polls
// /healthz every 5 ms, first for IDLE_MS with nothing else running (the control), then during the edits.
// Rows: /healthz p99 and max during the edits beside the idle control of the same run; the database's growth
// per edit (what the turn tables hold, counted in the database) beside what playing the chat's turns stored.
// A second control in the same run: /healthz while as many ordinary turns are played (one new message each).

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Sqlite from 'better-sqlite3';
import { openStore } from '../src/adapters/store/open.ts';
import { startServer } from '../src/apps/server/start.ts';
import { percentile } from './common.ts';

type Row = Record<string, unknown>;
type Message = { role: string; content: string };

const SELF = fileURLToPath(import.meta.url);
const CHAT_TURNS = 200;
const EDITS = 8;
const IDLE_MS = 10_000;
const POLL_MS = 5;
/** /healthz p99 during an edit may exceed the idle control's by this much at most (issue 35 item 2). */
const TARGET_EXTRA_P99_MS = 100;
/** An edit may add at most this fraction of what playing the chat's turns stored (shared, not copied). */
const TARGET_GROWTH_RATIO = 0.35;
const LINES = ['I go to the brine market.', 'I buy a brine tonic.', '!check_pack', 'I sell the brine tonic.'];

/** Bytes of turn content the database holds: turns, their payloads, their ledger events. */
function contentBytes(file: string): number {
  const db = new Sqlite(file, { readonly: true });
  try {
    const one = (sql: string) => Number((db.prepare(sql).get() as { n: number | null }).n ?? 0);
    return (
      one(
        'select sum(length(id) * 2 + length(narration) + coalesce(length(input), 0) + 64) as n from turns',
      ) +
      one('select sum(length(record) + length(state)) as n from turn_payloads') +
      one('select sum(length(event) + 48) as n from ledger_events')
    );
  } finally {
    db.close();
  }
}

// ---- the clients' process ----

async function send(url: string, messages: Message[]): Promise<{ text: string; turn: string | null }> {
  const response = await fetch(`${url}/openai/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'Lanternmere', messages }),
  });
  const body = (await response.json()) as { choices?: { message: { content: string } }[] };
  if (response.status !== 200)
    throw new Error(`the endpoint answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return { text: body.choices![0]!.message.content, turn: response.headers.get('x-mnesos-turn') };
}

/** /healthz round trips, every POLL_MS while `work` runs, sorted. */
async function polled(url: string, work: () => Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  let done = false;
  const probe = (async () => {
    while (!done) {
      const started = performance.now();
      await (await fetch(`${url}/healthz`)).arrayBuffer();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  })();
  try {
    await work();
  } finally {
    done = true;
    await probe;
  }
  return latencies.sort((a, b) => a - b);
}

/** Waits for the parent's go-ahead on stdin (it measures the database between the phases). */
function parentSaysGo(): Promise<void> {
  return new Promise((resolve) => process.stdin.once('data', () => resolve()));
}

async function runClients(url: string): Promise<void> {
  const chat: Message[] = [];
  for (let i = 0, turns = 0; turns < CHAT_TURNS; i++) {
    chat.push({ role: 'user', content: LINES[i % LINES.length]! });
    const answer = await send(url, chat);
    chat.push({ role: 'assistant', content: answer.text });
    if (answer.turn !== null) turns++;
  }
  process.stdout.write('built\n');
  await parentSaysGo();
  const idle = await polled(url, () => new Promise((resolve) => setTimeout(resolve, IDLE_MS)));
  // A second control: as many ordinary turns (a new message each, nothing to carry) as there are edits.
  const turnMs: number[] = [];
  const turns = await polled(url, async () => {
    const more = [...chat];
    for (let e = 0; e < EDITS; e++) {
      more.push({ role: 'user', content: '!check_pack' });
      const started = performance.now();
      const answer = await send(url, more);
      turnMs.push(Math.round(performance.now() - started));
      more.push({ role: 'assistant', content: answer.text });
    }
  });
  const editMs: number[] = [];
  const during = await polled(url, async () => {
    for (let e = 0; e < EDITS; e++) {
      const edited = [...chat];
      edited[0] = { role: 'user', content: `${LINES[0]} (edit ${e + 1})` };
      const started = performance.now();
      const answer = await send(url, [...edited, { role: 'user', content: '!check_pack' }]);
      editMs.push(Math.round(performance.now() - started));
      if (answer.turn === null) throw new Error(`edit ${e + 1} played no turn: ${answer.text.slice(-300)}`);
    }
  });
  process.stdout.write(`${JSON.stringify({ idle, turns, turnMs, during, editMs })}\n`);
  process.stdin.destroy();
}

// ---- the server's process ----

interface ClientResult {
  readonly idle: number[];
  readonly turns: number[];
  readonly turnMs: number[];
  readonly during: number[];
  readonly editMs: number[];
}

function clients(url: string, onBuilt: () => void): { result: Promise<ClientResult>; go: () => void } {
  const args = SELF.endsWith('.ts') ? ['--import', 'tsx', SELF] : [SELF];
  const child = spawn(process.execPath, [...args, '--clients', url], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  const result = new Promise<ClientResult>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const before = out;
      out += chunk.toString();
      if (!before.includes('built\n') && out.includes('built\n')) onBuilt();
    });
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the clients exited with ${code}`));
      else resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as ClientResult);
    });
  });
  return { result, go: () => child.stdin.write('go\n') };
}

export async function benchRebase(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-bench-rebase-'));
  const file = join(dir, 'bench.db');
  const store = await openStore(`sqlite:${file}`);
  const server = await startServer({ port: 0, store, models: () => null, limits: { rateLimit: 0 } });
  try {
    const empty = contentBytes(file);
    let built = 0;
    let resume!: () => void;
    const run = clients(server.url, () => {
      built = contentBytes(file);
      resume();
    });
    resume = run.go;
    const { idle, turns, turnMs, during, editMs } = await run.result;
    const growth = (contentBytes(file) - built) / EDITS;
    const played = built - empty;
    const idleP99 = percentile(idle, 99);
    const duringP99 = percentile(during, 99);
    return [
      {
        bench: 'rebase-200-turn-edit',
        covers: `/healthz (5 ms polls, another process) while the first message of a ${CHAT_TURNS}-turn chat is edited through the OpenAI endpoint (Lanternmere offline, SQLite): ${CHAT_TURNS} turns carried and one played per request, ${EDITS} edits; idle control in the same run`,
        loadAverage: loadavg()[0],
        idleHealthzP99Ms: Number(idleP99.toFixed(1)),
        idleHealthzMaxMs: Number(idle.at(-1)!.toFixed(1)),
        turnHealthzP99Ms: Number(percentile(turns, 99).toFixed(1)),
        turnHealthzMaxMs: Number(turns.at(-1)!.toFixed(1)),
        turnRequestMs: turnMs,
        editHealthzP99Ms: Number(duringP99.toFixed(1)),
        editHealthzMaxMs: Number(during.at(-1)!.toFixed(1)),
        probes: during.length,
        editRequestMs: editMs,
        targetExtraP99Ms: TARGET_EXTRA_P99_MS,
        // On a machine loaded enough that an ordinary turn misses the target too, this says whether the edit
        // costs other clients more than a turn does.
        noWorseThanATurn: duringP99 <= percentile(turns, 99),
        ok: duringP99 - idleP99 <= TARGET_EXTRA_P99_MS,
      },
      {
        bench: 'rebase-storage',
        covers: `turn content the database holds after each edit of the first message of a ${CHAT_TURNS}-turn chat, beside what playing its ${CHAT_TURNS} turns stored`,
        playedBytes: played,
        bytesPerEdit: Math.round(growth),
        ratio: Number((growth / played).toFixed(3)),
        targetRatio: TARGET_GROWTH_RATIO,
        ok: growth / played <= TARGET_GROWTH_RATIO,
      },
    ];
  } finally {
    await server.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  if (args[0] === '--clients') await runClients(args[1]!);
  else for (const row of await benchRebase()) process.stdout.write(`${JSON.stringify(row)}\n`);
}
