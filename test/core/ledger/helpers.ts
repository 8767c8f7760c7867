// Given/when/then helpers for ledger tests: build worlds from wire events, check that a rejected batch
// changed nothing, and name the errors a result carries.
import { expect } from 'vitest';
import { stringify } from 'yaml';
import {
  canonicalJson,
  DEFAULT_POLICY,
  emptyWorld,
  type LedgerError,
  type LedgerPolicy,
  proposeBatch,
  type ValidateOptions,
  type World,
} from '../../../src/core/ledger/index.ts';
import { declaredStatePaths } from '../../../src/core/yare/index.ts';
import { rulesOf } from '../../helpers/yare.ts';

export type Wire = Record<string, unknown>;

/** The state paths a yare.yaml `state_schema` declares, read as the cartridge loader reads it: compiled. */
export function statePathsOf(stateSchema: unknown): string[][] {
  return declaredStatePaths(rulesOf(stringify({ state_schema: stateSchema })).schema);
}

/** Applies batches of wire events, one per turn starting at `firstTurn`; throws on any rejection. */
export function given(batches: Wire[][], policy: LedgerPolicy = DEFAULT_POLICY, firstTurn = 1): World {
  let world = emptyWorld();
  batches.forEach((batch, i) => {
    const result = proposeBatch(world, batch, policy, { at: { turn: firstTurn + i } });
    if (!result.ok) throw new Error(`given batch ${i} rejected: ${JSON.stringify(result.errors)}`);
    world = result.world;
  });
  return world;
}

/** A world with the usual cast: player, mara, tavern, forge, sword (at the forge), key (held by mara). */
export function town(policy: LedgerPolicy = DEFAULT_POLICY): World {
  return given(
    [
      [
        { event_type: 'create_entity', entity: 'player', name: 'Player', entity_type: 'person' },
        { event_type: 'create_entity', entity: 'mara', name: 'Mara', entity_type: 'person' },
        { event_type: 'create_entity', entity: 'tavern', name: 'The Tavern', entity_type: 'place' },
        { event_type: 'create_entity', entity: 'forge', name: 'The Forge', entity_type: 'place' },
        { event_type: 'create_entity', entity: 'sword', name: 'Sword', entity_type: 'item' },
        { event_type: 'create_entity', entity: 'key', name: 'Key', entity_type: 'item' },
        { event_type: 'set_current_location', entity: 'sword', location: 'forge' },
        { event_type: 'set_current_location', entity: 'player', location: 'tavern' },
        { event_type: 'set_current_location', entity: 'mara', location: 'tavern' },
        { event_type: 'set_possession', item: 'key', owner: 'mara' },
        {
          event_type: 'set_scene',
          summary: 'Evening in the tavern',
          location: 'tavern',
          present: ['player', 'mara'],
        },
      ],
    ],
    policy,
  );
}

export type Outcome = { ok: true; world: World } | { ok: false; errors: LedgerError[] };

/** Proposes a batch and, when it is rejected, asserts the world was not touched. */
export function when(
  world: World,
  batch: unknown,
  policy: LedgerPolicy = DEFAULT_POLICY,
  options: ValidateOptions = {},
): Outcome {
  const before = canonicalJson(world);
  const result = proposeBatch(world, batch, policy, { at: { turn: 100 }, ...options });
  expect(canonicalJson(world)).toBe(before);
  return result.ok ? { ok: true, world: result.world } : { ok: false, errors: result.errors };
}

/** The codes of a rejected outcome (fails the test if it was accepted). */
export function codes(outcome: Outcome): string[] {
  if (outcome.ok) throw new Error('expected the batch to be rejected, but it was accepted');
  return outcome.errors.map((e) => e.code);
}

export function accepted(outcome: Outcome): World {
  if (!outcome.ok) throw new Error(`expected the batch to be accepted: ${JSON.stringify(outcome.errors)}`);
  return outcome.world;
}
