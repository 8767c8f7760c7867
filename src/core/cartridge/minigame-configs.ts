// Load-time check of the mini-games a cartridge starts: every `set` of `state._pending_interaction` to a
// mapping with a literal `minigame_id` is checked against that mini-game's manifest (src/core/minigames), so a
// bad `grid_size` or a missing `correct_sequence` is an error at `file:line:col` when the cartridge loads,
// not a broken puzzle in front of a player. Values computed at run time (`"@ …"`) are left to the game.

import type { Diagnostic, SourcePlace } from '../diagnostics.ts';
import { checkMinigameConfig, MINIGAMES, minigameManifest } from '../minigames/index.ts';
import { PENDING_KEY } from '../yare/index.ts';
import { cartError, cartWarning } from './diagnostics.ts';

type Path = readonly (string | number)[];

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Every step list of an event, with its path (branches and foreach bodies included). */
function* stepLists(steps: unknown, path: Path): Generator<{ steps: unknown[]; path: Path }> {
  if (!Array.isArray(steps)) return;
  yield { steps, path };
  for (const [i, step] of steps.entries()) {
    const s = record(step);
    if (!s) continue;
    yield* stepLists(s.steps, [...path, i, 'steps']);
    yield* stepLists(s.else, [...path, i, 'else']);
    if (Array.isArray(s.conditions)) {
      for (const [j, arm] of s.conditions.entries())
        yield* stepLists(record(arm)?.steps, [...path, i, 'conditions', j, 'steps']);
    }
  }
}

export function checkMinigameConfigs(rules: unknown, placeOf: (path: Path) => SourcePlace): Diagnostic[] {
  const events = record(record(rules)?.events);
  if (!events) return [];
  const out: Diagnostic[] = [];
  for (const [name, event] of Object.entries(events)) {
    for (const { steps, path } of stepLists(record(event)?.steps, ['events', name, 'steps'])) {
      for (const [i, step] of steps.entries()) {
        const s = record(step);
        if (s?.action !== 'set' || s.var !== `state.${PENDING_KEY}`) continue;
        const value = record(s.value);
        if (!value || typeof value.minigame_id !== 'string') continue;
        if (value.interaction_type !== undefined && value.interaction_type !== 'minigame') continue;
        const at: Path = [...path, i, 'value'];
        const manifest = minigameManifest(value.minigame_id);
        if (!manifest) {
          out.push(
            cartWarning(
              'CART_MINIGAME_UNKNOWN',
              `Unknown mini-game '${value.minigame_id}': the clients play ${MINIGAMES.map((m) => m.minigame_id).join(', ')} (GET /v1/minigames). A player will only be able to give it up.`,
              placeOf([...at, 'minigame_id']),
            ),
          );
          continue;
        }
        for (const problem of checkMinigameConfig(manifest, value.config)) {
          out.push(
            cartError(
              'CART_MINIGAME_CONFIG',
              `${manifest.minigame_id} config.${problem.path.join('.')} ${problem.message}.`,
              placeOf(problem.path.length === 0 ? [...at, 'config'] : [...at, 'config', ...problem.path]),
            ),
          );
        }
      }
    }
  }
  return out;
}
