// The working state of one turn, shared by its phases: one rules runner and one dice generator for the
// whole turn, and everything the record will hold. Nothing here leaves the turn unless it completes.

import { summarizeWorld, type WorldSummary } from '../../core/ledger/index.ts';
import type { ModelRole } from '../../adapters/llm/index.ts';
import type { LoreIndex } from '../../core/lore/index.ts';
import {
  type CompiledRules,
  DiceRoller,
  type Dict,
  EventRunner,
  MAX_STEPS_PER_RUN,
  type RunResult,
} from '../../core/yare/index.ts';
import { TurnError } from './errors.ts';
import { type ClockMode, clockMode } from './game-time.ts';
import type { LedgerOptions } from './ledger-world.ts';
import type { TurnLimits } from './limits.ts';
import { loreIndexOf } from './lore.ts';
import type { TurnWorldInfo } from './world-info.ts';
import type { PromptRecord, RuleCall, ToolTraceEntry, TurnCartridge, TurnPersona } from './types.ts';

export class TurnContext {
  readonly rules: CompiledRules;
  readonly clock: ClockMode;
  readonly dice: DiceRoller;
  readonly runner: EventRunner;
  readonly ruleCalls: RuleCall[] = [];
  /** Notes of the rule runs that succeeded, in order: what the Narrator is told happened. */
  readonly notes: string[] = [];
  readonly tools: ToolTraceEntry[] = [];
  readonly prompts: PromptRecord[] = [];
  readonly warnings: string[] = [];
  readonly modelIds: Partial<Record<ModelRole, string>> = {};
  /** Lore chunks retrieved this turn, by id (first-seen order): what the NPC brain is shown. */
  readonly lore = new Map<string, string>();
  /** In-game seconds accepted so far this turn; applied once, after the Director. */
  timeSeconds = 0;
  /** NPC queries that reached the NPC model this turn. */
  npcQueries = 0;
  /** Rule steps used by this turn's runs so far (the budget is `limits.maxRuleSteps`). */
  ruleSteps = 0;
  /** When this turn's rule runs must stop (`limits.maxRuleMs` after the turn started), on `now`. */
  readonly ruleDeadline: number;
  /** Directives given through `finish_turn` in the current round. */
  finishDirectives: string | undefined;
  /** The World Info activated for this turn (cartridges with `world_info.json`). */
  worldInfo: TurnWorldInfo | undefined;
  /** System messages from the player's chat front end (OpenAI-compatible endpoint): player context, never rules. */
  playerContext: string | undefined;

  constructor(
    readonly cartridge: TurnCartridge,
    state: Dict,
    seed: number,
    readonly limits: TurnLimits,
    readonly persona: TurnPersona | undefined,
    readonly signal: AbortSignal | undefined,
    readonly now: () => number,
    /** The world before the turn, the ledger turn to commit at, and how the Narrator proposes changes. */
    readonly ledger: LedgerOptions,
  ) {
    this.rules = cartridge.rules;
    this.clock = clockMode(this.rules);
    this.dice = DiceRoller.fromSeed(seed);
    this.runner = new EventRunner(this.rules, state, this.dice);
    this.ruleDeadline = now() + limits.maxRuleMs;
  }

  /** Set once every rule event has run (time applied, mini-game cleared); from then on it is the state. */
  private settled: Dict | undefined;

  get state(): Dict {
    return this.settled ?? this.runner.state;
  }

  settle(state: Dict): void {
    this.settled = state;
  }

  private summary: WorldSummary | undefined;

  /**
   * The world before the turn, summarised once for every prompt of the turn (the world does not change
   * until the turn's batch commits, after the last prompt that shows it).
   */
  get worldSummary(): WorldSummary {
    this.summary ??= summarizeWorld(this.ledger.world, { tokenBudget: this.limits.worldSummaryTokens });
    return this.summary;
  }

  get loreIndex(): LoreIndex {
    return loreIndexOf(this.cartridge);
  }

  /**
   * Runs one rule event as a transaction, within what is left of the turn's rule budget (steps and wall
   * time across every run of the turn), and records it for the trace and for replay (with its steps, so a
   * replay stops a budget-stopped run at the same step).
   */
  runRule(source: RuleCall['source'], event: string, inputs: Readonly<Record<string, unknown>>): RunResult {
    const left = Math.max(0, this.limits.maxRuleSteps - this.ruleSteps);
    const turnCapped = left < MAX_STEPS_PER_RUN;
    const ran = this.runner.run(event, inputs, {
      maxSteps: Math.min(MAX_STEPS_PER_RUN, left),
      deadline: this.ruleDeadline,
      now: this.now,
    });
    this.ruleSteps += ran.stepsUsed;
    const overBudget = !ran.ok && turnCapped && ran.error.code === 'YARE_STEP_LIMIT';
    const result: RunResult =
      overBudget && !ran.ok
        ? {
            ...ran,
            error: {
              ...ran.error,
              message: `the turn's rule budget of ${this.limits.maxRuleSteps} steps (maxRuleSteps) is used up; '${event}' did not run to its end and changed nothing`,
            },
          }
        : ran;
    this.ruleCalls.push({
      source,
      event,
      inputs: inputs as RuleCall['inputs'],
      ok: result.ok,
      ...(result.ok
        ? {}
        : {
            error: {
              code: overBudget ? 'TURN_RULE_BUDGET' : result.error.code,
              message: result.error.message,
            },
          }),
      notes: [...result.notes],
      steps: result.stepsUsed,
    });
    // A failed run changed nothing, so its notes describe nothing that happened.
    if (result.ok) this.notes.push(...result.notes);
    return result;
  }

  throwIfAborted(): void {
    if (this.signal?.aborted) throw new TurnError('aborted', 'the turn was cancelled');
  }
}
