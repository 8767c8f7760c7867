// The mini-games a cartridge may start: their manifests by id, and each game's config reader and logic.
// Pure: no clock, no randomness of its own, no I/O; the web client (which keeps only the views), the
// terminal and the server all use it.

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
  type ScrambleConfig,
  type ScrambleGame,
  scrambleHooks,
  scrambleMetrics,
  secondsLeft,
  sentence,
  submit,
  unchoose,
} from './articulation-scramble.ts';
export {
  abortLightsOut,
  isNearMiss,
  type LampBoard,
  type LightsOutConfig,
  type LightsOutGame,
  lightsOutHooks,
  lightsOutMetrics,
  litCount,
  newLightsOut,
  press,
  pressLamp,
  readLightsOutConfig,
  scramble,
  solve,
} from './lights-out.ts';
export {
  abortDial,
  attemptsAllowed,
  type DialConfig,
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
