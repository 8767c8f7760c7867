// Shared helpers for the turn tests: cartridges loaded once per file, scripted models, event collection.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Cartridge } from '../../../src/core/cartridge/index.ts';
import { loadCartridge, loadCartridgeFromFiles } from '../../../src/adapters/files/index.ts';
import {
  createScriptedModels,
  type ModelScriptInput,
  type ScriptedModelSet,
} from '../../../src/adapters/llm/index.ts';
import { runTurn } from '../../../src/engine/turn/run-turn.ts';
import type { GameState, TurnEvent, TurnOptions, TurnRecord } from '../../../src/engine/turn/types.ts';
import { sharedPath } from '../../helpers/shared.ts';

/** Nested state in assertions (`state.player.gold`); tests check the values, not the types. */
// biome-ignore lint/suspicious/noExplicitAny: deep property access on JSON state in assertions
export type Loose = Record<string, any>;

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, '../../..');
export const LANTERNMERE = resolve(ROOT, 'cartridges/lanternmere');
/** The project's own test cartridges (test/fixtures/cartridges), one behaviour each. */
export const SHARED = sharedPath('cartridges');
export const FIXTURES = resolve(ROOT, 'test/fixtures/cartridges');

export const SHARED_CARTRIDGES = [
  'seed-eldoria',
  'mnesos/generic-rpg',
  'mnesos/dark-fantasy',
  'mnesos/lights-out-demo',
  'mnesos/web-client-e2e',
] as const;

const cache = new Map<string, Promise<Cartridge>>();

/** Loads a cartridge folder once (by path) and fails the test with its errors if it does not load. */
export function cartridgeAt(dir: string): Promise<Cartridge> {
  let loaded = cache.get(dir);
  if (loaded === undefined) {
    loaded = loadCartridge(dir).then((result) => {
      if (!result.ok)
        throw new Error(`${dir} does not load:\n${result.errors.map((e) => e.message).join('\n')}`);
      return result.cartridge;
    });
    cache.set(dir, loaded);
  }
  return loaded;
}

export const lanternmere = (): Promise<Cartridge> => cartridgeAt(LANTERNMERE);

/** A cartridge a test writes as files (`yare.yaml`, `bot_lore.md`, …); its errors thrown when it does not load. */
export function cartridgeFromFiles(files: Readonly<Record<string, string>>, name: string): Cartridge {
  const loaded = loadCartridgeFromFiles(new Map(Object.entries(files)), name);
  if (!loaded.ok)
    throw new Error(`${name} does not load:\n${loaded.errors.map((e) => e.message).join('\n')}`);
  return loaded.cartridge;
}
export const fixture = (name: string): Promise<Cartridge> => cartridgeAt(resolve(FIXTURES, name));
/** A cartridge of ../shared/cartridges: only for suites guarded by `sharedAvailable` (compatibility). */
export const shared = (name: string): Promise<Cartridge> => cartridgeAt(resolve(SHARED, name));

/** The initial state as plain JSON (what a client would send). */
export function initialState(cartridge: Pick<Cartridge, 'rules'>): GameState {
  return JSON.parse(JSON.stringify(cartridge.rules.initialState)) as GameState;
}

export function scripted(script: ModelScriptInput): ScriptedModelSet {
  return createScriptedModels(script);
}

export async function collect(options: TurnOptions): Promise<{ events: TurnEvent[]; record: TurnRecord }> {
  const events: TurnEvent[] = [];
  for await (const event of runTurn(options)) events.push(event);
  const last = events.at(-1);
  if (last?.type !== 'done') throw new Error(`turn ended without a record: ${JSON.stringify(last)}`);
  return { events, record: last.record };
}

/** Runs a turn expected to fail; returns the events and the thrown error. */
export async function failure(options: TurnOptions): Promise<{ events: TurnEvent[]; error: unknown }> {
  const events: TurnEvent[] = [];
  try {
    for await (const event of runTurn(options)) events.push(event);
  } catch (error) {
    return { events, error };
  }
  throw new Error(`expected the turn to fail; events: ${JSON.stringify(events.map((e) => e.type))}`);
}

/** Plain JSON copy (null-prototype objects become ordinary ones) for deep equality. */
export function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Every text any scripted model was sent (system prompts and messages), for leak checks. */
export function promptsOf(models: ScriptedModelSet, role: 'director' | 'narrator' | 'npc'): string[] {
  return models[role].requests.map((r) => [r.system, ...r.messages.map((m) => m.content)].join('\n'));
}

/**
 * Everything a model was shown, in order: the system prompt, then every message. Prompts put the volatile
 * context (state, world, notes, directives) in the final message, so content checks read the whole prompt.
 */
export function promptText(request: {
  readonly system: string;
  readonly messages: readonly { readonly content: string }[];
}): string {
  return [request.system, ...request.messages.map((m) => m.content)].join('\n');
}
