// A small cartridge with a `ledger:` section (narrator-owned attributes, a grantable item, a thread with
// conditions, a starting world) and helpers to script a Narrator that proposes world changes.
import type { Cartridge } from '../../../src/core/cartridge/index.ts';
import { loadCartridgeFromFiles } from '../../../src/adapters/files/index.ts';
import type { World } from '../../../src/core/ledger/index.ts';
import type { ModelScriptInput } from '../../../src/adapters/llm/index.ts';
import type { GameState, TurnOptions } from '../../../src/engine/turn/types.ts';
import { collect, scripted } from './helpers.ts';

export const MILL_YAML = `version: "1.0"
bot_name: "Mill Road"
state_schema:
  game_time: { type: string, default: "1199-01-01T08:00:00", visibility: public }
  player:
    visibility: public
    gold: { type: int, default: 5 }
    hp: { type: int, default: 10 }
    location: { type: string, default: "mill" }
events:
  travel:
    description: "Go somewhere."
    inputs:
      destination: { type: string, enum: ["mill", "tavern", "woods"] }
    steps:
      - action: set
        var: state.player.location
        value: "@ inputs.destination"
      - action: note
        message: "[SYSTEM LOG: The player walks to the {inputs.destination}.]"
ledger:
  player: player
  attributes:
    mood: { type: string }
    trust: { type: int, min: 0, max: 10, max_change: 3 }
  grantable_items: [torch]
  threads:
    missing_miller: { requires: [ { fact: miller_found } ] }
  world:
    - { event_type: create_entity, entity: player, name: Wren, entity_type: person }
    - { event_type: create_entity, entity: mill, name: The Old Mill, entity_type: place }
    - { event_type: create_entity, entity: woods, name: The Hollow Woods, entity_type: place }
    - { event_type: create_entity, entity: castle, name: Castle Orsin, entity_type: place }
    - { event_type: create_entity, entity: duke, name: Duke Orsin, entity_type: person }
    - { event_type: create_entity, entity: crown, name: Crown of Kings, entity_type: item }
    - { event_type: create_entity, entity: mara, name: Mara, entity_type: person }
    - { event_type: create_entity, entity: lantern, name: Brass Lantern, entity_type: item }
    - { event_type: set_current_location, entity: duke, location: castle }
    - { event_type: set_possession, item: crown, owner: duke }
    - { event_type: set_possession, item: lantern, owner: mara }
    - { event_type: set_current_location, entity: player, location: mill }
    - { event_type: set_current_location, entity: mara, location: mill }
    - { event_type: set_scene, location: mill, present: [player, mara], summary: "Dusk at the old mill." }
    - { event_type: open_story_thread, thread: missing_miller, title: The missing miller }
`;

let cached: Cartridge | undefined;

/** The Mill Road cartridge (loaded once). */
export function millRoad(): Cartridge {
  if (cached) return cached;
  const result = loadCartridgeFromFiles(
    new Map([
      ['yare.yaml', MILL_YAML],
      ['bot_lore.md', '# The Mill Road\nA road between a mill and a castle.\n'],
    ]),
    'mill-road',
  );
  if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('\n'));
  cached = result.cartridge;
  return cached;
}

export function millState(): GameState {
  return JSON.parse(JSON.stringify(millRoad().rules.initialState)) as GameState;
}

export const DIRECTIVES = '### 1. Outcomes\nThe scene goes on.\n### 4. Guardrails\nNothing else happens.';

/** A narrator response: prose, then one `record_world_changes` call with these arguments. */
export function narrate(text: string, args?: unknown): Record<string, unknown> {
  return args === undefined ? { text } : { text, toolCalls: [{ name: 'record_world_changes', args }] };
}

/** A repair answer: only the tool call, with these arguments (or this raw text). */
export function recordCall(args: unknown): Record<string, unknown> {
  return { toolCalls: [{ name: 'record_world_changes', args }] };
}
export function rawCall(rawArgs: string): Record<string, unknown> {
  return { toolCalls: [{ name: 'record_world_changes', rawArgs }] };
}

/** One turn of the Mill Road with a scripted Director (directives only) and the given narrator script. */
export async function millTurn(
  narrator: readonly unknown[],
  options: Partial<TurnOptions> & { director?: readonly unknown[]; world?: World } = {},
) {
  const { director, ...rest } = options;
  const script: ModelScriptInput = { director: director ?? [{ text: DIRECTIVES }], narrator };
  const models = scripted(script);
  const cartridge = millRoad();
  const result = await collect({
    cartridge,
    state: millState(),
    messages: [],
    input: 'I look around the mill',
    seed: 1,
    models,
    ...rest,
  });
  return { ...result, models };
}
