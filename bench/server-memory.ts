// Server memory over a long game: 2,000 turns played over HTTP the whole way (SQLite storage,
// the OpenAI-compatible model client streaming from a model server in another process, a Director rule
// call and a Narrator `record_world_changes` call every turn, so the history fills its window and the world
// grows by an entity and a fact a turn; bench/http-game.ts). The server's RSS and its heap after a forced
// garbage collection are sampled every 100 turns. What is kept per session is bounded (the world cache
// holds WORLD_CACHE_SIZE worlds, structurally shared), so after warm-up memory must stay flat: the target
// is turn 2,000 ≤ 1.25× turn 500 for both figures (the growing world itself is a few hundred KB).
// The server runs in a fresh process (this file re-run with `--measure`), so what earlier suites of
// `npm run bench` left in memory is not counted. Standalone: `npx tsx bench/server-memory.ts`.

import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { playHttpGame } from './http-game.ts';

const SELF = fileURLToPath(import.meta.url);

const TURNS = 2_000;
const SAMPLE_EVERY = 100;
const BASE_TURN = 500;
const TARGET_GROWTH = 1.25;

/** The rows, measured in a fresh process. */
export function benchServerMemory(): Promise<Array<Record<string, unknown>>> {
  const args = SELF.endsWith('.ts') ? ['--import', 'tsx', SELF] : [SELF];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args, '--measure'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`the server-memory process exited with ${code}`));
      resolve(
        out
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      );
    });
  });
}

async function measure(): Promise<Array<Record<string, unknown>>> {
  const game = await playHttpGame({
    turns: TURNS,
    habit: 'text',
    sampleEvery: SAMPLE_EVERY,
    gcBeforeSample: true,
  });
  const at = (turn: number) => {
    const sample = game.memory.find((m) => m.turn === turn);
    if (sample === undefined) throw new Error(`no memory sample at turn ${turn}`);
    return sample;
  };
  const base = at(BASE_TURN);
  const end = at(TURNS);
  const failed = game.turns.filter((t) => t.status !== 201).length;
  const rssRatio = end.rssMiB / base.rssMiB;
  const heapRatio = end.heapUsedMiB / base.heapUsedMiB;
  return [
    {
      name: `server RSS over ${TURNS} turns (HTTP, SQLite, model client with tool calls, world +1 entity a turn; MiB)`,
      start: at(0).rssMiB,
      turn100: at(100).rssMiB,
      [`turn${BASE_TURN}`]: base.rssMiB,
      turn1000: at(1_000).rssMiB,
      [`turn${TURNS}`]: end.rssMiB,
      max: Math.max(...game.memory.map((m) => m.rssMiB)),
      ratio: Number(rssRatio.toFixed(2)),
      perTurnKiB: Math.round(((end.rssMiB - base.rssMiB) * 1024) / (TURNS - BASE_TURN)),
      worldEntitiesAtEnd: game.worldEntities,
      failedTurns: failed,
      target: `turn ${TURNS} ≤ ${TARGET_GROWTH}× turn ${BASE_TURN}`,
      pass: failed === 0 && rssRatio <= TARGET_GROWTH,
    },
    {
      name: `server heap after GC over ${TURNS} turns (what stays reachable; MiB)`,
      start: at(0).heapUsedMiB,
      turn100: at(100).heapUsedMiB,
      [`turn${BASE_TURN}`]: base.heapUsedMiB,
      turn1000: at(1_000).heapUsedMiB,
      [`turn${TURNS}`]: end.heapUsedMiB,
      externalAtEnd: end.externalMiB,
      ratio: Number(heapRatio.toFixed(2)),
      perTurnKiB: Math.round(((end.heapUsedMiB - base.heapUsedMiB) * 1024) / (TURNS - BASE_TURN)),
      target: `turn ${TURNS} ≤ ${TARGET_GROWTH}× turn ${BASE_TURN}`,
      pass: failed === 0 && heapRatio <= TARGET_GROWTH,
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = process.argv[2] === '--measure' ? await measure() : await benchServerMemory();
  for (const row of rows) process.stdout.write(`${JSON.stringify(row)}\n`);
}
