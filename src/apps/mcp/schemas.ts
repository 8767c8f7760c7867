// The input schemas of the MCP tools, each argument bounded: by the engine's own limit where it has one (the
// player's input, event names, expressions, seeds, a mini-game result), else by this app's (limits.ts).
// The SDK turns them into the JSON Schemas `tools/list` shows, and checks every call against them.

import { z } from 'zod';
import { MAX_DRAWN_SEED, MAX_EVENT_NAME_CHARS } from '../../engine/session/index.ts';
import { MAX_INPUT_CHARS } from '../../engine/turn/index.ts';
import { limits as yareLimits } from '../../core/yare/index.ts';
import { WORLD_TABLES } from '../../core/ledger/index.ts';
import { MAX_BUILDER_EXPLORE_DEPTH, MAX_BUILDER_EXPLORE_RUNS } from '../../tools/authoring/builder/index.ts';
import {
  MAX_CARTRIDGE_ARG_CHARS,
  MAX_EVENT_INPUTS,
  MAX_ID_CHARS,
  MAX_LORE_TEXT_CHARS,
  MAX_STATE_JSON_CHARS,
} from './limits.ts';

export { interactionSchema } from '../../engine/session/index.ts';

export const cartridgeArg = z
  .string()
  .min(1)
  .max(MAX_CARTRIDGE_ARG_CHARS)
  .describe(
    "A shipped cartridge's name (list_cartridges) or a cartridge folder, relative to the server's first folder",
  );

export const seedArg = z
  .number()
  .int()
  .min(0)
  .max(MAX_DRAWN_SEED)
  .describe('Dice seed: the same seed gives the same rolls');

/** JSON characters of a value, or Infinity for one JSON cannot write (a cycle cannot come over the wire). */
function jsonChars(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

export const stateArg = z
  .record(z.string(), z.unknown())
  .refine((state) => jsonChars(state) <= MAX_STATE_JSON_CHARS, {
    message: `state: over ${MAX_STATE_JSON_CHARS} characters of JSON (MAX_STATE_JSON_CHARS)`,
  })
  .describe("Game state fields to start from, merged over the cartridge's initial state");

export const eventArg = z.string().min(1).max(MAX_EVENT_NAME_CHARS).describe('The rule event to run');

export const eventInputsArg = z
  .record(z.string().max(MAX_EVENT_NAME_CHARS), z.unknown())
  .refine((inputs) => Object.keys(inputs).length <= MAX_EVENT_INPUTS, {
    message: `inputs: more than ${MAX_EVENT_INPUTS} keys (MAX_EVENT_INPUTS)`,
  })
  .refine((inputs) => jsonChars(inputs) <= MAX_STATE_JSON_CHARS, {
    message: `inputs: over ${MAX_STATE_JSON_CHARS} characters of JSON (MAX_STATE_JSON_CHARS)`,
  })
  .describe("The event's inputs by name");

export const expressionArg = z
  .string()
  .min(1)
  .max(yareLimits.MAX_EXPRESSION_LENGTH)
  .describe('A YARE expression, e.g. `roll(1d20) + state.player.level`');

export const loreTextArg = z
  .string()
  .max(MAX_LORE_TEXT_CHARS)
  .describe('What the player or the story says: the text lore is looked up with');

export const exploreRunsArg = z.number().int().min(1).max(MAX_BUILDER_EXPLORE_RUNS);
export const exploreDepthArg = z.number().int().min(1).max(MAX_BUILDER_EXPLORE_DEPTH);

export const idArg = z.string().min(1).max(MAX_ID_CHARS);

export const playerInputArg = z
  .string()
  .min(1)
  .max(MAX_INPUT_CHARS)
  .describe("The player's words (intent, never outcome: the rules decide what happens)");

export const worldTablesArg = z.array(z.enum(WORLD_TABLES)).min(1).max(WORLD_TABLES.length);
