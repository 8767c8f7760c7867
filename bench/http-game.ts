// One long game played the whole way a player plays it, for the benches that need the full path
// (bench/turn.ts: server CPU per turn; bench/server-memory.ts: RSS over 2,000 turns). This process runs
// the server (`startServer`, SQLite file, the operator's model configuration pointing at an
// OpenAI-compatible server); a child process (this file re-run with `--child`) runs that model server (the
// tests' fake, on loopback) and the player, so neither's CPU or memory is counted here. Each turn is a
// POST /v1/sessions/:id/turns answered in full; the Director answers with a rule event (with directives
// beside it, or the call alone), the Narrator streams ~1,200 characters in 12-character chunks and records
// a new entity and a fact, so the history fills its window and the world grows every turn. The parent
// starts each turn and reads its own CPU counter around it (turns are sequential, so the delta is the
// server's work for that turn, with its share of garbage collection).

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { resolveModelConfig } from '../src/adapters/llm/config.ts';
import { startServer } from '../src/apps/server/start.ts';
import { openStore } from '../src/adapters/store/open.ts';
import { type FakeReply, startFakeOpenAI } from '../test/helpers/fake-openai-server.ts';

const SELF = fileURLToPath(import.meta.url);
const CHUNK = 12;
/** What the scripted Narrator says each turn (1,200 characters). */
export const NARRATION =
  'The fog lifts from the water and the lamps of the market glow along the plank-ways. '
    .repeat(16)
    .slice(0, 1_200);
/** What the scripted Director writes beside its rule call (habit `text`). */
export const DIRECTIVES = '### 1. Outcomes\nThe player checks the pack.\n### 3. Scene\nFog over the water.';
const INPUTS = ['I check my pack', 'I look through my pack again, slowly, by the lamp'];

/** How the Director answers an ordinary turn: directives beside its rule call, or the call alone. */
export type DirectorHabit = 'text' | 'calls-only';

export interface HttpGameOptions {
  readonly turns: number;
  readonly habit: DirectorHabit;
  /** Turns between two memory samples (the first sample is taken before turn 1). */
  readonly sampleEvery: number;
  /** Collect garbage before each memory sample, so heapUsed is what is still reachable. */
  readonly gcBeforeSample?: boolean;
}

export interface TurnSample {
  readonly turn: number;
  /** This process's CPU (user + system) while the turn ran, ms. */
  readonly cpuMs: number;
  readonly wallMs: number;
  /** Chat-completions requests the model server received for the turn. */
  readonly modelCalls: number;
  readonly status: number;
}

export interface MemorySample {
  readonly turn: number;
  readonly rssMiB: number;
  readonly heapUsedMiB: number;
  readonly externalMiB: number;
}

/** V8's collector, exposed at run time (npm run bench does not pass --expose-gc). */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

export interface HttpGameResult {
  readonly turns: TurnSample[];
  readonly memory: MemorySample[];
  /** Entities of the world at the end (GET /world, first 5,000 records): proof that it grew. */
  readonly worldEntities: number;
}

const mib = (bytes: number): number => Math.round((bytes / 2 ** 20) * 10) / 10;
const cpuMs = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1000;

/** Line-based messages with the child: it answers each command with one line. */
class Child {
  readonly #process: ChildProcess;
  readonly #lines: AsyncIterator<string>;

  constructor(habit: DirectorHabit) {
    const args = SELF.endsWith('.ts') ? ['--import', 'tsx', SELF] : [SELF];
    this.#process = spawn(process.execPath, [...args, '--child', habit], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    this.#lines = createInterface({ input: this.#process.stdout! })[Symbol.asyncIterator]();
  }

  async read(): Promise<string> {
    const next = await this.#lines.next();
    if (next.done) throw new Error('the http-game child process ended early');
    return next.value;
  }

  send(line: string): void {
    this.#process.stdin!.write(`${line}\n`);
  }

  async end(): Promise<void> {
    if (this.#process.exitCode !== null) return;
    const exited = new Promise((resolve) => this.#process.once('exit', resolve));
    this.send('quit');
    await exited;
  }
}

export async function playHttpGame(options: HttpGameOptions): Promise<HttpGameResult> {
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-bench-http-game-'));
  const store = await openStore(join(dir, 'game.db'));
  const child = new Child(options.habit);
  try {
    const fakeUrl = (await child.read()).replace(/^fake /, '');
    const modelConfig = resolveModelConfig({ MNESOS_LLM_BASE_URL: fakeUrl, MNESOS_MODEL: 'bench-model' });
    const server = await startServer({ port: 0, store, modelConfig, limits: { rateLimit: 0 } });
    try {
      child.send(`server ${server.url}`);
      const ready = await child.read();
      if (ready !== 'ready') throw new Error(`the player did not start a session: ${ready}`);
      const turns: TurnSample[] = [];
      const memory: MemorySample[] = [];
      const gc = options.gcBeforeSample ? collector() : undefined;
      const sample = (turn: number) => {
        gc?.();
        const usage = process.memoryUsage();
        memory.push({
          turn,
          rssMiB: mib(usage.rss),
          heapUsedMiB: mib(usage.heapUsed),
          externalMiB: mib(usage.external),
        });
      };
      sample(0);
      for (let turn = 1; turn <= options.turns; turn++) {
        const started = performance.now();
        const cpu = process.cpuUsage();
        child.send('play');
        const [, status, calls] = (await child.read()).split(' ');
        turns.push({
          turn,
          cpuMs: cpuMs(process.cpuUsage(cpu)),
          wallMs: performance.now() - started,
          modelCalls: Number(calls),
          status: Number(status),
        });
        if (turn % options.sampleEvery === 0) sample(turn);
      }
      child.send('world');
      const worldEntities = Number((await child.read()).replace(/^world /, ''));
      return { turns, memory, worldEntities };
    } finally {
      await server.close();
    }
  } finally {
    await child.end();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// --- the child: the model server and the player ---

/** The world change the Narrator records on turn `n`: a new entity and a fact about it. */
export function strangerArrives(n: number): Array<Record<string, unknown>> {
  return [
    {
      event_type: 'create_entity',
      entity: `stranger_${n}`,
      name: `Stranger number ${n}`,
      entity_type: 'person',
    },
    { event_type: 'add_fact', subject: `stranger_${n}`, predicate: `arrived on turn ${n}` },
  ];
}

function modelReply(body: Record<string, unknown>, habit: DirectorHabit, stranger: number): FakeReply {
  const tools = Array.isArray(body.tools) ? (body.tools as Array<{ function?: { name?: string } }>) : [];
  if (tools.some((t) => t.function?.name === 'record_world_changes')) {
    return {
      kind: 'tool-calls',
      text: NARRATION,
      fragmentSize: CHUNK,
      calls: [
        {
          name: 'record_world_changes',
          arguments: { events: strangerArrives(stranger) },
        },
      ],
    };
  }
  return {
    kind: 'tool-calls',
    ...(habit === 'text' ? { text: DIRECTIVES } : {}),
    fragmentSize: CHUNK,
    calls: [{ name: 'check_pack', arguments: {} }],
  };
}

async function post(url: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? null : JSON.parse(text) };
}

async function child(habit: DirectorHabit): Promise<void> {
  let turn = 0;
  let calls = 0;
  const fake = await startFakeOpenAI((request) => {
    calls++;
    return modelReply((request.body ?? {}) as Record<string, unknown>, habit, turn);
  });
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  const write = (line: string) => process.stdout.write(`${line}\n`);
  write(`fake ${fake.url}`);
  let base = '';
  let sessionId = '';
  for (let next = await lines.next(); !next.done; next = await lines.next()) {
    const [command, argument] = next.value.split(' ');
    if (command === 'server') {
      base = argument!;
      const created = await post(`${base}/v1/sessions`, { cartridge: 'Lanternmere' });
      sessionId = (created.json as { session?: { id?: string } } | null)?.session?.id ?? '';
      write(created.status === 201 && sessionId !== '' ? 'ready' : `failed ${created.status}`);
    } else if (command === 'play') {
      turn++;
      calls = 0;
      // The fake keeps every request it saw; the bench needs none of them.
      (fake.requests as unknown[]).length = 0;
      const answer = await post(`${base}/v1/sessions/${sessionId}/turns`, {
        input: INPUTS[turn % INPUTS.length],
      });
      write(`done ${answer.status} ${calls}`);
    } else if (command === 'world') {
      const response = await fetch(`${base}/v1/sessions/${sessionId}/world?limit=5000`);
      const body = (await response.json()) as { world?: { entities?: Record<string, unknown> } };
      write(`world ${Object.keys(body.world?.entities ?? {}).length}`);
    } else if (command === 'quit') {
      break;
    }
  }
  await fake.close();
  process.exit(0);
}

if (process.argv[1] === SELF && process.argv[2] === '--child')
  await child(process.argv[3] === 'calls-only' ? 'calls-only' : 'text');
