// `npm run bench -- draft-save` (or `npx tsx bench/draft-save.ts`): what saving a generated draft costs the
// request thread (issue 35 item 2, docs/deploy.md "The AI generator"). A SQLite file; one key saves DRAFTS
// drafts of a generator's size (~590,000 characters of files, a 300,000-character transcript) the way
// `POST /v1/builder/generate` saves them (src/apps/server/routes/builder-generate.ts): the key's storage
// usage read for the quota, then the files' JSON text — made by the generator's worker — written with the
// files it carries, nothing serialised or parsed here. Rows: each save's wall time (median, p90, max: all of
// it on the event loop, SQLite being synchronous), and the usage read with DRAFTS drafts stored beside the
// same read with one (a ratio: it reads the drafts' sizes from their rows' headers, not their text).

import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { JsonText } from '../src/adapters/store/json.ts';
import { openStore } from '../src/adapters/store/open.ts';
import { invalidCartridge } from '../test/helpers/invalid-cartridge.ts';
import { percentile, timedCalls } from './common.ts';

type Row = Record<string, unknown>;

const DRAFTS = 60;
const FILE_CHARS = 590_000;
const TRANSCRIPT_CHARS = 300_000;
/** Usage reads timed at each end (their median is compared). */
const USAGE_READS = 20;
/** The usage read with DRAFTS drafts may cost at most this many times the read with one. */
const TARGET_USAGE_RATIO = 3;

const round = (n: number) => Number(n.toFixed(2));

/** The median of USAGE_READS timed reads (after one warm-up: bench/common.ts). */
async function usageMedianMs(read: () => Promise<unknown>): Promise<number> {
  return percentile(await timedCalls(read, USAGE_READS), 50);
}

export async function benchDraftSave(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-bench-drafts-'));
  const store = await openStore(`sqlite:${join(dir, 'bench.db')}`);
  try {
    const owner = await store.createPrincipal({ name: 'generator' });
    const files = { 'yare.yaml': invalidCartridge(FILE_CHARS) };
    const filesJson = JSON.stringify(files);
    const transcript = 't'.repeat(TRANSCRIPT_CHARS);
    const usage = () => store.cartridgeUsage(owner.id);
    const saves: number[] = [];
    let usageWithOne = 0;
    for (let i = 0; i < DRAFTS; i++) {
      const started = performance.now();
      await usage();
      const created = await store.createDraft({
        principalId: owner.id,
        name: `Draft ${i + 1}`,
        files: new JsonText(filesJson, files),
        transcript,
      });
      saves.push(performance.now() - started);
      if (!created.ok) throw new Error(`draft ${i + 1} refused: ${created.reason}`);
      if (i === 0) usageWithOne = await usageMedianMs(usage);
    }
    const usageWithAll = await usageMedianMs(usage);
    const sorted = [...saves].sort((a, b) => a - b);
    return [
      {
        bench: 'draft-save',
        covers: `${DRAFTS} generated drafts (${FILE_CHARS} characters of files, ${TRANSCRIPT_CHARS} of transcript) saved by one key as the generate route saves them, SQLite file: wall time per save, all on the event loop`,
        loadAverage: loadavg()[0],
        saveMedianMs: round(percentile(sorted, 50)),
        saveP90Ms: round(percentile(sorted, 90)),
        saveMaxMs: round(sorted.at(-1)!),
        lastTenMeanMs: round(saves.slice(-10).reduce((a, b) => a + b, 0) / 10),
      },
      {
        bench: 'draft-usage',
        covers: `the key's storage usage (read before every draft save) with ${DRAFTS} drafts stored, beside the same read with one`,
        usageWithOneMs: round(usageWithOne),
        usageWithAllMs: round(usageWithAll),
        ratio: round(usageWithAll / usageWithOne),
        targetRatio: TARGET_USAGE_RATIO,
        ok: usageWithAll / usageWithOne <= TARGET_USAGE_RATIO,
      },
    ];
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await benchDraftSave()) process.stdout.write(`${JSON.stringify(row)}\n`);
}
