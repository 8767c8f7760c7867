// The `ledger:` section of yare.yaml: the starting world and narrator-owned attributes are validated at
// load time, each problem at its file:line:col.
import { describe, expect, it } from 'vitest';
import { loadCartridgeFromFiles } from '../../../src/adapters/files/index.ts';

const SCHEMA = `state_schema:
  player:
    gold: { type: int, default: 5 }
events: {}
`;

function load(ledgerYaml: string) {
  return loadCartridgeFromFiles(
    new Map([
      ['yare.yaml', `${SCHEMA}${ledgerYaml}`],
      ['bot_lore.md', '# Lore\nA town.\n'],
    ]),
    'ledger-test',
  );
}

describe('ledger section', () => {
  it('a valid starting world loads and becomes part of the cartridge', () => {
    const r = load(`ledger:
  world:
    - { event_type: create_entity, entity: player, name: Wren }
    - { event_type: create_entity, entity: tavern, name: The Crooked Lantern }
    - { event_type: set_current_location, entity: player, location: tavern }
`);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.cartridge.ledger.world.map((e) => e.type)).toEqual([
      'create_entity',
      'create_entity',
      'set_current_location',
    ]);
    expect(r.cartridge.ledger.policy.rulesOwned.has('gold')).toBe(true);
  });

  it('a reference to an entity that does not exist is an error at its line and column', () => {
    const r = load(`ledger:
  world:
    - { event_type: create_entity, entity: player, name: Wren }
    - { event_type: set_current_location, entity: player, location: nowhere }
`);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const e = r.errors[0]!;
    expect(e.code).toBe('LEDGER_UNKNOWN_REF');
    expect(e.place?.file).toMatch(/yare\.yaml$/);
    expect(e.place?.line).toBe(8);
    expect(e.message).toContain('ledger.world.1');
  });

  it('an event type outside the vocabulary cannot be declared', () => {
    const r = load(`ledger:
  world:
    - { event_type: execute_shell, command: "rm -rf /" }
`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]!.code).toBe('LEDGER_UNKNOWN_EVENT');
  });

  it('a narrator-owned attribute cannot take a name the rules own', () => {
    const r = load(`ledger:
  attributes:
    gold: { type: int }
`);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors[0]!.code).toBe('LEDGER_RULES_OWNED');
      expect(r.errors[0]!.place?.line).toBe(7);
    }
  });

  it('a cartridge without a ledger section gets the default policy and an empty world', () => {
    const r = load('');
    expect(r.ok && r.cartridge.ledger.world).toEqual([]);
  });
});
