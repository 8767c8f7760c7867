// Ports of ByteSized32-SP games (test/cartridges/bytesized/README.md), each replaying its game's gold
// playthrough from the facts in its `gold.json`: after every step, the state (every object, where it is and
// the properties the game tracks) and the score, game over and game won must be what the original game had;
// and each step's notes must name the objects the original's observation named. Steps whose observation
// the port reports differently are listed, with why, in `gold.json`'s `observationMisses` — and checked to
// still differ, so the list stays true.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCartridge } from '../../src/adapters/files/index.ts';
import type { Cartridge } from '../../src/core/cartridge/index.ts';
import { runEvent, runPlayerEvent } from '../../src/core/yare/index.ts';
import { ROOT } from '../cli/helpers.ts';

const PORTS_DIR = join(ROOT, 'test/cartridges/bytesized');

interface GoldStep {
  readonly event?: string;
  readonly inputs?: Record<string, unknown>;
  readonly score: number;
  readonly over: boolean;
  readonly won: boolean;
  /** Every object by id: its parent (`loc`) and the properties the game tracks, in the port's names. */
  readonly objects: Record<string, Record<string, unknown>>;
  /** The ids the original's observation names. */
  readonly mentions: readonly string[];
}

interface Gold {
  readonly game: string;
  /** The event whose notes stand for the game's opening observation. */
  readonly opening: string;
  readonly steps: readonly GoldStep[];
  /** Steps (by number, 0 the opening) whose observation the port reports differently, and why. */
  readonly observationMisses: Readonly<Record<string, string>>;
}

type PortState = {
  objs: Record<string, Record<string, unknown>>;
  game: { score: number; over: boolean; won: boolean };
};

const ports = readdirSync(PORTS_DIR).filter((name) => existsSync(join(PORTS_DIR, name, 'gold.json')));

/** What differs between the port's state and the original's after a step, one line each. */
function stateDifferences(at: number, state: PortState, step: GoldStep): string[] {
  const out: string[] = [];
  const game = state.game;
  for (const key of ['score', 'over', 'won'] as const)
    if (game[key] !== step[key]) out.push(`step ${at}: ${key} is ${game[key]}, the game had ${step[key]}`);
  const ids = Object.keys(state.objs).sort();
  const expected = Object.keys(step.objects).sort();
  if (ids.join() !== expected.join())
    out.push(`step ${at}: objects ${ids.join(',')}, the game had ${expected.join(',')}`);
  for (const [id, properties] of Object.entries(step.objects)) {
    const record = state.objs[id];
    if (record === undefined) continue;
    for (const [name, value] of Object.entries(properties))
      if (JSON.stringify(record[name]) !== JSON.stringify(value))
        out.push(
          `step ${at}: #${id}.${name} is ${JSON.stringify(record[name])}, the game had ${JSON.stringify(value)}`,
        );
  }
  return out;
}

/** The ids notes name (`#12`), as a sorted list. */
function named(notes: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const note of notes) for (const m of note.matchAll(/#(\d+)/g)) ids.add(m[1]!);
  return [...ids].sort((a, b) => Number(a) - Number(b));
}

describe.each(ports)('ByteSized32 port %s', (port) => {
  let cartridge: Cartridge;
  let gold: Gold;
  beforeAll(async () => {
    const loaded = await loadCartridge(join(PORTS_DIR, port));
    if (!loaded.ok) throw new Error(`${port} does not load: ${JSON.stringify(loaded.errors)}`);
    cartridge = loaded.cartridge;
    gold = JSON.parse(readFileSync(join(PORTS_DIR, port, 'gold.json'), 'utf8')) as Gold;
  });

  /** Plays the gold actions; for each step the state after it and the notes it gave. */
  function play(): { states: PortState[]; notes: string[][] } {
    const rules = cartridge.rules;
    let state: unknown = rules.initialState;
    const opening = runEvent(rules, state, gold.opening, {});
    const states: PortState[] = [state as PortState];
    const notes: string[][] = [[...opening.notes]];
    gold.steps.slice(1).forEach((step, i) => {
      const ran = runPlayerEvent(rules, state, step.event!, step.inputs ?? {}, { seed: i + 1 });
      if (!ran.result.ok) throw new Error(`step ${i + 1} (${step.event}): ${ran.result.error.message}`);
      for (const hook of ran.hooks)
        if (!hook.result.ok)
          throw new Error(`step ${i + 1}: hook ${hook.event}: ${hook.result.error.message}`);
      state = ran.state;
      states.push(state as PortState);
      notes.push([...ran.notes]);
    });
    return { states, notes };
  }

  it('every transition of the gold playthrough: the state and the score after each step', () => {
    const { states } = play();
    const differences = gold.steps.flatMap((step, i) => stateDifferences(i, states[i]!, step));
    expect(differences).toEqual([]);
    expect(gold.steps.at(-1)!.won || gold.steps.at(-1)!.over).toBe(true);
  });

  it('what each observation reports: the objects it names', () => {
    const { notes } = play();
    const misses = gold.observationMisses;
    const wrong: string[] = [];
    gold.steps.forEach((step, i) => {
      const got = named(notes[i]!).join(',');
      const expected = step.mentions.join(',');
      const listed = Object.hasOwn(misses, String(i));
      if (!listed && got !== expected)
        wrong.push(`step ${i}: names ${got || 'nothing'}, the game named ${expected || 'nothing'}`);
      if (listed && got === expected)
        wrong.push(`step ${i} is listed as a miss but names what the game named`);
    });
    expect(wrong).toEqual([]);
  });
});

describe('the losing ends the gold playthroughs do not reach', () => {
  it('sunburn: the beach without sunscreen burns the player, and the game is lost', async () => {
    const loaded = await loadCartridge(join(PORTS_DIR, 'sunburn'));
    if (!loaded.ok) throw new Error('sunburn does not load');
    const rules = loaded.cartridge.rules;
    const ran = runPlayerEvent(rules, rules.initialState, 'move', { to: '3' });
    const state = ran.state as unknown as PortState;
    expect(state.objs['0']!.sunburn).toBe(true);
    expect(state.game).toEqual({ score: 0, over: true, won: false });
  });

  it('make-campfire: firewood burnt out of the fire pit loses', async () => {
    const loaded = await loadCartridge(join(PORTS_DIR, 'make-campfire'));
    if (!loaded.ok) throw new Error('make-campfire does not load');
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
  });
});
