// The demo cartridge (cartridges/lanternmere) as scenario tests: it loads with no errors and no warnings,
// and every public event runs with a fixed seed to the notes, rolls and state asserted here, one test per
// branch. A new public event without a scenario fails the coverage test at the end.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Cartridge, loadCartridge } from '../../src/core/cartridge/index.ts';
import { evaluateExpression } from '../../src/core/yare/evaluate-text.ts';
import { eventTools, publicEvents, runEvent } from '../../src/core/yare/index.ts';

const DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../cartridges/lanternmere');

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

let cartridge: Cartridge;
/** The initial state as plain JSON. */
let initial: Obj;
/** Public events a scenario below has run; checked against the cartridge at the end. */
const covered = new Set<string>();

function plain<T>(v: unknown): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

function isObj(v: Json | undefined): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `base` with `patch` merged in: nested objects merge, anything else (lists included) replaces. */
function merge(base: Obj, patch: Obj): Obj {
  const out: Obj = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    const current = out[k];
    out[k] = isObj(current) && isObj(v) ? merge(current, v) : v;
  }
  return out;
}

function stateWith(patch: Obj = {}): Obj {
  return merge(initial, patch);
}

interface Ran {
  notes: readonly string[];
  rolls: string[];
  state: Obj;
}

/** Runs an event that must succeed; rolls come back as `expr dice=total`. */
function run(event: string, patch: Obj = {}, inputs: Obj = {}, seed = 0): Ran {
  covered.add(event);
  const result = runEvent(cartridge.rules, stateWith(patch), event, inputs, { seed });
  if (!result.ok) throw new Error(`${event}: ${result.error.code} ${result.error.message}`);
  return {
    notes: result.notes,
    rolls: result.rolls.map((r) => `${r.expr} ${r.dice}=${r.total}`),
    state: plain<Obj>(result.state),
  };
}

/** The state a run should end in: the start state with these changes. */
function expected(start: Obj, changes: Obj): Obj {
  return merge(stateWith(start), changes);
}

const BOG_LURCHER: Obj = { name: 'bog lurcher', hp: 14, armor: 11, attack_power: 4, damage_dice: '1d6' };
const IN_REEDMAZE: Obj = { player: { location: 'reedmaze' } };
const AT_MARKET: Obj = { player: { location: 'brine market' } };
const AT_CHAPEL: Obj = { player: { location: 'drowned chapel' } };

beforeAll(async () => {
  const result = await loadCartridge(DIR);
  if (!result.ok)
    throw new Error(
      result.errors.map((e) => `${e.place?.line}:${e.place?.col} ${e.code} ${e.message}`).join('\n'),
    );
  cartridge = result.cartridge;
  initial = plain<Obj>(cartridge.rules.initialState);
});

describe('lanternmere loads', () => {
  it('has no errors and no warnings', async () => {
    const result = await loadCartridge(DIR);
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it('starts from the declared defaults', () => {
    expect(initial.player).toEqual({
      hp: 24,
      max_hp: 24,
      mana: 10,
      max_mana: 10,
      gold: 20,
      hunger: 0,
      location: 'tallow rest',
      inventory: ['iron hook', 'tallow candle'],
      attack_bonus: 4,
      armor: 12,
    });
    expect(initial.game_time).toBe('1147-03-09T18:00:00');
    expect(initial._pending_interaction).toEqual({});
  });

  it('offers only the public events as tools, with enum inputs', () => {
    const tools = eventTools(cartridge.rules);
    expect(tools.map((t) => t.name).sort()).toEqual([
      'attack',
      'buy_item',
      'cast_spell',
      'check_pack',
      'drink_tonic',
      'explore_fen',
      'rest_at_inn',
      'sell_item',
      'travel',
      'unseal_chapel',
    ]);
    const cast = tools.find((t) => t.name === 'cast_spell')!;
    expect(cast.inputSchema).toMatchObject({
      properties: { spell: { type: 'string', enum: ['flare', 'mend', 'glimmer'] } },
      required: ['spell'],
    });
  });

  it('gives every public event a description and intents', () => {
    for (const event of publicEvents(cartridge.rules)) {
      expect(event.description, event.name).not.toMatch(/^Trigger the /);
      expect(event.intents.length, event.name).toBeGreaterThanOrEqual(3);
    }
  });

  it('applies the persona macros to the first message and the lore', async () => {
    const result = await loadCartridge(DIR, {
      persona: {
        name: 'Wren',
        pronoun_sub: 'she',
        pronoun_obj: 'her',
        pronoun_poss: 'her',
        pronoun_poss_obj: 'hers',
      },
    });
    if (!result.ok) throw new Error('did not load with a persona');
    expect(result.cartridge.firstMessage).toContain('Wren steps onto the plank-way with her iron hook');
    expect(result.cartridge.firstMessage).not.toContain('{{');
    expect(result.cartridge.lore).toContain('Wren arrived on the last barge of autumn');
  });
});

describe('travel', () => {
  it('moves the player', () => {
    const r = run('travel', {}, { destination: 'reedmaze' });
    expect(r.notes).toEqual([
      '[SYSTEM LOG: The player walks the plank-ways to the reedmaze; it is evening when they arrive. ((Describe the arrival.))]',
    ]);
    // An hour out to the fen: the engine adds _elapsed_minutes to game_time at the end of the turn.
    expect(r.state).toEqual(expected({}, { ...IN_REEDMAZE, _elapsed_minutes: 60 }));
  });

  it('takes half an hour between the two town stops, and tells the part of the day on arrival', () => {
    const r = run('travel', { game_time: '1147-03-09T16:45:00' }, { destination: 'brine market' });
    expect(r.notes[0]).toContain('it is evening when they arrive');
    expect(r.state._elapsed_minutes).toBe(30);
    const early = run('travel', { game_time: '1147-03-09T16:15:00' }, { destination: 'brine market' });
    expect(early.notes[0]).toContain('it is afternoon when they arrive');
  });

  it('matches the destination without regard to case', () => {
    const r = run('travel', {}, { destination: 'Brine Market' });
    expect((r.state.player as Obj).location).toBe('brine market');
  });

  it('stays put when already there', () => {
    const r = run('travel', {}, { destination: 'tallow rest' });
    expect(r.notes).toEqual([
      '[SYSTEM LOG: The player is already at the tallow rest. ((Describe the place anew.))]',
    ]);
    expect(r.state).toEqual(initial);
  });

  it('cannot leave a fight', () => {
    const start = { ...IN_REEDMAZE, foe: BOG_LURCHER };
    const r = run('travel', start, { destination: 'tallow rest' });
    expect(r.notes[0]).toContain('The bog lurcher blocks the way');
    expect(r.state).toEqual(stateWith(start));
  });

  it('refuses a place that is not on the map, and changes nothing', () => {
    const result = runEvent(cartridge.rules, initial, 'travel', { destination: 'the moon' }, { seed: 0 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('YARE_BAD_INPUT');
    expect(result.error.message).toContain('tallow rest, brine market, reedmaze, drowned chapel');
  });
});

describe('explore_fen (table_roll and call)', () => {
  it('finds nothing on a low roll', () => {
    const r = run('explore_fen', IN_REEDMAZE, {}, 1);
    expect(r.rolls).toEqual(['roll(1d20) 1d20=7']);
    expect(r.notes).toEqual([
      '[SYSTEM LOG: The fen is quiet: frogs, dripping reeds, a far bell. ((Describe the stillness and one odd detail.))]',
    ]);
    expect(r.state).toEqual(stateWith({ ...IN_REEDMAZE, _elapsed_minutes: 60 }));
  });

  it.each([
    [3, 8, { name: 'mire wisp', hp: 6, armor: 13, attack_power: 3, damage_dice: '1d4' }],
    [37, 18, { name: 'bog lurcher', hp: 14, armor: 11, attack_power: 4, damage_dice: '1d6' }],
    [17, 20, { name: 'reed wight', hp: 20, armor: 14, attack_power: 5, damage_dice: '1d8' }],
  ])('seed %i rolls %i and raises the creature from the bestiary', (seed, face, foe) => {
    const r = run('explore_fen', IN_REEDMAZE, {}, seed);
    expect(r.rolls).toEqual([`roll(1d20) 1d20=${face}`]);
    expect(r.notes).toEqual([
      `[SYSTEM LOG: A ${foe.name} rises out of the fen and turns toward the player. ((Describe it and its threat.))]`,
    ]);
    expect(r.state).toEqual(expected(IN_REEDMAZE, { foe, _elapsed_minutes: 60 }));
  });

  it('is safe in town', () => {
    const r = run('explore_fen', {}, {}, 0);
    expect(r.rolls).toEqual([]);
    expect(r.notes[0]).toContain('The lamps of town keep');
    expect(r.state).toEqual(initial);
  });

  it('does not roll again while a creature is present', () => {
    const start = { ...IN_REEDMAZE, foe: BOG_LURCHER };
    const r = run('explore_fen', start, {}, 0);
    expect(r.rolls).toEqual([]);
    expect(r.notes).toEqual([
      '[SYSTEM LOG: The bog lurcher is still here. ((Describe it pressing closer.))]',
    ]);
  });
});

describe('attack (macros, hit/miss, damage, the foe answers)', () => {
  const start = { ...IN_REEDMAZE, foe: BOG_LURCHER };

  it('hits, and the creature hits back', () => {
    const r = run('attack', start, {}, 8);
    // to-hit 19 + 4 >= armor 11; damage 3 + 1; the lurcher's 13 + 4 >= armor 12; its 1d6 from state.
    expect(r.rolls).toEqual([
      'roll(1d20) 1d20=19',
      'roll(1d6) 1d6=3',
      'roll(1d20) 1d20=13',
      'roll(state.foe.damage_dice) 1d6=3',
    ]);
    expect(r.notes).toEqual([
      "[SYSTEM LOG: The player's hook hits the bog lurcher for 4 damage; it has 10 HP left. ((Describe the blow landing.))]",
      '[SYSTEM LOG: The bog lurcher strikes the player for 3 damage, leaving 21 HP. ((Describe the wound.))]',
    ]);
    expect(r.state).toEqual(expected(start, { player: { hp: 21 }, foe: { hp: 10 } }));
  });

  it('misses, and the creature misses too', () => {
    const r = run('attack', start, {}, 42);
    // to-hit 5 + 4 < armor 11; the lurcher's 6 + 4 < armor 12.
    expect(r.rolls).toEqual(['roll(1d20) 1d20=5', 'roll(1d20) 1d20=6']);
    expect(r.notes).toEqual([
      "[SYSTEM LOG: The player's swing misses the bog lurcher. ((Describe the near miss.))]",
      '[SYSTEM LOG: The bog lurcher lunges and misses the player. ((Describe the dodge.))]',
    ]);
    expect(r.state).toEqual(stateWith(start));
  });

  it('kills, and the loot table pays out', () => {
    const weak = { ...IN_REEDMAZE, foe: { ...BOG_LURCHER, name: 'mire wisp', hp: 1 } };
    const r = run('attack', weak, {}, 8);
    expect(r.rolls).toEqual(['roll(1d20) 1d20=19', 'roll(1d6) 1d6=3', 'roll(1d6) 1d6=5']);
    expect(r.notes).toEqual([
      "[SYSTEM LOG: The player's hook hits the mire wisp for 4 damage; it has 0 HP left. ((Describe the blow landing.))]",
      '[SYSTEM LOG: The mire wisp is defeated. The player finds 5 gold in the mud. ((Describe the creature sinking away.))]',
    ]);
    // hp clamps at its min of 0; a loot roll of 5 is in the "4-5" row.
    expect(r.state).toEqual(expected(weak, { player: { gold: 25 }, foe: { name: 'none', hp: 0 } }));
  });

  it('knocks the player out when their HP reaches 0', () => {
    const hurt = { ...start, player: { location: 'reedmaze', hp: 3 } };
    // The lurcher's 13 + 4 >= armor 12, and its 1d6 rolls 3: HP 3 - 3 = 0.
    const r = run('attack', hurt, {}, 8);
    expect(r.notes.at(-1)).toBe(
      '[SYSTEM LOG: The player collapses into the mud, unconscious. ((Describe the world going dark.))]',
    );
    expect((r.state.player as Obj).hp).toBe(0);
  });

  it('swings at mist when nothing is there', () => {
    const r = run('attack', {}, {}, 0);
    expect(r.rolls).toEqual([]);
    expect(r.notes).toEqual([
      '[SYSTEM LOG: There is nothing to fight. ((Describe the player swinging at mist.))]',
    ]);
    expect(r.state).toEqual(initial);
  });
});

describe('cast_spell (mana, enum input, a macro reading the input)', () => {
  it('flare burns the foe for 2d6 and costs 4 mana', () => {
    const start = { ...IN_REEDMAZE, foe: BOG_LURCHER };
    const r = run('cast_spell', start, { spell: 'flare' }, 8);
    expect(r.rolls).toEqual(['roll(2d6) 2d6=6', 'roll(1d20) 1d20=13', 'roll(state.foe.damage_dice) 1d6=3']);
    expect(r.notes).toEqual([
      '[SYSTEM LOG: Flare burns the bog lurcher for 6 damage; it has 8 HP left. ((Describe the lamp-fire.))]',
      '[SYSTEM LOG: The bog lurcher strikes the player for 3 damage, leaving 21 HP. ((Describe the wound.))]',
    ]);
    expect(r.state).toEqual(expected(start, { player: { mana: 6, hp: 21 }, foe: { hp: 8 } }));
  });

  it('flare without a target keeps the mana', () => {
    const r = run('cast_spell', {}, { spell: 'flare' }, 0);
    expect(r.notes[0]).toContain('There is no target for flare');
    expect(r.state).toEqual(initial);
  });

  it('mend heals 1d6 + 2 for 3 mana (the enum matches any case)', () => {
    const r = run('cast_spell', { player: { hp: 10 } }, { spell: 'MEND' }, 23);
    expect(r.rolls).toEqual(['roll(1d6) 1d6=2']);
    expect(r.notes).toEqual([
      "[SYSTEM LOG: Mend knits the player's wounds back to 14 HP. ((Describe warmth spreading.))]",
    ]);
    expect(r.state).toEqual(expected({ player: { hp: 10 } }, { player: { hp: 14, mana: 7 } }));
  });

  it('mend never heals past max HP', () => {
    const r = run('cast_spell', { player: { hp: 23 } }, { spell: 'mend' }, 0);
    expect((r.state.player as Obj).hp).toBe(24);
  });

  it('glimmer costs 1 mana', () => {
    const r = run('cast_spell', {}, { spell: 'glimmer' }, 0);
    expect(r.notes).toEqual([
      '[SYSTEM LOG: Glimmer lights a small steady flame. ((Describe one hidden thing it reveals nearby.))]',
    ]);
    expect(r.state).toEqual(expected({}, { player: { mana: 9 } }));
  });

  it('fizzles without enough mana, at the cost exactly and one below', () => {
    expect(run('cast_spell', { player: { mana: 3 } }, { spell: 'mend' }, 0).notes[0]).toContain('Mend knits');
    const r = run('cast_spell', { player: { mana: 2 } }, { spell: 'mend' }, 0);
    expect(r.notes).toEqual([
      '[SYSTEM LOG: The player tries to cast mend without enough mana. ((Describe the spell guttering out.))]',
    ]);
    expect(r.state).toEqual(stateWith({ player: { mana: 2 } }));
  });

  it('refuses a spell it does not know', () => {
    const result = runEvent(cartridge.rules, initial, 'cast_spell', { spell: 'fireball' }, { seed: 0 });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error.message).toBe(
        "Input 'spell' of 'cast_spell' must be one of flare, mend, glimmer; got fireball.",
      );
  });
});

describe('buy_item and sell_item (gold, prices dict, list_push, list_remove)', () => {
  it('buys at the market price', () => {
    const r = run('buy_item', AT_MARKET, { item: 'brine tonic' });
    expect(r.notes).toEqual([
      '[SYSTEM LOG: The player buys the brine tonic for 8 gold and has 12 left. ((Describe the trade.))]',
    ]);
    expect(r.state).toEqual(
      expected(AT_MARKET, { player: { gold: 12, inventory: ['iron hook', 'tallow candle', 'brine tonic'] } }),
    );
  });

  it('buys with exactly enough gold, and not with one less', () => {
    const exact = run(
      'buy_item',
      { player: { location: 'brine market', gold: 15 } },
      { item: 'eelskin cloak' },
    );
    expect((exact.state.player as Obj).gold).toBe(0);
    const short = run(
      'buy_item',
      { player: { location: 'brine market', gold: 14 } },
      { item: 'eelskin cloak' },
    );
    expect(short.notes).toEqual([
      "[SYSTEM LOG: The player cannot afford the eelskin cloak (15 gold, has 14). ((Describe the trader's shrug.))]",
    ]);
    expect(short.state).toEqual(stateWith({ player: { location: 'brine market', gold: 14 } }));
  });

  it('stops at a full pack (macros.pack_limit is 12)', () => {
    const eleven = Array.from({ length: 11 }, (_, i) => `trinket ${i}`);
    const fits = run(
      'buy_item',
      { player: { location: 'brine market', inventory: eleven } },
      { item: 'lamp oil' },
    );
    expect((fits.state.player as Obj).inventory).toEqual([...eleven, 'lamp oil']);
    const full = [...eleven, 'trinket 11'];
    const r = run(
      'buy_item',
      { player: { location: 'brine market', inventory: full } },
      { item: 'lamp oil' },
    );
    expect(r.notes).toEqual([
      "[SYSTEM LOG: The player's pack is full. ((Describe them juggling their things.))]",
    ]);
    expect((r.state.player as Obj).inventory).toEqual(full);
  });

  it('only trades at the Brine Market', () => {
    expect(run('buy_item', {}, { item: 'lamp oil' }).state).toEqual(initial);
    const r = run('sell_item', {}, { item: 'iron hook' });
    expect(r.notes[0]).toContain('There is no one to sell to here');
    expect(r.state).toEqual(initial);
  });

  it('sells for half the price, rounded down', () => {
    const r = run('sell_item', AT_MARKET, { item: 'iron hook' });
    expect(r.notes).toEqual([
      "[SYSTEM LOG: The player sells the iron hook for 3 gold. ((Describe the trader's appraisal.))]",
    ]);
    expect(r.state).toEqual(expected(AT_MARKET, { player: { gold: 23, inventory: ['tallow candle'] } }));
  });

  it('pays at least 1 gold', () => {
    const r = run('sell_item', AT_MARKET, { item: 'tallow candle' });
    expect(r.state).toEqual(expected(AT_MARKET, { player: { gold: 21, inventory: ['iron hook'] } }));
  });

  it('removes only the first of two equal items', () => {
    const start = { player: { location: 'brine market', inventory: ['lamp oil', 'iron hook', 'lamp oil'] } };
    const r = run('sell_item', start, { item: 'lamp oil' });
    expect((r.state.player as Obj).inventory).toEqual(['iron hook', 'lamp oil']);
  });

  it('cannot sell what the player does not have', () => {
    const r = run('sell_item', AT_MARKET, { item: 'lamp oil' });
    expect(r.notes).toEqual([
      '[SYSTEM LOG: The player has no lamp oil to sell. ((Describe them searching their pack in vain.))]',
    ]);
    expect(r.state).toEqual(stateWith(AT_MARKET));
  });
});

describe('drink_tonic', () => {
  it('uses one tonic and heals 2d4 + 2', () => {
    const start = { player: { hp: 5, inventory: ['brine tonic', 'iron hook', 'brine tonic'] } };
    const r = run('drink_tonic', start, {}, 14);
    expect(r.rolls).toEqual(['roll(2d4) 2d4=8']);
    expect(r.notes).toEqual([
      '[SYSTEM LOG: The player drinks a brine tonic and is back to 15 HP. ((Describe the salty, bitter warmth.))]',
    ]);
    expect(r.state).toEqual(expected(start, { player: { hp: 15, inventory: ['iron hook', 'brine tonic'] } }));
  });

  it('does nothing without a tonic', () => {
    const r = run('drink_tonic', {}, {}, 0);
    expect(r.notes).toEqual(['[SYSTEM LOG: The player has no brine tonic. ((Describe the empty pocket.))]']);
    expect(r.state).toEqual(initial);
  });
});

describe('check_pack (foreach)', () => {
  it('notes each item with its position', () => {
    const r = run('check_pack');
    expect(r.notes).toEqual([
      '[SYSTEM LOG: The player checks their pack: 2 items and 20 gold. ((List them plainly.))]',
      '[SYSTEM LOG: Pack item 1: iron hook.]',
      '[SYSTEM LOG: Pack item 2: tallow candle.]',
    ]);
    expect(r.state).toEqual(initial);
  });

  it('lists nothing for an empty pack', () => {
    const r = run('check_pack', { player: { inventory: [] } });
    expect(r.notes).toEqual([
      '[SYSTEM LOG: The player checks their pack: 0 items and 20 gold. ((List them plainly.))]',
    ]);
  });
});

describe('rest_at_inn', () => {
  it('restores health and mana and clears hunger for 5 gold', () => {
    const start = { player: { hp: 3, mana: 0, hunger: 6 } };
    const r = run('rest_at_inn', start);
    expect(r.notes).toEqual([
      '[SYSTEM LOG: The player pays 5 gold, eats stew and sleeps until morning; health and mana are fully restored. ((Describe the night at the inn.))]',
    ]);
    // Evening (18:00) to seven in the morning: 13 hours, added to game_time by the engine.
    expect(r.state).toEqual(
      expected(start, { player: { hp: 24, mana: 10, hunger: 0, gold: 15 }, _elapsed_minutes: 780 }),
    );
  });

  it('sleeps until seven, and a full day when it is seven already', () => {
    expect(run('rest_at_inn', { game_time: '1147-03-10T02:30:00' }).state._elapsed_minutes).toBe(270);
    expect(run('rest_at_inn', { game_time: '1147-03-10T06:59:00' }).state._elapsed_minutes).toBe(1);
    expect(run('rest_at_inn', { game_time: '1147-03-10T07:00:00' }).state._elapsed_minutes).toBe(1440);
  });

  it('turns the player away with 4 gold, and takes exactly 5', () => {
    const poor = run('rest_at_inn', { player: { gold: 4, hp: 3 } });
    expect(poor.notes[0]).toContain("Mother Hesk's sympathetic refusal");
    expect(poor.state).toEqual(stateWith({ player: { gold: 4, hp: 3 } }));
    expect((run('rest_at_inn', { player: { gold: 5 } }).state.player as Obj).gold).toBe(0);
  });

  it('only at the Tallow Rest', () => {
    const r = run('rest_at_inn', AT_CHAPEL);
    expect(r.notes).toEqual([
      '[SYSTEM LOG: There is no bed here; Mother Hesk keeps the beds at the Tallow Rest.]',
    ]);
    expect(r.state).toEqual(stateWith(AT_CHAPEL));
  });
});

describe('unseal_chapel and its resolver (the lights_out mini-game)', () => {
  it('starts the mini-game', () => {
    const r = run('unseal_chapel', AT_CHAPEL);
    expect(r.notes).toEqual([
      '[SYSTEM LOG: The witch-lamps on the chapel door wake. The story pauses while the player works the lamp-lock. ((Describe the glowing ring, not the outcome.))]',
    ]);
    expect(r.state).toEqual(
      expected(AT_CHAPEL, {
        world: { chapel_attempts: 1 },
        _pending_interaction: {
          interaction_type: 'minigame',
          minigame_id: 'lights_out',
          resolver_event: 'resolve_chapel_lamps',
          config: {
            difficulty: { grid_size: 5, max_moves: 25, scramble_depth: 8 },
            narrative_hooks: { on_near_miss: 'One lamp flares back to life, hissing.' },
          },
        },
      }),
    );
  });

  it('only at the chapel, and only while it is sealed', () => {
    expect(run('unseal_chapel').notes[0]).toContain('the player has to travel to the drowned chapel first');
    const open = { ...AT_CHAPEL, world: { chapel_sealed: false } };
    const r = run('unseal_chapel', open);
    expect(r.notes).toEqual([
      '[SYSTEM LOG: The chapel door already stands open. ((Describe the dark nave beyond.))]',
    ]);
    expect(r.state).toEqual(stateWith(open));
  });

  it('the resolver is internal, never a tool', () => {
    const resolver = cartridge.rules.events.get('resolve_chapel_lamps')!;
    expect(resolver.internal).toBe(true);
    expect(resolver.resolver).toBe(true);
  });

  it('opens the chapel when the puzzle is completed', () => {
    const start = {
      world: { turn: 7, flags: { lamps_scorched_player: true } },
      _pending_interaction: { minigame_id: 'lights_out' },
    };
    const r = run('resolve_chapel_lamps', start, { status: 'completed', metrics: { moves: 11 } });
    expect(r.notes[0]).toContain('the chapel door grinds open');
    const want = expected(start, { player: { gold: 50 }, world: { chapel_sealed: false } });
    // dict_set adds the turn it opened on; dict_delete drops the mark a failed attempt left.
    (want.world as Obj).flags = { chapel_opened_on_turn: 7 };
    // The resolver clears the pending interaction itself, so a replayed result cannot start it again.
    want._pending_interaction = {};
    expect(r.state).toEqual(want);
  });

  it('burns the player when the puzzle is failed', () => {
    const r = run('resolve_chapel_lamps', {}, { status: 'failed' }, 0);
    expect(r.rolls).toEqual(['roll(1d4) 1d4=4']);
    expect(r.notes).toEqual([
      '[SYSTEM LOG: The lamps flare back at once and scorch the player for 4 damage, leaving 20 HP. The door stays shut.]',
    ]);
    expect(r.state).toEqual(
      expected({}, { player: { hp: 20 }, world: { flags: { lamps_scorched_player: true } } }),
    );
  });

  it('treats a missing status as aborted', () => {
    const r = run('resolve_chapel_lamps');
    expect(r.notes[0]).toContain('The player steps back from the lamp-lock');
    expect(r.state).toEqual(initial);
  });
});

describe('pass_time (cycle tick)', () => {
  it('is a cycle tick, not a tool', () => {
    expect(cartridge.rules.events.get('pass_time')!.triggerOn).toBe('cycle_tick');
  });

  it('counts turns; the fourth brings hunger', () => {
    expect(run('pass_time').state).toEqual(expected({}, { world: { turn: 1 } }));
    const r = run('pass_time', { world: { turn: 3 } });
    expect(r.notes).toEqual([]);
    expect(r.state).toEqual(expected({}, { world: { turn: 4 }, player: { hunger: 1 } }));
  });

  it('costs HP when hunger reaches 8', () => {
    const r = run('pass_time', { world: { turn: 7 }, player: { hunger: 7 } });
    expect(r.notes).toEqual([
      '[SYSTEM LOG: The player is starving and loses strength. ((Mention their hunger.))]',
    ]);
    expect(r.state).toEqual(expected({}, { world: { turn: 8 }, player: { hunger: 8, hp: 23 } }));
  });
});

describe('the part of the day (macros.time_of_day)', () => {
  it.each([
    ['1147-03-09T05:59:00', 'night'],
    ['1147-03-09T06:00:00', 'morning'],
    ['1147-03-09T11:59:00', 'morning'],
    ['1147-03-09T12:00:00', 'afternoon'],
    ['1147-03-09T17:00:00', 'evening'],
    ['1147-03-09T20:59:00', 'evening'],
    ['1147-03-09T21:00:00', 'night'],
  ])('at %s it is %s: derived from game_time, never stored', (gameTime, part) => {
    const result = evaluateExpression(
      cartridge.rules,
      stateWith({ game_time: gameTime }),
      'macros.time_of_day',
    );
    expect(result).toMatchObject({ ok: true, value: part });
  });
});

describe('determinism', () => {
  it('the same state, inputs and seed give the same result', () => {
    const start = stateWith({ ...IN_REEDMAZE, foe: BOG_LURCHER });
    const a = runEvent(cartridge.rules, start, 'attack', {}, { seed: 42 });
    const b = runEvent(cartridge.rules, start, 'attack', {}, { seed: 42 });
    expect(plain(a)).toEqual(plain(b));
  });

  it('never changes the state it was given', () => {
    const start = stateWith({ ...IN_REEDMAZE, foe: BOG_LURCHER });
    const before = JSON.stringify(start);
    runEvent(cartridge.rules, start, 'attack', {}, { seed: 0 });
    expect(JSON.stringify(start)).toBe(before);
  });
});

describe('coverage', () => {
  it('every public event has a scenario above', () => {
    const names = publicEvents(cartridge.rules).map((e) => e.name);
    expect(names.filter((n) => !covered.has(n))).toEqual([]);
  });
});
