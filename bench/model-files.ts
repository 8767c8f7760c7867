// Model files against the server (`npm run bench -- model-files`, or `npx tsx bench/model-files.ts`; issue
// 35.1, docs/deploy.md "Round four: model files"). Two real `mnesos serve --allow-user-base-url` processes
// (test/helpers/served-model.ts startAttackRig): an attacked one, whose local user names a model file in
// their settings, and an idle control polled in the same seconds; the attacked server has played a turn on
// the operator's (fake, remote) model first. Rows:
// - `model-files-hostile`: each hostile file of round four (a chat template looping 300,000 times per render,
//   a metadata array of three million strings, a header declaring 2^40 tensors), its first turn (the host
//   refuses it) and second (refused from memory): the turn's status and time, `/healthz` p50/p99/max on
//   the attacked server beside the control's, and `pass` (p99 and max within TARGET_BESIDE_CONTROL_MS);
// - `model-files-first-turn`: an ordinary tiny model's first local turn (starting its host, loading it),
//   a normal local turn after it, and a turn on the operator's remote model, each beside the control, and
//   `pass` (the first turn's p99 and max within TARGET_BESIDE_CONTROL_MS of the normal turn's);
// - `gguf-header`: our header reader (src/adapters/llm/local-gguf/gguf-header.ts) on files at its limits and
//   past them, in this process: milliseconds (median of HEADER_RUNS) and the outcome.
// Without node-llama-cpp the suite reports one skipped row saying how to add it.

import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  bytesSource,
  GgufHeaderError,
  MAX_GGUF_ARRAY_LENGTH,
  MAX_GGUF_METADATA_BYTES,
  readGgufHeader,
} from '../src/adapters/llm/local-gguf/gguf-header.ts';
import { findLlamaCpp, installCommand } from '../src/adapters/llm/local-gguf/index.ts';
import { type LatencySummary, startAttackRig, type TurnBesideControl } from '../test/helpers/served-model.ts';
import {
  HOSTILE_GGUF,
  metadataOfSize,
  type TinyGgufOptions,
  tinyGguf,
  writeTinyGguf,
} from '../test/helpers/tiny-gguf.ts';
import { median, round3 } from './common.ts';

/** The promise of issue 35: `/healthz` within this many milliseconds of the idle control. */
export const TARGET_BESIDE_CONTROL_MS = 100;
const HEADER_RUNS = 3;

type Row = Record<string, unknown>;

const round1 = (ms: number) => Math.round(ms * 10) / 10;

function figures(summary: LatencySummary): Row {
  return {
    polls: summary.polls,
    failures: summary.failures,
    p50_ms: round1(summary.p50),
    p99_ms: round1(summary.p99),
    max_ms: round1(summary.max),
  };
}

function within(busy: LatencySummary, baseline: LatencySummary): boolean {
  return (
    busy.failures === 0 &&
    busy.p99 <= baseline.p99 + TARGET_BESIDE_CONTROL_MS &&
    busy.max <= baseline.max + TARGET_BESIDE_CONTROL_MS
  );
}

function turnRow(bench: string, covers: string, measured: TurnBesideControl): Row {
  return {
    bench,
    covers,
    status: measured.turn.status,
    turn_ms: Math.round(measured.turn.ms),
    model_hosts_started: measured.hosts.size,
    healthz: figures(measured.busy),
    control_healthz: figures(measured.idle),
    pass: within(measured.busy, measured.idle),
  };
}

const HOSTILE: readonly (readonly [string, TinyGgufOptions])[] = [
  ['a chat template looping 300,000 times per render', HOSTILE_GGUF.loopingTemplate()],
  ['a metadata array of three million strings', HOSTILE_GGUF.hugeArray()],
  ['a header declaring 2^40 tensors', HOSTILE_GGUF.lyingTensors()],
];

async function serverRows(dir: string): Promise<Row[]> {
  const rig = await startAttackRig(dir);
  const rows: Row[] = [];
  try {
    for (const [index, [name, options]] of HOSTILE.entries()) {
      await rig.useModelFile(writeTinyGguf(options, `hostile-${index}.gguf`));
      const first = await rig.turnBesideControl('I hum a tune');
      const again = await rig.turnBesideControl('I hum another tune');
      rows.push(turnRow('model-files-hostile', `${name}: first turn (the model host refuses it)`, first));
      rows.push(turnRow('model-files-hostile', `${name}: second turn (refused from memory)`, again));
    }
    await rig.useModelFile(writeTinyGguf({ seed: 51 }));
    const first = await rig.turnBesideControl('I hum a tune');
    const normal = await rig.turnBesideControl('I hum another tune');
    await rig.useServerModels();
    const remote = await rig.turnBesideControl('I hum a third tune');
    const label = 'the tiny generated GGUF (1 layer, random weights), 1 thread';
    rows.push({
      ...turnRow('model-files-first-turn', `${label}: first local turn (host started, file loaded)`, first),
      pass: within(first.busy, first.idle) && within(first.busy, normal.busy),
    });
    rows.push(turnRow('model-files-first-turn', `${label}: a normal local turn after it`, normal));
    rows.push(turnRow('model-files-first-turn', 'a turn on the operator’s remote model (fake)', remote));
  } finally {
    await rig.close();
  }
  return rows;
}

function headerRow(covers: string, bytes: Uint8Array): Row {
  const times: number[] = [];
  let outcome = 'read';
  for (let run = 0; run < HEADER_RUNS; run++) {
    const started = performance.now();
    try {
      readGgufHeader(bytesSource(bytes));
    } catch (error) {
      if (!(error instanceof GgufHeaderError)) throw error;
      outcome = `refused: ${error.message}`;
    }
    times.push(performance.now() - started);
  }
  return { bench: 'gguf-header', covers, bytes: bytes.byteLength, ms: round3(median(times)), outcome };
}

function headerRows(): Row[] {
  const atMetadataLimit = metadataOfSize(MAX_GGUF_METADATA_BYTES);
  return [
    headerRow('the tiny generated model', tinyGguf({ seed: 1 })),
    headerRow(
      `an array of MAX_GGUF_ARRAY_LENGTH (${MAX_GGUF_ARRAY_LENGTH}) strings: at the limit`,
      tinyGguf(HOSTILE_GGUF.hugeArray(MAX_GGUF_ARRAY_LENGTH)),
    ),
    headerRow('an array of three million strings: refused', tinyGguf(HOSTILE_GGUF.hugeArray())),
    headerRow(
      `MAX_GGUF_METADATA_BYTES (${MAX_GGUF_METADATA_BYTES}) of metadata: at the limit`,
      atMetadataLimit,
    ),
    headerRow('a header declaring 2^40 tensors: refused', tinyGguf(HOSTILE_GGUF.lyingTensors())),
  ];
}

export async function benchModelFiles(): Promise<Row[]> {
  if (findLlamaCpp(process.env) === undefined) {
    return [
      {
        bench: 'model-files',
        skipped: `node-llama-cpp is not installed; add it with: ${installCommand(process.env)}`,
      },
    ];
  }
  const dir = mkdtempSync(join(tmpdir(), 'mnesos-bench-model-files-'));
  try {
    const rows = [...headerRows(), ...(await serverRows(dir))];
    const load = loadavg().map((n) => Math.round(n * 100) / 100);
    return rows.map((row) => ({ ...row, loadAverage: load }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await benchModelFiles()) process.stdout.write(`${JSON.stringify(row)}\n`);
}
