// What the benchmarks share: a seeded generator (the same inputs on every run, no Math.random), and the
// order statistics they report with the rounding they print. Not a suite itself (bench/run.ts lists those).

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
