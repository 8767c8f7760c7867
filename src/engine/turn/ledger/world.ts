// The world a turn starts from. A new game's world is the cartridge's starting world
// (ledger/starting-world.ts); every later turn is given the world its parent ended with. This module also
// checks the ledger options a caller passes to `runTurn`.

import {
  type LedgerSection,
  STARTING_WORLD_TURN,
  startingWorld,
  WORLD_VERSION,
  type World,
} from '../../../core/ledger/index.ts';
import { TurnError } from '../errors.ts';
import type { LedgerMode, TurnOptions } from '../types.ts';

export { STARTING_WORLD_TURN };

export const LEDGER_MODES: readonly LedgerMode[] = ['inline', 'separate', 'off'];

/** A new game's world: the cartridge's starting world (`startingWorld` of its ledger section). */
export function initialWorld(cartridge: { readonly ledger: LedgerSection }): World {
  return startingWorld(cartridge.ledger);
}

export interface LedgerOptions {
  readonly world: World;
  readonly turn: number;
  readonly mode: LedgerMode;
}

function isWorld(value: unknown): value is World {
  if (typeof value !== 'object' || value === null) return false;
  const w = value as Partial<Record<keyof World, unknown>>;
  return (
    w.version === WORLD_VERSION &&
    typeof w.entities === 'object' &&
    w.entities !== null &&
    typeof w.facts === 'object' &&
    w.facts !== null &&
    typeof w.relationships === 'object' &&
    w.relationships !== null &&
    typeof w.threads === 'object' &&
    w.threads !== null &&
    (w.scene === null || typeof w.scene === 'object')
  );
}

/** The turn's ledger options with defaults; a bad one is a TurnError of kind `input` naming it. */
export function resolveLedgerOptions(options: TurnOptions, offline: boolean): LedgerOptions {
  const turn = options.ledgerTurn ?? 1;
  if (!Number.isSafeInteger(turn) || turn <= STARTING_WORLD_TURN) {
    throw new TurnError(
      'input',
      `ledgerTurn must be an integer from 1 to ${Number.MAX_SAFE_INTEGER} (turn 0 is the cartridge's starting world), got ${String(turn)}`,
    );
  }
  const mode = options.ledgerMode ?? 'inline';
  if (!LEDGER_MODES.includes(mode)) {
    throw new TurnError(
      'input',
      `ledgerMode must be one of ${LEDGER_MODES.join(', ')}, got ${JSON.stringify(String(mode))}`,
    );
  }
  const world = options.world ?? initialWorld(options.cartridge);
  // A stored world is read back with `worldFromJson`, which checks every field; here only the shape is
  // checked, so a caller passing something else entirely gets a clear error instead of a crash mid-turn.
  if (!isWorld(world)) {
    throw new TurnError(
      'input',
      `world must be a ledger World (version ${WORLD_VERSION}); read a stored one with worldFromJson`,
    );
  }
  return { world, turn, mode: offline ? 'off' : mode };
}
