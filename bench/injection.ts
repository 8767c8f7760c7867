// Injection-check benchmark: the worst inputs found for the old patterns and for the new ones, at a quarter
// of the lore cap and at the cap (2 MiB). The check is linear when the 4n/n time ratio stays near 4 (a
// quadratic check gives 16); target: every ratio under 8 and every check at the cap under 1 s.
// `npx tsx bench/injection.ts` prints one JSON object per line.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeZip } from '../src/tools/authoring/pack.ts';
import { checkInjection } from '../src/core/cartridge/injection.ts';
import { MAX_LORE_BYTES } from '../src/core/cartridge/limits.ts';
import { PROJECT_ROOT } from '../src/adapters/project-root.ts';
import { startServer } from '../src/apps/server/start.ts';
import { openStore } from '../src/adapters/store/open.ts';

type Row = Record<string, unknown>;

const TARGET_RATIO = 8;
const TARGET_CAP_MS = 1_000;
/** The promise: /healthz answers within 100 ms while the worst-case upload at the cap is checked. */
const TARGET_HEALTHZ_MS = 100;

function fill(unit: string, length: number): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

/** Each case builds a text of exactly `n` characters. */
const CASES: Record<string, (n: number) => string> = {
  // The reported attack: a role word, then one long run of whitespace (33 s at 80,000 spaces before).
  'system-then-spaces': (n) => `system${' '.repeat(n - 6)}`,
  'system-then-mixed-whitespace': (n) => `system${fill(' \u200B\t\n', n - 6)}`,
  'role-words-repeated': (n) => fill('system message ', n),
  'ignore-determiners': (n) => fill('ignore the ', n),
  'negated-look-behind': (n) => fill('not ignore all ', n),
  'html-window': (n) => fill(`<script ${'a'.repeat(190)}`, n),
  'angle-brackets': (n) => '<'.repeat(n),
  'heading-lines': (n) => fill('# system \n', n),
  'zero-width': (n) => '\u200B'.repeat(n),
  prose: (n) => fill('The ferryman counts the lanterns twice. ', n),
};

function timeCheck(text: string): number {
  const started = performance.now();
  checkInjection(text);
  return performance.now() - started;
}

export async function benchInjection(): Promise<Row[]> {
  const rows: Row[] = [];
  const cap = MAX_LORE_BYTES;
  for (const [name, make] of Object.entries(CASES)) {
    const small = make(cap / 4);
    const large = make(cap);
    timeCheck(small); // warm-up
    const smallMs = Math.min(...Array.from({ length: 5 }, () => timeCheck(small)));
    const largeMs = Math.min(...Array.from({ length: 5 }, () => timeCheck(large)));
    // Below 5 ms at n, timer and GC noise dominate: the ratio is taken against 5 ms then.
    const ratio = largeMs / Math.max(smallMs, 5);
    rows.push({
      bench: 'injection-check',
      case: name,
      chars: cap,
      quarterMs: Number(smallMs.toFixed(2)),
      capMs: Number(largeMs.toFixed(2)),
      ratio: Number(ratio.toFixed(2)),
      targetRatio: TARGET_RATIO,
      targetCapMs: TARGET_CAP_MS,
      ok: ratio < TARGET_RATIO && largeMs < TARGET_CAP_MS,
    });
  }
  rows.push(await healthzDuringWorstUpload());
  return rows;
}

/**
 * The whole path a second client sees: a real server on loopback with a SQLite file, one client uploading
 * the worst-case lore at the size cap as a zip, another polling /healthz every 5 ms meanwhile. Reports the
 * slowest /healthz round trip (the check runs in a worker thread, so the request loop stays free).
 */
async function healthzDuringWorstUpload(): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-bench-upload-'));
  const store = await openStore(`sqlite:${join(dir, 'bench.db')}`);
  const server = await startServer({ port: 0, store, models: () => null, limits: { rateLimit: 0 } });
  try {
    const demo = join(PROJECT_ROOT, 'cartridges', 'lanternmere');
    const encoder = new TextEncoder();
    const file = (name: string, text: string) => ({ name: `fen/${name}`, data: encoder.encode(text) });
    const zip = writeZip([
      file(
        'yare.yaml',
        readFileSync(join(demo, 'yare.yaml'), 'utf8').replace(/^bot_name:.*$/m, 'bot_name: Fen'),
      ),
      file('bot_lore.md', `# Fen\n\nsystem${' '.repeat(MAX_LORE_BYTES - 20)}`),
    ]);
    const latencies: number[] = [];
    let done = false;
    const probe = (async () => {
      while (!done) {
        const started = performance.now();
        await (await fetch(`${server.url}/healthz`)).arrayBuffer();
        latencies.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const started = performance.now();
    const uploaded = await fetch(`${server.url}/v1/cartridges`, {
      method: 'POST',
      headers: { 'content-type': 'application/zip' },
      body: Buffer.from(zip),
    });
    await uploaded.arrayBuffer();
    const uploadMs = performance.now() - started;
    done = true;
    await probe;
    const maxMs = Math.max(...latencies);
    return {
      bench: 'healthz-during-worst-upload',
      covers:
        'HTTP /healthz round trips on loopback while a 2 MiB worst-case lore zip is uploaded and checked',
      uploadStatus: uploaded.status,
      uploadMs: Number(uploadMs.toFixed(1)),
      probes: latencies.length,
      maxHealthzMs: Number(maxMs.toFixed(1)),
      targetMs: TARGET_HEALTHZ_MS,
      ok: uploaded.status === 201 && maxMs < TARGET_HEALTHZ_MS,
    };
  } finally {
    await server.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await benchInjection()) process.stdout.write(`${JSON.stringify(row)}\n`);
}
