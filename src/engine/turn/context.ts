// The working state of one turn, shared by its phases: one rules runner and one dice generator for the
// whole turn, and everything the record will hold. Nothing here leaves the turn unless it completes.

import { lookup, summarizeWorld, type WorldSummary } from '../../core/ledger/index.ts';
import type { ModelRole } from '../../adapters/llm/index.ts';
import type { LoreIndex } from '../../core/lore/index.ts';
import {
  checkInvariants,
  type CompiledRules,
  DiceRoller,
  type Dict,
  EventRunner,
  MAX_STEPS_PER_RUN,
  type RunResult,
} from '../../core/yare/index.ts';
import { type BudgetPart, type TurnBudget, TurnBudgetExceeded } from '../../core/turn-budget.ts';
import { TurnError } from './errors.ts';
import { type ClockMode, clockMode } from './game-time.ts';
import type { LedgerOptions } from './ledger/world.ts';
import type { TurnLimits } from './limits.ts';
import type { ConditionVerdicts } from '../../core/cartridge/index.ts';
import { loreIndexOf, loreVerdicts } from './lore.ts';
import type { TurnWorldInfo } from './world-info-turn.ts';
import type {
  InvariantBreach,
  PromptRecord,
  RefusedModelOutput,
  RuleCall,
  StoryMessage,
  ToolTraceEntry,
  TurnCartridge,
  TurnPersona,
  TurnTable,
} from './types.ts';
import { callActor, type Party } from './party.ts';

/** A lore section in this turn, as the prompts record it (lore-sections.ts builds them). */
export interface LoreInTurn {
  readonly text: string;
  readonly why: string;
  /** Brought in by the story's words (a lookup, a key), not by a condition or a constant entry. */
  readonly byWords: boolean;
}

export class TurnContext {
  readonly rules: CompiledRules;
  readonly clock: ClockMode;
  readonly dice: DiceRoller;
  /** Replaced (same dice) when a round's next actor's per-character state is bound (party.ts). */
  runner: EventRunner;
  readonly ruleCalls: RuleCall[] = [];
  /** Notes of the rule runs that succeeded, in order: what the Narrator is told happened. */
  readonly notes: string[] = [];
  /**
   * Where notes show private values, by index in `notes` ([start, end) pairs; `RunResult.privateNotes`):
   * every view a player or the Narrator reads leaves them out (private-notes.ts).
   */
  readonly privateNoteSpans = new Map<number, readonly number[]>();
  readonly tools: ToolTraceEntry[] = [];
  readonly prompts: PromptRecord[] = [];
  readonly warnings: string[] = [];
  readonly modelIds: Partial<Record<ModelRole, string>> = {};
  /** Values of the models' answers over their caps, replaced before anything kept them (output-caps.ts). */
  readonly refusedOutput: RefusedModelOutput[] = [];
  /** Invariants an event of this turn left broken (`invariants:` in yare.yaml), checked after every event. */
  readonly invariantBreaches: InvariantBreach[] = [];
  /** Lore retrieved or in play this turn, by id (first-seen order), with why: what the NPC brain is shown. */
  readonly lore = new Map<string, LoreInTurn>();
  /** In-game seconds accepted so far this turn; applied once, after the Director. */
  timeSeconds = 0;
  /** NPC queries that reached the NPC model this turn. */
  npcQueries = 0;
  /** Rule steps used by this turn's runs so far (the budget is `limits.maxRuleSteps`). */
  ruleSteps = 0;
  /**
   * Milliseconds this turn's rule runs have taken so far on the compute clock (the budget is
   * `limits.maxRuleMs`): the time spent waiting for a model or computing World Info does not count.
   */
  ruleMs = 0;
  /** Directives given through `finish_turn` in the current round. */
  finishDirectives: string | undefined;
  /** The World Info activated for this turn (cartridges with `world_info.json`). */
  worldInfo: TurnWorldInfo | undefined;
  /** System messages from the player's chat front end (OpenAI-compatible endpoint): player context, never rules. */
  playerContext: string | undefined;
  /** The story before this turn, oldest first: what a prompt's history receipts say it left out. */
  story: readonly StoryMessage[] = [];
  /** A shared table's turn: who acts and who is present (the prompts say so; `actor` inputs follow it). */
  table: TurnTable | undefined;
  /** The characters' own copies of the per-character domain, the acting one's bound (party.ts). */
  party: Party | undefined;
  /**
   * The `when:` conditions of the lore and World Info on the state and world the turn begins with: what the
   * Director, the NPC brain and World Info see in play.
   */
  readonly loreVerdicts: ConditionVerdicts;
  constructor(
    readonly cartridge: TurnCartridge,
    state: Dict,
    readonly seed: number,
    readonly limits: TurnLimits,
    readonly persona: TurnPersona | undefined,
    readonly signal: AbortSignal | undefined,
    readonly now: () => number,
    /** The world before the turn, the ledger turn to commit at, and how the Narrator proposes changes. */
    readonly ledger: LedgerOptions,
    /** Strict mode: a broken invariant refuses the turn instead of being recorded. */
    readonly strict = false,
    /** The turn's compute budget (run-turn.ts creates it before the lore is prepared). */
    readonly budget: TurnBudget,
  ) {
    this.rules = cartridge.rules;
    this.clock = clockMode(this.rules);
    this.dice = DiceRoller.fromSeed(seed);
    this.runner = new EventRunner(this.rules, state, this.dice);
    // The lore is chunked and indexed already (run-turn.ts, loreOfSliced): the conditions only evaluate.
    this.loreVerdicts = this.budget.measure({ kind: 'lore', what: '`when:` conditions' }, () =>
      loreVerdicts(cartridge, state, ledger.world),
    );
  }

  private settledVerdicts: { state: Dict; verdicts: ConditionVerdicts } | undefined;

  /**
   * The conditions on the state as it is now (after the turn's events, for the Narrator): a section whose
   * condition the turn made true is in play in the prose that tells of it.
   */
  get currentLoreVerdicts(): ConditionVerdicts {
    const state = this.state;
    if (this.settledVerdicts?.state !== state) {
      this.settledVerdicts = {
        state,
        verdicts: this.budget.measure({ kind: 'lore', what: '`when:` conditions' }, () =>
          loreVerdicts(this.cartridge, state, this.ledger.world),
        ),
      };
    }
    return this.settledVerdicts.verdicts;
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

  private viewerSummaries = new Map<string, WorldSummary>();

  /** The world as `viewer` knows it: public facts and those it learned (docs/ledger.md, "Who knows what"). */
  worldSummaryFor(viewer: string | undefined): WorldSummary {
    if (viewer === undefined) return this.worldSummary;
    let summary = this.viewerSummaries.get(viewer);
    if (summary === undefined) {
      summary = summarizeWorld(this.ledger.world, { tokenBudget: this.limits.worldSummaryTokens, viewer });
      this.viewerSummaries.set(viewer, summary);
    }
    return summary;
  }

  /**
   * Whose eyes the Narrator tells the story through: the player character's entity (the ledger policy's
   * `player`) when the world has it; else no one in particular (every fact).
   */
  get playerEntity(): string | undefined {
    // At a shared table, the acting character's own entity when the world has one.
    const actor = this.table?.actors.length === 1 ? this.table.actors[0]!.character : undefined;
    if (actor !== undefined && lookup(this.ledger.world.entities, actor) !== undefined) return actor;
    const key = this.cartridge.ledger.policy.player;
    return key !== null && lookup(this.ledger.world.entities, key) !== undefined ? key : undefined;
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
    this.bindActorOf(event, inputs);
    const { ran, turnCapped } = this.runWithinBudgets(event, inputs);
    this.ruleSteps += ran.stepsUsed;
    const overBudget = !ran.ok && turnCapped && ran.error.code === 'YARE_STEP_LIMIT';
    const result = overBudget ? withRuleBudgetMessage(ran, event, this.limits.maxRuleSteps) : ran;
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
    if (result.ok) {
      const at = this.notes.length;
      for (const note of result.privateNotes) this.privateNoteSpans.set(at + note.index, note.spans);
      this.notes.push(...result.notes);
      this.checkInvariantsAfter(source, event);
    }
    return result;
  }

  /**
   * The run, capped by what is left of the turn's rule budget and of its compute budget. A run the compute
   * budget stops ends the turn (the cartridge is too costly); `turnCapped`: the rule budget capped it.
   */
  private runWithinBudgets(
    event: string,
    inputs: Readonly<Record<string, unknown>>,
  ): { ran: RunResult; turnCapped: boolean } {
    const left = Math.max(0, this.limits.maxRuleSteps - this.ruleSteps);
    const part: BudgetPart = { kind: 'event', name: event };
    const budgetSteps = this.budget.stepsLeft;
    const budgetCapped = budgetSteps < Math.min(MAX_STEPS_PER_RUN, left);
    // On the budget's compute clock, like the budget: a loaded machine does not spend the rules' time.
    const clock = this.budget.computeNow;
    const start = clock();
    const ruleDeadline = start + Math.max(0, this.limits.maxRuleMs - this.ruleMs);
    const budgetDeadline = start + this.budget.msLeft;
    const ran = this.budget.measure(part, () =>
      this.runner.run(event, inputs, {
        maxSteps: Math.min(MAX_STEPS_PER_RUN, left, budgetSteps),
        deadline: Math.min(ruleDeadline, budgetDeadline),
        now: clock,
      }),
    );
    this.ruleMs += clock() - start;
    this.budget.spend(part, ran.stepsUsed);
    if (!ran.ok && budgetCapped && ran.error.code === 'YARE_STEP_LIMIT')
      throw new TurnBudgetExceeded(part, 'steps', this.budget.limits);
    if (!ran.ok && budgetDeadline < ruleDeadline && ran.error.code === 'YARE_TIME_LIMIT')
      throw new TurnBudgetExceeded(part, 'ms', this.budget.limits);
    return { ran, turnCapped: left < MAX_STEPS_PER_RUN };
  }

  /** A round: the event's `actor` gets their own per-character state before it runs (party.ts). */
  private bindActorOf(event: string, inputs: Readonly<Record<string, unknown>>): void {
    const actor = this.party && callActor(this.rules, event, inputs);
    if (this.party === undefined || actor === undefined || actor === this.party.bound) return;
    this.runner = new EventRunner(this.rules, this.party.rebind(this.runner.state, actor), this.dice);
  }

  /**
   * The cartridge's invariants on the state an event left (docs/yare.md, Invariants): each one that does
   * not hold is recorded; in strict mode the first breach refuses the whole turn.
   */
  private checkInvariantsAfter(source: RuleCall['source'], event: string): void {
    if (this.rules.invariants.length === 0) return;
    const failures = checkInvariants(this.rules, this.runner.state);
    for (const failure of failures) {
      this.invariantBreaches.push({ ...failure, event, source, call: this.ruleCalls.length });
    }
    const first = failures[0];
    if (first !== undefined && this.strict) {
      const at = `${first.place.file}:${first.place.line}:${first.place.col}`;
      throw new TurnError(
        'invariant',
        `${at}: ${first.message}, after event '${event}'; the turn is refused (strict mode) and nothing changed`,
      );
    }
  }

  throwIfAborted(): void {
    if (this.signal?.aborted) throw new TurnError('aborted', 'the turn was cancelled');
  }
}

/** A run the turn's rule budget stopped, its error saying so: it did not run to its end and changed nothing. */
function withRuleBudgetMessage(ran: RunResult, event: string, maxRuleSteps: number): RunResult {
  if (ran.ok) return ran;
  return {
    ...ran,
    error: {
      ...ran.error,
      message: `the turn's rule budget of ${maxRuleSteps} steps (maxRuleSteps) is used up; '${event}' did not run to its end and changed nothing`,
    },
  };
}
