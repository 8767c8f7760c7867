// Compatibility: every cartridge written for MnesOS 0.6 (and the seed's template) loads unchanged and every
// event runs with a fixed seed to the notes and state asserted here. The cartridges are read in place from
// the shared folder beside the project; they are not copied into it.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Cartridge, loadCartridge } from '../../src/core/cartridge/index.ts';
import { runEvent } from '../../src/core/yare/interpreter.ts';
import { sharedAvailable, sharedPath } from '../helpers/shared.ts';

const present = sharedAvailable('compatibility with the MnesOS 0.6 cartridges', 'cartridges');

const CARTRIDGES = [
  'seed-eldoria',
  'mnesos/generic-rpg',
  'mnesos/dark-fantasy',
  'mnesos/lights-out-demo',
  'mnesos/web-client-e2e',
];
const loaded = new Map<string, Cartridge>();

function plain(v: unknown): any {
  return JSON.parse(JSON.stringify(v));
}

function run(name: string, event: string, inputs: Record<string, unknown>, seed: number, state?: unknown) {
  const c = loaded.get(name)!;
  const r = runEvent(c.rules, state ?? c.rules.initialState, event, inputs, { seed });
  if (!r.ok) throw new Error(`${name} ${event}: ${r.error.code} ${r.error.message}`);
  return { notes: r.notes, state: plain(r.state), faces: r.rolls.map((x) => x.faces[0]) };
}

describe.skipIf(!present)('shared cartridges', () => {
  beforeAll(async () => {
    for (const name of CARTRIDGES) {
      const result = await loadCartridge(sharedPath('cartridges', name));
      if (!result.ok)
        throw new Error(
          `${name}: ${result.errors.map((e) => `${e.place?.line}:${e.place?.col} ${e.message}`).join('\n')}`,
        );
      loaded.set(name, result.cartridge);
    }
  });

  it.each(CARTRIDGES)('%s loads without errors', (name) => {
    expect(loaded.get(name)!.rules.eventNames.length).toBeGreaterThan(0);
  });

  describe('seed-eldoria (the seed template: step-level if/steps/else, macros without @, @ inside expressions)', () => {
    it('combat_strike attacker=player, seed 1: d20 7 + 5 = 12 hits, d8 4 + 2 = 6 damage', () => {
      const r = run('seed-eldoria', 'combat_strike', { attacker: 'player' }, 1);
      expect(r.faces).toEqual([7, 4]);
      expect(r.notes).toEqual([
        'Player attacks! Roll: 12. HIT! Player deals 6 damage to the NPC. NPC HP is now 24.',
      ]);
      expect(r.state.npc.hp).toBe(24);
      expect(r.state.player.hp).toBe(100);
    });

    it('combat_strike attacker=player, seed 7: d20 3 + 5 = 8 misses', () => {
      const r = run('seed-eldoria', 'combat_strike', { attacker: 'player' }, 7);
      expect(r.faces).toEqual([3]);
      expect(r.notes).toEqual(['Player attacks! Roll: 8. MISS! The attack fails to connect.']);
      expect(r.state.npc.hp).toBe(30);
    });

    it('combat_strike attacker=npc, seed 1: d20 7 + attack_power 5 = 12 hits, d6 2 + 1 = 3 damage', () => {
      const r = run('seed-eldoria', 'combat_strike', { attacker: 'npc' }, 1);
      expect(r.faces).toEqual([7, 2]);
      expect(r.notes).toEqual(['NPC attacks! Roll: 12. HIT! Player takes 3 damage. Player HP is now 97.']);
      expect(r.state.player.hp).toBe(97);
    });

    it('combat_strike attacker=npc, seed 7: d20 3 + 5 = 8 misses', () => {
      const r = run('seed-eldoria', 'combat_strike', { attacker: 'npc' }, 7);
      expect(r.faces).toEqual([3]);
      expect(r.notes).toEqual(['NPC attacks! Roll: 8. MISS! The player dodges the attack.']);
      expect(r.state.player.hp).toBe(100);
    });

    it('cast_heal with mana: -10 mana, +20 hp clamped at 100', () => {
      const hurt = { ...plain(loaded.get('seed-eldoria')!.rules.initialState) };
      hurt.player.hp = 70;
      const r = run('seed-eldoria', 'cast_heal', {}, 1, hurt);
      expect(r.notes).toEqual([
        'Player casts Heal! Consumed 10 mana. Restored 20 HP. Player HP: 90 | Mana: 40.',
      ]);
      expect(r.state.player).toMatchObject({ hp: 90, mana: 40 });
      const full = run('seed-eldoria', 'cast_heal', {}, 1);
      expect(full.state.player).toMatchObject({ hp: 100, mana: 40 });
    });

    it('cast_heal without mana changes nothing and says so', () => {
      const dry = plain(loaded.get('seed-eldoria')!.rules.initialState);
      dry.player.mana = 9;
      const r = run('seed-eldoria', 'cast_heal', {}, 1, dry);
      expect(r.notes).toEqual([
        'Player tries to cast Heal but does not have enough mana! Requires 10 mana, has 9.',
      ]);
      expect(r.state).toEqual(dry);
    });

    it('rest_at_inn with gold: -5 gold, hp and mana restored', () => {
      const tired = plain(loaded.get('seed-eldoria')!.rules.initialState);
      Object.assign(tired.player, { hp: 12, mana: 3 });
      const r = run('seed-eldoria', 'rest_at_inn', {}, 1, tired);
      expect(r.notes).toEqual([
        'Player rents a room for 5 gold. Fully restored HP and Mana. Gold remaining: 15.',
      ]);
      expect(r.state.player).toEqual({ hp: 100, mana: 50, gold: 15, status: 'healthy' });
    });

    it('rest_at_inn without gold changes nothing', () => {
      const poor = plain(loaded.get('seed-eldoria')!.rules.initialState);
      Object.assign(poor.player, { hp: 12, gold: 4 });
      const r = run('seed-eldoria', 'rest_at_inn', {}, 1, poor);
      expect(r.notes).toEqual(["Player tries to rest at the inn but doesn't have 5 gold."]);
      expect(r.state).toEqual(poor);
    });
  });

  describe('generic-rpg (dict-form inputs with enums, `- else:` with null, dynamic var paths)', () => {
    it('combat_strike misses on seed 1 (the `- else:` arm runs) and hits on seed 2', () => {
      const miss = run('mnesos/generic-rpg', 'combat_strike', {}, 1);
      expect(miss.notes).toEqual(['player swung at npc and missed! (Rolled 7)']);
      expect(miss.state.npc.hp).toBe(20);
      const hit = run('mnesos/generic-rpg', 'combat_strike', {}, 2);
      expect(hit.notes).toEqual(['player strikes npc successfully for 8 damage! (Rolled 11)']);
      expect(hit.state.npc.hp).toBe(12);
    });

    it('combat_strike against the player goes through the dynamic path state.player.hp', () => {
      const r = run(
        'mnesos/generic-rpg',
        'combat_strike',
        { attacker: 'NPC', defender: 'Player', power: 5 },
        2,
      );
      expect(r.notes).toEqual(['npc strikes player successfully for 8 damage! (Rolled 16)']);
      expect(r.state.player.hp).toBe(92);
      expect(r.state.npc.hp).toBe(20);
    });

    it('cast_spell spends mana when there is enough, else fails', () => {
      const r = run('mnesos/generic-rpg', 'cast_spell', { spell_name: 'Fireball' }, 1);
      expect(r.notes).toEqual(['Player casts Fireball! It consumes 10 mana and deals 15 damage.']);
      expect(r.state.player.mana).toBe(40);
      expect(r.state.npc.hp).toBe(5);
      const costly = run('mnesos/generic-rpg', 'cast_spell', { spell_name: 'Meteor', mana_cost: 60 }, 1);
      expect(costly.notes).toEqual(['Player attempted to cast Meteor but lacked the mana.']);
      expect(costly.state.player.mana).toBe(50);
    });

    it('flee fails on seed 1 and succeeds on seed 6 (moving to Safe Haven)', () => {
      expect(run('mnesos/generic-rpg', 'flee', {}, 1).notes).toEqual([
        'Player failed to escape. The enemy blocks the path.',
      ]);
      const away = run('mnesos/generic-rpg', 'flee', {}, 6);
      expect(away.notes).toEqual(['Player successfully fled the encounter!']);
      expect(away.state.current_location).toBe('Safe Haven');
    });

    it('generic_check adds the level to the roll', () => {
      expect(run('mnesos/generic-rpg', 'generic_check', { stat: 'charm', difficulty: 10 }, 1).notes).toEqual([
        'Action Failed! (Rolled 8 vs 10)',
      ]);
      expect(run('mnesos/generic-rpg', 'generic_check', { stat: 'charm', difficulty: 10 }, 2).notes).toEqual([
        'Action Succeeded! (Rolled 12 vs 10)',
      ]);
    });
  });

  describe('dark-fantasy (macros, game_time as a domain)', () => {
    it('combat_strike by the player misses on seed 1 and hits on seed 2', () => {
      expect(run('mnesos/dark-fantasy', 'combat_strike', {}, 1).notes).toEqual([
        'Player swings wildly and misses! Rolled 9.',
      ]);
      const hit = run('mnesos/dark-fantasy', 'combat_strike', {}, 2);
      expect(hit.notes).toEqual([
        'Player strikes effectively with their trick weapon! Rolled 13. Deals 9 damage to the beast!',
      ]);
    });

    it('combat_strike by an npc damages and corrupts the player', () => {
      const r = run('mnesos/dark-fantasy', 'combat_strike', { attacker: 'npc' }, 1);
      expect(r.notes).toEqual([
        'A monstrosity lunges from the shadows!',
        'Player takes damage and corruption rises. HP is now 96. Corruption is 2.',
      ]);
      expect(r.state.player).toEqual({ hp: 96, corruption: 2, gold: 10 });
      expect(r.state.game_time).toEqual({ now: '1199-01-01T00:00:00' });
    });

    it('pray_at_shrine lowers corruption, clamped at 0', () => {
      const c = plain(loaded.get('mnesos/dark-fantasy')!.rules.initialState);
      c.player.corruption = 25;
      expect(run('mnesos/dark-fantasy', 'pray_at_shrine', {}, 1, c).state.player.corruption).toBe(15);
      const r = run('mnesos/dark-fantasy', 'pray_at_shrine', {}, 1);
      expect(r.notes).toEqual(['Player prays at a bleak ruined shrine. Corruption falls to 0.']);
    });
  });

  describe('lights-out-demo (mini-game through _pending_interaction)', () => {
    it('initiate_hack sets the pending interaction once; the resolver is not a tool', () => {
      const r = run('mnesos/lights-out-demo', 'initiate_hack', {}, 1);
      expect(r.notes).toEqual(['[SYSTEM LOG: Hack terminal mini-game triggered. Attempt #1.]']);
      expect(r.state._pending_interaction).toMatchObject({
        interaction_type: 'minigame',
        minigame_id: 'lights_out',
        resolver_event: 'resolve_hack',
      });
      expect(r.state._pending_interaction.config.difficulty.grid_size).toBe(4);
      expect(r.state.terminal_attempts).toBe(1);
      const again = run('mnesos/lights-out-demo', 'initiate_hack', {}, 1, r.state);
      expect(again.notes).toEqual([
        '[SYSTEM LOG: Terminal security has engaged a permanent lockout after the previous attempt.]',
      ]);
      expect(again.state._pending_interaction).toEqual({});
      expect(loaded.get('mnesos/lights-out-demo')!.rules.events.get('resolve_hack')!.resolver).toBe(true);
    });

    it('resolve_hack completed unlocks and pays; failed raises the alarm; aborted changes nothing', () => {
      const done = run(
        'mnesos/lights-out-demo',
        'resolve_hack',
        { status: 'completed', metrics: { rank: 'A' }, minigame_specific_data: { moves_made: 12 } },
        1,
      );
      expect(done.notes).toEqual(['[SYSTEM LOG: Terminal unlocked! +100 credits. Moves used: 12]']);
      expect(done.state).toMatchObject({
        terminal_locked: false,
        player_credits: 150,
        terminal_reward_tier: 'standard',
      });
      const failed = run(
        'mnesos/lights-out-demo',
        'resolve_hack',
        { status: 'failed', minigame_specific_data: { grid_remaining: 3 } },
        1,
      );
      expect(failed.notes).toEqual([
        '[SYSTEM LOG: Hack failed. Alarm triggered! HP -3 penalty. Player HP: 85]',
      ]);
      expect(failed.state).toMatchObject({ world_alarm_active: true, player_hp: 85 });
      const aborted = run('mnesos/lights-out-demo', 'resolve_hack', { status: 'aborted' }, 1);
      expect(aborted.notes).toEqual(['[SYSTEM LOG: Hack aborted by player. Terminal still locked.]']);
      expect(aborted.state).toEqual(plain(loaded.get('mnesos/lights-out-demo')!.rules.initialState));
    });

    it('move_to_server_room needs the unlocked terminal; disable_alarm clears the alarm', () => {
      expect(run('mnesos/lights-out-demo', 'move_to_server_room', {}, 1).notes).toEqual([
        '[SYSTEM LOG: Server room door requires an unlocked terminal. Access denied.]',
      ]);
      const open = plain(loaded.get('mnesos/lights-out-demo')!.rules.initialState);
      open.terminal_locked = false;
      open.world_alarm_active = true;
      const moved = run('mnesos/lights-out-demo', 'move_to_server_room', {}, 1, open);
      expect(moved.state.world_current_room).toBe('server_room');
      expect(run('mnesos/lights-out-demo', 'disable_alarm', {}, 1, open).state.world_alarm_active).toBe(
        false,
      );
    });
  });

  describe('web-client-e2e', () => {
    it('combat_strike misses on seed 1 and hits on seed 2', () => {
      expect(run('mnesos/web-client-e2e', 'combat_strike', {}, 1).notes).toEqual(['player misses npc.']);
      const hit = run('mnesos/web-client-e2e', 'combat_strike', {}, 2);
      expect(hit.notes).toEqual(['player strikes npc for 8 damage.']);
      expect(hit.state.npc.hp).toBe(12);
    });
  });
});
