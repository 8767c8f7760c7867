// Playing one explorer step on a playthrough, exactly as `mnesos test` plays the scenario step it is
// written as (scenario/run.ts): an event through `runPlayerEvent` (the event, then its hooks) with the step's
// seed; a mini-game result and a wait as an offline turn on the story and world so far, through the session
// layer's admission and stateless turn (engine/session/turn-job/stateless.ts), the one way into a turn. What
// failed is returned as
// findings; the state moves only when the step succeeded.

import type { World } from '../../../core/ledger/index.ts';
import { type Dict, type RunError, runPlayerEvent, toStateValue, toValue } from '../../../core/yare/index.ts';
import {
  admission,
  DEFAULT_ADMISSION,
  isSessionError,
  playStatelessTurn,
} from '../../../engine/session/index.ts';
import {
  type GameState,
  initialWorld,
  openingMessages,
  type StoryMessage,
  type TurnRecord,
} from '../../../engine/turn/index.ts';
import { type Game, placeKey } from './game.ts';
import type { ExploreStep, Finding, ViolationKind } from './types.ts';

export interface Playthrough {
  state: Dict;
  world: World;
  messages: StoryMessage[];
  turns: number;
}

export interface StepOutcome {
  /** False when the step could not be played here (a mini-game result with none pending, a refused wait). */
  readonly played: boolean;
  readonly findings: readonly Finding[];
  readonly notes: readonly string[];
  /** Events the step ran (an event step's one, or a turn's rule calls). */
  readonly events: number;
}

export function startPlaythrough(game: Game, start: Dict): Playthrough {
  return {
    state: start,
    world: initialWorld(game.cartridge),
    messages: [...openingMessages(game.cartridge)],
    turns: 0,
  };
}

const BUDGET_CODES: ReadonlySet<string> = new Set(['YARE_STEP_LIMIT', 'YARE_TIME_LIMIT', 'TURN_RULE_BUDGET']);

function runFinding(game: Game, event: string, error: RunError): Finding {
  const kind: ViolationKind = BUDGET_CODES.has(error.code)
    ? 'budget'
    : game.notePlaces.has(placeKey(error.place))
      ? 'note'
      : 'error';
  return {
    kind,
    key: `${kind}:${event}:${error.code}:${placeKey(error.place)}`,
    message: `event '${event}' failed (${error.code}): ${error.message}`,
    ...(error.place === undefined ? {} : { place: error.place }),
    event,
    code: error.code,
  };
}

/** Notes the step showed with a None placeholder (the sink's list, emptied); none when the step failed. */
function unrendered(game: Game, shown: readonly string[] | undefined): Finding[] {
  const list = game.sink.unrendered;
  if (list.length === 0) return [];
  const findings: Finding[] = [];
  for (const u of shown === undefined ? [] : list) {
    if (!shown!.includes(u.text)) continue;
    findings.push({
      kind: 'note',
      key: `note:${placeKey(u.step.place)}:${u.placeholder}`,
      message: `note "${u.step.template}" shows {${u.placeholder}} as None: "${u.text}"`,
      place: u.step.place,
      subject: u.placeholder,
      shown: u.text,
    });
  }
  list.length = 0;
  return findings;
}

export async function playStep(game: Game, play: Playthrough, step: ExploreStep): Promise<StepOutcome> {
  if (step.kind === 'event') return playEvent(game, play, step);
  return playTurn(game, play, step);
}

/** An event step: synchronous, the hot path of exploring. */
export function playEvent(
  game: Game,
  play: Playthrough,
  step: Extract<ExploreStep, { kind: 'event' }>,
): StepOutcome {
  // The event as the player's: the after_event hooks follow it (core/yare/player-event.ts).
  const ran = runPlayerEvent(game.cartridge.rules, play.state, step.event, step.inputs, { seed: step.seed });
  const result = ran.result;
  if (!result.ok) {
    unrendered(game, undefined);
    return { played: true, findings: [runFinding(game, step.event, result.error)], notes: [], events: 1 };
  }
  play.state = ran.state;
  const findings = unrendered(game, ran.notes);
  for (const hook of ran.hooks)
    if (!hook.result.ok) findings.push(runFinding(game, hook.event, hook.result.error));
  return { played: true, findings, notes: ran.notes, events: 1 + ran.hooks.length };
}

/** A rule call the turn ran that failed, as a finding (a budget code is a budget finding). */
function failedCallFinding(call: TurnRecord['ruleCalls'][number]): Finding[] {
  if (call.ok || call.error === undefined) return [];
  const kind: ViolationKind = BUDGET_CODES.has(call.error.code) ? 'budget' : 'error';
  return [
    {
      kind,
      key: `${kind}:${call.event}:${call.error.code}:turn`,
      message: `in the turn, ${call.source === 'cycle_tick' ? 'cycle tick' : 'event'} '${call.event}' failed (${call.error.code}): ${call.error.message}`,
      event: call.event,
      code: call.error.code,
      inTurn: true,
    },
  ];
}

/** The session layer's one admission of a turn request, with its default limits. */
const admit = admission(DEFAULT_ADMISSION);

async function playTurn(
  game: Game,
  play: Playthrough,
  step: Exclude<ExploreStep, { kind: 'event' }>,
): Promise<StepOutcome> {
  try {
    const request = admit({
      turn: step.kind === 'wait' ? { input: `/wait ${step.duration}` } : { interaction: step.result },
    });
    const record = await playStatelessTurn({
      request,
      cartridge: game.cartridge,
      state: toStateValue(play.state) as GameState,
      messages: play.messages,
      seed: step.seed,
      models: null,
      world: play.world,
      ledgerTurn: play.turns + 1,
      now: () => 0,
    });
    play.turns += 1;
    play.state = toValue(record.stateAfter) as Dict;
    play.world = record.ledger.worldAfter;
    play.messages = [...play.messages, ...record.messages];
    const findings: Finding[] = [
      ...unrendered(game, record.notes).map((f) => ({ ...f, inTurn: true })),
      ...record.ruleCalls.flatMap(failedCallFinding),
    ];
    return { played: true, findings, notes: record.notes, events: record.ruleCalls.length };
  } catch (error) {
    if (!isSessionError(error)) throw error;
    unrendered(game, undefined);
    // A mini-game whose resolver fails refuses the turn: that is the cartridge's bug. A wait the engine
    // answers instead of playing (no clock to move) is no step at all.
    if (error.details.kind !== 'interaction' || step.kind !== 'minigame') {
      return { played: false, findings: [], notes: [], events: 0 };
    }
    const finding: Finding = {
      kind: 'error',
      key: `error:minigame:${step.result.minigame_id}:${error.message}`,
      message: `the mini-game result was refused: ${error.message}`,
      code: 'TURN_INTERACTION',
      inTurn: true,
    };
    return { played: true, findings: [finding], notes: [], events: 1 };
  }
}
