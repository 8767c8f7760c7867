// One turn: cycle ticks → (mini-game resolver | Director tool loop | offline matcher) → clock → Narrator,
// streamed as typed events and ending in a TurnRecord. The turn has no side effects: it computes a new
// state and a record from the state it was given, and the caller commits both (or nothing). Cancelling
// (the signal) or any model failure yields an `error` event, throws a `TurnError`, and yields no record.
// Everything the turn computes charges its one compute budget, and its long loops give the event loop back
// every TURN_SLICE_MS (src/core/turn-budget.ts); past the budget the turn fails as `budget`, naming the part.

import { withTableActor } from './table-actor.ts';
import { applyBatch } from '../../core/ledger/index.ts';
import { capModels, meterModels, ModelError, type ToolCall, UsageMeter } from '../../adapters/llm/index.ts';
import { TurnBudget, TurnBudgetExceeded } from '../../core/turn-budget.ts';
import { type CompiledRules, type Dict, diffStates, toValue } from '../../core/yare/index.ts';
import { Party, roundChanges } from './party.ts';
import { TurnContext } from './context.ts';
import { coarseCpuClock } from './cpu-clock.ts';
import { type DirectorOutcome, DIRECTOR_HISTORY_TOKENS, runDirector } from './director.ts';
import { TurnError } from './errors.ts';
import { currentGameTime, elapsedSeconds } from './game-time.ts';
import {
  checkInteractionInput,
  hasPendingInteraction,
  interactionDirectives,
  interactionText,
  matchPending,
  PENDING_KEY,
  resolverInputs,
} from './interaction.ts';
import { resolveLedgerOptions } from './ledger/world.ts';
import { settleNarration } from './fidelity-turn.ts';
import {
  extractWorldChanges,
  type LedgerConversation,
  type LedgerOutcome,
  settleProposal,
} from './ledger/turn.ts';
import { MAX_INPUT_CHARS, MAX_SEED, TURN_SLICE_MS, type TurnLimits, resolveTurnLimits } from './limits.ts';
import { loreInPlay, loreOfSliced } from './lore.ts';
import { NARRATOR_HISTORY_TOKENS, runNarrator } from './narrator.ts';
import { type OfflineContext, chooseOffline } from './offline/choose.ts';
import { timePassed } from './offline/free.ts';
import { knownEntries } from './offline/known.ts';
import { narrateOffline } from './offline/narration.ts';
import { fitMessages, historyStep, recentMessages } from './prompts.ts';
import { buildRecord, settleState } from './record.ts';
import { sanitizeForPrompt } from '../../core/text-policy.ts';
import { neutralPersona } from './sanitize.ts';
import { withKnownValues } from './known-values.ts';
import {
  checkedArgs,
  directorTools,
  runAdvanceTime,
  runAfterEventHooks,
  runEventTool,
  type ToolOutcome,
} from './tools.ts';
import {
  activateForTurnSliced,
  withWorldInfoState,
  worldInfoLore,
  worldInfoRecord,
} from './world-info-turn.ts';
import type {
  FidelityRecord,
  GameState,
  InteractionInput,
  StoryMessage,
  TurnEvent,
  TurnInputRecord,
  TurnOptions,
  TurnPhase,
  TurnRecord,
  TurnTable,
} from './types.ts';

interface Prepared {
  readonly limits: TurnLimits;
  /** The state the turn starts from: at a shared table, with the acting character's own state bound. */
  readonly state: Dict;
  readonly input: TurnInputRecord;
  /** A shared table's characters' own state (party.ts); undefined without a per-character domain. */
  readonly party?: Party;
}

/** At a shared table: the first actor's own state bound, and who acted kept in the input record. */
function atTable(rules: CompiledRules, prepared: Prepared, table: TurnTable | undefined): Prepared {
  if (table === undefined) return prepared;
  const first = table.actors[0];
  if (first === undefined) throw new TurnError('input', 'a shared table turn names at least one actor');
  const input: TurnInputRecord = {
    ...prepared.input,
    table: {
      actors: table.actors.map((a) => ({ character: a.character, name: a.name })),
      ...(table.whisper ? { whisper: true } : {}),
    },
  };
  const bound = Party.bind(rules, prepared.state, first.character);
  return bound === undefined
    ? { ...prepared, input }
    : { ...prepared, input, state: bound.state, party: bound.party };
}

function prepare(options: TurnOptions): Prepared {
  const limits = resolveTurnLimits(options.limits);
  if ('error' in limits) throw new TurnError('input', limits.error);
  if (!Number.isSafeInteger(options.seed) || options.seed < 0) {
    throw new TurnError(
      'input',
      `seed must be an integer from 0 to ${MAX_SEED} (MAX_SEED), got ${String(options.seed)}`,
    );
  }
  let state: Dict;
  try {
    state = toValue(options.state) as Dict;
  } catch (error) {
    throw new TurnError('input', `state is not plain JSON data: ${(error as Error).message}`);
  }
  if (typeof state !== 'object' || state === null || Array.isArray(state)) {
    throw new TurnError('input', 'state must be a JSON object');
  }
  const hasText = options.input !== undefined;
  const hasInteraction = options.interaction !== undefined;
  if (hasText === hasInteraction) {
    throw new TurnError(
      'input',
      'give exactly one of input (the player text) and interaction (a mini-game result)',
    );
  }
  if (hasInteraction) {
    const checked = checkInteractionInput(options.interaction);
    if (!checked.ok) throw new TurnError('interaction', checked.message);
    const interaction = checked.value;
    return { limits, state, input: { kind: 'interaction', interaction, text: interactionText(interaction) } };
  }
  const text = options.input;
  if (typeof text !== 'string' || text.trim() === '')
    throw new TurnError('input', 'input must be non-empty text');
  if (text.length > MAX_INPUT_CHARS) {
    throw new TurnError(
      'input',
      `input is ${text.length} characters; the limit is ${MAX_INPUT_CHARS} (MAX_INPUT_CHARS)`,
    );
  }
  if (hasPendingInteraction(state)) {
    const pending = state[PENDING_KEY] as Dict;
    throw new TurnError(
      'interaction',
      `Cannot process free-text input while a mini-game is pending (${JSON.stringify(pending.minigame_id ?? 'unknown')}). Send its result as an interaction first.`,
    );
  }
  return { limits, state, input: { kind: 'text', text } };
}

function toTurnError(error: unknown, signal: AbortSignal | undefined): TurnError {
  if (error instanceof TurnError) return error;
  if (error instanceof TurnBudgetExceeded)
    return new TurnError('budget', error.message, { cause: error, part: error.part });
  if (error instanceof ModelError) {
    if (error.kind === 'aborted' || signal?.aborted)
      return new TurnError('aborted', 'the turn was cancelled', { cause: error });
    return new TurnError('model', `model call failed (${error.kind}): ${error.message}`, { cause: error });
  }
  if (signal?.aborted) return new TurnError('aborted', 'the turn was cancelled', { cause: error });
  throw error;
}

/** Runs one turn. See the module comment; the last event of a successful turn is `done` with the record. */
export async function* runTurn(options: TurnOptions): AsyncGenerator<TurnEvent, void, undefined> {
  try {
    yield* turn(options);
  } catch (error) {
    const turnError = toTurnError(error, options.signal);
    yield { type: 'error', kind: turnError.kind, message: turnError.message };
    throw turnError;
  }
}

async function* turn(options: TurnOptions): AsyncGenerator<TurnEvent, void, undefined> {
  const run = await openTurn(options);
  const { ctx, prepared } = run;
  yield* runCycleTicks(run);
  const decided = yield* decide(run, [...ctx.notes]);
  ctx.throwIfAborted();
  const stateBeforeSettle = ctx.state;
  const settleStarted = run.now();
  let settled = settleEngineChanges(run, stateBeforeSettle, 0);
  // The first settle's warning and time are the turn's; the second only adds the Narrator's accepted time.
  if (settled.warning) ctx.warnings.push(settled.warning);
  run.timings.time = run.now() - settleStarted;
  if (settled.time.advancedSeconds > 0) yield { type: 'phase', phase: 'time' };
  const told = yield* narrate(run, decided);
  ctx.throwIfAborted();
  // The Narrator's accepted time joins the Director's: the clock still advances once, by the sum.
  if (told.ledger.seconds > 0) settled = settleEngineChanges(run, stateBeforeSettle, told.ledger.seconds);
  ctx.settle(withWorldInfoState(ctx.state, ctx.worldInfo));
  const committed = stampedWorld(ctx, told.ledger);
  const checked = await checkFidelity(run, told, settled.time.advancedSeconds);
  ctx.throwIfAborted();
  const built: TurnRecord = buildRecord({
    ctx,
    mode: run.models === null ? 'offline' : 'online',
    input: prepared.input,
    seed: options.seed,
    stateBefore: prepared.state,
    time: settled.time,
    directives: decided.outcome.directives,
    narration: checked.narration,
    directorStop: decided.outcome.stop,
    usage: run.meter.byRole(),
    timings: { ...run.timings, total: run.now() - run.started },
    ledger: committed,
  });
  const record = withTurnExtras(ctx, built, checked.fidelity);
  yield { type: 'done', record: storedRecord(options.cartridge.rules, record, prepared, options.state) };
}

/** What every phase of one turn shares (made by openTurn). */
interface TurnRun {
  readonly options: TurnOptions;
  readonly cartridge: TurnOptions['cartridge'];
  readonly prepared: Prepared;
  readonly ctx: TurnContext;
  readonly budget: TurnBudget;
  /** The roles' models, capped and metered; null for an offline turn. */
  readonly models: TurnModels | null;
  readonly meter: UsageMeter;
  /** The story's recent messages, neutralised for prompts (empty offline). */
  readonly history: StoryMessage[];
  /** The history window's step (the roles' token caps trim in it: cache-friendly, see fitMessages). */
  readonly step: number;
  /** The player's words, neutralised for prompts. */
  readonly promptText: string;
  readonly now: () => number;
  readonly started: number;
  readonly timings: Partial<Record<TurnPhase, number>>;
}

type TurnModels = ReturnType<typeof meterModels>;

/** The turn's context, budget, models and prompt inputs, with its lore and World Info in play. */
async function openTurn(options: TurnOptions): Promise<TurnRun> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const { cartridge } = options;
  const prepared = atTable(cartridge.rules, prepare(options), options.table);
  const budget = turnBudget(options, prepared.limits, now);
  await loreOfSliced(cartridge, budget);
  const ctx = openContext(options, prepared, budget, now);
  ctx.throwIfAborted();
  const meter = new UsageMeter();
  const models = turnModels(options.models, ctx, meter);
  // Player text and earlier prose reach prompts only neutralised; the record keeps the raw input. Only the
  // models' prompts read the story: an offline turn neutralises none of it.
  const history = models === null ? [] : promptHistory(options.messages, prepared.limits.historyMessages);
  ctx.story = options.messages;
  const promptText = sanitizeForPrompt(prepared.input.text);
  await budget.breathe();
  ctx.worldInfo = await activateForTurnSliced(
    budget,
    cartridge,
    prepared.state,
    options.messages,
    promptText,
    options.seed,
    options.worldInfoTrigger,
    ctx.loreVerdicts,
  );
  for (const [id, text] of worldInfoLore(ctx.worldInfo)) ctx.lore.set(id, text);
  ctx.playerContext =
    options.playerContext === undefined ? undefined : sanitizeForPrompt(options.playerContext);
  const step = historyStep(prepared.limits.historyMessages);
  return {
    options,
    cartridge,
    prepared,
    ctx,
    budget,
    models,
    meter,
    history,
    step,
    promptText,
    now,
    started,
    timings: {},
  };
}

/** The story's last `count` messages, neutralised for prompts. */
function promptHistory(messages: TurnOptions['messages'], count: number): StoryMessage[] {
  return recentMessages(messages, count).map((message) => ({
    ...message,
    content: sanitizeForPrompt(message.content),
  }));
}

/**
 * The turn's one compute budget (limits `maxTurnSteps`, `maxTurnMs`) and its pacing: every part of the
 * turn charges it, and long loops give the event loop back through it (src/core/turn-budget.ts).
 */
function turnBudget(options: TurnOptions, limits: Prepared['limits'], now: () => number): TurnBudget {
  return new TurnBudget(
    { maxSteps: limits.maxTurnSteps, maxMs: limits.maxTurnMs, sliceMs: TURN_SLICE_MS },
    now,
    pausing(options.yieldNow ?? nextTurnOfTheLoop, options.signal),
    options.computeClock ?? (options.now === undefined ? processCpuMs : options.now),
  );
}

/** The turn's context over the prepared state, at its table with its party. */
function openContext(
  options: TurnOptions,
  prepared: Prepared,
  budget: TurnBudget,
  now: () => number,
): TurnContext {
  const ctx = new TurnContext(
    options.cartridge,
    prepared.state,
    options.seed,
    prepared.limits,
    neutralPersona(options.persona),
    options.signal,
    now,
    resolveLedgerOptions(options, options.models === null),
    options.strict === true,
    budget,
  );
  ctx.table = options.table;
  ctx.party = prepared.party;
  return ctx;
}

/** The turn's models, metered; every answer is capped (model id, call ids, finish reason, token counts) before any role keeps it. */
function turnModels(models: TurnOptions['models'], ctx: TurnContext, meter: UsageMeter): TurnModels | null {
  if (models === null) return null;
  const capped = capModels(models, (role, refused) => {
    for (const one of refused) ctx.refusedOutput.push({ role, ...one });
  });
  return meterModels(capped, meter);
}

/** 1. Cycle ticks, in declaration order, on the turn's one generator. */
async function* runCycleTicks(run: TurnRun): AsyncGenerator<TurnEvent, void, undefined> {
  const { cartridge, ctx, budget, now } = run;
  const ticks = cartridge.rules.eventNames.filter(
    (name) => cartridge.rules.events.get(name)?.triggerOn === 'cycle_tick',
  );
  if (ticks.length === 0) return;
  yield { type: 'phase', phase: 'cycle_tick' };
  const t = now();
  for (const name of ticks) {
    await budget.breathe();
    const result = ctx.runRule('cycle_tick', name, {});
    // A failing tick is a cartridge bug, not the player's: it changed nothing, and the turn goes on.
    if (!result.ok)
      ctx.warnings.push(`cycle tick '${name}' failed (${result.error.code}): ${result.error.message}`);
  }
  run.timings.cycle_tick = now() - t;
}

interface Decision {
  readonly outcome: DirectorOutcome;
  /** The offline matcher's answer, when it answered instead of running an event. */
  readonly offlineReply: string | undefined;
}

/** 2. The decision: a mini-game resolver, the Director, or the offline matcher. */
async function* decide(run: TurnRun, tickNotes: string[]): AsyncGenerator<TurnEvent, Decision, undefined> {
  const { ctx, models, now, prepared } = run;
  const input = prepared.input;
  if (input.kind === 'interaction') {
    yield { type: 'phase', phase: 'interaction' };
    const t = now();
    resolveInteraction(ctx, input.interaction);
    run.timings.interaction = now() - t;
    return {
      outcome: { directives: interactionDirectives(input.interaction), stop: 'skipped' },
      offlineReply: undefined,
    };
  }
  yield { type: 'phase', phase: 'director' };
  await run.budget.breathe();
  const t = now();
  let decision: Decision = { outcome: { directives: '', stop: 'skipped' }, offlineReply: undefined };
  if (models !== null) {
    const directorHistory = fitMessages(run.history, DIRECTOR_HISTORY_TOKENS, run.step);
    const outcome = yield* runDirector(ctx, models, run.promptText, directorHistory, tickNotes);
    decision = { outcome, offlineReply: undefined };
  } else {
    decision = { ...decision, offlineReply: yield* runOffline(ctx, run.promptText) };
  }
  run.timings.director = now() - t;
  return decision;
}

/**
 * 3. The engine's own changes, on the state before them: clear a resolved mini-game, advance the clock once
 * (by the Director's time, the state's elapsed time and `extraSeconds`, the Narrator's accepted time).
 */
function settleEngineChanges(
  run: TurnRun,
  stateBeforeSettle: Dict,
  extraSeconds: number,
): ReturnType<typeof settleState> {
  const { ctx } = run;
  const settled = settleState(run.cartridge.rules, ctx.clock, stateBeforeSettle, {
    clearInteraction: run.prepared.input.kind === 'interaction',
    advanceSeconds: ctx.timeSeconds + elapsedSeconds(stateBeforeSettle) + extraSeconds,
  });
  ctx.settle(settled.state);
  return settled;
}

interface Told {
  narration: string;
  ledger: LedgerOutcome;
  /** The Narrator's conversation (online), for the fidelity check's repair. */
  conversation: LedgerConversation | undefined;
}

/** 4. The Narrator (or the offline renderer), and 5. the world ledger it proposes. */
async function* narrate(run: TurnRun, decided: Decision): AsyncGenerator<TurnEvent, Told, undefined> {
  const { ctx, models, now } = run;
  yield { type: 'phase', phase: 'narrator' };
  await run.budget.breathe();
  const t = now();
  if (models === null) {
    const narration = run.budget.measure({ kind: 'offline', what: 'narration' }, () =>
      narrateOffline(run.cartridge.rules, {
        notes: ctx.notes,
        privateSpans: ctx.privateNoteSpans,
        reply: decided.offlineReply,
        persona: ctx.persona,
        lore: run.cartridge.lore,
        changes: diffStates(run.prepared.state, ctx.state),
        seed: run.options.seed,
      }),
    );
    yield { type: 'narration_delta', text: narration };
    run.timings.narrator = now() - t;
    return { narration, ledger: unchangedLedger(ctx, 'off'), conversation: undefined };
  }
  const told = yield* runNarrator(ctx, models.narrator, {
    // The Director's directives are model prose too.
    directives: sanitizeForPrompt(decided.outcome.directives),
    inputText: run.promptText,
    history: fitMessages(run.history, NARRATOR_HISTORY_TOKENS, run.step),
  });
  // Model prose is stored (and shown in later prompts) neutralised, like the player's words.
  const narration = sanitizeForPrompt(told.narration);
  run.timings.narrator = now() - t;
  const ledger = yield* proposeLedger(run, models, { ...told, narration });
  return { narration, ledger, conversation: told.conversation };
}

/**
 * 5. The world ledger: the Narrator's proposal (inline) or a separate extraction call, checked against the
 * world before the turn and repaired at most twice. Nothing is committed here: the record carries the
 * resulting world, and the caller commits it with the turn.
 */
async function* proposeLedger(
  run: TurnRun,
  models: TurnModels,
  told: { narration: string; toolCalls: readonly ToolCall[]; conversation: LedgerConversation },
): AsyncGenerator<TurnEvent, LedgerOutcome, undefined> {
  const { ctx, now } = run;
  const t = now();
  const mode = ctx.ledger.mode;
  if (mode === 'inline' && told.toolCalls.length > 0) {
    yield { type: 'phase', phase: 'ledger' };
    const answer = { text: told.narration, toolCalls: told.toolCalls };
    const ledger = await settleProposal(ctx, models.narrator, told.conversation, answer, 'narrator');
    run.timings.ledger = now() - t;
    return ledger;
  }
  if (mode === 'separate') {
    yield { type: 'phase', phase: 'ledger' };
    const ledger = await extractWorldChanges(ctx, models.narrator, {
      inputText: run.promptText,
      narration: told.narration,
    });
    run.timings.ledger = now() - t;
    return ledger;
  }
  return unchangedLedger(ctx, mode === 'off' ? 'off' : 'none');
}

/** 6. The fidelity check of model-written prose against the turn's facts (fidelity-turn.ts). */
async function checkFidelity(
  run: TurnRun,
  told: Told,
  advancedSeconds: number,
): Promise<{ narration: string; fidelity?: FidelityRecord }> {
  if (run.models === null || told.conversation === undefined) return { narration: told.narration };
  return settleNarration(
    run.ctx,
    run.models.narrator,
    told.conversation,
    told.narration,
    run.prepared.state,
    advancedSeconds,
    run.options.narrationCheck ?? 'repair',
  );
}

/** The record with what only some turns have: World Info activations, a fidelity check, invariant breaches. */
function withTurnExtras(
  ctx: TurnContext,
  built: TurnRecord,
  fidelity: FidelityRecord | undefined,
): TurnRecord {
  const withWorldInfo: TurnRecord =
    ctx.worldInfo === undefined ? built : { ...built, worldInfo: worldInfoRecord(ctx.worldInfo) };
  const withFidelity: TurnRecord = fidelity === undefined ? withWorldInfo : { ...withWorldInfo, fidelity };
  return ctx.invariantBreaches.length === 0
    ? withFidelity
    : { ...withFidelity, invariants: [...ctx.invariantBreaches] };
}

/**
 * The record as stored: at a shared table every character's own copy back in `players`; the delta is the
 * acting character's view, and a round's is each character's own changes (party.ts, roundChanges).
 */
function storedRecord(
  rules: CompiledRules,
  record: TurnRecord,
  prepared: Prepared,
  stateBefore: GameState,
): TurnRecord {
  if (prepared.party === undefined) return record;
  const stateAfter = prepared.party.store(record.stateAfter as Dict);
  const characters = (record.input.table?.actors ?? []).map((actor) => actor.character);
  const delta = roundChanges(rules, toValue(stateBefore) as Dict, stateAfter, characters);
  return { ...record, stateAfter: stateAfter as GameState, ...(delta === undefined ? {} : { delta }) };
}

/**
 * The default compute clock: milliseconds of CPU this process has used. While a turn computes its thread is
 * the one running JavaScript, so this is the turn's CPU (the collector's and any busy worker thread's
 * included); time the machine gives to other processes is not. One clock for every turn of the process,
 * read from the kernel at most once a CPU_CLOCK_RESOLUTION_MS (cpu-clock.ts says why).
 */
const processCpuMs = coarseCpuClock(
  () => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1_000;
  },
  () => performance.now(),
);

/** `yieldNow`, and then a cancelled turn stops where it paused (the client left, the turn timed out). */
function pausing(yieldNow: () => Promise<void>, signal: AbortSignal | undefined): () => Promise<void> {
  return async () => {
    await yieldNow();
    if (signal?.aborted) throw new TurnError('aborted', 'the turn was cancelled');
  };
}

/** The default `yieldNow`: one turn of the event loop, so requests that arrived meanwhile are served. */
function nextTurnOfTheLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function unchangedLedger(ctx: TurnContext, status: 'none' | 'off'): LedgerOutcome {
  return {
    status,
    events: [],
    world: ctx.ledger.world,
    at: { turn: ctx.ledger.turn },
    time: null,
    seconds: 0,
    repairs: 0,
    errors: [],
    attempts: [],
  };
}

/**
 * The outcome stamped with the clock the turn ends at. Validation stamped the batch with the clock after
 * the Director; when the Narrator's own `time` moved it further, the (already validated) events are applied
 * again at the final stamp — validation does not depend on the clock, only the stamps do.
 */
function stampedWorld(ctx: TurnContext, ledger: LedgerOutcome): LedgerOutcome {
  const gameTime = currentGameTime(ctx.state, ctx.clock);
  const at = gameTime === undefined ? { turn: ctx.ledger.turn } : { turn: ctx.ledger.turn, gameTime };
  if (ledger.status !== 'applied') return { ...ledger, at };
  if (at.gameTime === ledger.at.gameTime) return ledger;
  return { ...ledger, at, world: applyBatch(ctx.ledger.world, ledger.events, at) };
}

function resolveInteraction(ctx: TurnContext, interaction: InteractionInput): void {
  const pending = matchPending(ctx.rules, ctx.state, interaction);
  if (!pending.ok) throw new TurnError('interaction', pending.message);
  const resolver = pending.value.resolverEvent;
  ctx.notes.push(`Minigame resolved: ${interaction.minigame_id} (${interaction.status}).`);
  const result = ctx.runRule('resolver', resolver, resolverInputs(ctx.rules, resolver, interaction));
  if (!result.ok) {
    throw new TurnError(
      'interaction',
      `the mini-game's resolver_event '${resolver}' failed (${result.error.code}): ${result.error.message}`,
    );
  }
  // The player's result is a player's event: the hooks follow it (their notes are in ctx.notes already).
  runAfterEventHooks(ctx, resolver);
}

/** The game time an `advance_game_time` result reports (tools.ts, runAdvanceTime); undefined if none. */
function gameTimeAfter(content: string): unknown {
  try {
    return (JSON.parse(content) as { game_time_after_turn?: unknown }).game_time_after_turn;
  } catch {
    return undefined;
  }
}

/** The player's last line of the story, for an offline "again". */
function previousLine(story: readonly StoryMessage[]): { previous?: string } {
  for (let i = story.length - 1; i >= 0; i--)
    if (story[i]!.role === 'user') return { previous: story[i]!.content };
  return {};
}

/** What the offline matcher reads besides the player's words. */
function offlineContext(ctx: TurnContext): OfflineContext {
  return {
    state: ctx.state,
    intentInputs: ctx.cartridge.intentInputs,
    // Only the lore in play: a section whose condition is false is never told, offline either.
    lore: loreInPlay(ctx.cartridge, ctx.loreVerdicts),
    world: ctx.ledger.world,
    ...(ctx.persona === undefined ? {} : { persona: ctx.persona }),
    ...(ctx.cartridge.firstMessage === undefined ? {} : { opening: ctx.cartridge.firstMessage }),
    entries: knownEntries(ctx.cartridge.worldInfo),
    ...previousLine(ctx.story),
    story: ctx.story,
    seed: ctx.seed,
  };
}

/** Offline: one deterministic choice from the player's words, run through the same tool checks. */
async function* runOffline(ctx: TurnContext, text: string): AsyncGenerator<TurnEvent, string | undefined> {
  const tools = withTableActor(
    withKnownValues(directorTools(ctx.cartridge), ctx.state, ctx.ledger.world),
    ctx.table,
  );
  const context = offlineContext(ctx);
  const choice = ctx.budget.measure({ kind: 'offline', what: 'matcher' }, () =>
    chooseOffline(ctx.rules, tools, text, context),
  );
  // A question, a refusal, a free action, the list of what can be done, /help: the player is answered and
  // no turn is spent.
  if (choice.kind === 'reply') throw new TurnError('reply', choice.text, { reason: choice.reason });
  const id = 'offline_1';
  const rawArgs = JSON.stringify(choice.args);
  yield { type: 'tool_call', round: 1, id, name: choice.name, args: choice.args };
  const started = ctx.now();
  const tool = tools.byName.get(choice.name)!;
  const checked = checkedArgs(
    tool,
    { id, name: choice.name, args: choice.args, rawArgs },
    ctx.cartridge.intentInputs,
  );
  let outcome: ToolOutcome;
  if (!checked.ok) outcome = checked.outcome;
  else if (tool.kind === 'advance_game_time') outcome = runAdvanceTime(ctx, checked.args);
  else outcome = runEventTool(ctx, choice.name, checked.args, 'offline');
  ctx.tools.push({
    round: 1,
    id,
    name: choice.name,
    args: choice.args,
    rawArgs,
    ok: outcome.ok,
    content: outcome.content,
    durationMs: ctx.now() - started,
  });
  yield { type: 'tool_result', round: 1, id, name: choice.name, ok: outcome.ok, content: outcome.content };
  if (outcome.ok)
    return tool.kind === 'advance_game_time'
      ? timePassed(checked.ok ? checked.args.duration : undefined, gameTimeAfter(outcome.content))
      : choice.notice;
  throw new TurnError('reply', `That did not work: ${outcome.error ?? 'the rules refused it'}`, {
    reason: 'invalid',
  });
}

/** Runs a turn to its end and returns the record with every event (for callers that do not stream). */
export async function runTurnToRecord(
  options: TurnOptions,
): Promise<{ record: TurnRecord; events: TurnEvent[] }> {
  const events: TurnEvent[] = [];
  for await (const event of runTurn(options)) events.push(event);
  const done = events.at(-1);
  if (done?.type !== 'done') throw new TurnError('input', 'the turn ended without a record');
  return { record: done.record, events };
}
