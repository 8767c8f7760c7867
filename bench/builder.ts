// The builder's routes as the web client calls them while an author types, each timed as a whole HTTP
// request on a real server (SQLite in a temporary folder, loopback, no API keys) with the demo cartridge's
// files (Lanternmere: 27 KB of rules, 4 KB of lore): the check (body parse, the upload checker's worker
// thread loading every file, the JSON answer), completion of a state path with the last good rules
// (cached compiled rules after the first request), "try it" (one event with a seed, the diff), and the
// draft save, alone and with the check (the request the builder sends after a pause). Warm: the first
// request of each kind is not counted. Median and p95 of RUNS requests.
// Targets (on the median: the p95 of a loaded shared machine is mostly other processes, so it is reported
// without one): a check lands within CHECK_TARGET_MS, so a squiggle appears within a second of the 400 ms
// pause; completion, try and save are interactive (≤ INTERACTIVE_TARGET_MS).
// `npx tsx bench/builder.ts` prints one JSON object per line.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROJECT_ROOT } from '../src/adapters/project-root.ts';
import { startServer } from '../src/apps/server/start.ts';
import { median, percentile, round3, timedCalls } from './common.ts';

type Row = Record<string, unknown>;

const RUNS = 30;
const CHECK_TARGET_MS = 300;
const INTERACTIVE_TARGET_MS = 50;

export async function benchBuilder(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-bench-builder-'));
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    databaseUrl: join(dir, 'bench.sqlite'),
    limits: { rateLimit: 0 },
  });
  try {
    const folder = join(PROJECT_ROOT, 'cartridges', 'lanternmere');
    const files: Record<string, string> = {};
    for (const name of ['yare.yaml', 'bot_lore.md', 'prompt_directives.yaml', 'first-message.md'])
      files[name] = readFileSync(join(folder, name), 'utf8');
    const post = async (path: string, body: unknown, method = 'POST'): Promise<unknown> => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = await response.json();
      if (!response.ok) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(answer)}`);
      return answer;
    };
    const draft = (await post('/v1/builder/drafts', { name: 'bench', files })) as { draft: { id: string } };
    const yare = files['yare.yaml']!;
    const completeText = `${yare}\n      value: "@ state.player.`;
    const event = /^ {2}([a-z_]+):/m.exec(yare.slice(yare.indexOf('\nevents:')))?.[1] ?? 'look';

    const kinds: Array<[string, string, () => Promise<unknown>, number]> = [
      [
        'check',
        'POST /v1/builder/check: every file through the checker worker',
        () => post('/v1/builder/check', { files }),
        CHECK_TARGET_MS,
      ],
      [
        'complete',
        'POST /v1/builder/complete: state path after `state.player.` with the last good rules',
        () =>
          post('/v1/builder/complete', {
            file: 'yare.yaml',
            text: completeText,
            offset: completeText.length,
            rules: { 'yare.yaml': yare },
          }),
        INTERACTIVE_TARGET_MS,
      ],
      [
        'try',
        `POST /v1/builder/try: event ${event} with a seed, notes, rolls and diff`,
        () => post('/v1/builder/try', { files, event, seed: 1 }),
        INTERACTIVE_TARGET_MS,
      ],
      [
        'save',
        'PUT /v1/builder/drafts/:id: the four files saved',
        () => post(`/v1/builder/drafts/${draft.draft.id}`, { files }, 'PUT'),
        INTERACTIVE_TARGET_MS,
      ],
      [
        'save and check',
        'PUT /v1/builder/drafts/:id?check=true: saved, then every file through the checker worker (what the builder sends after a pause)',
        () => post(`/v1/builder/drafts/${draft.draft.id}?check=true`, { files }, 'PUT'),
        CHECK_TARGET_MS,
      ],
    ];
    const rows: Row[] = [];
    for (const [name, covers, run, target] of kinds) {
      const times = await timedCalls(run, RUNS);
      const mid = median(times);
      rows.push({
        bench: `builder ${name}`,
        covers,
        runs: RUNS,
        median_ms: round3(mid),
        p95_ms: round3(percentile(times, 95)),
        target: `median ≤ ${target} ms`,
        pass: mid <= target,
      });
    }
    return rows;
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let failed = false;
  for (const row of await benchBuilder()) {
    if (row.pass === false) failed = true;
    process.stdout.write(`${JSON.stringify({ suite: 'builder', ...row })}\n`);
  }
  process.exitCode = failed ? 1 : 0;
}
