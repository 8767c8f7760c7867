// Where turn seeds come from. The seed of every turn is recorded, so replay never needs this source again;
// it only has to give a fresh number per turn. Tests inject a deterministic one.

import { randomInt } from 'node:crypto';
import { MAX_DRAWN_SEED } from './limits.ts';

export type SeedSource = () => number;

/** Uniform over 0..MAX_DRAWN_SEED from the operating system's generator. */
export const cryptoSeeds: SeedSource = () => randomInt(0, 2 ** 24) * 2 ** 24 + randomInt(0, 2 ** 24);

/** 1, 2, 3, …: for tests that want predictable seeds. */
export function countingSeeds(start = 1): SeedSource {
  let next = start;
  return () => {
    const seed = next % (MAX_DRAWN_SEED + 1);
    next += 1;
    return seed;
  };
}

/** A seed from `source` that differs from every one in `avoid` (regenerate must not repeat a sibling). */
export function freshSeed(source: SeedSource, avoid: ReadonlySet<number>): number {
  let seed = source();
  while (avoid.has(seed)) seed = (seed + 1) % (MAX_DRAWN_SEED + 1);
  return seed;
}
