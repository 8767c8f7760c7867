// The explorer: seeded random playthroughs of a cartridge (events with random valid inputs, mini-game
// results for a pending interaction, time passing), each step checked for what it broke (play.ts,
// detect.ts), every distinct violation shrunk to the shortest sequence that shows it (shrink.ts), and the
// coverage of rules, notes, lore and World Info (coverage.ts, lore-coverage.ts). One generator, seeded by
// `seed`, makes every choice and every step's seed: same cartridge, start and options, same report. Pure:
// no clock (unless a deadline is given), no I/O; the CLI and the builder print and write what it returns.

import type { Cartridge } from '../../../core/cartridge/index.ts';
import type { SourcePlace } from '../../../core/diagnostics.ts';
import { checkedInt } from '../../../core/result.ts';
import { minigameManifest } from '../../../core/minigames/index.ts';
import { type Dict, DiceRoller, isDict, startingState, toValue } from '../../../core/yare/index.ts';
import { hasPendingInteraction, type InteractionInput, PENDING_KEY } from '../../../engine/turn/index.ts';
import { rulesCoverage } from './coverage.ts';
import { stateFindings } from './detect.ts';
import { type Game, prepareGame } from './game.ts';
import { drawInputs } from './inputs.ts';
import {
  DEFAULT_EXPLORE_DEPTH,
  DEFAULT_EXPLORE_RUNS,
  MAX_EXPLORE_DEPTH,
  MAX_EXPLORE_RUNS,
  MAX_EXPLORE_SEED,
  MAX_SHRINK_REPLAYS,
  MAX_VIOLATIONS,
  WAIT_ONE_IN,
} from './limits.ts';
import { LoreProbe } from './lore-coverage.ts';
import { playEvent, playStep, startPlaythrough } from './play.ts';
import { shrink } from './shrink.ts';
import type { ExploreReport, ExploreStep, Finding, Violation } from './types.ts';

export interface ExploreOptions {
  readonly runs?: number;
  readonly depth?: number;
  readonly seed?: number;
  /** Fields over the defaults every playthrough starts from (a `--state` file, a save); as a scenario's `state:`. */
  readonly start?: Readonly<Record<string, unknown>>;
  /** Stop playing once `now()` passes this (the builder's bound); the report says it stopped early. */
  readonly deadline?: number;
  readonly now?: () => number;
}

export class ExploreError extends Error {
  override readonly name = 'ExploreError';
}

function whole(
  name: string,
  value: number | undefined,
  fallback: number,
  range: { readonly min: number; readonly max: number; readonly limit: string },
): number {
  const checked = checkedInt(name, value, fallback, range);
  if (!checked.ok) throw new ExploreError(checked.message);
  return checked.value;
}

/** The options checked against their limits; an `ExploreError` names the one that is not. */
export function resolveExploreOptions(options: ExploreOptions): {
  runs: number;
  depth: number;
  seed: number;
} {
  return {
    runs: whole('runs', options.runs, DEFAULT_EXPLORE_RUNS, {
      min: 1,
      max: MAX_EXPLORE_RUNS,
      limit: 'MAX_EXPLORE_RUNS',
    }),
    depth: whole('depth', options.depth, DEFAULT_EXPLORE_DEPTH, {
      min: 1,
      max: MAX_EXPLORE_DEPTH,
      limit: 'MAX_EXPLORE_DEPTH',
    }),
    seed: whole('seed', options.seed, 1, { min: 0, max: MAX_EXPLORE_SEED, limit: 'MAX_EXPLORE_SEED' }),
  };
}

/** The state a playthrough starts from: the defaults with `start` over them, as a scenario's `state:`. */
export function startState(cartridge: Cartridge, start: ExploreOptions['start']): Dict {
  if (start !== undefined && !isDict(toValue(start)))
    throw new ExploreError('the start state must be a JSON object');
  return startingState(cartridge.rules, start);
}

const WAITS = ['10m', '1h', '8h', '1d'] as const;
const STATUSES = ['completed', 'failed', 'aborted'] as const;
/** Draws of an event whose inputs cannot be made before the step gives up. */
const EVENT_ATTEMPTS = 8;

function minigameResult(rng: DiceRoller, state: Dict): InteractionInput {
  const pending = state[PENDING_KEY] as Record<string, unknown>;
  const id = typeof pending.minigame_id === 'string' ? pending.minigame_id : 'unknown';
  const status = STATUSES[rng.draw(0, STATUSES.length - 1)]!;
  const metrics: Record<string, string | number | boolean | string[]> = {};
  for (const metric of minigameManifest(id)?.metrics ?? []) {
    switch (metric.kind) {
      case 'int':
        metrics[metric.name] = rng.draw(0, 20);
        break;
      case 'number':
        metrics[metric.name] = rng.draw(0, 400) / 4;
        break;
      case 'bool':
        metrics[metric.name] = rng.draw(0, 1) === 1;
        break;
      case 'text':
        metrics[metric.name] = 'x';
        break;
      case 'text_list':
        metrics[metric.name] = [];
        break;
    }
  }
  return { minigame_id: id, status, metrics };
}

/** The next step of a playthrough, or undefined when there is nothing the explorer can do. */
function chooseStep(game: Game, rng: DiceRoller, state: Dict): ExploreStep | undefined {
  const pending = hasPendingInteraction(state);
  if (pending && rng.draw(0, 3) !== 0)
    return { kind: 'minigame', result: minigameResult(rng, state), seed: rng.draw(0, MAX_EXPLORE_SEED) };
  // Free text (a wait) is refused while a mini-game is pending; events are not.
  if (game.clock && !pending && rng.draw(1, WAIT_ONE_IN) === 1)
    return {
      kind: 'wait',
      duration: WAITS[rng.draw(0, WAITS.length - 1)]!,
      seed: rng.draw(0, MAX_EXPLORE_SEED),
    };
  if (game.choices.length === 0) return undefined;
  for (let attempt = 0; attempt < EVENT_ATTEMPTS; attempt++) {
    const event = game.choices[rng.draw(0, game.choices.length - 1)]!;
    const inputs = drawInputs(rng, event);
    if (inputs !== undefined)
      return { kind: 'event', event: event.name, inputs, seed: rng.draw(0, MAX_EXPLORE_SEED) };
  }
  return undefined;
}

interface Seen {
  readonly finding: Finding;
  readonly run: number;
  readonly step: number;
  readonly steps: readonly ExploreStep[];
}

export async function explore(cartridge: Cartridge, options: ExploreOptions = {}): Promise<ExploreReport> {
  const { runs, depth, seed } = resolveExploreOptions(options);
  const start = startState(cartridge, options.start);
  const game = prepareGame(cartridge, true);
  // Replays record into a sink of their own: what shrinking runs is not what the exploration reached.
  const replayGame = prepareGame(cartridge, true);
  const lore = new LoreProbe(game);
  const rng = DiceRoller.fromSeed(seed);
  const seen = new Map<string, Seen>();
  const dropped = new Set<string>();
  let stepsPlayed = 0;
  let eventsRun = 0;
  let stoppedEarly = false;
  const note = (findings: readonly Finding[], run: number, step: number, steps: readonly ExploreStep[]) => {
    for (const finding of findings) {
      if (seen.has(finding.key) || dropped.has(finding.key)) continue;
      if (seen.size >= MAX_VIOLATIONS) dropped.add(finding.key);
      else seen.set(finding.key, { finding, run, step, steps: [...steps] });
    }
  };
  const startPlay = startPlaythrough(game, start);
  lore.observeState(startPlay.state, startPlay.world);
  note(stateFindings(game, start), 0, 0, []);
  const late = (): boolean =>
    options.deadline !== undefined && (options.now ?? (() => performance.now()))() >= options.deadline;

  playing: for (let run = 0; run < runs; run++) {
    const play = startPlaythrough(game, start);
    const steps: ExploreStep[] = [];
    for (let d = 0; d < depth; d++) {
      if (late()) {
        stoppedEarly = true;
        break playing;
      }
      const step = chooseStep(game, rng, play.state);
      if (step === undefined) {
        stoppedEarly = true;
        break;
      }
      const outcome = step.kind === 'event' ? playEvent(game, play, step) : await playStep(game, play, step);
      if (!outcome.played) continue;
      steps.push(step);
      stepsPlayed++;
      eventsRun += outcome.events;
      lore.observeNotes(outcome.notes);
      lore.observeState(play.state, play.world);
      note(outcome.findings, run, steps.length, steps);
      note(stateFindings(game, play.state), run, steps.length, steps);
    }
  }

  const violations: Violation[] = [];
  for (const [key, s] of seen) {
    const shrunk = await shrink(replayGame, start, s.steps, key, MAX_SHRINK_REPLAYS, late);
    violations.push({
      ...s.finding,
      ...(s.finding.place === undefined ? {} : { place: authorPlace(cartridge, s.finding.place) }),
      foundIn: { run: s.run, step: s.step },
      steps: shrunk,
      originalLength: s.steps.length,
    });
  }
  const mapPlace = (place: SourcePlace) => authorPlace(cartridge, place);
  return {
    cartridge: cartridge.name,
    seed,
    runs,
    depth,
    stepsPlayed,
    eventsRun,
    stoppedEarly,
    violations,
    violationsDropped: dropped.size,
    coverage: { ...rulesCoverage(cartridge.rules, game.sink, mapPlace), ...lore.finish(start) },
  };
}

/** A place in the compiled rules as the author wrote it (yare.ts rules are compiled from generated YAML). */
function authorPlace(cartridge: Cartridge, place: SourcePlace): SourcePlace {
  if (cartridge.placeInRules === undefined) return place;
  return cartridge.placeInRules({ severity: 'warning', code: 'EXPLORE', message: '', place }).place ?? place;
}
