// The write policy: rules-owned names from real cartridges' state_schema, and the `ledger:` section.
import { describe, expect, it } from 'vitest';
import {
  policyFromStatePaths,
  rulesOwnedNames,
  validateLedgerSection,
} from '../../../src/core/ledger/index.ts';
import { statePathsOf } from './helpers.ts';

// The state_schema sections of the shared MnesOS cartridges, as YAML parses them (copied so the test does
// not depend on where the shared folder lives).
const SCHEMAS: Record<string, unknown> = {
  'seed-eldoria': {
    player: {
      hp: { type: 'int', default: 100, min: 0, max: 100, visibility: 'public' },
      mana: { type: 'int', default: 50, min: 0, max: 50, visibility: 'public' },
      gold: { type: 'int', default: 20, min: 0, visibility: 'public' },
      status: { type: 'string', default: 'healthy', visibility: 'public' },
    },
    npc: {
      type: { type: 'string', default: 'villager', visibility: 'private' },
      hp: { type: 'int', default: 30, min: 0, max: 100, visibility: 'public' },
      attack_power: { type: 'int', default: 5, min: 0, visibility: 'private' },
    },
  },
  'mnesos/dark-fantasy': {
    player: {
      hp: { type: 'int', default: 100 },
      corruption: { type: 'int', default: 0 },
      gold: { type: 'int', default: 10 },
    },
    game_time: { now: { type: 'string', default: '1199-01-01T00:00:00' } },
  },
  'mnesos/generic-rpg': {
    player: {
      npc_visibility: true,
      visibility: 'public',
      hp: { type: 'int' },
      mana: { type: 'int' },
      level: { type: 'int' },
      gold: { type: 'int' },
    },
    npc: {
      npc_visibility: true,
      visibility: 'public',
      name: { type: 'string' },
      hp: { type: 'int' },
      strength: { type: 'int' },
    },
    current_location: { type: 'string', default: 'Crossroads', npc_visibility: true, visibility: 'public' },
    inventory: { type: 'list', default: [], npc_visibility: true, visibility: 'public' },
  },
  'mnesos/lights-out-demo': {
    player_hp: { type: 'int' },
    player_name: { type: 'string' },
    player_credits: { type: 'int' },
    player_skill_level: { type: 'int' },
    terminal_locked: { type: 'bool' },
    world_current_room: { type: 'string' },
    world_alarm_active: { type: 'bool' },
    _pending_interaction: { type: 'dict', default: {} },
  },
  'mnesos/web-client-e2e': {
    player: { hp: { type: 'int' }, mana: { type: 'int' }, level: { type: 'int' } },
    npc: { name: { type: 'string' }, hp: { type: 'int' } },
    current_location: { type: 'string' },
  },
};

/** The declared state paths of a cartridge's state_schema, compiled as the loader compiles it. */
function stateSchemaOf(name: string): string[][] {
  return statePathsOf(SCHEMAS[name]);
}

describe('rules-owned names', () => {
  it('cover domains, fields, domain_field spellings and flat-name suffixes (seed-eldoria)', () => {
    const names = rulesOwnedNames(stateSchemaOf('seed-eldoria'));
    for (const n of [
      'player',
      'hp',
      'mana',
      'gold',
      'status',
      'npc',
      'type',
      'attack_power',
      'player_gold',
      'npc_hp',
      'power',
    ]) {
      expect(names.has(n), n).toBe(true);
    }
    expect(names.has('visibility')).toBe(false);
    expect(names.has('default')).toBe(false);
  });

  it('cover flat schemas (lights-out-demo) and top-level scalar fields (generic-rpg)', () => {
    const flat = rulesOwnedNames(stateSchemaOf('mnesos/lights-out-demo'));
    for (const n of [
      'player_credits',
      'credits',
      'skill_level',
      'level',
      'world_alarm_active',
      'alarm_active',
      'pending_interaction',
    ]) {
      expect(flat.has(n), n).toBe(true);
    }
    const generic = rulesOwnedNames(stateSchemaOf('mnesos/generic-rpg'));
    for (const n of ['current_location', 'location', 'inventory', 'strength', 'name'])
      expect(generic.has(n), n).toBe(true);
    // Domain-level flags are not names of state.
    expect(generic.has('npc_visibility')).toBe(false);
  });

  it('every cartridge in the shared set yields a policy, and no declared state yields no names', () => {
    for (const c of [
      'seed-eldoria',
      'mnesos/dark-fantasy',
      'mnesos/generic-rpg',
      'mnesos/lights-out-demo',
      'mnesos/web-client-e2e',
    ]) {
      expect(policyFromStatePaths(stateSchemaOf(c)).rulesOwned.size).toBeGreaterThan(0);
    }
    expect(rulesOwnedNames([]).size).toBe(0);
    expect(rulesOwnedNames([[]]).size).toBe(0);
  });
});

describe('the ledger: section', () => {
  it('is optional', () => {
    const r = validateLedgerSection(undefined, {
      statePaths: statePathsOf({ player: { gold: { type: 'int' } } }),
    });
    expect(r.ok && [...r.value.policy.rulesOwned].sort()).toEqual(['gold', 'player', 'player_gold']);
    expect(r.ok && r.value.policy.undeclaredAttributes).toBe('allow');
  });

  it('parses a full section', () => {
    const r = validateLedgerSection({
      player: 'hero',
      undeclared_attributes: 'reject',
      attributes: {
        mood: { type: 'string', enum: ['calm', 'angry'] },
        trust: { type: 'int', min: 0, max: 10, max_change: 2 },
        wet: { type: 'bool' },
      },
      grantable_items: ['torch'],
      threads: { rescue: { requires: [{ fact: 'rescued' }, { entity: 'hero', status: 'free' }] } },
      allow_self_relationships: true,
      world: [{ event_type: 'create_entity', entity: 'hero', name: 'Hero' }],
    });
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    const p = r.value.policy;
    expect(p.player).toBe('hero');
    expect(p.attributes.get('trust')).toEqual({ type: 'int', min: 0, max: 10, maxChange: 2 });
    expect(p.grantableItems.has('torch')).toBe(true);
    expect(p.threadRequirements.get('rescue')).toHaveLength(2);
    expect(r.value.world).toEqual([{ type: 'create_entity', entity: 'hero', name: 'Hero' }]);
  });

  it('reports each problem with a path from the yare.yaml root', () => {
    const r = validateLedgerSection({
      colour: 1,
      player: 'Hero',
      undeclared_attributes: 'maybe',
      attributes: {
        trust: { type: 'int', min: 5, max: 1 },
        mood: { type: 'text' },
        Bad: { type: 'bool' },
        n: { type: 'bool', min: 0 },
      },
      grantable_items: 'torch',
      threads: { t: { requires: [{ fact: 'x', extra: 1 }] } },
      world: [{ event_type: 'create_entity', entity: 'x', name: 'X' }],
    });
    expect(r.ok).toBe(false);
    const paths = r.ok ? [] : r.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual([
      'ledger.colour',
      'ledger.player',
      'ledger.undeclared_attributes',
      'ledger.attributes.trust.min',
      'ledger.attributes.mood.type',
      'ledger.attributes.Bad',
      'ledger.attributes.n.min',
      'ledger.grantable_items',
      'ledger.threads.t.requires.0',
    ]);
    expect(validateLedgerSection([1])).toMatchObject({
      ok: false,
      issues: [{ path: ['ledger'], code: 'LEDGER_BAD_TYPE' }],
    });
  });

  it('validates the starting world in order, with file paths for each bad event field', () => {
    const r = validateLedgerSection({
      world: [
        { event_type: 'create_entity', entity: 'tavern', name: 'Tavern' },
        { event_type: 'set_current_location', entity: 'mara', location: 'tavern' },
      ],
    });
    expect(r).toMatchObject({
      ok: false,
      issues: [{ path: ['ledger', 'world', 1, 'entity'], code: 'LEDGER_UNKNOWN_REF' }],
    });
  });

  it('a starting world may hand items to the player from anywhere (the author sets the stage)', () => {
    const r = validateLedgerSection({
      world: [
        { event_type: 'create_entity', entity: 'player', name: 'Player' },
        { event_type: 'create_entity', entity: 'sword', name: 'Sword' },
        { event_type: 'set_possession', item: 'sword', owner: 'player' },
      ],
    });
    expect(r.ok).toBe(true);
  });
});
