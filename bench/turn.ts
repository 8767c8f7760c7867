// Turn benchmarks, one JSON object per line (standalone: `npx tsx bench/turn.ts`):
// - `runTurn alone`: the turn engine's own time with zero-latency in-process models, a fixed state and one
//   history message, no storage, no HTTP, no model client (p50 and p99; target p50 under 1 ms);
// - the full path (bench/http-game.ts): turns played over HTTP against the server with SQLite storage and
//   the OpenAI-compatible model client talking to a model server in another process, on a game whose
//   history fills its window and whose world gains an entity and a fact every turn: the server's CPU per
//   turn early and late in the game (target p50 ≤ 8 ms: playTurn's 2 ms, the model client's 5 ms and 1 ms
//   of HTTP; late ≤ 1.5× early), and the model calls of every ordinary turn for both Director habits
//   (directives beside the rule call, or the call alone; target 2);
// - runTurn alone on that same game (in-process scripted models with the same answers, the 24-turn history
//   the service hydrates, the world growing): the engine's share of the full path, early vs late (≤ 1.5×);
// - prompt tokens per turn of the demo cartridge by section.
// Lore lookup time is measured by the lore benchmark, the model client alone by model-client.

import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROJECT_ROOT } from '../src/adapters/project-root.ts';
import { loadCartridge } from '../src/core/cartridge/index.ts';
import type { World } from '../src/core/ledger/index.ts';
import { createScriptedModels } from '../src/adapters/llm/scripted.ts';
import type {
  ChatModel,
  ModelRequest,
  ModelResponse,
  ModelSet,
  ModelStreamPart,
} from '../src/adapters/llm/types.ts';
import { TURN_HISTORY_WINDOW } from '../src/engine/session/limits.ts';
import { runTurn } from '../src/engine/turn/run-turn.ts';
import type { GameState, StoryMessage, TurnOptions, TurnRecord } from '../src/engine/turn/types.ts';
import { percentile, round3 } from './common.ts';
import {
  DIRECTIVES as GAME_DIRECTIVES,
  type DirectorHabit,
  NARRATION,
  playHttpGame,
  strangerArrives,
  type TurnSample,
} from './http-game.ts';

const ROOT = PROJECT_ROOT;
type Row = Record<string, unknown>;

const TARGET_P50_MS = 1;
const TARGET_MODEL_CALLS = 2;
const WARMUP_TURNS = 200;
const MEASURED_TURNS = 2_000;
/** Turns of the full-path game; CPU is compared between turns 21–80 and the last 60. */
const HTTP_TURNS = 300;
const HTTP_WINDOW = 60;
/** Turns of the game with the other Director habit (calls counted on every one). */
const HTTP_HABIT_TURNS = 40;
const TARGET_HTTP_CPU_P50_MS = 8;
const TARGET_HTTP_GROWTH = 1.5;

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
      name: 'turn_engine_overhead (runTurn alone: fixed state, one history message, no storage/HTTP/model client)',
      mode,
      cartridge: cartridge.name,
      turns: MEASURED_TURNS,
      p50_ms: round3(p50),
      p99_ms: round3(percentile(times, 99)),
      target_p50_ms: TARGET_P50_MS,
      pass: p50 < TARGET_P50_MS,
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
  rows.push(...(await fullPathRows()));
  rows.push(await sameGameRunTurnRow(cartridge));
  for (const prompt of record.prompts) {
    rows.push({
      name: 'prompt_tokens',
      cartridge: cartridge.name,
      role: prompt.role,
      call: prompt.call,
      total: prompt.tokens,
      budget: prompt.budget,
      sections: Object.fromEntries(prompt.sections.map((s) => [s.id, s.included ? s.tokens : 0])),
      target: `≤ ${prompt.budget} (the role's prompt budget)`,
      pass: prompt.tokens <= prompt.budget,
    });
  }
  return rows;
}

/**
 * runTurn alone on the game the full path plays (the same Director and Narrator answers, from in-process
 * scripted models; the history the service would hydrate, 24 turns; the world growing every turn): the
 * engine's share of the full path's CPU, early and late.
 */
async function sameGameRunTurnRow(cartridge: TurnOptions['cartridge']): Promise<Row> {
  let state = JSON.parse(JSON.stringify(cartridge.rules.initialState)) as GameState;
  let world: World | undefined;
  const story: StoryMessage[] = cartridge.firstMessage
    ? [{ role: 'assistant', content: cartridge.firstMessage }]
    : [];
  const cpu: number[] = [];
  for (let t = 1; t <= HTTP_TURNS; t++) {
    const models = createScriptedModels({
      director: [{ text: GAME_DIRECTIVES, toolCalls: [{ name: 'check_pack', args: {} }] }],
      narrator: [
        {
          text: NARRATION,
          toolCalls: [{ name: 'record_world_changes', args: { events: strangerArrives(t) } }],
        },
      ],
      npc: [],
    });
    const started = process.cpuUsage();
    const record = await oneTurn({
      cartridge,
      state,
      messages: story.slice(-2 * TURN_HISTORY_WINDOW),
      input: 'I check my pack',
      seed: t,
      models,
      ledgerTurn: t,
      ...(world === undefined ? {} : { world }),
    });
    const used = process.cpuUsage(started);
    cpu.push((used.user + used.system) / 1000);
    state = record.stateAfter;
    world = record.ledger.worldAfter;
    story.push(...record.messages);
  }
  const p50 = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      50,
    );
  const early = p50(cpu.slice(20, 20 + HTTP_WINDOW));
  const late = p50(cpu.slice(-HTTP_WINDOW));
  return {
    name: `runTurn alone on the full path's game (scripted in-process models, 24-turn history, world growing; CPU p50 of turns 21–${20 + HTTP_WINDOW} vs the last ${HTTP_WINDOW} of ${HTTP_TURNS})`,
    cpuP50Ms: round3(p50(cpu)),
    earlyMs: round3(early),
    lateMs: round3(late),
    ratio: Number((late / early).toFixed(2)),
    worldEntitiesAtEnd: world === undefined ? 0 : Object.keys(world.entities).length,
    target: `≤ ${TARGET_HTTP_GROWTH}×`,
    pass: late / early <= TARGET_HTTP_GROWTH,
  };
}

/** p50 of the server's CPU over a slice of turns. */
function cpuP50(turns: readonly TurnSample[]): number {
  return percentile(
    turns.map((t) => t.cpuMs).sort((a, b) => a - b),
    50,
  );
}

function callsRow(habit: DirectorHabit, turns: readonly TurnSample[]): Row {
  const calls = turns.map((t) => t.modelCalls);
  const failed = turns.filter((t) => t.status !== 201).length;
  return {
    name: `model_calls_per_ordinary_turn (over HTTP, Director habit: ${habit === 'text' ? 'directives beside the rule call' : 'the rule call alone'}; every turn of ${turns.length})`,
    min: Math.min(...calls),
    max: Math.max(...calls),
    failedTurns: failed,
    target: TARGET_MODEL_CALLS,
    pass: failed === 0 && calls.every((n) => n === TARGET_MODEL_CALLS),
  };
}

async function fullPathRows(): Promise<Row[]> {
  const game = await playHttpGame({ turns: HTTP_TURNS, habit: 'text', sampleEvery: HTTP_TURNS });
  const early = game.turns.slice(20, 20 + HTTP_WINDOW);
  const late = game.turns.slice(-HTTP_WINDOW);
  const all = game.turns.map((t) => t.cpuMs).sort((a, b) => a - b);
  const earlyP50 = cpuP50(early);
  const lateP50 = cpuP50(late);
  const failed = game.turns.filter((t) => t.status !== 201).length;
  const wall = game.turns.map((t) => t.wallMs).sort((a, b) => a - b);
  const other = await playHttpGame({
    turns: HTTP_HABIT_TURNS,
    habit: 'calls-only',
    sampleEvery: HTTP_HABIT_TURNS,
  });
  return [
    {
      name: `turn server CPU, full path (HTTP, SessionService, SQLite, model client; history window full, world +1 entity +1 fact a turn; ${HTTP_TURNS} turns)`,
      cpuP50Ms: round3(percentile(all, 50)),
      cpuP99Ms: round3(percentile(all, 99)),
      wallP50Ms: round3(percentile(wall, 50)),
      worldEntitiesAtEnd: game.worldEntities,
      failedTurns: failed,
      target_p50_ms: TARGET_HTTP_CPU_P50_MS,
      pass: failed === 0 && percentile(all, 50) <= TARGET_HTTP_CPU_P50_MS,
    },
    {
      name: `turn server CPU growth, full path (p50 of turns 21–${20 + HTTP_WINDOW} vs turns ${HTTP_TURNS - HTTP_WINDOW + 1}–${HTTP_TURNS})`,
      earlyMs: round3(earlyP50),
      lateMs: round3(lateP50),
      ratio: Number((lateP50 / earlyP50).toFixed(2)),
      target: `≤ ${TARGET_HTTP_GROWTH}×`,
      pass: lateP50 / earlyP50 <= TARGET_HTTP_GROWTH,
    },
    callsRow('text', game.turns),
    callsRow('calls-only', other.turns),
  ];
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const row of await benchTurn()) process.stdout.write(`${JSON.stringify(row)}\n`);
}
