// Runs a model over eval cases: each case is one stateless turn (the case's state on top of the initial
// state, its history or the first message, the player's line, one seed), through the same `runTurn` as play,
// so what is measured is what a player gets. Models are timed per call (timed-models.ts); the turn record
// gives the rest. A failing model call fails its case, not the run.

import type { Cartridge } from '../../../core/cartridge/index.ts';
import type { ModelSet } from '../../../adapters/llm/index.ts';
import { formatPlace } from '../../../core/diagnostics.ts';
import {
  type GameState,
  isTurnError,
  openingMessages,
  runTurnToRecord,
  type TurnRecord,
} from '../../../engine/turn/index.ts';
import { startingState, toStateValue } from '../../../core/yare/index.ts';
import type { EvalCase } from './cases.ts';
import { type CallTiming, CallTimer, timeModels } from './timed-models.ts';

export interface CaseRun {
  readonly case: EvalCase;
  /** The turn's record, when the turn finished. */
  readonly record?: TurnRecord;
  /** The turn ended with the engine answering the player (a question, a refusal): no event ran. */
  readonly reply?: string;
  /** The turn failed: a model failure, or the case's state or input was refused. */
  readonly error?: { readonly kind: string; readonly message: string };
  readonly calls: readonly CallTiming[];
}

export interface EvalRunOptions {
  readonly cartridge: Cartridge;
  readonly cases: readonly EvalCase[];
  /** `null`: offline (the keyword matcher is scored, a baseline). */
  readonly models: ModelSet | null;
  readonly seed: number;
  readonly now?: () => number;
  /** Called after each case (progress on a terminal). */
  readonly onCase?: (run: CaseRun, index: number) => void;
}

export async function runEvalCases(options: EvalRunOptions): Promise<CaseRun[]> {
  const now = options.now ?? (() => performance.now());
  const runs: CaseRun[] = [];
  for (const [index, evalCase] of options.cases.entries()) {
    const run = await runCase(options, evalCase, now);
    runs.push(run);
    options.onCase?.(run, index);
  }
  return runs;
}

async function runCase(options: EvalRunOptions, evalCase: EvalCase, now: () => number): Promise<CaseRun> {
  const timer = new CallTimer(now);
  const models = options.models === null ? null : timeModels(options.models, timer);
  const { cartridge } = options;
  let state: GameState;
  try {
    state = toStateValue(startingState(cartridge.rules, evalCase.state ?? {})) as GameState;
  } catch (error) {
    return {
      case: evalCase,
      error: { kind: 'input', message: `the case's state is not valid: ${(error as Error).message}` },
      calls: [],
    };
  }
  try {
    const { record } = await runTurnToRecord({
      cartridge,
      state,
      messages: evalCase.history ?? openingMessages(cartridge),
      input: evalCase.input,
      seed: options.seed,
      models,
      now,
    });
    return { case: evalCase, record, calls: timer.calls };
  } catch (error) {
    if (!isTurnError(error)) throw error;
    if (error.kind === 'reply') return { case: evalCase, reply: error.message, calls: timer.calls };
    return { case: evalCase, error: { kind: error.kind, message: error.message }, calls: timer.calls };
  }
}

/** Where a case was written, for reports: `file:line:col`, or its origin. */
export function caseWhere(evalCase: EvalCase): string {
  return evalCase.place === undefined ? evalCase.id : formatPlace(evalCase.place);
}
