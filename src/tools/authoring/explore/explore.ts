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

/** The findings kept (at most MAX_VIOLATIONS, the first of each key) with the steps that reached each; the rest counted. */
class FindingLog {
  readonly seen = new Map<string, Seen>();
  readonly dropped = new Set<string>();

  note(findings: readonly Finding[], run: number, step: number, steps: readonly ExploreStep[]): void {
    for (const finding of findings) {
      if (this.seen.has(finding.key) || this.dropped.has(finding.key)) continue;
      if (this.seen.size >= MAX_VIOLATIONS) this.dropped.add(finding.key);
      else this.seen.set(finding.key, { finding, run, step, steps: [...steps] });
    }
  }
}

/** One exploration's game, dice, probes and counts, shared by its runs. */
interface Exploration {
  readonly game: Game;
  readonly start: Dict;
  readonly rng: DiceRoller;
  readonly lore: LoreProbe;
  readonly log: FindingLog;
  readonly late: () => boolean;
  stepsPlayed: number;
  eventsRun: number;
}

export async function explore(cartridge: Cartridge, options: ExploreOptions = {}): Promise<ExploreReport> {
  const { runs, depth, seed } = resolveExploreOptions(options);
  const start = startState(cartridge, options.start);
  const game = prepareGame(cartridge, true);
  const x: Exploration = {
    game,
    start,
    rng: DiceRoller.fromSeed(seed),
    lore: new LoreProbe(game),
    log: new FindingLog(),
    late: () =>
      options.deadline !== undefined && (options.now ?? (() => performance.now()))() >= options.deadline,
    stepsPlayed: 0,
    eventsRun: 0,
  };
  const startPlay = startPlaythrough(game, start);
  x.lore.observeState(startPlay.state, startPlay.world);
  x.log.note(stateFindings(game, start), 0, 0, []);
  let stoppedEarly = false;
  for (let run = 0; run < runs; run++) {
    const ended = await playRun(x, run, depth);
    if (ended !== 'done') stoppedEarly = true;
    if (ended === 'late') break;
  }
  const mapPlace = (place: SourcePlace) => authorPlace(cartridge, place);
  return {
    cartridge: cartridge.name,
    seed,
    runs,
    depth,
    stepsPlayed: x.stepsPlayed,
    eventsRun: x.eventsRun,
    stoppedEarly,
    violations: await shrunkViolations(cartridge, x),
    violationsDropped: x.log.dropped.size,
    coverage: { ...rulesCoverage(cartridge.rules, game.sink, mapPlace), ...x.lore.finish(start) },
  };
}

/** One playthrough of at most `depth` steps: 'late' past the deadline, 'stuck' when no step can be chosen. */
async function playRun(x: Exploration, run: number, depth: number): Promise<'done' | 'late' | 'stuck'> {
  const { game, lore, log } = x;
  const play = startPlaythrough(game, x.start);
  const steps: ExploreStep[] = [];
  for (let d = 0; d < depth; d++) {
    if (x.late()) return 'late';
    const step = chooseStep(game, x.rng, play.state);
    if (step === undefined) return 'stuck';
    const outcome = step.kind === 'event' ? playEvent(game, play, step) : await playStep(game, play, step);
    if (!outcome.played) continue;
    steps.push(step);
    x.stepsPlayed++;
    x.eventsRun += outcome.events;
    lore.observeNotes(outcome.notes);
    lore.observeState(play.state, play.world);
    log.note(outcome.findings, run, steps.length, steps);
    log.note(stateFindings(game, play.state), run, steps.length, steps);
  }
  return 'done';
}

/** Each kept finding as a violation, its steps shrunk to a shortest replay that still shows it. */
async function shrunkViolations(cartridge: Cartridge, x: Exploration): Promise<Violation[]> {
  // Replays record into a sink of their own: what shrinking runs is not what the exploration reached.
  const replayGame = prepareGame(cartridge, true);
  const violations: Violation[] = [];
  for (const [key, s] of x.log.seen) {
    const shrunk = await shrink(replayGame, x.start, s.steps, key, MAX_SHRINK_REPLAYS, x.late);
    violations.push({
      ...s.finding,
      ...(s.finding.place === undefined ? {} : { place: authorPlace(cartridge, s.finding.place) }),
      foundIn: { run: s.run, step: s.step },
      steps: shrunk,
      originalLength: s.steps.length,
    });
  }
  return violations;
}

/** A place in the compiled rules as the author wrote it (yare.ts rules are compiled from generated YAML). */
function authorPlace(cartridge: Cartridge, place: SourcePlace): SourcePlace {
  if (cartridge.placeInRules === undefined) return place;
  return cartridge.placeInRules({ severity: 'warning', code: 'EXPLORE', message: '', place }).place ?? place;
}
