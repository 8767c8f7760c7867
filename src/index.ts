// MnesOS as a library: the pure core (rules, cartridges, ledger, lore) and `createEngine`, which binds a
// cartridge to models for turns. Storage, the HTTP server and the CLI are separate entry points.

import { type Cartridge, type LoadResult, loadCartridge } from './core/cartridge/index.ts';
import { createModels, loadModelConfig, type ModelSet } from './adapters/llm/index.ts';
import {
  type GameState,
  runTurn,
  type StoryMessage,
  type TurnEvent,
  type TurnOptions,
} from './engine/turn/index.ts';
import {
  evaluateExpression,
  type EvaluateResult,
  type EventTool,
  eventTools,
  publicState,
  runEvent,
  type RunResult,
  toStateValue,
} from './core/yare/index.ts';

// Everything cartridge/index.ts exports, defineRules (rules in yare.ts) included.
export * from './core/cartridge/index.ts';
export type { Diagnostic, SourcePlace } from './core/diagnostics.ts';
export * as ledger from './core/ledger/index.ts';
export * as llm from './adapters/llm/index.ts';
export * as lore from './core/lore/index.ts';
export * as turn from './engine/turn/index.ts';
export * as yare from './core/yare/index.ts';

export interface EngineOptions {
  /** A cartridge folder, or a cartridge already loaded. */
  readonly cartridge: string | Cartridge;
  /** Models per role; `null` for offline; omitted: configured from the environment (offline when nothing is set). */
  readonly models?: ModelSet | null;
}

export interface Engine {
  readonly cartridge: Cartridge;
  readonly models: ModelSet | null;
  /** The cartridge's initial state (a fresh copy). */
  initialState(): GameState;
  /** The state a player may see: public fields only. */
  publicState(state: GameState): GameState;
  /** Public events as tool descriptors (name, description, JSON Schema of inputs). */
  tools(): EventTool[];
  /** Runs one event as a transaction with seeded dice. */
  runEvent(state: GameState, event: string, inputs?: Record<string, unknown>, seed?: number): RunResult;
  /** Evaluates an expression against a state. */
  evaluate(state: GameState, expression: string, seed?: number): EvaluateResult;
  /** Runs one turn: a stream of typed events ending with `done` and its TurnRecord. */
  turn(
    options: Omit<TurnOptions, 'cartridge' | 'models' | 'messages'> & {
      readonly messages?: readonly StoryMessage[];
    },
  ): AsyncGenerator<TurnEvent, void>;
}

export class EngineLoadError extends Error {
  constructor(readonly result: Extract<LoadResult, { ok: false }>) {
    super(
      result.errors
        .map((e) => `${e.place ? `${e.place.file}:${e.place.line}:${e.place.col}: ` : ''}${e.message}`)
        .join('\n'),
    );
    this.name = 'EngineLoadError';
  }
}

export async function createEngine(options: EngineOptions): Promise<Engine> {
  let cartridge: Cartridge;
  if (typeof options.cartridge === 'string') {
    const loaded = await loadCartridge(options.cartridge);
    if (!loaded.ok) throw new EngineLoadError(loaded);
    cartridge = loaded.cartridge;
  } else {
    cartridge = options.cartridge;
  }
  const models = options.models === undefined ? createModels(loadModelConfig(process.env)) : options.models;
  const rules = cartridge.rules;
  return {
    cartridge,
    models,
    initialState: () => toStateValue(rules.initialState as never) as GameState,
    publicState: (state) => publicState(state, rules.schema) as GameState,
    tools: () => eventTools(rules),
    runEvent: (state, event, inputs = {}, seed = 0) => runEvent(rules, state, event, inputs, { seed }),
    evaluate: (state, expression, seed = 0) => evaluateExpression(rules, state, expression, { seed }),
    turn: (turnOptions) =>
      runTurn({ ...turnOptions, messages: turnOptions.messages ?? [], cartridge, models }),
  };
}
