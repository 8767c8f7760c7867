// Local GGUF models (src/adapters/llm/local-gguf, run by a model host process): first-token latency and
// tokens per second through the engine's provider, for the tiny generated test model
// (test/helpers/tiny-gguf.ts: one layer, 32-dimensional, random weights) at 1 and 2 threads, and for any GGUF named by MNESOS_BENCH_GGUF at the
// default threads. Each case runs warm (the file loaded by a first call, whose time is the load row) and
// every measured call has a prompt of its own, so no call reuses the previous one's prefix: first-token
// latency includes evaluating the whole prompt. Two kinds of call: free text (stops at the model's end of
// text or the token cap) and a grammar-constrained JSON answer of a fixed-length string (the cost of
// constrained decoding). Without node-llama-cpp the suite reports one skipped row saying how to add it.
// Standalone: `npx tsx bench/local-model.ts`.

import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { resolveConfig } from '../src/adapters/llm/config.ts';
import { findLlamaCpp, installCommand } from '../src/adapters/llm/local-gguf/index.ts';
import { createModels } from '../src/adapters/llm/providers.ts';
import type { ChatModel, ModelRequest } from '../src/adapters/llm/types.ts';
import { writeTinyGguf } from '../test/helpers/tiny-gguf.ts';
import { median, round3 } from './common.ts';

const RUNS = 5;
const PROMPT = 'The lamps of the brine market glow through the fog while the tide turns. '.repeat(6);
const FIXED_CHARS = 120;

type Row = Record<string, unknown>;

function model(file: string, threads: number | undefined): ChatModel {
  const models = createModels(
    resolveConfig({
      MNESOS_MODEL_FILE: file,
      MNESOS_MODEL_SEED: '1',
      ...(threads === undefined ? {} : { MNESOS_MODEL_THREADS: String(threads) }),
    }),
  );
  if (models === null) throw new Error('expected a local model');
  return models.director;
}

interface Measured {
  readonly firstTokenMs: number;
  readonly tokensPerSecond: number;
  readonly outputTokens: number;
  readonly promptTokens: number;
}

async function measure(chat: ChatModel, request: (run: number) => ModelRequest): Promise<Measured[]> {
  const results: Measured[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    let first: number | undefined;
    let done: number | undefined;
    let outputTokens = 0;
    let promptTokens = 0;
    for await (const part of chat.stream(request(run))) {
      if (part.type === 'text-delta' && first === undefined) first = performance.now();
      if (part.type === 'finish') {
        done = performance.now();
        outputTokens = part.response.usage.outputTokens;
        promptTokens = part.response.usage.inputTokens;
      }
    }
    const end = done ?? performance.now();
    const firstAt = first ?? end;
    // Tokens after the first one, over the time after it: the decoding rate without the prompt.
    const rate = outputTokens > 1 && end > firstAt ? ((outputTokens - 1) * 1000) / (end - firstAt) : 0;
    results.push({ firstTokenMs: firstAt - started, tokensPerSecond: rate, outputTokens, promptTokens });
  }
  return results;
}

const freeText = (run: number): ModelRequest => ({
  system: `Run ${run}. You narrate a text role-playing game.`,
  messages: [{ role: 'user', content: PROMPT }],
  maxOutputTokens: 128,
  temperature: 1,
});

const constrained = (run: number): ModelRequest => ({
  ...freeText(run),
  responseSchema: {
    name: 'fixed',
    schema: {
      type: 'object',
      properties: { text: { type: 'string', minLength: FIXED_CHARS, maxLength: FIXED_CHARS } },
      required: ['text'],
      additionalProperties: false,
    },
  },
  maxOutputTokens: 400,
});

async function benchFile(file: string, label: string, threads: number | undefined): Promise<Row[]> {
  const chat = model(file, threads);
  const loadStarted = performance.now();
  await chat.generate({ system: '', messages: [{ role: 'user', content: 'warm up' }], maxOutputTokens: 1 });
  const loadMs = performance.now() - loadStarted;
  const shown = threads === undefined ? 'default threads' : `${threads} thread(s)`;
  const rows: Row[] = [
    {
      bench: 'local-model-load',
      covers: `${label}, ${shown}: first call (start the model host, import node-llama-cpp, load the file, make the context, one token)`,
      ms: round3(loadMs),
    },
  ];
  for (const [kind, request] of [
    ['free text (at most 128 tokens)', freeText],
    [`grammar-constrained JSON (a ${FIXED_CHARS}-character string)`, constrained],
  ] as const) {
    const results = await measure(chat, request);
    rows.push({
      bench: 'local-model-generate',
      covers: `${label}, ${shown}, warm, ${kind}, a fresh prompt per call; median of ${RUNS}`,
      prompt_tokens: median(results.map((r) => r.promptTokens)),
      output_tokens: median(results.map((r) => r.outputTokens)),
      first_token_ms: round3(median(results.map((r) => r.firstTokenMs))),
      tokens_per_s: Math.round(median(results.map((r) => r.tokensPerSecond))),
    });
  }
  return rows;
}

export async function benchLocalModel(): Promise<Row[]> {
  if (findLlamaCpp(process.env) === undefined) {
    return [
      {
        bench: 'local-model',
        skipped: `node-llama-cpp is not installed; add it with: ${installCommand(process.env)}`,
      },
    ];
  }
  const rows: Row[] = [];
  const writeStarted = performance.now();
  const tiny = writeTinyGguf({ seed: 1 });
  rows.push({
    bench: 'local-model-tiny-gguf',
    covers: 'writing the tiny test GGUF (test/helpers/tiny-gguf.ts) to a temporary file',
    ms: round3(performance.now() - writeStarted),
    bytes: statSync(tiny).size,
  });
  const label = 'tiny generated GGUF (1 layer, 32-dim, random weights)';
  rows.push(...(await benchFile(tiny, label, 1)));
  rows.push(...(await benchFile(tiny, label, 2)));
  const extra = process.env.MNESOS_BENCH_GGUF?.trim();
  if (extra !== undefined && extra !== '')
    rows.push(...(await benchFile(extra, `MNESOS_BENCH_GGUF ${basename(extra)}`, undefined)));
  else
    rows.push({
      bench: 'local-model-file',
      skipped: 'MNESOS_BENCH_GGUF is not set (a GGUF file to measure too)',
    });
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await benchLocalModel()) process.stdout.write(`${JSON.stringify(row)}\n`);
}
