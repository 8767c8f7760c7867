// Ports of ByteSized32-SP games (test/cartridges/bytesized/README.md), each replaying its game's gold
// playthrough from the facts in its `gold.json`: after every step, the state (every object, where it is and
// the properties the game tracks) and the score, game over and game won must be what the original game had;
// and each step's notes must name the objects the original's observation named, and word every property of
// them it reported as the port's table says (test/helpers/bytesized-wording.ts). Steps whose observation
// the port reports differently are listed, with why, in `gold.json`'s `observationMisses` — and checked to
// still differ, so the list stays true.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCartridge } from '../../src/adapters/files/index.ts';
import type { Cartridge } from '../../src/core/cartridge/index.ts';
import { runEvent, runPlayerEvent } from '../../src/core/yare/index.ts';
import {
  type Gold,
  goldFolder,
  loadPort,
  observationDifferences,
  PLAIN_SUFFIX,
  PORTS_DIR,
  type PortState,
  playGold,
  portNames,
  stateDifferences,
} from '../helpers/bytesized-gold.ts';
import { WORDINGS, wordingMissing } from '../helpers/bytesized-wording.ts';

const ports = portNames();

describe.each(ports)('ByteSized32 port %s', (port) => {
  let cartridge: Cartridge;
  let gold: Gold;
  beforeAll(async () => {
    ({ cartridge, gold } = await loadPort(port));
  });

  it('every transition of the gold playthrough: the state and the score after each step', () => {
    const { states } = playGold(cartridge, gold);
    const differences = gold.steps.flatMap((step, i) => stateDifferences(i, states[i]!, step));
    expect(differences).toEqual([]);
    expect(gold.steps.at(-1)!.won || gold.steps.at(-1)!.over).toBe(true);
  });

  it('what each observation reports: the objects it names, and their properties it reports', () => {
    const { notes, states } = playGold(cartridge, gold);
    expect(observationDifferences(gold, notes, states)).toEqual([]);
  });
});

// A `<game>-plain` port is the same game written without the new features: its notes at every step of the
// gold playthrough are its game's, word for word, so the two sizes compare the same game.
describe.each(ports.filter((port) => port.endsWith(PLAIN_SUFFIX)))('%s beside its game', (plain) => {
  it('says what its game says at every step', async () => {
    const twin = await loadPort(goldFolder(plain));
    const own = await loadPort(plain);
    expect(playGold(own.cartridge, own.gold).notes).toEqual(playGold(twin.cartridge, twin.gold).notes);
  });
});

// Each comparison of what an observation reports can fail: a port that words one property's value wrongly
// (its yare.yaml changed in a copy) is caught, by the object, the property and the value.
describe('a port that reports a property wrongly is caught', () => {
  it.each([
    [
      'dishwasher',
      "'dirty' if o.dirty else 'clean'",
      "'clean' if o.dirty else 'dirty'",
      'step 0: #4.dirty = true',
    ],
    [
      'dishwasher',
      "' with a blinking green light' if o.finished",
      "' with a blinking green light' if not o.finished",
      'step 0: #2.finished = false',
    ],
    ['boil-water', "+ ' ' + o.prefix + ' it'", "+ ' in it'", 'step 0: #2.prefix = "on"'],
    ['clean-energy', "'sun': 'sunshine all year'", "'sun': 'steady wind'", 'step 0: #1.resource = "sun"'],
    [
      'make-campfire',
      "format('{} {} #{}', o.article",
      "format('the {} #{}', o.name",
      'step 0: #5.article = "a"',
    ],
    ['refrigerate-food', "'closed' if not o.open", "'open' if not o.open", 'step 0: #2.open = false'],
    ['sunburn', "' and ')}.", "' and ')} and the house #2.", 'step 0: #2.exits = ["3"]'],
  ])('%s with %s worded as %s', async (port, wording, wrong, caught) => {
    const folder = mkdtempSync(join(tmpdir(), 'bytesized-'));
    try {
      cpSync(join(PORTS_DIR, port), folder, { recursive: true });
      const yaml = readFileSync(join(folder, 'yare.yaml'), 'utf8');
      expect(yaml.split(wording).length - 1).toBe(1);
      writeFileSync(join(folder, 'yare.yaml'), yaml.replace(wording, wrong));
      const loaded = await loadCartridge(folder);
      if (!loaded.ok) throw new Error(`the changed ${port} does not load`);
      const { gold } = await loadPort(port);
      const { notes, states } = playGold(loaded.cartridge, gold);
      expect(
        observationDifferences(gold, notes, states).filter((line) => line.startsWith(caught)),
      ).toHaveLength(1);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('a phrase is looked for only in the listing item its object starts', () => {
    const notes = [
      'In the kitchen: a stove #2 that is off and has nothing in it; a pot #4 with water on it.',
    ];
    expect(wordingMissing(notes, { says: ' in it', within: '#2 ' })).toBeUndefined();
    expect(wordingMissing(notes, { says: ' on it', within: '#2 ' })).toBe('no " on it" after "#2 "');
    expect(wordingMissing(notes, { saysNot: ' on it', within: '#4 ' })).toBe('says " on it" after "#4 "');
    expect(wordingMissing(notes, { says: ' on it', within: '#9 ' })).toBe('nothing starts with "#9 "');
  });

  it('a property the port has no wording for', async () => {
    const { cartridge, gold } = await loadPort('dishwasher');
    const [opening, ...rest] = gold.steps;
    const reports = [...opening!.reports, { obj: '3', props: { colour: 'green' } }];
    const changed: Gold = { ...gold, steps: [{ ...opening!, reports }, ...rest] };
    const { notes, states } = playGold(cartridge, changed);
    expect(observationDifferences(changed, notes, states)).toEqual([
      'step 0: #3.colour = "green" is not reported: the port has no wording for it',
    ]);
  });
});

// A value the gold playthroughs report only by the port saying nothing (a tree not on fire) is checked by
// the absence of the phrase for the other value: that phrase must be what the port says when it holds.
describe('the phrase a port says for a value the playthroughs report only by its absence', () => {
  const cases: [string, string, Record<string, unknown>, string, string, unknown][] = [
    ['make-campfire', 'look', {}, '5', 'burning', true],
    ['make-campfire', 'look', {}, '5', 'burn_left', -1],
    ['refrigerate-food', 'look', {}, '8', 'spoiled', true],
    ['refrigerate-food', 'take', { obj: '8' }, '8', 'spoiled', true],
  ];
  it.each(cases.flatMap((row) => [row, [`${row[0]}${PLAIN_SUFFIX}`, ...row.slice(1)] as typeof row]))(
    '%s: %s %o says #%s.%s = %o',
    async (port, event, inputs, id, property, value) => {
      const { cartridge, gold } = await loadPort(port);
      const rules = cartridge.rules;
      const state = structuredClone(rules.initialState) as unknown as PortState;
      state.objs[id]![property] = value;
      const ran = runEvent(rules, state, event, inputs);
      if (!ran.ok) throw new Error(ran.error.message);
      const nameOf = (thing: string): string => String(state.objs[thing]!.name);
      const wording = WORDINGS[gold.game]![property]!(value, {
        id,
        name: nameOf(id),
        props: { [property]: value },
        nameOf,
      });
      expect(wording).toHaveProperty('says');
      expect(wordingMissing(ran.notes, wording)).toBeUndefined();
    },
  );
});

describe('the losing ends the gold playthroughs do not reach', () => {
  it.each(['sunburn', 'sunburn-plain'])(
    '%s: the beach without sunscreen burns the player, and the game is lost',
    async (port) => {
      const loaded = await loadCartridge(join(PORTS_DIR, port));
      if (!loaded.ok) throw new Error(`${port} does not load`);
      const rules = loaded.cartridge.rules;
      const ran = runPlayerEvent(rules, rules.initialState, 'move', { to: '3' });
      const state = ran.state as unknown as PortState;
      expect(state.objs['0']!.sunburn).toBe(true);
      expect(state.game).toEqual({ score: 0, over: true, won: false });
    },
  );

  it.each(['make-campfire', 'make-campfire-plain'])(
    '%s: firewood burnt out of the fire pit loses',
    async (port) => {
      const loaded = await loadCartridge(join(PORTS_DIR, port));
      if (!loaded.ok) throw new Error(`${port} does not load`);
      const rules = loaded.cartridge.rules;
      let state: unknown = rules.initialState;
      for (const [event, inputs] of [
        ['take', { obj: '3' }],
        ['use', { tool: '3', target: '5' }],
        ...Array.from({ length: 5 }, () => ['look', {}] as const),
      ] as const) {
        const ran = runPlayerEvent(rules, state, event, inputs);
        if (!ran.result.ok) throw new Error(ran.result.error.message);
        state = ran.state;
      }
      expect((state as PortState).game).toEqual({ score: -1, over: true, won: false });
    },
  );
});
