// The ByteSized32-SP ports' gold facts (test/cartridges/bytesized/README.md) and the one way to replay
// them: test/cartridges/bytesized.test.ts checks every step with it, bench/bytesized.ts times it.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCartridge } from '../../src/adapters/files/index.ts';
import { PROJECT_ROOT } from '../../src/adapters/project-root.ts';
import type { Cartridge } from '../../src/core/cartridge/index.ts';
import { runEvent, runPlayerEvent } from '../../src/core/yare/index.ts';
import { WORDINGS, wordingMissing } from './bytesized-wording.ts';

export const PORTS_DIR = join(PROJECT_ROOT, 'test/cartridges/bytesized');

export interface GoldStep {
  readonly event?: string;
  readonly inputs?: Record<string, unknown>;
  readonly score: number;
  readonly over: boolean;
  readonly won: boolean;
  /** Every object by id: its parent (`loc`) and the properties the game tracks, in the port's names. */
  readonly objects: Record<string, Record<string, unknown>>;
  /** The ids the original's observation names. */
  readonly mentions: readonly string[];
  /** For each object the observation names whose properties it reports: those properties, in the port's names. */
  readonly reports: readonly Report[];
}

/** Properties of one object an observation reports, with the values it reports. */
export interface Report {
  readonly obj: string;
  readonly props: Readonly<Record<string, unknown>>;
}

export interface Gold {
  readonly game: string;
  /** The event whose notes stand for the game's opening observation. */
  readonly opening: string;
  readonly steps: readonly GoldStep[];
  /** Steps (by number, 0 the opening) whose observation names other objects in the port, and why. */
  readonly observationMisses: Readonly<Record<string, string>>;
}

export type PortState = {
  objs: Record<string, Record<string, unknown>>;
  game: { score: number; over: boolean; won: boolean };
};

/** The suffix of a port written without the new features; it replays its game's facts (`<game>/gold.json`). */
export const PLAIN_SUFFIX = '-plain';

/** The folder whose `gold.json` a port replays: its own, or for `<game>-plain` its game's. */
export function goldFolder(port: string): string {
  return port.endsWith(PLAIN_SUFFIX) ? port.slice(0, -PLAIN_SUFFIX.length) : port;
}

/** The ports whose gold facts exist, by folder name. */
export function portNames(): string[] {
  return readdirSync(PORTS_DIR).filter(
    (name) =>
      existsSync(join(PORTS_DIR, name, 'yare.yaml')) &&
      existsSync(join(PORTS_DIR, goldFolder(name), 'gold.json')),
  );
}

/** A port's cartridge and its gold facts; throws naming the port when it does not load. */
export async function loadPort(port: string): Promise<{ cartridge: Cartridge; gold: Gold }> {
  const loaded = await loadCartridge(join(PORTS_DIR, port));
  if (!loaded.ok) throw new Error(`${port} does not load: ${JSON.stringify(loaded.errors)}`);
  const gold = JSON.parse(readFileSync(join(PORTS_DIR, goldFolder(port), 'gold.json'), 'utf8')) as Gold;
  return { cartridge: loaded.cartridge, gold };
}

/** Plays the gold actions; for each step the state after it and the notes it gave. */
export function playGold(cartridge: Cartridge, gold: Gold): { states: PortState[]; notes: string[][] } {
  const rules = cartridge.rules;
  let state: unknown = rules.initialState;
  const opening = runEvent(rules, state, gold.opening, {});
  const states: PortState[] = [state as PortState];
  const notes: string[][] = [[...opening.notes]];
  gold.steps.slice(1).forEach((step, i) => {
    const ran = runPlayerEvent(rules, state, step.event!, step.inputs ?? {}, { seed: i + 1 });
    if (!ran.result.ok) throw new Error(`step ${i + 1} (${step.event}): ${ran.result.error.message}`);
    for (const hook of ran.hooks)
      if (!hook.result.ok) throw new Error(`step ${i + 1}: hook ${hook.event}: ${hook.result.error.message}`);
    state = ran.state;
    states.push(state as PortState);
    notes.push([...ran.notes]);
  });
  return { states, notes };
}

/** What differs between the port's state and the original's after a step, one line each. */
export function stateDifferences(at: number, state: PortState, step: GoldStep): string[] {
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
export function namedIds(notes: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const note of notes) for (const m of note.matchAll(/#(\d+)/g)) ids.add(m[1]!);
  return [...ids].sort((a, b) => Number(a) - Number(b));
}

/** The steps whose notes name other objects than the original's observation, the listed misses aside. */
export function mentionDifferences(gold: Gold, notes: readonly (readonly string[])[]): string[] {
  const misses = gold.observationMisses;
  const wrong: string[] = [];
  gold.steps.forEach((step, i) => {
    const got = namedIds(notes[i]!).join(',');
    const expected = step.mentions.join(',');
    const listed = Object.hasOwn(misses, String(i));
    if (!listed && got !== expected)
      wrong.push(`step ${i}: names ${got || 'nothing'}, the game named ${expected || 'nothing'}`);
    if (listed && got === expected) wrong.push(`step ${i} is listed as a miss but names what the game named`);
  });
  return wrong;
}

/**
 * The reported properties (`gold.json`'s `reports`) the notes do not word as the port's table
 * (test/helpers/bytesized-wording.ts) says, one line each; `states` gives the port's names of things the
 * facts do not name.
 */
export function reportDifferences(
  gold: Gold,
  notes: readonly (readonly string[])[],
  states: readonly PortState[],
): string[] {
  const wordings = Object.hasOwn(WORDINGS, gold.game) ? WORDINGS[gold.game]! : {};
  const wrong: string[] = [];
  gold.steps.forEach((step, i) => {
    // The game's name of a thing where the facts hold it, else the port's (a thing eaten in the step: before it).
    const nameOf = (id: string): string =>
      String(step.objects[id]?.name ?? (states[i]!.objs[id] ?? states[i - 1]?.objs[id])?.name ?? '');
    for (const { obj, props } of step.reports) {
      const thing = { id: obj, name: nameOf(obj), props, nameOf };
      for (const [property, value] of Object.entries(props)) {
        const wordingOf = Object.hasOwn(wordings, property) ? wordings[property] : undefined;
        const missing =
          wordingOf === undefined
            ? 'the port has no wording for it'
            : wordingMissing(notes[i]!, wordingOf(value, thing));
        if (missing !== undefined)
          wrong.push(`step ${i}: #${obj}.${property} = ${JSON.stringify(value)} is not reported: ${missing}`);
      }
    }
  });
  return wrong;
}

/** The number of (object, property) facts the original's observations report over the whole playthrough. */
export function reportedProperties(gold: Gold): number {
  return gold.steps.reduce(
    (sum, step) => sum + step.reports.reduce((n, r) => n + Object.keys(r.props).length, 0),
    0,
  );
}

/** What each observation reports that the port's notes do not: the objects it names, then their properties. */
export function observationDifferences(
  gold: Gold,
  notes: readonly (readonly string[])[],
  states: readonly PortState[],
): string[] {
  return [...mentionDifferences(gold, notes), ...reportDifferences(gold, notes, states)];
}

/** How many steps the lines of `observationDifferences` (each starting `step <n>`) are about. */
export function stepsDiffering(differences: readonly string[]): number {
  return new Set(differences.map((line) => line.split(/[ :]/, 2).join(' '))).size;
}
