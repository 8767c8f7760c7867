// Model client CPU per turn over the OpenAI-compatible wire, against the fake server of the
// tests (test/helpers/fake-openai-server.ts) on loopback. A turn is a streamed Director call (directives
// beside one tool call, arguments in 12-character fragments) and a streamed Narrator call (1,200
// characters in 12-character chunks). The fake server runs in a child process (this file re-run with
// `--fake-server`), so this process's CPU is the client's whole cost: building the request, the HTTP
// exchange on this side of the socket, reading and parsing the stream. Beside the two clients, a bare
// `fetch` reading the same streams (no parsing) shows what the transport alone costs. Two clients,
// measured in one run: the engine's own (`createModels`, which uses src/adapters/llm/openai-compatible-model.ts
// for this wire) and the AI SDK adapter it replaced (src/adapters/llm/sdk-model.ts, still used for the openai,
// anthropic and google providers). Standalone: `npx tsx bench/model-client.ts`.

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolveModelConfig } from '../src/adapters/llm/config.ts';
import { createModels } from '../src/adapters/llm/providers.ts';
import { languageModelFactory } from '../src/adapters/llm/sdk-providers.ts';
import { createSdkChatModel } from '../src/adapters/llm/sdk-model.ts';
import type { ChatModel, ModelRequest } from '../src/adapters/llm/types.ts';
import { type FakeReply, startFakeOpenAI } from '../test/helpers/fake-openai-server.ts';

const TURNS = 40;
const CHUNK = 12;
const NARRATION = 'The fog lifts from the water and the lamps of the market glow. '
  .repeat(20)
  .slice(0, 1_200);
const chunks = (text: string): string[] =>
  Array.from({ length: Math.ceil(text.length / CHUNK) }, (_, i) => text.slice(i * CHUNK, (i + 1) * CHUNK));

function reply(body: Record<string, unknown>): FakeReply {
  if (Array.isArray(body.tools) && (body.tools as unknown[]).length > 1) {
    return {
      kind: 'tool-calls',
      text: 'Factual outcomes: the player checks the pack.',
      fragmentSize: CHUNK,
      calls: [{ id: 'c1', name: 'check_pack', arguments: { reason: 'the player asked what they carry' } }],
    };
  }
  return { kind: 'text', text: NARRATION, chunks: chunks(NARRATION) };
}

const request: ModelRequest = {
  system: 'You are the Director.',
  messages: [{ role: 'user', content: 'I check my pack' }],
  tools: [
    {
      name: 'check_pack',
      description: 'Look in the pack',
      inputSchema: { type: 'object', properties: { reason: { type: 'string' } } },
    },
    { name: 'travel', description: 'Go somewhere', inputSchema: { type: 'object', properties: {} } },
  ],
};
const narratorRequest: ModelRequest = {
  system: 'You are the Narrator.',
  messages: [{ role: 'user', content: 'go on' }],
};

async function drain(model: ChatModel, req: ModelRequest): Promise<void> {
  for await (const _ of model.stream(req)) {
    // consume
  }
}

function cpuMs(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const SELF = fileURLToPath(import.meta.url);

/** The fake model server in a child process; resolves with its address and a way to stop it. */
async function fakeServerProcess(): Promise<{ url: string; close: () => Promise<void> }> {
  const args = SELF.endsWith('.ts') ? ['--import', 'tsx', SELF] : [SELF];
  const child = spawn(process.execPath, [...args, '--fake-server'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.done) throw new Error('the fake model server did not start');
  return {
    url: first.value,
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin!.end();
      await exited;
    },
  };
}

export async function benchModelClient(): Promise<Array<Record<string, unknown>>> {
  const fake = await fakeServerProcess();
  try {
    const config = resolveModelConfig({ MNESOS_LLM_BASE_URL: fake.url, MNESOS_MODEL: 'm' });
    if (config.provider === 'offline') throw new Error('expected an online config');
    const models = createModels(config);
    if (models === null) throw new Error('expected models');
    const sdkModel = createSdkChatModel(languageModelFactory(config)('m'), 'm', { policy: config.retry });
    const raw = async (body: unknown): Promise<void> => {
      const response = await fetch(`${fake.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await response.text();
    };
    const rawTurn = async () => {
      await raw({ model: 'm', stream: true, messages: [], tools: [{}, {}] });
      await raw({ model: 'm', stream: true, messages: [] });
    };
    const turnWith = (director: ChatModel, narrator: ChatModel) => async () => {
      await drain(director, request);
      await drain(narrator, narratorRequest);
    };
    const ownTurn = turnWith(models.director, models.narrator);
    const sdkTurn = turnWith(sdkModel, sdkModel);
    for (let i = 0; i < 5; i++) {
      await rawTurn();
      await ownTurn();
      await sdkTurn();
    }
    const perTurn = async (turn: () => Promise<void>): Promise<number> => {
      const start = process.cpuUsage();
      for (let i = 0; i < TURNS; i++) await turn();
      return cpuMs(start) / TURNS;
    };
    // Interleaved rounds, so machine load drifting during the run weighs on every figure alike.
    const rounds = 3;
    let baseline = 0;
    let own = 0;
    let sdk = 0;
    for (let round = 0; round < rounds; round++) {
      baseline += (await perTurn(rawTurn)) / rounds;
      own += (await perTurn(ownTurn)) / rounds;
      sdk += (await perTurn(sdkTurn)) / rounds;
    }
    const row = (client: string, total: number) => ({
      name: `model client CPU per turn (${client}, OpenAI-compatible wire, 12-character chunks; the fake server in another process)`,
      clientMs: Number(total.toFixed(2)),
      target: '≤ 5 ms',
      pass: total <= 5,
    });
    return [
      row('engine client: src/adapters/llm/openai-compatible-model.ts over node:http', own),
      {
        ...row('AI SDK adapter it replaced, for comparison', sdk),
        // Still measured against the same target, so the gap stays visible; the engine no longer uses it here.
        usedForThisWire: false,
        sdkOverOwn: Number((sdk / own).toFixed(1)),
      },
      {
        name: 'bare fetch reading the same two streams per turn (no parsing): the transport alone, for comparison',
        ms: Number(baseline.toFixed(2)),
      },
    ];
  } finally {
    await fake.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv[2] === '--fake-server') {
    // Serves until the parent closes this process's stdin.
    const fake = await startFakeOpenAI((r) => reply((r.body ?? {}) as Record<string, unknown>));
    process.stdout.write(`${fake.url}\n`);
    process.stdin.resume();
    process.stdin.once('end', () => void fake.close().then(() => process.exit(0)));
  } else {
    for (const row of await benchModelClient()) process.stdout.write(`${JSON.stringify(row)}\n`);
  }
}
