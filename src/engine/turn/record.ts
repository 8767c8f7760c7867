// The TurnRecord and its replay. A turn's rule work is a list of rule calls run on one seeded generator,
// then two engine steps (clear a resolved mini-game, advance the clock); `settleState` does those two for
// the live turn and for replay alike, so replaying a record's calls on the state before, with its seed,
// gives back exactly its `stateAfter`.

import { canonicalJson, proposeBatch, type Stamp, toWire, type World } from '../../core/ledger/index.ts';
import type { ModelRole, RoleUsage } from '../../adapters/llm/index.ts';
import {
  type CompiledRules,
  DiceRoller,
  type Dict,
  diffStates,
  EventRunner,
  newDict,
  type RollRecord,
  toValue,
} from '../../core/yare/index.ts';
import type { TurnContext } from './context.ts';
import { callActor, Party } from './party.ts';
import { type ClockMode, checkAdvance, ELAPSED_MINUTES_KEY, elapsedSeconds } from './game-time.ts';
import { clearPending } from './interaction.ts';
import { withRecordedWorldInfo } from './world-info-turn.ts';
import type { LedgerOutcome } from './ledger/turn.ts';
import type {
  DirectorStop,
  GameState,
  TimeRecord,
  TurnCartridge,
  TurnInputRecord,
  TurnPhase,
  TurnRecord,
} from './types.ts';

export interface SettleResult {
  readonly state: Dict;
  readonly time: TimeRecord;
  readonly warning?: string;
}

/** The engine's own state changes after the rule calls: mini-game cleared, then the clock advanced. */
export function settleState(
  rules: CompiledRules,
  clock: ClockMode,
  state: Dict,
  steps: { readonly clearInteraction: boolean; readonly advanceSeconds: number },
): SettleResult {
  let out = steps.clearInteraction ? clearPending(rules, state) : state;
  // The events' own time is in `steps.advanceSeconds` (the caller read it); the field starts each turn at 0.
  if (elapsedSeconds(out) > 0) {
    const reset = newDict();
    for (const key of Object.keys(out)) reset[key] = out[key] as Dict[string];
    reset[ELAPSED_MINUTES_KEY] = 0;
    out = reset;
  }
  const before = clock === 'engine' && typeof out.game_time === 'string' ? out.game_time : '';
  const unchanged = (warning?: string): SettleResult => ({
    state: out,
    time: { before, after: before, advancedSeconds: 0, mode: clock },
    ...(warning === undefined ? {} : { warning }),
  });
  if (clock === 'cartridge' || steps.advanceSeconds <= 0) return unchanged();
  const advanced = checkAdvance(out, steps.advanceSeconds);
  // Every duration was checked against the clock when it was accepted; an event may still have changed
  // game_time afterwards, and then the clock stays where the events left it.
  if (!advanced.ok) return unchanged(`time was not advanced: ${advanced.message}`);
  const next = newDict();
  for (const key of Object.keys(out)) next[key] = out[key] as Dict[string];
  next.game_time = advanced.value;
  out = next;
  return {
    state: out,
    time: { before, after: advanced.value, advancedSeconds: steps.advanceSeconds, mode: clock },
  };
}

export interface RecordParts {
  readonly ctx: TurnContext;
  readonly mode: 'online' | 'offline';
  readonly input: TurnInputRecord;
  readonly seed: number;
  readonly stateBefore: Dict;
  readonly time: TimeRecord;
  readonly directives: string;
  readonly narration: string;
  readonly directorStop: DirectorStop;
  readonly usage: Readonly<Record<ModelRole, RoleUsage>>;
  readonly timings: Partial<Record<TurnPhase, number>> & { total: number };
  readonly ledger: LedgerOutcome;
}

export function buildRecord(parts: RecordParts): TurnRecord {
  const { ctx } = parts;
  const stateAfter = ctx.state;
  return {
    version: 1,
    cartridge: { name: ctx.cartridge.name, contentHash: ctx.cartridge.contentHash },
    mode: parts.mode,
    input: parts.input,
    seed: parts.seed,
    narration: parts.narration,
    directives: parts.directives,
    stateAfter: stateAfter as GameState,
    delta: diffStates(parts.stateBefore, stateAfter),
    notes: [...ctx.notes],
    rolls: [...ctx.dice.rolls],
    ruleCalls: [...ctx.ruleCalls],
    time: parts.time,
    tools: [...ctx.tools],
    prompts: [...ctx.prompts],
    usage: parts.usage,
    timings: parts.timings,
    models: { ...ctx.modelIds },
    ...(ctx.refusedOutput.length === 0 ? {} : { refusedOutput: [...ctx.refusedOutput] }),
    directorStop: parts.directorStop,
    warnings: [...ctx.warnings],
    messages: [
      { role: 'user', content: parts.input.text },
      { role: 'assistant', content: parts.narration },
    ],
    ledger: {
      status: parts.ledger.status,
      mode: ctx.ledger.mode,
      turn: parts.ledger.at.turn,
      ...(parts.ledger.at.gameTime === undefined ? {} : { gameTime: parts.ledger.at.gameTime }),
      time: parts.ledger.time,
      repairs: parts.ledger.repairs,
      errors: parts.ledger.errors,
      attempts: parts.ledger.attempts,
      worldAfter: parts.ledger.world,
    },
    ledgerEvents: parts.ledger.events.map(toWire),
  };
}

export interface ReplayResult {
  readonly state: Dict;
  readonly rolls: readonly RollRecord[];
  readonly notes: readonly string[];
  /**
   * Rule calls whose success differs from the record (a sign the cartridge or the state is not the same),
   * and, when the world before was given, a committed ledger batch that no longer validates or applies to
   * a different world.
   */
  readonly divergences: readonly string[];
  /** The world after the turn, re-validated and re-applied; only when `options.world` was given. */
  readonly world?: World;
}

/** Error codes of a run stopped by a budget rather than by its rules. */
const BUDGET_CODES: ReadonlySet<string> = new Set(['TURN_RULE_BUDGET', 'YARE_TIME_LIMIT', 'YARE_STEP_LIMIT']);

export interface ReplayOptions {
  /** The world before the turn (the previous record's `ledger.worldAfter`, or `initialWorld(cartridge)`). */
  readonly world?: World;
}

/**
 * Replays a record's rule calls against the state before the turn with the record's seed, then the same
 * engine steps. No model is involved: the record holds every decision the models made.
 */
export function replayTurnRules(
  cartridge: TurnCartridge,
  stateBefore: GameState,
  record: TurnRecord,
  options: ReplayOptions = {},
): ReplayResult {
  const dice = DiceRoller.fromSeed(record.seed);
  const rules = cartridge.rules;
  // A shared table's turn binds its actors' own state as the live turn did (party.ts).
  const first = record.input.table?.actors[0];
  const bound =
    first === undefined ? undefined : Party.bind(rules, toValue(stateBefore) as Dict, first.character);
  let runner = new EventRunner(rules, bound?.state ?? toValue(stateBefore), dice);
  const notes: string[] = [];
  const divergences: string[] = [];
  record.ruleCalls.forEach((call, index) => {
    const actor = bound && callActor(rules, call.event, call.inputs);
    if (bound !== undefined && actor !== undefined && actor !== bound.party.bound)
      runner = new EventRunner(rules, bound.party.rebind(runner.state, actor), dice);
    // A run the turn's budget (steps or wall time) stopped is stopped at the same step on replay, so its
    // dice and its failure are the same whatever the replaying machine's speed.
    const stopped = !call.ok && call.steps !== undefined && BUDGET_CODES.has(call.error?.code ?? '');
    const result = runner.run(call.event, call.inputs, stopped ? { maxSteps: call.steps } : undefined);
    if (result.ok) notes.push(...result.notes);
    if (result.ok !== call.ok) {
      divergences.push(
        `rule call ${index + 1} (${call.event}) ${result.ok ? 'succeeded' : 'failed'} on replay`,
      );
    }
  });
  const settled = settleState(cartridge.rules, record.time.mode, runner.state, {
    clearInteraction: record.input.kind === 'interaction',
    advanceSeconds: record.time.advancedSeconds,
  });
  // World Info bookkeeping is recorded, not recomputed: it depends on the story's messages.
  const told = withRecordedWorldInfo(settled.state, record.worldInfo);
  const state = bound === undefined ? told : bound.party.store(told);
  if (options.world === undefined) return { state, rolls: dice.rolls, notes, divergences };
  const world = replayLedger(cartridge, record, options.world, divergences);
  return { state, rolls: dice.rolls, notes, divergences, world };
}

/**
 * Re-validates the record's committed batch against the world before (a save is untrusted input, so
 * every stored event is checked again) and re-applies it at the recorded stamp. Records written before
 * the ledger existed carry no batch.
 */
function replayLedger(
  cartridge: TurnCartridge,
  record: TurnRecord,
  before: World,
  divergences: string[],
): World {
  const ledger = (record as Partial<Pick<TurnRecord, 'ledger'>>).ledger;
  const events: readonly unknown[] = Array.isArray(record.ledgerEvents) ? record.ledgerEvents : [];
  if (ledger === undefined || ledger.status !== 'applied') {
    if (events.length > 0) {
      divergences.push(
        `the record says ${ledger?.status ?? 'no ledger'} but carries ${events.length} ledger event(s)`,
      );
    }
    return before;
  }
  const at: Stamp =
    ledger.gameTime === undefined ? { turn: ledger.turn } : { turn: ledger.turn, gameTime: ledger.gameTime };
  const result = proposeBatch(before, events, cartridge.ledger.policy, { at, source: 'narrator' });
  if (!result.ok) {
    const reasons = result.errors.map((e) => `#${e.index} ${e.code}: ${e.message}`).join('; ');
    divergences.push(`the committed ledger batch is rejected on replay: ${reasons}`);
    return before;
  }
  if (canonicalJson(result.events.map(toWire)) !== canonicalJson(events)) {
    divergences.push('the committed ledger batch validates to different events on replay');
  }
  if (ledger.worldAfter !== undefined && canonicalJson(result.world) !== canonicalJson(ledger.worldAfter)) {
    divergences.push("re-applying the ledger batch gives a different world than the record's worldAfter");
  }
  return result.world;
}
