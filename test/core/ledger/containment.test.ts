// Grants through containers: an item reaches the player, or anything the player carries however deep,
// only from the scene (it, or something holding it however deep, is present or at the scene's place) or
// from what the player already holds; and what the item holds must pass the same test.
import { describe, expect, it } from 'vitest';
import { accepted, codes, given, when } from './helpers.ts';

const create = (entity: string, entity_type: string) => ({
  event_type: 'create_entity',
  entity,
  name: entity[0]!.toUpperCase() + entity.slice(1),
  entity_type,
});
const at = (entity: string, location: string) => ({ event_type: 'set_current_location', entity, location });
const hold = (item: string, owner: string) => ({ event_type: 'set_possession', item, owner });

/**
 * The player in the tavern carrying a bag, a box in the bag and a coin in the box; a chest on the tavern's
 * table holding a pouch holding a gem; far away, the Duke's vault with a strongbox holding the crown.
 */
function world() {
  return given([
    [
      create('player', 'person'),
      create('duke', 'person'),
      create('tavern', 'place'),
      create('vault', 'place'),
      ...['bag', 'box', 'coin', 'chest', 'pouch', 'gem', 'strongbox', 'crown', 'sack'].map((i) =>
        create(i, 'item'),
      ),
      at('player', 'tavern'),
      at('bag', 'tavern'),
      at('box', 'tavern'),
      at('coin', 'tavern'),
      at('chest', 'tavern'),
      at('duke', 'vault'),
      at('strongbox', 'vault'),
      at('sack', 'vault'),
      { event_type: 'set_scene', summary: 'The tavern', location: 'tavern', present: ['player'] },
    ],
    [
      hold('bag', 'player'),
      hold('box', 'bag'),
      hold('coin', 'box'),
      hold('pouch', 'chest'),
      hold('gem', 'pouch'),
      hold('crown', 'strongbox'),
    ],
  ]);
}

describe('an item reaches what the player carries only from the scene, however deep', () => {
  it.each([
    ['the crown into the bag the player carries', [hold('crown', 'bag')]],
    ['the crown into the box inside the bag', [hold('crown', 'box')]],
    ['the crown straight to the player', [hold('crown', 'player')]],
    ['the strongbox (holding the crown) into the bag', [hold('strongbox', 'bag')]],
  ])('refused: %s', (_name, batch) => {
    expect(codes(when(world(), batch))).toEqual(['LEDGER_IMPLAUSIBLE']);
  });

  it('refused: a bag sent to the vault, filled with the crown and brought back in one batch', () => {
    // The player's own bag: out to the Duke, the crown in, back to the player.
    const own = when(world(), [hold('bag', 'duke'), hold('crown', 'bag'), hold('bag', 'player')]);
    expect(codes(own)).toEqual(['LEDGER_IMPLAUSIBLE']);
    if (!own.ok) {
      expect(own.errors[0]!.message).toContain('"crown" (inside "bag")');
      expect(own.errors[0]!.index).toBe(2);
    }
    // The Duke's sack: the same.
    const sack = when(world(), [hold('crown', 'sack'), hold('sack', 'player')]);
    expect(codes(sack)).toEqual(['LEDGER_IMPLAUSIBLE']);
  });

  it.each([
    ['the gem from the pouch in the chest on the table into the bag', [hold('gem', 'bag')]],
    ['the gem into the box inside the bag', [hold('gem', 'box')]],
    ['the pouch (holding the gem) to the player', [hold('pouch', 'player')]],
    ['the coin from the box to the player (already theirs)', [hold('coin', 'player')]],
    ['the box out of the bag into the player’s hands', [hold('box', 'player')]],
    ['the crown moved within the vault (nothing of the player’s)', [hold('crown', 'duke')]],
    ['the player’s coin into the remote strongbox (away from the player)', [hold('coin', 'strongbox')]],
  ])('accepted: %s', (_name, batch) => {
    accepted(when(world(), batch));
  });

  it('once the scene is at the vault, the crown may go into the bag', () => {
    const atVault = accepted(
      when(world(), [
        at('player', 'vault'),
        { event_type: 'set_scene', summary: 'The vault', location: 'vault', present: ['player', 'duke'] },
      ]),
    );
    accepted(when(atVault, [hold('crown', 'box')]));
  });
});
