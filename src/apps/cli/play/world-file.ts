// `turn --world f.json`: the world ledger a stateless turn starts from — the `world` a previous
// `turn --json` printed — so the world travels with the state from turn to turn.

import { readFileSync, statSync } from 'node:fs';
import { type World, worldFromJson } from '../../../core/ledger/index.ts';
import type { StoryMessage } from '../../../engine/turn/index.ts';
import { UserError } from '../user-error.ts';
import { MAX_WORLD_FILE_BYTES } from './limits.ts';

export function readWorldFile(path: string): World {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    throw new UserError(`${path}: cannot read world file (${(error as Error).message}).`);
  }
  if (size > MAX_WORLD_FILE_BYTES) {
    throw new UserError(
      `${path}: world file is ${size} bytes, over the ${MAX_WORLD_FILE_BYTES}-byte limit (MAX_WORLD_FILE_BYTES).`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UserError(`${path}: not valid JSON (${(error as Error).message}).`);
  }
  const parsed = worldFromJson(data);
  if (!parsed.ok) throw new UserError(`${path}: not a world ledger: ${parsed.message}.`);
  return parsed.world;
}

/**
 * The ledger turn of a stateless turn: one more than the player turns in its history, as a session's turn
 * depth would be, so facts the engine numbers (`f_<turn>_<index>`) do not collide from turn to turn.
 */
export function ledgerTurnOf(history: readonly StoryMessage[]): number {
  return 1 + history.filter((m) => m.role === 'user').length;
}
