// ByteSized32-SP ports (test/cartridges/bytesized/README.md): for each port, its size, how many of its gold
// playthrough's transitions and observations it matches (the objects each names and the properties it
// reports: the same replay test/cartridges/bytesized.test.ts checks), the time to load it and to replay the whole playthrough (median of runs, after untimed ones).
// One JSON object per line; each `<game>-plain` port (the same game without collections, functions, macros
// with parameters or hooks) is replayed beside `<game>`, so the new features' effect shows as ratios
// measured in one run.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  goldFolder,
  loadPort,
  observationDifferences,
  PLAIN_SUFFIX,
  PORTS_DIR,
  playGold,
  portNames,
  reportDifferences,
  reportedProperties,
  stateDifferences,
  stepsDiffering,
} from '../test/helpers/bytesized-gold.ts';
import { median, round3 } from './common.ts';

type Row = Record<string, unknown>;

const LOADS = 5;
const REPLAYS = 50;
/** Untimed replays first, so the port timed first in a run does not pay for the whole process's warm-up. */
const WARMUP_REPLAYS = 10;

function lines(port: string): number {
  const text = readFileSync(join(PORTS_DIR, port, 'yare.yaml'), 'utf8');
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

async function benchPort(port: string): Promise<Row> {
  const loadTimes: number[] = [];
  let loaded = await loadPort(port);
  for (let i = 0; i < LOADS; i++) {
    const start = performance.now();
    loaded = await loadPort(port);
    loadTimes.push(performance.now() - start);
  }
  const { cartridge, gold } = loaded;
  const { states, notes } = playGold(cartridge, gold);
  const transitions = gold.steps.length - 1;
  // Step 0 is the opening: a state to match, but no transition.
  const matched = gold.steps.map((step, i) => stateDifferences(i, states[i]!, step).length === 0);
  const misses = Object.keys(gold.observationMisses).length;
  const observationsWrong = stepsDiffering(observationDifferences(gold, notes, states));
  for (let i = 0; i < WARMUP_REPLAYS; i++) playGold(cartridge, gold);
  const replayTimes: number[] = [];
  for (let i = 0; i < REPLAYS; i++) {
    const start = performance.now();
    playGold(cartridge, gold);
    replayTimes.push(performance.now() - start);
  }
  const replay = median(replayTimes);
  return {
    suite: 'bytesized',
    port,
    yamlLines: lines(port),
    transitions,
    transitionsMatched: matched.slice(1).filter(Boolean).length,
    openingMatched: matched[0],
    observations: gold.steps.length,
    observationsMatched: gold.steps.length - observationsWrong - misses,
    propertiesReported: reportedProperties(gold),
    propertiesMatched: reportedProperties(gold) - reportDifferences(gold, notes, states).length,
    loadMs: round3(median(loadTimes)),
    replayMs: round3(replay),
    perStepMs: round3(replay / transitions),
  };
}

export async function benchBytesized(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const port of portNames()) rows.push(await benchPort(port));
  // Each `<game>-plain` beside its `<game>`: the new features' effect on size and on replay time.
  for (const plain of rows.filter((row) => String(row.port).endsWith(PLAIN_SUFFIX))) {
    const game = goldFolder(String(plain.port));
    const rich = rows.find((row) => row.port === game);
    if (rich === undefined) continue;
    rows.push({
      suite: 'bytesized',
      compare: `${game} / ${plain.port}`,
      lineRatio: round3((rich.yamlLines as number) / (plain.yamlLines as number)),
      replayRatio: round3((rich.replayMs as number) / (plain.replayMs as number)),
    });
  }
  return rows;
}
