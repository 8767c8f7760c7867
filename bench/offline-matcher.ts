// The offline matcher on labelled player lines (bench/fixtures/offline-lines/): per shipped cartridge, the
// share of lines answered as the player meant (`accuracy`), and of the events that cost something (they
// write the state, or let time pass) the share run when the player meant exactly that
// (`costly_precision`, target ≥ 0.99). Standalone: `npx tsx bench/offline-matcher.ts`.

import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { round3 } from './common.ts';
import { LINES_DIR, scoreLines } from './offline-lines.ts';

export const TARGET_COSTLY_PRECISION = 0.99;

export async function benchOfflineMatcher(): Promise<Array<Record<string, unknown>>> {
  const rows: Array<Record<string, unknown>> = [];
  for (const file of readdirSync(LINES_DIR)
    .filter((f) => f.endsWith('.txt'))
    .sort()) {
    const score = await scoreLines(file.slice(0, -4));
    const precision = score.costlyRuns === 0 ? 1 : score.costlyRunsCorrect / score.costlyRuns;
    rows.push({
      name: `offline matcher on labelled lines: ${score.cartridge}`,
      lines: score.lines,
      accuracy: round3(score.correct / score.lines),
      costly_runs: score.costlyRuns,
      costly_precision: round3(precision),
      target_costly_precision: TARGET_COSTLY_PRECISION,
      ok: precision >= TARGET_COSTLY_PRECISION,
    });
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const row of await benchOfflineMatcher()) process.stdout.write(`${JSON.stringify(row)}\n`);
}
