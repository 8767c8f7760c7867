// Runs scenarios and properties over the engine's public APIs: `runEvent` for rule events, `runTurn`
// with the scripted provider (or offline) for whole turns and mini-game results. Every step's seed is
// fixed (the scenario's seed plus the step's number, unless the step gives its own), so a run is exact.

import type { Cartridge } from '../../../core/cartridge/index.ts';
import type { SourcePlace } from '../../../core/diagnostics.ts';
import type { World } from '../../../core/ledger/index.ts';
import { createScriptedModels, isModelError } from '../../../adapters/llm/index.ts';
import {
  type GameState,
  initialWorld,
  isTurnError,
  openingMessages,
  runTurnToRecord,
  type StoryMessage,
  type TurnRecord,
} from '../../../engine/turn/index.ts';
import { type Dict, runPlayerEvent, startingState, toStateValue, toValue } from '../../../core/yare/index.ts';
import { checkExpectation } from './expect.ts';
import type { Expectation, PropertyCheck, Scenario, ScenarioStep, Start } from './model.ts';
import type { StepObservation } from './observation.ts';
import { renderStep } from './transcript.ts';

export interface Failure {
  readonly place: SourcePlace;
  readonly message: string;
}

export interface CaseResult {
  readonly kind: 'scenario' | 'property';
  readonly name: string;
  readonly place: SourcePlace;
  readonly failures: readonly Failure[];
  /** The observed transcript (scenarios with `transcript: true`). */
  readonly transcript: string | undefined;
  /** Events run at the top level by any step (for coverage). */
  readonly eventsRun: ReadonlySet<string>;
}

export interface RunContext {
  readonly cartridge: Cartridge;
  /** A named save's state (tests/saves/NAME.json), or a message saying why it cannot be read. */
  readonly readSave: (
    name: string,
  ) => { ok: true; state: Record<string, unknown> } | { ok: false; message: string };
}

interface Play {
  state: GameState;
  world: World;
  messages: StoryMessage[];
  turns: number;
}

export async function runScenario(ctx: RunContext, scenario: Scenario): Promise<CaseResult> {
  const failures: Failure[] = [];
  const eventsRun = new Set<string>();
  const lines: string[] = [`# ${scenario.name}`];
  const play = startPlay(ctx, scenario.start, failures);
  if (play) {
    let last: StepObservation | undefined;
    for (const [i, step] of scenario.steps.entries()) {
      const seen = await runStep(ctx, play, step, step.seed ?? scenario.seed + i, failures);
      if (!seen) break;
      for (const e of seen.ran) eventsRun.add(e);
      lines.push(...renderStep(i + 1, step, seen));
      checkAll(ctx, step.expect, seen, failures);
      last = seen;
    }
    if (last && failures.length === 0) checkAll(ctx, scenario.expect, last, failures);
  }
  return {
    kind: 'scenario',
    name: scenario.name,
    place: scenario.place,
    failures,
    transcript: scenario.transcript ? `${lines.join('\n')}\n` : undefined,
    eventsRun,
  };
}

export async function runProperty(ctx: RunContext, property: PropertyCheck): Promise<CaseResult> {
  const eventsRun = new Set<string>();
  for (let seed = property.seeds.first; seed <= property.seeds.last; seed++) {
    const failures: Failure[] = [];
    const play = startPlay(ctx, property.start, failures);
    if (!play) return result(failures);
    for (const [i, step] of property.steps.entries()) {
      const seen = await runStep(ctx, play, step, step.seed ?? seed + i, failures);
      if (!seen) break;
      for (const e of seen.ran) eventsRun.add(e);
      checkAll(ctx, [...step.expect, ...property.always], seen, failures);
      if (failures.length > 0) {
        const at = `with seed ${seed}, after step ${i + 1}`;
        return result(failures.map((f) => ({ ...f, message: `${at}: ${f.message}` })));
      }
    }
    if (failures.length > 0)
      return result(failures.map((f) => ({ ...f, message: `with seed ${seed}: ${f.message}` })));
  }
  return result([]);

  function result(failures: Failure[]): CaseResult {
    return {
      kind: 'property',
      name: property.name,
      place: property.place,
      failures,
      transcript: undefined,
      eventsRun,
    };
  }
}

function checkAll(
  ctx: RunContext,
  expectations: readonly Expectation[],
  seen: StepObservation,
  failures: Failure[],
) {
  for (const e of expectations) {
    const message = checkExpectation(ctx.cartridge.rules, e, seen);
    if (message !== undefined) failures.push({ place: e.place, message });
  }
}

function startPlay(ctx: RunContext, start: Start, failures: Failure[]): Play | undefined {
  let over: Record<string, unknown> = {};
  if (start.kind === 'state') over = start.state;
  if (start.kind === 'save') {
    const save = ctx.readSave(start.name);
    if (!save.ok) {
      failures.push({ place: start.place, message: save.message });
      return undefined;
    }
    over = save.state;
  }
  let state: GameState;
  try {
    state = toStateValue(startingState(ctx.cartridge.rules, over)) as GameState;
  } catch (error) {
    failures.push({
      place: { file: '', line: 0, col: 0 },
      message: `the starting state is not valid: ${(error as Error).message}`,
    });
    return undefined;
  }
  return {
    state,
    world: initialWorld(ctx.cartridge),
    messages: [...openingMessages(ctx.cartridge)],
    turns: 0,
  };
}

/**
 * An event step: the event as the player's, then the `after_event` hooks (core/yare/player-event.ts). A
 * refusal of the event or of a hook fails the step unless the step expects one.
 */
function runEventStep(
  ctx: RunContext,
  play: Play,
  step: Extract<ScenarioStep, { kind: 'event' }>,
  seed: number,
  failures: Failure[],
): StepObservation | undefined {
  const before = play.state;
  const rules = ctx.cartridge.rules;
  if (!rules.events.has(step.event)) {
    failures.push({
      place: step.place,
      message: `there is no event '${step.event}'; events: ${rules.eventNames.join(', ')}`,
    });
    return undefined;
  }
  const ran = runPlayerEvent(rules, toValue(before) as Dict, step.event, step.inputs, { seed });
  const refusals = [{ event: step.event, result: ran.result }, ...ran.hooks].flatMap(({ event, result }) =>
    result.ok
      ? []
      : [{ event, code: result.error.code, message: result.error.message, place: result.error.place }],
  );
  if (!step.expect.some((e) => e.kind === 'refused')) {
    for (const refusal of refusals)
      failures.push({
        place: step.place,
        message: `event '${refusal.event}' was refused: ${refusal.message} [${refusal.code}]`,
      });
  }
  if (ran.result.ok) play.state = toStateValue(ran.state) as GameState;
  return {
    before,
    state: play.state,
    notes: ran.notes,
    rolls: ran.rolls,
    refusals,
    ran: [step.event, ...ran.hooks.map((h) => h.event)],
    world: play.world,
    narration: undefined,
    detail: [],
  };
}

/** Runs one step; on a failure that stops the scenario (the turn itself failed) returns undefined. */
async function runStep(
  ctx: RunContext,
  play: Play,
  step: ScenarioStep,
  seed: number,
  failures: Failure[],
): Promise<StepObservation | undefined> {
  switch (step.kind) {
    case 'event':
      return runEventStep(ctx, play, step, seed, failures);
    case 'turn':
    case 'minigame':
      try {
        return await runTurnStep(ctx, play, step, seed, failures);
      } catch (error) {
        if (!isTurnError(error) && !isModelError(error)) throw error;
        failures.push({ place: step.place, message: `the turn failed: ${(error as Error).message}` });
        return undefined;
      }
  }
}

/** A turn or minigame step: one whole turn (its models scripted by the step, or offline), then what it did. */
async function runTurnStep(
  ctx: RunContext,
  play: Play,
  step: Extract<ScenarioStep, { kind: 'turn' | 'minigame' }>,
  seed: number,
  failures: Failure[],
): Promise<StepObservation> {
  const before = play.state;
  const models =
    step.script === undefined ? null : createScriptedModels(step.script, `step at line ${step.place.line}`);
  const { record } = await runTurnToRecord({
    cartridge: ctx.cartridge,
    state: before,
    messages: play.messages,
    ...(step.kind === 'turn' ? { input: step.input } : { interaction: step.result }),
    seed,
    models,
    world: play.world,
    ledgerTurn: play.turns + 1,
    now: () => 0,
  });
  play.turns += 1;
  play.state = record.stateAfter;
  play.world = record.ledger.worldAfter;
  play.messages = [...play.messages, ...record.messages];
  if (models) reportUnusedScript(models, step.place, failures);
  return {
    before,
    state: play.state,
    notes: record.notes,
    rolls: record.rolls,
    refusals: record.ruleCalls.flatMap((c) =>
      c.ok || !c.error ? [] : [{ event: c.event, code: c.error.code, message: c.error.message }],
    ),
    ran: record.ruleCalls.map((c) => c.event),
    world: play.world,
    narration: record.narration,
    detail: turnDetail(record),
  };
}

/** A scripted response the turn never asked for means the turn went differently than the script expects. */
function reportUnusedScript(
  models: ReturnType<typeof createScriptedModels>,
  place: SourcePlace,
  failures: Failure[],
): void {
  for (const role of ['director', 'narrator', 'npc'] as const) {
    const left = models[role].remaining();
    if (left > 0)
      failures.push({
        place,
        message: `${left} scripted ${role} response${left === 1 ? ' was' : 's were'} never used: the turn went differently than the script expects`,
      });
  }
}

/** The turn's directives, tool calls, world events, ledger status and warnings, one line each. */
function turnDetail(record: TurnRecord): string[] {
  return [
    ...(record.directives === '' ? [] : [`directives: ${record.directives}`]),
    ...record.tools.map((t) => `tool: ${t.name} ${t.rawArgs} → ${t.ok ? 'ok' : 'refused'}`),
    ...record.ledgerEvents.map((e) => `world: ${JSON.stringify(e)}`),
    `ledger: ${record.ledger.status}`,
    ...record.warnings.map((w) => `warning: ${w}`),
  ];
}
