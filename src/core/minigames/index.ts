// The mini-games a cartridge may start: their manifests by id, and the logic of the games this module
// holds (lights_out's logic is in src/apps/web/lib/lights-out.ts). Pure: no clock, no randomness of its own,
// no I/O; the web client, the terminal and the server all use it.

import { ARTICULATION_SCRAMBLE } from './articulation-scramble.ts';
import { LIGHTS_OUT } from './lights-out.ts';
import type { MinigameManifest } from './manifest.ts';
import { REFLEX_DIAL } from './reflex-dial.ts';

export * from './manifest.ts';
export { ARTICULATION_SCRAMBLE, LIGHTS_OUT, REFLEX_DIAL };

export const MINIGAMES: readonly MinigameManifest[] = [LIGHTS_OUT, ARTICULATION_SCRAMBLE, REFLEX_DIAL];

export function minigameManifest(id: string): MinigameManifest | undefined {
  return MINIGAMES.find((m) => m.minigame_id === id);
}
export {
  abortScramble,
  choose,
  expire,
  newScramble,
  readScrambleConfig,
  type ScrambleGame,
  scrambleHooks,
  scrambleMetrics,
  secondsLeft,
  sentence,
  submit,
  unchoose,
} from './articulation-scramble.ts';
export {
  abortDial,
  attemptsAllowed,
  type DialGame,
  dialHooks,
  dialMetrics,
  expectedKey,
  inZone,
  needleAngle,
  newDial,
  readDialConfig,
  stopNeedle,
} from './reflex-dial.ts';
