// A cartridge's starting world: its `ledger:` section's `world` events (validated by the loader, in order,
// from an empty world) applied at turn 0. The one definition for a new game's first turn, `ledger check
// --cartridge`, and the genesis turn a stored session begins with (which keeps the same events as its
// ledger batch, so replaying a session's rows from its genesis gives this world).

import { applyBatch } from './apply.ts';
import { toWire } from './events.ts';
import type { LedgerSection } from './policy.ts';
import { emptyWorld, type World } from './world.ts';

/** The ledger turn of the cartridge's starting world; played turns start at 1. */
export const STARTING_WORLD_TURN = 0;

// Worlds are immutable values, so one starting world per ledger section is shared by every game.
const worlds = new WeakMap<LedgerSection, World>();
const batches = new WeakMap<LedgerSection, readonly Record<string, unknown>[]>();

/** The starting world of a cartridge's ledger section (built once per section). */
export function startingWorld(section: LedgerSection): World {
  let world = worlds.get(section);
  if (world === undefined) {
    world = applyBatch(emptyWorld(), section.world, { turn: STARTING_WORLD_TURN });
    worlds.set(section, world);
  }
  return world;
}

/** The starting world's events in wire form (`event_type` …): the genesis turn's ledger batch. */
export function startingBatch(section: LedgerSection): readonly Record<string, unknown>[] {
  let batch = batches.get(section);
  if (batch === undefined) {
    batch = Object.freeze(section.world.map((event) => toWire(event)));
    batches.set(section, batch);
  }
  return batch;
}
