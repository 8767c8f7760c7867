// Shrinking a violation to the shortest sequence found that still shows it: delta debugging (ddmin) over
// the steps, each candidate replayed from the start state with every step's own seed, so the result is
// deterministic. A candidate counts when some step of it shows the violation (it is cut after that step);
// a candidate with a step that cannot be played there (a mini-game result with nothing pending) does not.
// The replays are bounded (MAX_SHRINK_REPLAYS) and run on rules without coverage.

import type { Dict } from '../../../core/yare/index.ts';
import { stateFindings } from './detect.ts';
import type { Game } from './game.ts';
import { playEvent, playStep, startPlaythrough } from './play.ts';
import type { ExploreStep, Finding } from './types.ts';

/** Replays `steps`; the length of the prefix that shows `key`, or undefined when none does. */
export async function reproduces(
  game: Game,
  start: Dict,
  steps: readonly ExploreStep[],
  key: string,
): Promise<number | undefined> {
  const play = startPlaythrough(game, start);
  if (stateFindings(game, play.state).some((f) => f.key === key)) return 0;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    const outcome = step.kind === 'event' ? playEvent(game, play, step) : await playStep(game, play, step);
    if (!outcome.played) return undefined;
    if (shows(outcome.findings, key) || shows(stateFindings(game, play.state), key)) return i + 1;
  }
  return undefined;
}

function shows(findings: readonly Finding[], key: string): boolean {
  for (const f of findings) if (f.key === key) return true;
  return false;
}

export async function shrink(
  game: Game,
  start: Dict,
  steps: readonly ExploreStep[],
  key: string,
  maxReplays: number,
  /** True once the exploration's deadline has passed: shrinking stops with the shortest found so far. */
  late: () => boolean = () => false,
): Promise<readonly ExploreStep[]> {
  let replays = 0;
  const attempt = async (candidate: readonly ExploreStep[]): Promise<readonly ExploreStep[] | undefined> => {
    replays++;
    if (late()) replays = maxReplays;
    const shown = await reproduces(game, start, candidate, key);
    return shown === undefined ? undefined : candidate.slice(0, shown);
  };
  let current = (await attempt(steps)) ?? steps;
  let parts = 2;
  while (current.length >= 2 && replays < maxReplays) {
    const size = Math.ceil(current.length / parts);
    let reduced = false;
    for (let i = 0; i < parts && replays < maxReplays; i++) {
      const complement = [...current.slice(0, i * size), ...current.slice((i + 1) * size)];
      if (complement.length === current.length) continue;
      const kept = await attempt(complement);
      if (kept !== undefined) {
        current = kept;
        parts = Math.max(parts - 1, 2);
        reduced = true;
        break;
      }
    }
    if (!reduced) {
      if (parts >= current.length) break;
      parts = Math.min(current.length, parts * 2);
    }
  }
  // One step alone may still be more than needed: the start state may show it already.
  if (current.length === 1 && replays < maxReplays) {
    const none = await attempt([]);
    if (none !== undefined) current = none;
  }
  return current;
}
