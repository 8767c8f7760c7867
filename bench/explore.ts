// `mnesos explore` throughput: steps and events per second of a whole exploration of the shipped
// lanternmere cartridge (random events with random inputs, mini-game results and waits as offline turns,
// the checks after every step, coverage on, shrinking and the lore probes included), after one warm-up
// exploration. Target: at least 10,000 events per second. One JSON object per line.

import { join } from 'node:path';
import { loadCartridge } from '../src/adapters/files/index.ts';
import { PROJECT_ROOT } from '../src/adapters/project-root.ts';
import { explore } from '../src/tools/authoring/explore/index.ts';

const TARGET_EVENTS_PER_SECOND = 10_000;
const RUNS = 400;
const DEPTH = 30;

export async function benchExplore(): Promise<Array<Record<string, unknown>>> {
  const loaded = await loadCartridge(join(PROJECT_ROOT, 'cartridges', 'lanternmere'));
  if (!loaded.ok) throw new Error('lanternmere does not load');
  await explore(loaded.cartridge, { runs: 40, depth: DEPTH, seed: 2 });
  const started = performance.now();
  const report = await explore(loaded.cartridge, { runs: RUNS, depth: DEPTH, seed: 1 });
  const ms = performance.now() - started;
  const eventsPerSecond = Math.round((report.eventsRun / ms) * 1000);
  return [
    {
      bench: 'explore lanternmere',
      covers: `${RUNS} playthroughs of ${DEPTH} steps (events, mini-game results, waits), every check, coverage, shrinking, lore probes`,
      steps: report.stepsPlayed,
      events: report.eventsRun,
      ms: Math.round(ms),
      stepsPerSecond: Math.round((report.stepsPlayed / ms) * 1000),
      eventsPerSecond,
      target: TARGET_EVENTS_PER_SECOND,
      pass: eventsPerSecond >= TARGET_EVENTS_PER_SECOND,
    },
  ];
}
