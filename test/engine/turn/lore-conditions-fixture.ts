// A small cartridge whose lore and World Info follow the state and the ledger (`when:` conditions), for the
// lore-condition and receipt tests.
import type { Cartridge } from '../../../src/core/cartridge/index.ts';
import { loadCartridgeFromFiles } from '../../../src/adapters/files/index.ts';

export const CONDITIONS_YARE = `version: "1.0"
bot_name: "Chapel"
npc_templates:
  mara:
    type: "name"
    description: "Mara, the chapel's keeper."
  bran:
    type: "name"
    description: "Bran, a fishmonger with debts."
state_schema:
  world:
    visibility: public
    night: { type: bool, default: false }
  secret:
    cult_awake: { type: bool, default: false }
events:
  fall_night:
    steps:
      - action: set
        var: state.world.night
        value: true
      - action: note
        message: "Night falls."
  linger:
    steps:
      - action: note
        message: "Time passes."
ledger:
  world:
    - { event_type: create_entity, entity: player, name: Wren }
    - { event_type: create_entity, entity: mara, name: Mara }
    - { event_type: create_entity, entity: bran, name: Bran }
    - { event_type: create_entity, entity: chapel, name: The Chapel }
    - { event_type: create_entity, entity: market, name: The Market }
    - { event_type: set_current_location, entity: mara, location: market }
`;

export const CONDITIONS_LORE = `# Chapel bells
when: @ state.world.night
At night the chapel bells ring thirteen times.

# Mara at prayer
when: @ entity('mara').location == 'chapel'
Mara kneels by the altar of the chapel, whispering the old names.

# The market
Stalls of fish and lanterns crowd the market square by the chapel.

# The altar
The altar of the chapel is old oak over a stone plinth.

# The cult below

when: @ state.secret.cult_awake and thread('cult') != None and thread('cult').open
The cult gathers in the crypt under the chapel bells.
`;

export const CONDITIONS_WORLD_INFO = JSON.stringify({
  entries: {
    '0': {
      uid: 0,
      key: ['lantern'],
      content: 'Lanterns here burn green after dark.',
      comment: 'green lanterns',
      extensions: { mnesos: { when: '@ state.world.night' } },
    },
    '1': { uid: 1, key: ['fish'], content: 'The fish are from the drowned river.', comment: 'fish' },
    '2': { uid: 2, key: ['altar'], content: 'Altars of this coast have hollow steps.', comment: 'altars' },
  },
});

export function conditionsFiles(overrides: Record<string, string> = {}): Map<string, string> {
  return new Map(
    Object.entries({
      'yare.yaml': CONDITIONS_YARE,
      'bot_lore.md': CONDITIONS_LORE,
      'world_info.json': CONDITIONS_WORLD_INFO,
      ...overrides,
    }),
  );
}

export function conditionsCartridge(overrides: Record<string, string> = {}): Cartridge {
  const loaded = loadCartridgeFromFiles(conditionsFiles(overrides), 'chapel');
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
  return loaded.cartridge;
}
