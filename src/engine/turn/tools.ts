// The tools the Director sees, and the engine side of each. Every public YARE event is a tool (its JSON
// Schema plus an optional `engine_time_delta`), next to four engine tools. A call is checked before
// anything runs (an event's inputs by the rules' own input rule, `checkEventInputs`; an engine tool's
// arguments against its schema); an unknown tool, bad arguments or a rule error come back to the model as
// a structured error and change nothing.

import { z } from 'zod';
import type { JsonSchema, ToolCall, ToolSpec } from '../../adapters/llm/index.ts';
import { LoreError, MAX_LORE_QUERIES, MAX_LORE_QUERY_CHARS } from '../../core/lore/index.ts';
import {
  afterEventHooks,
  checkEventInputs,
  type EventDef,
  eventTool,
  hookInputs,
  publicEvents,
  type StateValue,
  toStateValue,
} from '../../core/yare/index.ts';
import { createHash } from 'node:crypto';
import type { IntentInputs } from '../../core/cartridge/index.ts';
import { checkArgs, parseRawArgs } from './args.ts';
import type { TurnContext } from './context.ts';
import { lookupInTurn } from './lore.ts';
import { ACTOR_INPUT } from './party.ts';
import { type ActorRule, actorOf } from './actor-rule.ts';
import { type ClockMode, checkAdvance, clockMode, type Parsed, parseDuration } from './game-time.ts';
import {
  MAX_DIRECTIVES_CHARS,
  MAX_EVENT_STRING_CHARS,
  MAX_NPC_HISTORY_TURNS,
  MAX_NPC_TAGS,
  MAX_PRESENT_NPCS,
  MAX_TIME_ADVANCE_SECONDS,
  MAX_TOOL_ARGS_CHARS,
  MAX_TOOL_RESULT_CHARS,
} from './limits.ts';
import { normaliseArgs } from './normalise-args.ts';
import type { RuleCall, TurnCartridge } from './types.ts';

export const ADVANCE_GAME_TIME = 'advance_game_time';
export const LORE_LOOKUP = 'lore_lookup';
/** The seed's name for `lore_lookup` (the same `queries`), accepted from prompts written for the original. */
export const SEED_LORE_LOOKUP = 'multi_lore_lookup';
export const QUERY_NPC_INTENT = 'query_npc_intent';
export const FINISH_TURN = 'finish_turn';
export const TIME_DELTA_INPUT = 'engine_time_delta';

/** Names the engine's own tools use; a cartridge event with one of these names is not offered. */
export const ENGINE_TOOL_NAMES: ReadonlySet<string> = new Set([
  ADVANCE_GAME_TIME,
  LORE_LOOKUP,
  QUERY_NPC_INTENT,
  FINISH_TURN,
]);

export type DirectorTool =
  | {
      readonly kind: 'event';
      readonly spec: ToolSpec;
      readonly event: EventDef;
      /** The tool takes `engine_time_delta` beside the event's inputs (the engine keeps the clock). */
      readonly timeDelta: boolean;
      /** This turn's known values of its `values_from` inputs (known-values.ts), checked by the input rule. */
      readonly known?: ReadonlyMap<string, readonly string[]>;
      /** A shared table's turn: who the event's `actor` input is (table-actor.ts). */
      readonly actor?: ActorRule;
    }
  | { readonly kind: 'advance_game_time'; readonly spec: ToolSpec }
  | { readonly kind: 'lore_lookup'; readonly spec: ToolSpec }
  | { readonly kind: 'query_npc_intent'; readonly spec: ToolSpec }
  | { readonly kind: 'finish_turn'; readonly spec: ToolSpec };

export interface DirectorToolSet {
  readonly byName: ReadonlyMap<string, DirectorTool>;
  readonly specs: readonly ToolSpec[];
  /** Cartridge events left out because an engine tool has their name. */
  readonly warnings: readonly string[];
}

const DURATION_HELP = "ISO-8601 like 'PT15M' or 'P1DT2H', or shorthand like '15m', '2h', '1d'";

// The engine's own tools: each argument schema is one zod object, turned into the JSON Schema the model
// sees; their arguments are checked against that JSON Schema by `checkArgs`, like an event tool's.

const advanceArgs = z.strictObject({
  duration: z.string().max(64).describe(`How long passes: ${DURATION_HELP}.`),
});

const loreArgs = z.strictObject({
  queries: z
    .array(z.string().max(MAX_LORE_QUERY_CHARS))
    .min(1)
    .max(MAX_LORE_QUERIES)
    .describe('Short search phrases, one per topic.'),
});

const npcArgs = z.strictObject({
  present_npcs: z
    .array(
      z.strictObject({
        id: z.string().max(100).describe('Who this is (a name or a short label).'),
        template: z.string().max(100).describe('An npc template of type name, if one fits.').optional(),
        tags: z
          .array(z.string().max(100))
          .max(MAX_NPC_TAGS)
          .describe('npc templates of type tag that describe them.')
          .optional(),
      }),
    )
    .min(1)
    .max(MAX_PRESENT_NPCS),
  scene_context: z.string().max(2000).describe('What the characters see happening now.'),
  history_turns: z
    .number()
    .int()
    .min(0)
    .max(MAX_NPC_HISTORY_TURNS)
    .describe(`How many recent story messages the characters remember (0 to ${MAX_NPC_HISTORY_TURNS}).`)
    .optional(),
  dm_directives: z.string().max(2000).describe('Private guidance for playing them.').optional(),
});

const finishArgs = z.strictObject({
  directives: z.string().max(MAX_DIRECTIVES_CHARS).describe('The scene directives.'),
});

/** The JSON Schema of a zod argument object, as a tool's `inputSchema`. */
function toolInputSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
  return rest as JsonSchema;
}

const advanceSpec: ToolSpec = {
  name: ADVANCE_GAME_TIME,
  description: `Advance the in-game clock by a duration without any other action (${DURATION_HELP}).`,
  inputSchema: toolInputSchema(advanceArgs),
};

const loreSpec: ToolSpec = {
  name: LORE_LOOKUP,
  description:
    'Look up world lore (places, people, factions, items). Put every question of this turn in ONE call; the results come back before you continue.',
  inputSchema: toolInputSchema(loreArgs),
};

const npcSpec: ToolSpec = {
  name: QUERY_NPC_INTENT,
  description:
    'Ask how characters present in the scene want to react, before you resolve the rules. Name each by id, with its npc template and tags. The results come back before you continue.',
  inputSchema: toolInputSchema(npcArgs),
};

const finishSpec: ToolSpec = {
  name: FINISH_TURN,
  description:
    'Hand the turn to the Narrator with your scene directives. Call it in the same response as your rule events when you do not need their results first.',
  inputSchema: toolInputSchema(finishArgs),
};

const TIME_DELTA_SCHEMA = { type: 'string', maxLength: 64 } as const;
const TIME_DELTA_HELP = `In-game time this action takes (${DURATION_HELP}); default PT0S.`;

/**
 * What an event tool's arguments are checked against before the event's own input rule: the bounds every
 * model value has (string length, items, keys, depth; a null-prototype copy), and `engine_time_delta`.
 */
const EVENT_ARGS_BOUNDS: JsonSchema = { type: 'object' };
const EVENT_ARGS_BOUNDS_WITH_TIME: JsonSchema = {
  type: 'object',
  properties: { [TIME_DELTA_INPUT]: TIME_DELTA_SCHEMA },
};

const toolSets = new WeakMap<object, DirectorToolSet>();

/** The Director's tools for a cartridge (built once per cartridge object). */
export function directorTools(cartridge: Omit<TurnCartridge, 'ledger'>): DirectorToolSet {
  const cached = toolSets.get(cartridge);
  if (cached) return cached;
  const rules = cartridge.rules;
  const clock = clockMode(rules);
  const byName = new Map<string, DirectorTool>();
  const warnings: string[] = [];
  for (const event of publicEvents(rules)) {
    if (ENGINE_TOOL_NAMES.has(event.name)) {
      warnings.push(
        `event '${event.name}' is not offered to the Director: the engine's own tool has that name`,
      );
      continue;
    }
    const timeDelta = clock !== 'cartridge';
    const bounded = boundedStrings(eventTool(event));
    const spec = timeDelta ? withTimeDelta(bounded) : bounded;
    byName.set(event.name, { kind: 'event', spec, event, timeDelta });
  }
  if (clock === 'engine') byName.set(ADVANCE_GAME_TIME, { kind: 'advance_game_time', spec: advanceSpec });
  if (cartridge.lore.trim() !== '') byName.set(LORE_LOOKUP, { kind: 'lore_lookup', spec: loreSpec });
  if (rules.npcTemplates.size > 0) byName.set(QUERY_NPC_INTENT, { kind: 'query_npc_intent', spec: npcSpec });
  byName.set(FINISH_TURN, { kind: 'finish_turn', spec: finishSpec });
  const set: DirectorToolSet = { byName, specs: [...byName.values()].map((t) => t.spec), warnings };
  toolSets.set(cartridge, set);
  return set;
}

/** Free string inputs (no enum, no length of their own) get MAX_EVENT_STRING_CHARS as their `maxLength`. */
function boundedStrings(tool: ToolSpec): ToolSpec {
  const schema = tool.inputSchema as { properties?: Record<string, Record<string, unknown>> };
  const properties = schema.properties ?? {};
  const bounded: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const free =
      property.type === 'string' && property.enum === undefined && property.maxLength === undefined;
    bounded[name] = free ? { ...property, maxLength: MAX_EVENT_STRING_CHARS } : property;
  }
  return { ...tool, inputSchema: { ...tool.inputSchema, properties: bounded } };
}

function withTimeDelta(tool: ToolSpec): ToolSpec {
  const schema = tool.inputSchema as { properties: Record<string, unknown> };
  return {
    ...tool,
    inputSchema: {
      ...tool.inputSchema,
      properties: {
        ...schema.properties,
        [TIME_DELTA_INPUT]: { ...TIME_DELTA_SCHEMA, description: TIME_DELTA_HELP },
      },
    },
  };
}

// ------------------------------------------------------------------------------------------ execution

/** What one tool call produced: the text for the model, and whether it succeeded. */
export interface ToolOutcome {
  readonly ok: boolean;
  readonly content: string;
  /** The Director needs this result before it can write directives (lore, NPC intents). */
  readonly informs?: boolean;
  /** The error message, for failed calls. */
  readonly error?: string;
}

export function toolError(message: string): ToolOutcome {
  return { ok: false, content: capResult(JSON.stringify({ ok: false, error: message })), error: message };
}

export function toolOk(result: Record<string, unknown>, informs = false): ToolOutcome {
  return { ok: true, content: capResult(JSON.stringify({ ok: true, ...result })), informs };
}

function capResult(text: string): string {
  if (text.length <= MAX_TOOL_RESULT_CHARS) return text;
  return `${text.slice(0, MAX_TOOL_RESULT_CHARS)}… [cut at ${MAX_TOOL_RESULT_CHARS} characters (MAX_TOOL_RESULT_CHARS)]`;
}

/**
 * A refused tool call as the record keeps it: why, how long the raw arguments were and their sha256, never
 * the arguments themselves (a model can send a megabyte per call; the record stays small).
 */
export interface RefusedArgs {
  readonly reason: string;
  readonly chars: number;
  readonly sha256: string;
}

export function refusedArgs(reason: string, rawArgs: string): RefusedArgs {
  return {
    reason: reason.length > 300 ? `${reason.slice(0, 300)}…` : reason,
    chars: rawArgs.length,
    sha256: createHash('sha256').update(rawArgs).digest('hex'),
  };
}

/**
 * The call's arguments checked against the tool's schema, or the error to send back. The raw text is
 * checked first (size, then nesting depth and duplicate keys in one pass) and parsed here, so a hostile
 * value never reaches recursive code; the provider's own parse of it is not used. Input normalisation
 * (normalise-args.ts: whitespace, case, the event's intents.yaml phrases) runs between the parse and the check.
 */
export function checkedArgs(
  tool: DirectorTool,
  call: ToolCall,
  intents?: IntentInputs,
):
  | { readonly ok: true; readonly args: Record<string, unknown> }
  | { readonly ok: false; readonly outcome: ToolOutcome } {
  const fail = (message: string) => ({ ok: false as const, outcome: toolError(message) });
  if (call.rawArgs.length > MAX_TOOL_ARGS_CHARS) {
    return fail(
      `arguments of ${call.name} are ${call.rawArgs.length} characters; the limit is ${MAX_TOOL_ARGS_CHARS} (MAX_TOOL_ARGS_CHARS)`,
    );
  }
  const parsed = parseRawArgs(call.rawArgs);
  if (!parsed.ok) return fail(`${call.name}: ${parsed.message}`);
  if (tool.kind === 'event') {
    // Case, whitespace and intents.yaml phrases folded first (normalise-args.ts), then the event's one input rule.
    const implied = intents !== undefined ? (intents[call.name] ?? []) : [];
    const checked = checkedEventArgs(tool, normaliseArgs(tool.spec.inputSchema, parsed.value, implied));
    return checked.ok ? checked : fail(`${call.name}: ${checked.message}`);
  }
  const checked = checkArgs(tool.spec.inputSchema, parsed.value);
  if (!checked.ok) return fail(`${call.name}: ${checked.message}`);
  return { ok: true, args: checked.value as Record<string, unknown> };
}

/**
 * An event tool's arguments: bounded like every model value, then judged by the event's input rule (the
 * one `run-event` and scenarios use: types converted, enum values matched ignoring case). The arguments
 * given come back in the rules' spelling (`"Brine Market"` is `"brine market"`); defaults are left to
 * the run, so the record keeps what the model asked for.
 */
function checkedEventArgs(
  tool: Extract<DirectorTool, { kind: 'event' }>,
  value: unknown,
):
  | { readonly ok: true; readonly args: Record<string, unknown> }
  | { readonly ok: false; readonly message: string } {
  const bounded = checkArgs(tool.timeDelta ? EVENT_ARGS_BOUNDS_WITH_TIME : EVENT_ARGS_BOUNDS, value);
  if (!bounded.ok) return bounded;
  const given = bounded.value as Record<string, unknown>;
  if (tool.actor !== undefined) {
    const actor = actorOf(tool.actor, given[ACTOR_INPUT]);
    if (!actor.ok) return actor;
    given[ACTOR_INPUT] = actor.actor;
  }
  const inputs: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(given)) {
    if (!(tool.timeDelta && key === TIME_DELTA_INPUT)) inputs[key] = given[key];
  }
  const checked = checkEventInputs(tool.event, inputs, tool.known ? { known: tool.known } : {});
  if (!checked.ok) return checked;
  // Free strings carry the cap the schema offered the model (boundedStrings): a model cannot loop inside one.
  const properties = (tool.spec.inputSchema as { properties?: Record<string, { maxLength?: unknown }> })
    .properties;
  for (const key of Object.keys(inputs)) {
    const max = properties?.[key]?.maxLength;
    const given = inputs[key];
    if (typeof max === 'number' && typeof given === 'string' && given.length > max)
      return {
        ok: false,
        message: `input '${key}' is ${given.length} characters; the limit is ${max} (MAX_EVENT_STRING_CHARS)`,
      };
  }
  const args: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(given)) {
    args[key] = Object.hasOwn(inputs, key) ? toStateValue(checked.inputs[key] ?? null) : given[key];
  }
  return { ok: true, args };
}

/** Runs a rule event for the Director (or the offline matcher): time check first, then the event itself. */
export function runEventTool(
  ctx: TurnContext,
  name: string,
  args: Record<string, unknown>,
  source: RuleCall['source'],
): ToolOutcome {
  const inputs: Record<string, StateValue> = Object.create(null);
  let seconds = 0;
  for (const key of Object.keys(args)) {
    if (key === TIME_DELTA_INPUT) continue;
    inputs[key] = args[key] as StateValue;
  }
  if (Object.hasOwn(args, TIME_DELTA_INPUT)) {
    const parsed = parseDuration(args[TIME_DELTA_INPUT]);
    if (!parsed.ok)
      return toolError(`${name}: ${TIME_DELTA_INPUT}: ${parsed.message}. The event did not run.`);
    seconds = parsed.value;
    if (seconds > 0) {
      const clockCheck = checkTurnTime(ctx, seconds);
      if (!clockCheck.ok) return toolError(`${name}: ${clockCheck.message}. The event did not run.`);
    }
  }
  const result = ctx.runRule(source, name, inputs);
  if (!result.ok) {
    return toolError(`${name} failed (${result.error.code}): ${result.error.message} Nothing changed.`);
  }
  ctx.timeSeconds += seconds;
  const notes = [...result.notes, ...runAfterEventHooks(ctx, name)];
  return toolOk({ notes: notes.length > 0 ? notes : [`Event '${name}': no effect.`] });
}

/**
 * The `after_event` hooks after a player's event that succeeded (core/yare/player-event.ts), each a rule
 * run of the turn; their notes, which the caller shows with the event's. A failing hook is a cartridge
 * bug, not the player's: it changed nothing, the turn's warnings say so, and the next hook still runs.
 */
export function runAfterEventHooks(ctx: TurnContext, event: string): string[] {
  const notes: string[] = [];
  for (const hook of afterEventHooks(ctx.rules)) {
    const result = ctx.runRule('after_event', hook.name, hookInputs(hook, event));
    if (result.ok) notes.push(...result.notes);
    else
      ctx.warnings.push(`after_event '${hook.name}' failed (${result.error.code}): ${result.error.message}`);
  }
  return notes;
}

/** Whether `seconds` more fit this turn (MAX_TIME_ADVANCE_SECONDS in all) and the clock can take them. */
function checkTurnTime(ctx: TurnContext, seconds: number): Parsed<string> {
  const total = ctx.timeSeconds + seconds;
  if (total > MAX_TIME_ADVANCE_SECONDS) {
    return {
      ok: false,
      message: `this turn would advance time by ${total} seconds in all; the limit is ${MAX_TIME_ADVANCE_SECONDS} (MAX_TIME_ADVANCE_SECONDS)`,
    };
  }
  return checkAdvance(ctx.state, total);
}

export function runAdvanceTime(ctx: TurnContext, args: Record<string, unknown>): ToolOutcome {
  const parsed = parseDuration(args.duration);
  if (!parsed.ok) return toolError(`${ADVANCE_GAME_TIME}: ${parsed.message}. The clock did not move.`);
  if (parsed.value === 0)
    return toolError(`${ADVANCE_GAME_TIME}: the duration is zero; give a positive one (${DURATION_HELP}).`);
  const clockCheck = checkTurnTime(ctx, parsed.value);
  if (!clockCheck.ok)
    return toolError(`${ADVANCE_GAME_TIME}: ${clockCheck.message}. The clock did not move.`);
  ctx.timeSeconds += parsed.value;
  return toolOk({ advanced_seconds: parsed.value, game_time_after_turn: clockCheck.value });
}

export function runLoreLookup(ctx: TurnContext, args: Record<string, unknown>): ToolOutcome {
  const queries = args.queries as string[];
  try {
    // A section whose `when` is false is not found, whatever the queries (docs/cartridges.md).
    const { result, receipts } = lookupInTurn(ctx, queries, {
      k: ctx.limits.loreK,
      tokenBudget: ctx.limits.loreTokenBudget,
    });
    const why = new Map(receipts.map((r) => [r.chunkId, r.why]));
    for (const chunk of result.chunks) {
      if (!ctx.lore.has(chunk.id))
        ctx.lore.set(chunk.id, {
          text: chunk.text,
          why: `looked up by the Director: ${why.get(chunk.id) ?? ''}`,
          byWords: true,
        });
    }
    return toolOk({ lore: result.text === '' ? 'No lore matched these queries.' : result.text }, true);
  } catch (error) {
    if (error instanceof LoreError) return toolError(`${LORE_LOOKUP}: ${error.message}`);
    throw error;
  }
}

export function runFinishTurn(ctx: TurnContext, args: Record<string, unknown>): ToolOutcome {
  ctx.finishDirectives = String(args.directives).trim();
  return toolOk({ received: true });
}
