// A real MnesOS server for the browser tests: SQLite in a temp folder, 127.0.0.1 port 0, author mode on,
// the built web client as its static folder, and scripted models. Each turn takes the next script queued
// with `queueTurn` (or a plain default), so a test says exactly what the models answer in each turn.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScriptedModels } from '../../../../src/adapters/llm/scripted.ts';
import type { ChatModel, ModelSet, ModelStreamPart } from '../../../../src/adapters/llm/types.ts';
import type { ServerMedia } from '../../../../src/apps/server/media.ts';
import { type RunningServer, startServer } from '../../../../src/apps/server/start.ts';
import { countingSeeds } from '../../../../src/engine/session/seeds.ts';

export interface TurnScript {
  /** Tool calls of the Director's first round (then it gives directives). */
  readonly tools?: readonly { name: string; args: Record<string, unknown> }[];
  /** The narration, streamed in these pieces. */
  readonly narration: readonly string[];
  /** Milliseconds between the pieces (CHUNK_DELAY_MS unless given). */
  readonly delayMs?: number;
}

/** Milliseconds between streamed narration pieces, so the page renders each piece on its own. */
export const CHUNK_DELAY_MS = 60;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/** The narrator streams with a pause between text pieces (the scripted model sends them all at once). */
function paced(model: ChatModel, delayMs: number): ChatModel {
  return {
    id: model.id,
    generate: (req) => model.generate(req),
    async *stream(req): AsyncIterable<ModelStreamPart> {
      for await (const part of model.stream(req)) {
        if (part.type === 'text-delta') await sleep(delayMs, req.signal);
        yield part;
      }
    },
  };
}

function modelsFor(turn: TurnScript): ModelSet {
  const director = [
    ...(turn.tools && turn.tools.length > 0
      ? [{ toolCalls: turn.tools.map((t) => ({ name: t.name, args: t.args })) }]
      : []),
    { text: 'Describe the outcome plainly.' },
  ];
  const text = turn.narration.join('');
  const set = createScriptedModels({ director, narrator: [{ text, chunks: [...turn.narration] }] }, 'e2e');
  return {
    director: set.director,
    narrator: paced(set.narrator, turn.delayMs ?? CHUNK_DELAY_MS),
    npc: set.npc,
  };
}

export interface TestServer {
  readonly url: string;
  readonly server: RunningServer;
  queueTurn(turn: TurnScript): void;
  /** Scripts queued and not yet used (a test that leaves some behind did not play what it meant to). */
  pending(): number;
  close(): Promise<void>;
}

export async function startTestServer(
  staticDir: string,
  extra: { readonly media?: ServerMedia } = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-web-'));
  const queue: TurnScript[] = [];
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    databaseUrl: join(dir, 'e2e.sqlite'),
    models: () => modelsFor(queue.shift() ?? { narration: ['The mist ', 'shifts ', 'and ', 'settles.'] }),
    modelMode: 'online',
    authorMode: true,
    staticDir,
    seeds: countingSeeds(1000),
    // The page makes many small requests; the default per-key rate limit is for shared servers.
    limits: { rateLimit: 100_000 },
    ...(extra.media ? { media: extra.media } : {}),
  });
  return {
    url: server.url,
    server,
    queueTurn: (turn) => queue.push(turn),
    pending: () => queue.length,
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
