// Turn-engine benchmarks: the engine's own time per turn with zero-latency models (p50 and p99; target
// p50 under 1 ms, no storage), model calls per ordinary turn (target 2), and prompt tokens per turn of
// the demo cartridge by section. Lore lookup time is measured by the lore benchmark.
// Standalone: `npx tsx bench/turn.ts` prints one JSON object per line.

import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROJECT_ROOT } from '../src/project-root.ts';
import { loadCartridge } from '../src/cartridge/index.ts';
import type { ChatModel, ModelRequest, ModelResponse, ModelSet, ModelStreamPart } from '../src/llm/types.ts';
import { runTurn } from '../src/turn/run-turn.ts';
import type { GameState, TurnOptions, TurnRecord } from '../src/turn/types.ts';
import { percentile, round3 } from './common.ts';

const ROOT = PROJECT_ROOT;
type Row = Record<string, unknown>;

const TARGET_P50_MS = 1;
const TARGET_MODEL_CALLS = 2;
const WARMUP_TURNS = 200;
const MEASURED_TURNS = 2_000;

const DIRECTIVES = '### 1. Outcomes\nThe player walks on.\n### 4. Guardrails\nNo new creatures.';

/** A model that answers at once with a fixed response; it counts its calls and records nothing. */
function instantModel(
  id: string,
  response: Omit<ModelResponse, 'modelId'>,
  counter: { calls: number },
): ChatModel {
  const full: ModelResponse = { ...response, modelId: id };
  return {
    id,
    async generate(_req: ModelRequest) {
      counter.calls++;
      return full;
    },
    async *stream(_req: ModelRequest): AsyncGenerator<ModelStreamPart> {
      counter.calls++;
      if (full.text !== '' && full.toolCalls.length === 0) yield { type: 'text-delta', text: full.text };
      yield { type: 'finish', response: full };
    },
  };
}

function instantModels(counter: { calls: number }): ModelSet {
  const usage = { inputTokens: 0, outputTokens: 0 };
  const args = { destination: 'brine market', engine_time_delta: 'PT20M' };
  return {
    director: instantModel(
      'instant-director',
      {
        text: DIRECTIVES,
        toolCalls: [{ id: 'c1', name: 'travel', args, rawArgs: JSON.stringify(args) }],
        usage,
        finishReason: 'tool-calls',
      },
      counter,
    ),
    narrator: instantModel(
      'instant-narrator',
      { text: 'You cross the plank-ways to the market.', toolCalls: [], usage, finishReason: 'stop' },
      counter,
    ),
    npc: instantModel(
      'instant-npc',
      { text: '{"intents":[]}', toolCalls: [], usage, finishReason: 'stop' },
      counter,
    ),
  };
}

async function oneTurn(options: TurnOptions): Promise<TurnRecord> {
  let record: TurnRecord | undefined;
  for await (const event of runTurn(options)) if (event.type === 'done') record = event.record;
  if (record === undefined) throw new Error('the turn ended without a record');
  return record;
}

export async function benchTurn(): Promise<Row[]> {
  const loaded = await loadCartridge(resolve(ROOT, 'cartridges/lanternmere'));
  if (!loaded.ok)
    throw new Error(`lanternmere does not load: ${loaded.errors.map((e) => e.message).join('; ')}`);
  const cartridge = loaded.cartridge;
  const state = JSON.parse(JSON.stringify(cartridge.rules.initialState)) as GameState;
  const messages = cartridge.firstMessage
    ? [{ role: 'assistant' as const, content: cartridge.firstMessage }]
    : [];
  const rows: Row[] = [];

  for (const mode of ['online', 'offline'] as const) {
    const counter = { calls: 0 };
    const models = mode === 'online' ? instantModels(counter) : null;
    const base = { cartridge, state, messages, input: 'I head to the brine market', models };
    for (let i = 0; i < WARMUP_TURNS; i++) await oneTurn({ ...base, seed: i });
    const times: number[] = [];
    for (let i = 0; i < MEASURED_TURNS; i++) {
      const start = performance.now();
      await oneTurn({ ...base, seed: i });
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const p50 = percentile(times, 50);
    rows.push({
      name: 'turn_engine_overhead',
      mode,
      cartridge: cartridge.name,
      turns: MEASURED_TURNS,
      p50_ms: round3(p50),
      p99_ms: round3(percentile(times, 99)),
      target_p50_ms: TARGET_P50_MS,
      ok: p50 < TARGET_P50_MS,
    });
  }

  const counter = { calls: 0 };
  const record = await oneTurn({
    cartridge,
    state,
    messages,
    input: 'I head to the brine market',
    seed: 1,
    models: instantModels(counter),
  });
  rows.push({
    name: 'model_calls_per_ordinary_turn',
    cartridge: cartridge.name,
    calls: counter.calls,
    target: TARGET_MODEL_CALLS,
    ok: counter.calls <= TARGET_MODEL_CALLS,
  });
  for (const prompt of record.prompts) {
    rows.push({
      name: 'prompt_tokens',
      cartridge: cartridge.name,
      role: prompt.role,
      call: prompt.call,
      total: prompt.tokens,
      budget: prompt.budget,
      sections: Object.fromEntries(prompt.sections.map((s) => [s.id, s.included ? s.tokens : 0])),
    });
  }
  return rows;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const row of await benchTurn()) process.stdout.write(`${JSON.stringify(row)}\n`);
}
