// Offline prose: numbers are the record's (an amount a bound cut short shows the change the record holds),
// one voice from the opening to every turn, and varied sentences for repeated outcomes chosen by a seed.
import { describe, expect, it } from 'vitest';
import { collect, initialState, lanternmere, plain, type Loose } from './helpers.ts';
import { describeOutcome, publicOutcome } from '../../../src/engine/turn/public-outcome.ts';

describe('numbers in offline prose are the record’s', () => {
  it('a blow larger than the hp left reads "N damage (player hp 3 → 0)", the change the record lists', async () => {
    const cartridge = await lanternmere();
    const state = plain(initialState(cartridge)) as Loose;
    state.player.location = 'reedmaze';
    state.player.hp = 3;
    state.foe = { name: 'reed wight', hp: 20, armor: 30, attack_power: 20, damage_dice: '1d8' };
    let found: { narration: string; hurt: number; lines: string[] } | undefined;
    for (let seed = 1; found === undefined && seed < 200; seed++) {
      const { record } = await collect({
        cartridge,
        state,
        messages: [],
        input: '/attack',
        seed,
        models: null,
      });
      const hurt = record.rolls.find((r) => r.label?.macro === 'foe_damage')?.total;
      if (hurt !== undefined && hurt > 3)
        found = {
          narration: record.narration,
          hurt,
          lines: describeOutcome(publicOutcome(cartridge.rules, record)),
        };
    }
    if (found === undefined) throw new Error('no seed below 200 lands a blow above 3');
    expect(found.lines).toContain('player hp 3 → 0 (-3)');
    expect(found.narration).toContain(`for ${found.hurt} damage (player hp 3 → 0), leaving 0 HP`);
  });

  it('a blow that fits leaves the sentence as the note says it', async () => {
    const cartridge = await lanternmere();
    const state = plain(initialState(cartridge)) as Loose;
    state.player.location = 'reedmaze';
    state.foe = { name: 'reed wight', hp: 20, armor: 30, attack_power: 20, damage_dice: '1d8' };
    const { record } = await collect({
      cartridge,
      state,
      messages: [],
      input: '/attack',
      seed: 3,
      models: null,
    });
    const hurt = record.rolls.find((r) => r.label?.macro === 'foe_damage')!.total;
    expect(record.narration).toContain(`for ${hurt} damage, leaving ${24 - hurt} HP`);
    expect(record.narration).not.toContain('→');
  });
});

describe('withRecordNumbers', () => {
  const hp = (group: string, before: number) => ({ path: [group, 'hp'], before, after: 0 });
  it('names the one clamped change a sentence can mean, and leaves a sentence that could mean two', async () => {
    const { withRecordNumbers } = await import('../../../src/engine/turn/offline/numbers.ts');
    const text = 'The wisp strikes the player for 7 damage, leaving 0 HP.';
    expect(withRecordNumbers(text, [hp('player', 6)])).toBe(
      'The wisp strikes the player for 7 damage (player hp 6 → 0), leaving 0 HP.',
    );
    // Two clamped hp changes: the group the sentence names decides.
    expect(withRecordNumbers(text, [hp('foe', 2), hp('player', 6)])).toContain('7 damage (player hp 6 → 0)');
    // Neither group named: left as it is rather than pinned to the wrong one.
    expect(withRecordNumbers('It hits for 7 damage; 0 HP.', [hp('foe', 2), hp('player', 6)])).toBe(
      'It hits for 7 damage; 0 HP.',
    );
    // A sentence that does not name the field is not touched; nor is an amount the change covers.
    expect(withRecordNumbers('You find 7 coins.', [hp('player', 6)])).toBe('You find 7 coins.');
    expect(withRecordNumbers('It hits for 6 damage, 0 HP left.', [hp('player', 6)])).toBe(
      'It hits for 6 damage, 0 HP left.',
    );
  });
});

describe('one voice from the opening to every turn', () => {
  const ada = {
    name: 'Ada',
    pronoun_sub: 'she',
    pronoun_obj: 'her',
    pronoun_poss: 'her',
    pronoun_poss_obj: 'hers',
  };
  const you = {
    name: 'You',
    pronoun_sub: 'you',
    pronoun_obj: 'you',
    pronoun_poss: 'your',
    pronoun_poss_obj: 'yours',
  };

  async function openingAndTurn(persona?: typeof ada) {
    const { loadCartridge } = await import('../../../src/adapters/files/index.ts');
    const { LANTERNMERE } = await import('./helpers.ts');
    const loaded = await loadCartridge(LANTERNMERE, persona === undefined ? {} : { persona });
    if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
    const cartridge = loaded.cartridge;
    const { record } = await collect({
      cartridge,
      state: initialState(cartridge),
      messages: [],
      input: '/rest_at_inn',
      seed: 1,
      models: null,
      ...(persona === undefined ? {} : { persona }),
    });
    return { opening: cartridge.firstMessage ?? '', turn: record.narration };
  }

  it('with no persona, the opening and the turns both speak of "the player"', async () => {
    const { opening, turn } = await openingAndTurn();
    expect(opening).toContain('The player steps onto the plank-way with their iron hook');
    expect(opening).not.toMatch(/\bPlayer steps\b/);
    expect(turn).toMatch(/^The player pays 5 gold/);
  });

  it('with a persona, its name and pronouns in both', async () => {
    const { opening, turn } = await openingAndTurn(ada);
    expect(opening).toContain('Ada steps onto the plank-way with her iron hook');
    expect(opening).toContain('Mother Hesk calls to her.');
    expect(turn).toMatch(/^Ada pays 5 gold/);
  });

  it('with "you" chosen, the player is addressed in both, and the verbs agree', async () => {
    const { opening, turn } = await openingAndTurn(you);
    expect(opening).toContain('You step onto the plank-way with your iron hook');
    expect(opening).toContain('Mother Hesk calls to you.');
    expect(turn).toMatch(/^You pay 5 gold/);
  });

  it('story macros: sentence starts are capitalised, a name spoken to stays a name', async () => {
    const { applyStoryMacros } = await import('../../../src/core/cartridge/index.ts');
    expect(applyStoryMacros('"Welcome, {{user}}." {{user}} nods. Later {{user}} sleeps.', undefined)).toBe(
      '"Welcome, Player." The player nods. Later the player sleeps.',
    );
    expect(applyStoryMacros('{{user}} is here and {{sub}} has {{poss}} lamp.', you)).toBe(
      'You are here and you have your lamp.',
    );
    expect(applyStoryMacros('{{user}} is here.', ada)).toBe('Ada is here.');
  });
});

describe('seeded variety in offline prose', () => {
  async function trip(seed: number, to = 'brine market') {
    const cartridge = await lanternmere();
    const { record } = await collect({
      cartridge,
      state: initialState(cartridge),
      messages: [],
      input: `/travel destination="${to}"`,
      seed,
      models: null,
    });
    return record.narration;
  }

  it('the same turn reads the same every time; trips with other seeds read otherwise', async () => {
    const first = await trip(5);
    expect(await trip(5)).toBe(first);
    const told = new Set<string>();
    for (let seed = 0; seed < 12; seed++) told.add(await trip(seed));
    expect(told.size).toBeGreaterThanOrEqual(2);
    // Each telling is the note, then one sentence of the lore about the place, spelled as the lore spells it.
    for (const text of told) {
      expect(text).toMatch(
        /^The player walks the plank-ways to the Brine Market; it is evening when they arrive\. /,
      );
    }
  });

  it('varietyIndex: deterministic, spread over its choices, 0 for one choice', async () => {
    const { varietyIndex } = await import('../../../src/engine/turn/offline/variety.ts');
    expect(varietyIndex(42, 'arrive:brine market', 3)).toBe(varietyIndex(42, 'arrive:brine market', 3));
    expect(varietyIndex(42, 'x', 1)).toBe(0);
    const seen = new Set<number>();
    for (let seed = 0; seed < 50; seed++) seen.add(varietyIndex(seed, 'k', 3));
    expect(seen).toEqual(new Set([0, 1, 2]));
    // Seeds beyond 32 bits still vary (both halves are mixed in).
    expect(varietyIndex(2 ** 40, 'k', 1000)).not.toBe(varietyIndex(2 ** 40 + 2 ** 33, 'k', 1000));
  });

  it('a turn that tells nothing varies by the seed, and says "Nothing happens." without one', async () => {
    const { narrateOffline } = await import('../../../src/engine/turn/offline/narration.ts');
    const { rules } = await lanternmere();
    expect(narrateOffline(rules, { notes: [] })).toBe('Nothing happens.');
    const lines = new Set<string>();
    for (let seed = 0; seed < 20; seed++) lines.add(narrateOffline(rules, { notes: [], seed }));
    expect(lines.size).toBeGreaterThan(1);
    expect(narrateOffline(rules, { notes: [], seed: 7 })).toBe(narrateOffline(rules, { notes: [], seed: 7 }));
  });
});

describe('limits of the offline prose', () => {
  it(`an arrival sentence of MAX_ARRIVAL_SENTENCE_CHARS is told, one character more is not`, async () => {
    const { arrivalSentence, MAX_ARRIVAL_SENTENCE_CHARS } = await import(
      '../../../src/engine/turn/offline/variety.ts'
    );
    const { rulesOf } = await import('../../helpers/yare.ts');
    const rules = rulesOf(`version: "1.0"
state_schema:
  player:
    visibility: public
    location: { type: string, default: "dock" }
events: {}
`);
    const sentence = (chars: number) => `${'W'.repeat(chars - 1)}.`;
    const moved = [{ op: 'set' as const, path: ['player', 'location'], before: 'dock', after: 'market' }];
    const at = `# World\n\n### The Market\n${sentence(MAX_ARRIVAL_SENTENCE_CHARS)}\n`;
    const past = `# World\n\n### The Market\n${sentence(MAX_ARRIVAL_SENTENCE_CHARS + 1)}\n`;
    expect(arrivalSentence(rules, at, moved, 1)).toBe(sentence(MAX_ARRIVAL_SENTENCE_CHARS));
    expect(arrivalSentence(rules, past, moved, 1)).toBeUndefined();
    // No move, no arrival.
    expect(arrivalSentence(rules, at, [], 1)).toBeUndefined();
  });
});
