// What the benchmarks share: a seeded generator (the same inputs on every run, no Math.random), and the
// order statistics they report with the rounding they print, and one HTTP call for the benches that
// drive a server. Not a suite itself (bench/run.ts lists those).

import { type Agent, request } from 'node:http';

/** A deterministic generator of numbers in [0, 1) (an LCG), so runs are comparable. */
export function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** The middle value (the upper middle of an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The `p`th percentile (0–100) of values already sorted ascending: the nearest rank at or below. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Milliseconds to three decimals. */
export const round3 = (ms: number): number => Math.round(ms * 1000) / 1000;

/** Milliseconds of `runs` awaited calls of `run`, after one warm-up call, sorted ascending. */
export async function timedCalls(run: () => Promise<unknown>, runs: number): Promise<number[]> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

/** One request with a key and a JSON body (when given) on a keep-alive agent: its status and text. */
export function call(
  agent: Agent,
  base: URL,
  method: 'GET' | 'POST',
  path: string,
  key: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? '' : JSON.stringify(body);
    const req = request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        path,
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
