// Offline understanding from the cartridge itself (issue 32, items 1, 2 and 5), on a small cartridge written
// here with no intents: the verbs of an event's name and what its notes say the player does, the acting
// character as the player, a free-text input from the words said, a number said reaching the one number
// input (and each limit at and past it), the player told when an event does one at a time, a warning
// before something is spent for nothing, and talking and examining from lore entries and World Info.
import { describe, expect, it } from 'vitest';
import { loadCartridgeFromFiles } from '../../../src/adapters/files/index.ts';
import type { Cartridge } from '../../../src/core/cartridge/index.ts';
import type { Dict } from '../../../src/core/yare/index.ts';
import { MAX_SAID_QUANTITY, saidQuantity } from '../../../src/engine/turn/offline/amounts.ts';
import { chooseOffline, type OfflineChoice } from '../../../src/engine/turn/offline/choose.ts';
import { timePassed, toldNothing } from '../../../src/engine/turn/offline/free.ts';
import {
  type KnownEntry,
  MAX_KNOWN_ENTRIES,
  namedEntries,
  sentenceAbout,
} from '../../../src/engine/turn/offline/known.ts';
import { MAX_NOTE_ACTS, noteActs } from '../../../src/engine/turn/offline/note-acts.ts';
import { loreFoeWords, MAX_LORE_FOES } from '../../../src/engine/turn/offline/place.ts';
import { directorTools } from '../../../src/engine/turn/tools.ts';

const YARE = `state_schema:
  player:
    hp: { type: int, default: 10, min: 0, max: 10, visibility: public }
    coins: { type: int, default: 20, min: 0, visibility: public }
    potions: { type: int, default: 2, min: 0, visibility: public }
  foe:
    hp: { type: int, default: 8, min: 0, visibility: public }
events:
  combat_strike:
    inputs: [attacker]
    steps:
      - action: branch
        if: "@ inputs.attacker == 'player'"
        steps:
          - action: mutate
            var: state.foe.hp
            op: sub
            value: 3
          - action: note
            message: "Player strikes the foe. Foe HP: {state.foe.hp}."
        else:
          - action: mutate
            var: state.player.hp
            op: sub
            value: 2
          - action: note
            message: "The foe strikes the player. HP: {state.player.hp}."
  quaff_potion:
    steps:
      - action: mutate
        var: state.player.potions
        op: sub
        value: 1
      - action: mutate
        var: state.player.hp
        op: add
        value: 5
      - action: note
        message: "Player drinks a potion. HP: {state.player.hp}."
  buy_arrows:
    inputs:
      count: { type: int, default: 1 }
    steps:
      - action: mutate
        var: state.player.coins
        op: sub
        value: "@ inputs.count"
      - action: note
        message: "Player buys {inputs.count} arrows. Coins: {state.player.coins}."
  buy_bread:
    steps:
      - action: mutate
        var: state.player.coins
        op: sub
        value: 1
      - action: note
        message: "Player buys a loaf. Coins: {state.player.coins}."
  shout_word:
    inputs:
      word: { type: string }
    steps:
      - action: note
        message: "Player shouts {inputs.word}."
  rest_at_camp:
    steps:
      - action: set
        var: state.player.hp
        value: 10
      - action: mutate
        var: state.player.coins
        op: sub
        value: 2
      - action: note
        message: "Player rents a tent for the night. HP: {state.player.hp}."
`;

const LORE = `# The Vale

A green vale under grey hills.

## People

*   **Old Tam**: The ferryman, who has rowed the river for forty years.
*   **Wren**: A hunter who knows every path in the hills.

## Monsters

*   **Marsh Troll**: A hulking brute of the reed beds.
`;

const WORLD_INFO = JSON.stringify({
  entries: {
    0: {
      uid: 0,
      key: ['Black Tower', 'tower'],
      content: 'The Black Tower stands on the north hill. No one comes back.',
    },
  },
});

function load(): Cartridge {
  const loaded = loadCartridgeFromFiles(
    new Map([
      ['yare.yaml', YARE],
      ['bot_lore.md', LORE],
      ['first-message.md', 'Mist lies on the river, and the ferry bell rings twice.'],
      ['world_info.json', WORLD_INFO],
    ]),
    'vale',
  );
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
  return loaded.cartridge;
}

const cartridge = load();
const tools = directorTools(cartridge);
const entries: KnownEntry[] =
  cartridge.worldInfo?.entries.map((e) => ({ keys: e.keys, content: e.content })) ?? [];

function choose(
  text: string,
  patch: Record<string, Record<string, unknown>> = {},
  previous?: string,
): OfflineChoice {
  const state = structuredClone(cartridge.rules.initialState) as Record<string, Record<string, unknown>>;
  for (const [group, fields] of Object.entries(patch)) state[group] = { ...state[group], ...fields };
  return chooseOffline(cartridge.rules, tools, text, {
    state: state as Dict,
    lore: cartridge.lore,
    opening: cartridge.firstMessage ?? '',
    entries,
    ...(previous === undefined ? {} : { previous }),
  });
}

const hurt = { player: { hp: 4 } };

describe('actions from the cartridge itself', () => {
  it('a verb of the event name, or its synonym, runs it; the acting character is the player', () => {
    for (const line of ['strike the foe', 'I attack it', 'hit the foe', 'combat strike', '/combat_strike'])
      expect(choose(line), line).toMatchObject({
        kind: 'call',
        name: 'combat_strike',
        args: { attacker: 'player' },
      });
  });

  it('an idiom the lexicon lacks counts as its verb: "finish it off" strikes', () => {
    for (const line of ['finish it off', 'finish the foe off', 'finish off the foe'])
      expect(choose(line), line).toMatchObject({
        kind: 'call',
        name: 'combat_strike',
        args: { attacker: 'player' },
      });
  });

  it("a kind of the event's verb done to a foe the lore lists runs it; done to anyone else it does not", () => {
    expect(loreFoeWords(cartridge.lore)).toEqual(['marsh', 'troll']);
    expect(choose('I charge the troll with my sword')).toMatchObject({
      kind: 'call',
      name: 'combat_strike',
      args: { attacker: 'player' },
    });
    for (const line of ['I charge Old Tam', 'charge'])
      expect(choose(line), line).not.toMatchObject({ kind: 'call' });
  });

  it(`reads at most ${MAX_LORE_FOES} foes a lore lists`, () => {
    const lore = (count: number) =>
      `## Bestiary\n\n${Array.from({ length: count }, (_, i) => `* **Beast${i}x**: a beast.`).join('\n')}`;
    expect(loreFoeWords(lore(MAX_LORE_FOES))).toHaveLength(MAX_LORE_FOES);
    expect(loreFoeWords(lore(MAX_LORE_FOES + 1))).toHaveLength(MAX_LORE_FOES);
    expect(loreFoeWords(lore(MAX_LORE_FOES + 1))).not.toContain(`beast${MAX_LORE_FOES}x`);
  });

  it('what the notes say the player does: "rents a tent" answers "get a tent"', () => {
    expect(noteActs(cartridge.rules.events.get('rest_at_camp')!)).toContainEqual({
      verb: 'rent',
      object: 'tent',
    });
    expect(choose('get a tent for the night', hurt)).toMatchObject({ kind: 'call', name: 'rest_at_camp' });
  });

  it('a text input with no values takes the words said for it, at most three', () => {
    expect(choose('shout hello')).toMatchObject({ kind: 'call', args: { word: 'hello' } });
    expect(choose('shout red green blue')).toMatchObject({ args: { word: 'red green blue' } });
    expect(choose('shout red green blue gold')).toMatchObject({ args: { word: 'red green blue' } });
  });
});

describe('quantities', () => {
  it('a number said reaches the one number input, in digits or words', () => {
    expect(choose('buy 3 arrows')).toMatchObject({ kind: 'call', name: 'buy_arrows', args: { count: 3 } });
    expect(choose('buy two arrows')).toMatchObject({ args: { count: 2 } });
  });

  it(`reads quantities up to ${MAX_SAID_QUANTITY}; one more is not a quantity`, () => {
    expect(saidQuantity(`buy ${MAX_SAID_QUANTITY} arrows`)).toBe(MAX_SAID_QUANTITY);
    expect(saidQuantity(`buy ${MAX_SAID_QUANTITY + 1} arrows`)).toBeUndefined();
    expect(saidQuantity('buy 0 arrows')).toBeUndefined();
  });

  it('an event that does one at a time says so; one asked for says nothing', () => {
    const two = choose('buy 2 loaves of bread');
    expect(two).toMatchObject({ kind: 'call', name: 'buy_bread' });
    expect(two.kind === 'call' && two.notice).toBe(
      '(You asked for 2; “buy bread” happens one at a time, so once now.)',
    );
    const one = choose('buy bread');
    expect(one.kind === 'call' && one.notice).toBeUndefined();
  });
});

describe('waste', () => {
  it('a potion at full health is named before anything is spent; when hurt it is drunk', () => {
    const full = choose('drink a potion');
    expect(full).toMatchObject({ kind: 'reply', reason: 'question' });
    expect(full.kind === 'reply' && full.text).toMatch(
      /player hp is already 10, its most.*player potions.*\/quaff_potion/,
    );
    expect(choose('drink a potion', hurt)).toMatchObject({ kind: 'call', name: 'quaff_potion' });
    // A command runs as typed, wasteful or not.
    expect(choose('/quaff_potion')).toMatchObject({ kind: 'call', name: 'quaff_potion' });
  });
});

describe('looking and talking from what the game knows', () => {
  it('examines a bold lore entry, a World Info entry by any key, and the sentence about a thing', () => {
    expect(choose('who is Old Tam?')).toMatchObject({ kind: 'reply', reason: 'free', action: 'examine' });
    expect((choose('who is Old Tam?') as { text: string }).text).toMatch(/^Old Tam: The ferryman/);
    expect((choose('examine the tower') as { text: string }).text).toMatch(
      /Black Tower stands on the north hill/,
    );
    expect((choose('examine the bell') as { text: string }).text).toBe(
      'Mist lies on the river, and the ferry bell rings twice.',
    );
    // The rules keep no place: nothing more to tell than that.
    const unicorn = (choose('examine the unicorn') as { text: string }).text;
    expect(unicorn).toBe('You see nothing like “unicorn” here.');
    expect(toldNothing(unicorn)).toBe(true);
  });

  it('"examine my sword" when the rules keep no sword: what the player carries', () => {
    expect(choose('examine my sword')).toMatchObject({
      kind: 'reply',
      reason: 'free',
      text: 'You carry no “sword” the rules keep track of. You have 20 coins.',
    });
  });

  it('a word of three letters names the thing when it ends what was asked ("the fog"), not before it', () => {
    const known = { lore: 'The old road is long. Fog hides the moor.', opening: 'An owl calls.' };
    expect(sentenceAbout(known, ['fog'])).toBe('Fog hides the moor.');
    expect(sentenceAbout(known, ['old', 'owl'])).toBe('An owl calls.');
    // "old" before the thing decides nothing; a word of two letters names nothing.
    expect(sentenceAbout(known, ['old', 'moor'])).toBe('Fog hides the moor.');
    expect(sentenceAbout(known, ['ow'])).toBeUndefined();
  });

  it('talks: who someone is, and what is said of what they are asked about; nothing spent', () => {
    expect(choose('talk to Wren')).toMatchObject({ kind: 'reply', reason: 'free', action: 'talk' });
    expect((choose('talk to Wren') as { text: string }).text).toMatch(/^Wren: A hunter/);
    expect((choose('ask Wren about the tower') as { text: string }).text).toMatch(
      /^Wren tells you what is said of it: Black Tower: The Black Tower stands/,
    );
    expect((choose('ask her about the unicorn') as { text: string }).text).toMatch(
      /^She knows nothing about/,
    );
  });
});

describe('what was said before', () => {
  it('"again" plays the previous line again; an "again" after an "again" is not a loop', () => {
    expect(choose('again', {}, 'buy 3 arrows')).toMatchObject({
      kind: 'call',
      name: 'buy_arrows',
      args: { count: 3 },
    });
    expect(choose('and again', {}, 'strike the foe')).toMatchObject({ kind: 'call', name: 'combat_strike' });
    expect(choose('again', {}, 'again')).toMatchObject({ kind: 'reply' });
    expect(choose('again')).toMatchObject({ kind: 'reply' });
  });

  it('"shout it again": what the line leaves open comes from the previous line, when it was that event', () => {
    expect(choose('shout it again', {}, 'shout hello')).toMatchObject({
      kind: 'call',
      name: 'shout_word',
      args: { word: 'hello' },
    });
    // What the line says itself wins; what it leaves open is the previous line's.
    expect(choose('buy arrows again', {}, 'buy 3 arrows')).toMatchObject({ args: { count: 3 } });
    expect(choose('buy 4 arrows again', {}, 'buy 3 arrows')).toMatchObject({ args: { count: 4 } });
    // Without "again", or after another event, the line is asked about as before.
    expect(choose('shout it', {}, 'shout hello')).toMatchObject({ kind: 'reply', reason: 'question' });
    expect(choose('shout it again', {}, 'buy bread')).toMatchObject({ kind: 'reply', reason: 'question' });
  });

  it('"ask her about it": "it" is what the previous line was about', () => {
    expect((choose('ask her about it', {}, 'examine the tower') as { text: string }).text).toMatch(
      /^She tells you what is said of it: Black Tower/,
    );
  });
});

describe('pronouns and wording', () => {
  const talk = (text: string, story: string[], seed?: number) =>
    chooseOffline(cartridge.rules, tools, text, {
      state: structuredClone(cartridge.rules.initialState) as Dict,
      lore: cartridge.lore,
      opening: cartridge.firstMessage ?? '',
      entries,
      story: story.map((content, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content })),
      ...(story.length === 0 ? {} : { previous: story.filter((_, i) => i % 2 === 0).at(-1)! }),
      ...(seed === undefined ? {} : { seed }),
    }) as { text: string };

  it('"her", "him" and "them" are the person the player talked to last, not "She"', () => {
    expect(talk('ask her about the tower', ['talk to Wren', 'Wren: A hunter.']).text).toMatch(
      /^Wren tells you what is said of it: Black Tower/,
    );
    expect(
      talk('ask him about the tower', ['talk to Wren', 'x', 'ask Old Tam about the river', 'y']).text,
    ).toMatch(/^Old Tam /);
    // Looked back through: a talk line six messages ago still counts, seven does not.
    const filler = ['look around', 'You look around.', 'look around', 'You look around.'];
    expect(talk('ask them about the tower', ['talk to Wren', 'ok', ...filler]).text).toMatch(/^Wren /);
    expect(talk('ask them about the tower', ['talk to Wren', 'ok', 'x', ...filler]).text).toMatch(/^They /);
    // Nobody named before: the pronoun as it is.
    expect(talk('ask her about the tower', []).text).toMatch(/^She /);
  });

  it('talk is worded by the seed: the same seed reads the same, others may not', () => {
    const said = (seed: number) => talk('ask Wren about the tower', [], seed).text;
    expect(said(7)).toBe(said(7));
    const wordings = new Set(Array.from({ length: 24 }, (_, seed) => said(seed)));
    expect(wordings.size).toBeGreaterThan(1);
    for (const w of wordings) expect(w).toMatch(/^(?:Wren|“Here is what I know,” Wren) .*Black Tower stands/);
  });
});

describe('waiting', () => {
  it('where the rules keep no time: told from the scene, worded by the seed, nothing spent', () => {
    const wait = (seed: number) =>
      chooseOffline(cartridge.rules, tools, 'wait a while', {
        state: structuredClone(cartridge.rules.initialState) as Dict,
        lore: cartridge.lore,
        seed,
      });
    expect(wait(1)).toMatchObject({ kind: 'reply', reason: 'free', action: 'wait' });
    expect((wait(1) as { text: string }).text).toBe((wait(1) as { text: string }).text);
    expect((wait(1) as { text: string }).text).toMatch(
      /^You wait a while\. A green vale under grey hills\.$/,
    );
  });

  it('where they do: how long, and the part of the day after it', () => {
    expect(timePassed('1h', '2026-05-01T19:30:00Z')).toBe('Time passes (an hour); it is evening now.');
    expect(timePassed('15m', undefined)).toBe('Time passes (15 minutes).');
    expect(timePassed('2d', '2026-05-01T08:00:00Z')).toBe('Time passes (2 days); it is morning now.');
  });
});

describe("a card's {{user}} offline", () => {
  const card = (persona?: { name: string }) => {
    const loaded = loadCartridgeFromFiles(
      new Map([
        ['yare.yaml', 'state_schema:\n  n: { type: int, default: 0, visibility: public }\nevents: {}\n'],
        ['bot_lore.md', '# The Dock\n*   **Mira**: Mira waves at {{user}}. {{user}} waits by the rope.\n'],
      ]),
      'dock',
      persona === undefined
        ? {}
        : {
            persona: {
              ...persona,
              pronoun_sub: 'she',
              pronoun_obj: 'her',
              pronoun_poss: 'her',
              pronoun_poss_obj: 'hers',
            },
          },
    );
    if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
    return loaded.cartridge;
  };
  const talkTo = (c: Cartridge, persona?: { name: string }) =>
    (
      chooseOffline(c.rules, directorTools(c), 'talk to Mira', {
        state: structuredClone(c.rules.initialState) as Dict,
        lore: c.lore,
        ...(persona === undefined
          ? {}
          : {
              persona: {
                ...persona,
                pronoun_sub: 'she',
                pronoun_obj: 'her',
                pronoun_poss: 'her',
                pronoun_poss_obj: 'hers',
              },
            }),
      }) as { text: string }
    ).text;

  it('reads "you" with no persona (the verb agreeing), and the persona\'s name with one', () => {
    expect(talkTo(card())).toBe('Mira: Mira waves at you. You wait by the rope.');
    expect(talkTo(card({ name: 'Ada' }), { name: 'Ada' })).toBe(
      'Mira: Mira waves at Ada. Ada waits by the rope.',
    );
  });
});

describe('limits', () => {
  it(`reads at most ${MAX_KNOWN_ENTRIES} World Info entries`, () => {
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ keys: [`thing${i}`], content: `Thing ${i}.` }));
    expect(namedEntries({ lore: '', entries: many(MAX_KNOWN_ENTRIES) })).toHaveLength(MAX_KNOWN_ENTRIES);
    expect(namedEntries({ lore: '', entries: many(MAX_KNOWN_ENTRIES + 1) })).toHaveLength(MAX_KNOWN_ENTRIES);
  });

  it(`keeps at most ${MAX_NOTE_ACTS} acts of an event's notes`, () => {
    const verbs =
      'pray sing dance cook swim climb jump read write sleep eat drink walk fight build paint carry throw'.split(
        ' ',
      );
    const nouns =
      'stone tree river house boat horse sword bread apple door wall road bridge tower field lamp rope chair'.split(
        ' ',
      );
    const notes = (n: number) =>
      Array.from(
        { length: n },
        (_, i) => `      - action: note\n        message: "Player tries to ${verbs[i]} the ${nouns[i]}."`,
      ).join('\n');
    const yare = (n: number) =>
      `state_schema:\n  player:\n    hp: { type: int, default: 1 }\nevents:\n  many:\n    steps:\n${notes(n)}\n`;
    const actsOf = (n: number) => {
      const files = new Map([
        ['yare.yaml', yare(n)],
        ['bot_lore.md', '# Many\n\nStones.\n'],
      ]);
      const loaded = loadCartridgeFromFiles(files, 'many');
      if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
      return noteActs(loaded.cartridge.rules.events.get('many')!);
    };
    expect(actsOf(MAX_NOTE_ACTS)).toHaveLength(MAX_NOTE_ACTS);
    expect(actsOf(MAX_NOTE_ACTS + 2)).toHaveLength(MAX_NOTE_ACTS);
    expect(actsOf(MAX_NOTE_ACTS + 2)[0]).toEqual({ verb: 'pray', object: 'stone' });
  });
});
