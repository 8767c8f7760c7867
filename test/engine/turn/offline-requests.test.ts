// Ways of asking offline that name an action by another verb (issue 32, item 4's lines), on a small
// cartridge written here with no intents: asking for a thing ("I'd like a room for the night"), taking a
// way to a place ("take the ship to the teeth"), a place named by what the lore says it is ("the inn"),
// a journey first when what was asked can only be done there ("head back to the inn to sleep"), and
// "what's in my bag?"; and waiting played as a whole turn where the rules keep time.
import { describe, expect, it } from 'vitest';
import { loadCartridgeFromFiles } from '../../../src/adapters/files/index.ts';
import type { Cartridge } from '../../../src/core/cartridge/index.ts';
import type { Dict } from '../../../src/core/yare/index.ts';
import { chooseOffline, type OfflineChoice } from '../../../src/engine/turn/offline/choose.ts';
import { loreKindWords, MAX_KIND_WORDS } from '../../../src/engine/turn/offline/place.ts';
import { asRequest } from '../../../src/engine/turn/offline/request.ts';
import { directorTools } from '../../../src/engine/turn/tools.ts';
import { collect, initialState, lanternmere } from './helpers.ts';

const YARE = `state_schema:
  player:
    hp: { type: int, default: 4, min: 0, max: 10, visibility: public }
    gold: { type: int, default: 10, min: 0, visibility: public }
    location: { type: string, default: "harbour", visibility: public }
    inventory: { type: list, default: ["coil of rope"], visibility: public }
events:
  sail_to:
    inputs:
      destination: { type: string, enum: ["harbour", "salt lantern", "widow's teeth"] }
    steps:
      - action: branch
        if: "@ state.player.location == inputs.destination"
        steps:
          - action: note
            message: "The ship is already at {inputs.destination}."
        else:
          - action: set
            var: state.player.location
            value: "@ inputs.destination"
          - action: note
            message: "Player sails to {inputs.destination}."
  rest_at_inn:
    steps:
      - action: branch
        if: "@ state.player.location != 'salt lantern'"
        steps:
          - action: note
            message: "There is no bed here; beds are at the Salt Lantern."
        else:
          - action: set
            var: state.player.hp
            value: 10
          - action: mutate
            var: state.player.gold
            op: sub
            value: 2
          - action: note
            message: "Player takes a room for the night. HP: {state.player.hp}."
`;

const LORE = `# The Saltreach

## Places

### The Harbour
Grey stone quays and a forest of masts.

### The Salt Lantern
The inn above the harbour, where sailors sleep off their wages.

### Widow's Teeth
A reef of black rocks where ships go down.
`;

function load(): Cartridge {
  const loaded = loadCartridgeFromFiles(
    new Map([
      ['yare.yaml', YARE],
      ['bot_lore.md', LORE],
    ]),
    'saltreach',
  );
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
  return loaded.cartridge;
}

const cartridge = load();
const tools = directorTools(cartridge);

function choose(text: string, location = 'harbour'): OfflineChoice {
  const state = structuredClone(cartridge.rules.initialState) as Record<string, Record<string, unknown>>;
  state.player = { ...state.player, location };
  return chooseOffline(cartridge.rules, tools, text, { state: state as Dict, lore: cartridge.lore });
}

describe('ways of asking, read as the action', () => {
  it('a request is getting, an offer giving, a way taken to a place going there', () => {
    const nowhere = () => false;
    expect(asRequest("I'd like a room for the night", nowhere)).toBe('get a room for the night');
    expect(asRequest('I ask for some oil', nowhere)).toBe('get some oil');
    expect(asRequest("I'd like to rest", nowhere)).toBe("I'd like to rest");
    expect(asRequest('here, take the copper', nowhere)).toBe('give the copper');
    expect(asRequest('here you go, take this', nowhere)).toBe('give this');
    expect(asRequest('take the ship to the teeth', (w) => w === 'the teeth')).toBe('go to the teeth');
    expect(asRequest('take the ship to the teeth', nowhere)).toBe('take the ship to the teeth');
  });
});

describe('asking for a thing', () => {
  it('"I\'d like a room for the night" is getting a room, as its note says the player does', () => {
    for (const line of ["I'd like a room for the night", 'can I get a room', 'I would like a room'])
      expect(choose(line, 'salt lantern')).toMatchObject({ kind: 'call', name: 'rest_at_inn' });
  });

  it("what matches nothing is answered in the player's own words, not the matcher's", () => {
    const answer = choose("I'd like a unicorn", 'salt lantern');
    expect(answer).toMatchObject({ kind: 'reply', reason: 'unmatched' });
    expect((answer as { text: string }).text).toMatch(/^“I'd like a unicorn” is not something/);
  });
});

describe('going somewhere', () => {
  it('the event that moves the player is "go", whatever its name; a place by a word of its name', () => {
    expect(choose('go to the teeth')).toMatchObject({
      kind: 'call',
      name: 'sail_to',
      args: { destination: "widow's teeth" },
    });
  });

  it('"take the ship to the teeth" is going there; taking a thing to someone is not', () => {
    expect(choose('take the ship to the teeth')).toMatchObject({
      kind: 'call',
      name: 'sail_to',
      args: { destination: "widow's teeth" },
    });
    expect(choose('I take a boat to the salt lantern')).toMatchObject({
      name: 'sail_to',
      args: { destination: 'salt lantern' },
    });
    expect(choose('take the rope to the sailor')).not.toMatchObject({ kind: 'call', name: 'sail_to' });
  });

  it('a place named by what the lore says it is: "the inn" is the Salt Lantern', () => {
    expect(choose('go to the inn')).toMatchObject({
      kind: 'call',
      name: 'sail_to',
      args: { destination: 'salt lantern' },
    });
    expect(loreKindWords(cartridge.lore, 'salt lantern')).toEqual(['inn']);
    expect(loreKindWords(cartridge.lore, 'nowhere')).toEqual([]);
  });

  it('a place named alone is a question whether to go there, unless it is where the player is', () => {
    expect(choose('the inn')).toEqual({
      kind: 'reply',
      reason: 'question',
      text: 'Do you mean to go to Salt Lantern? (Say it plainly, or type /sail_to destination="salt lantern".)',
    });
    expect(choose('the inn', 'salt lantern')).toMatchObject({ kind: 'reply', reason: 'unmatched' });
  });

  it(`reads at most ${MAX_KIND_WORDS} words of what a thing is`, () => {
    const lore = (opening: string) => `## Keep\n${opening}, far away.\n`;
    expect(loreKindWords(lore('The stone tower gate'), 'keep')).toEqual(['stone', 'tower', 'gate']);
    expect(loreKindWords(lore('The stone tower gate house'), 'keep')).toEqual(['stone', 'tower', 'gate']);
    expect(loreKindWords(lore('A tower above the sea'), 'keep')).toEqual(['tower']);
  });

  it('"head back to the inn to sleep" far from the inn goes there first and says so; at the inn it sleeps', () => {
    const away = choose('head back to the inn to sleep');
    expect(away).toMatchObject({ kind: 'call', name: 'sail_to', args: { destination: 'salt lantern' } });
    expect((away as { notice?: string }).notice).toBe(
      '(First the way there; say “sleep” again when you arrive.)',
    );
    expect(choose('head back to the inn to sleep', 'salt lantern')).toMatchObject({
      kind: 'call',
      name: 'rest_at_inn',
    });
    // Nowhere named: the rules' refusal, which says where the beds are.
    expect(choose('sleep')).toMatchObject({ kind: 'reply', reason: 'refused' });
  });
});

describe('talking about something', () => {
  it('"ask X about Y" is talk, whatever event Y names; "tell me about Y" asks the game', () => {
    for (const line of [
      'ask the innkeeper about a room',
      'I ask her about sleep',
      'tell the sailor about the inn',
    ])
      expect(choose(line, 'salt lantern')).toMatchObject({ kind: 'reply', reason: 'free', action: 'talk' });
    expect(choose('tell me about the salt lantern')).toMatchObject({ reason: 'free', action: 'examine' });
    // Asking for a thing is no conversation.
    expect(choose('I ask for a room', 'salt lantern')).toMatchObject({ kind: 'call', name: 'rest_at_inn' });
  });
});

describe('what the player carries', () => {
  it('"what\'s in my bag?" lists it', () => {
    const answer = choose("what's in my bag?");
    expect(answer).toMatchObject({ kind: 'reply', reason: 'free', action: 'inventory' });
    expect((answer as { text: string }).text).toMatch(/coil of rope.*10 gold/);
  });
});

describe('waiting, as a turn', () => {
  it('where the rules keep time, "wait a while" moves the clock 15 minutes, runs the every-turn events and says so', async () => {
    const cartridge = await lanternmere();
    const state = initialState(cartridge);
    const { record } = await collect({
      cartridge,
      state,
      messages: [],
      input: 'wait a while',
      seed: 1,
      models: null,
    });
    expect(record.stateAfter.game_time).toBe('1147-03-09T18:15:00');
    // pass_time (trigger_on: cycle_tick) counted the turn.
    expect((record.stateAfter.world as { turn: number }).turn).toBe(
      (state.world as { turn: number }).turn + 1,
    );
    expect(record.narration).toContain('Time passes (15 minutes); it is evening now.');
  });
});
