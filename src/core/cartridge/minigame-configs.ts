// Load-time check of the mini-games a cartridge starts: the rules compiler hands over every literal
// mapping a step writes to `state._pending_interaction` (CompileRulesOptions.checkPendingInteraction),
// and one with a literal `minigame_id` is checked against that mini-game's manifest (src/core/minigames), so a
// bad `grid_size` or a missing `correct_sequence` is an error at `file:line:col` when the cartridge loads,
// not a broken puzzle in front of a player. Values computed at run time (`"@ …"`) are left to the game.

import type { Diagnostic, SourcePlace } from '../diagnostics.ts';
import { checkMinigameConfig, MINIGAMES, minigameManifest } from '../minigames/index.ts';
import type { StateValue } from '../yare/index.ts';
import { cartError, cartWarning } from './diagnostics.ts';
import { isRecord } from '../is-record.ts';

type Path = readonly (string | number)[];

function record(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined;
}

/** The findings of one pending interaction a step starts; `placeAt` gives the place of a path inside it. */
export function checkMinigameStart(pending: StateValue, placeAt: (path: Path) => SourcePlace): Diagnostic[] {
  const value = record(pending);
  if (!value || typeof value.minigame_id !== 'string') return [];
  if (value.interaction_type !== undefined && value.interaction_type !== 'minigame') return [];
  const manifest = minigameManifest(value.minigame_id);
  if (!manifest) {
    return [
      cartWarning(
        'CART_MINIGAME_UNKNOWN',
        `Unknown mini-game '${value.minigame_id}': the clients play ${MINIGAMES.map((m) => m.minigame_id).join(', ')} (GET /v1/minigames). A player will only be able to give it up.`,
        placeAt(['minigame_id']),
      ),
    ];
  }
  return checkMinigameConfig(manifest, value.config).map((problem) =>
    cartError(
      'CART_MINIGAME_CONFIG',
      `${manifest.minigame_id} config.${problem.path.join('.')} ${problem.message}.`,
      placeAt(['config', ...problem.path]),
    ),
  );
}
