// The library's routes as the Library page calls them, each timed as a whole HTTP request on a real
// server (SQLite in a temporary folder, loopback, no API keys: the local user owns the server's library)
// whose library also holds OTHERS public cartridges of another principal, two versions each (written
// through the store; listing never loads their files): the listing (`GET /v1/cartridges`: the visible
// cartridges with metadata, version counts and newest versions, and the storage use), one cartridge with
// its versions, a metadata change, and a single-file update of the demo cartridge (Lanternmere: the body
// read, the file replaced in the newest version, every file through the upload checker's worker thread,
// the version stored and tagged, the answer). Warm: the first request of each kind is not counted. Median
// and p95 of RUNS requests. `npx tsx bench/library.ts` prints one JSON object per line.

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startServer } from '../src/apps/server/start.ts';
import { openStore } from '../src/adapters/store/open.ts';
import { median, percentile, round3, timedCalls } from './common.ts';

type Row = Record<string, unknown>;

const RUNS = 20;
const OTHERS = 300;
/** The listing and the reads are what the page waits for on every visit. */
const INTERACTIVE_TARGET_MS = 100;
/** A single-file update checks the whole cartridge, as an upload does. */
const UPDATE_TARGET_MS = 1_000;

export async function benchLibrary(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-bench-library-'));
  const store = await openStore(join(dir, 'bench.sqlite'));
  const server = await startServer({ host: '127.0.0.1', port: 0, store, limits: { rateLimit: 0 } });
  try {
    const other = (await store.createPrincipal({ name: 'another player' })).id;
    for (let i = 0; i < OTHERS; i++) {
      const name = `shared-${String(i).padStart(3, '0')}`;
      for (let v = 0; v < 2; v++) {
        const version = await store.putCartridgeVersion({
          name,
          contentHash: `sha256:${randomUUID().replaceAll('-', '')}`,
          files: { 'bot_lore.md': `# ${name}\n` },
        });
        await store.addCartridgeEntry({ ownerId: other, versionId: version.id, name, bytes: 100 });
      }
      const cartridge = await store.findLibraryCartridge(other, name);
      await store.updateLibraryCartridge(other, cartridge!.id, {
        visibility: 'public',
        title: `Shared ${i}`,
        genre: 'bench',
        tags: ['a', 'b'],
      });
    }
    const call = async (method: string, path: string, body?: string, type = 'application/json') => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        ...(body === undefined ? {} : { headers: { 'content-type': type }, body }),
      });
      const text = await response.text();
      if (!response.ok)
        throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
      return text;
    };
    const listed = JSON.parse(await call('GET', '/v1/cartridges')) as { cartridges: Array<{ id: string }> };
    if (listed.cartridges.length !== OTHERS + 1)
      throw new Error(`listed ${listed.cartridges.length} cartridges, expected ${OTHERS + 1}`);
    const demo = (
      JSON.parse(await call('GET', '/v1/cartridges/Lanternmere')) as { cartridge: { id: string } }
    ).cartridge.id;
    let n = 0;

    const kinds: Array<[string, string, () => Promise<unknown>, number]> = [
      [
        'list',
        `GET /v1/cartridges: ${OTHERS + 1} visible cartridges (${OTHERS} of another principal, public) with metadata and newest version`,
        () => call('GET', '/v1/cartridges'),
        INTERACTIVE_TARGET_MS,
      ],
      [
        'get',
        'GET /v1/cartridges/:id: one cartridge with its versions',
        () => call('GET', `/v1/cartridges/${demo}`),
        INTERACTIVE_TARGET_MS,
      ],
      [
        'patch',
        'PATCH /v1/cartridges/:id: title, genre and tags',
        () =>
          call(
            'PATCH',
            `/v1/cartridges/${demo}`,
            JSON.stringify({ title: `Lanternmere ${n++}`, tags: ['x'] }),
          ),
        INTERACTIVE_TARGET_MS,
      ],
      [
        'file',
        'PUT /v1/cartridges/:id/files/first-message.md: a new tagged version of Lanternmere, checked by the worker',
        () =>
          call(
            'PUT',
            `/v1/cartridges/${demo}/files/first-message.md?tag=t${n++}`,
            `The lanterns gutter (${n}).\n`,
            'text/markdown',
          ),
        UPDATE_TARGET_MS,
      ],
    ];
    const rows: Row[] = [];
    for (const [name, covers, run, target] of kinds) {
      const times = await timedCalls(run, RUNS);
      const p95 = percentile(times, 95);
      rows.push({
        bench: `library ${name}`,
        covers,
        runs: RUNS,
        median_ms: round3(median(times)),
        p95_ms: round3(p95),
        target: `p95 ≤ ${target} ms`,
        pass: p95 <= target,
      });
    }
    return rows;
  } finally {
    await server.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let failed = false;
  for (const row of await benchLibrary()) {
    if (row.pass === false) failed = true;
    process.stdout.write(`${JSON.stringify({ suite: 'library', ...row })}\n`);
  }
  process.exitCode = failed ? 1 : 0;
}
