// Every bound of a turn, in one place. The configurable ones (`TurnLimits`) have a named default and a
// named ceiling; the rest are fixed. Each has a test at the limit and just past it (test/engine/turn/limits.test.ts).

import { DEFAULT_SUMMARY_TOKEN_BUDGET } from '../../core/ledger/index.ts';
import { MAX_LORE_K, MAX_LORE_TOKEN_BUDGET } from '../../core/lore/index.ts';

/** Director model calls per turn. Every call's tool calls are run; after the last one the turn goes on. */
export const DEFAULT_MAX_TOOL_ROUNDS = 5;
export const MAX_TOOL_ROUNDS_LIMIT = 20;

/** `query_npc_intent` calls that reach the NPC model, per turn (the original's 3). */
export const DEFAULT_MAX_NPC_QUERIES = 3;
export const MAX_NPC_QUERIES_LIMIT = 10;

/** Recent story messages (player and narrator) shown to the Director and the Narrator. */
export const DEFAULT_HISTORY_MESSAGES = 12;
export const MAX_HISTORY_MESSAGES_LIMIT = 200;

/** Estimated prompt tokens per role (system text, tool schemas and history together). */
export const DEFAULT_DIRECTOR_PROMPT_TOKENS = 8_000;
export const DEFAULT_NARRATOR_PROMPT_TOKENS = 6_000;
export const DEFAULT_NPC_PROMPT_TOKENS = 3_000;
export const MIN_PROMPT_TOKENS = 500;
export const MAX_PROMPT_TOKENS = 200_000;

/** Lore chunks per query and the estimated tokens one `lore_lookup` may return. */
export const DEFAULT_LORE_K = 3;
export const DEFAULT_LORE_TOKEN_BUDGET = 1_200;

/** Estimated tokens of the world-ledger summary in the Director and Narrator prompts (0: no summary). */
export const DEFAULT_WORLD_SUMMARY_TOKENS = DEFAULT_SUMMARY_TOKEN_BUDGET;
export const MAX_WORLD_SUMMARY_TOKENS_LIMIT = 8_000;

/**
 * Repair calls after a rejected world-ledger batch: the model gets the errors and sends
 * the events again, at most this many times; then the turn keeps its narration and is `unledgered`.
 */
export const MAX_LEDGER_REPAIRS = 2;
/** Characters of a ledger tool call's raw arguments kept in the record's audit trail (the rest is cut). */
export const MAX_LEDGER_AUDIT_CHARS = 4_000;

/** Characters of the player's input. */
export const MAX_INPUT_CHARS = 4_000;

/** Tool calls run from one Director response; later ones are dropped (unrun, unrecorded) with a warning. */
export const MAX_TOOL_CALLS_PER_ROUND = 8;
/** Tool calls run in one turn, all rounds together; past it the Director's calls are dropped and it stops. */
export const MAX_TOOL_CALLS_PER_TURN = 24;
/** Characters of one tool call's raw argument JSON. */
export const MAX_TOOL_ARGS_CHARS = 16_000;
/** Characters of any string inside tool arguments. */
export const MAX_TOOL_STRING_CHARS = 2_000;
/**
 * `maxLength` of an event's string input without an enum, in the schema the Director is sent: a model (and a
 * constrained decoder) cannot loop inside such a string past it, and the validator refuses a longer one.
 */
export const MAX_EVENT_STRING_CHARS = 500;
/** Nesting depth of tool arguments (`{a:[{}]}` has depth 3). */
export const MAX_TOOL_ARGS_DEPTH = 6;
/** Items in one array or keys in one object inside tool arguments. */
export const MAX_TOOL_ARGS_ITEMS = 100;
/** Characters of a tool result sent back to the Director (longer results are cut, saying so). */
export const MAX_TOOL_RESULT_CHARS = 8_000;

/** Characters of the Director's scene directives passed to the Narrator. */
export const MAX_DIRECTIVES_CHARS = 8_000;
/** Characters of narration kept from the Narrator's stream; the stream is stopped past it. */
export const MAX_NARRATION_CHARS = 20_000;

/** In-game time one turn may advance (all durations of the turn together): a year and a day. */
export const MAX_TIME_ADVANCE_SECONDS = 366 * 24 * 3600;

/** Characters of a mini-game payload's `minigame_id` and of each metric key and string value (the rest of
 * the payload is bounded like tool arguments). */
export const MAX_INTERACTION_STRING_CHARS = 200;

/** NPCs the Director may name in one `query_npc_intent`. */
export const MAX_PRESENT_NPCS = 16;
/** Tags one NPC may carry in a query. */
export const MAX_NPC_TAGS = 8;
/** Story messages the NPC brain may see (the original's 10). */
export const MAX_NPC_HISTORY_TURNS = 10;
/** Characters of each field of one NPC intent (dialogue, action, monologue). */
export const MAX_NPC_FIELD_CHARS = 2_000;

/**
 * Rule steps all the rule runs of one turn may execute together (cycle ticks, Director tools, the
 * mini-game resolver). Each run also stops at MAX_STEPS_PER_RUN; a run past what is left of the turn's
 * budget fails with TURN_RULE_BUDGET and changes nothing, and so does every later run of the turn.
 */
export const DEFAULT_MAX_RULE_STEPS = 200_000;
export const MAX_RULE_STEPS_LIMIT = 10_000_000;
/**
 * Milliseconds all the rule runs of one turn may take together, their own CPU time on the turn's compute
 * clock (then YARE_TIME_LIMIT): waiting for a model, and the turn's other parts, do not count.
 */
export const DEFAULT_MAX_RULE_MS = 1_000;
export const MAX_RULE_MS_LIMIT = 60_000;

/**
 * The turn's one compute budget (src/core/turn-budget.ts): steps and milliseconds of computing of every part
 * of a turn together — World Info key tests, lore lookups and the lore index, prompt assembly, the rule runs
 * (their steps), the offline matcher and narration — on the compute clock (the process's CPU time). Model
 * calls are not computing and do not count. Past
 * either limit the turn ends with TurnError `budget` naming the part, and nothing is saved (HTTP 422).
 */
export const DEFAULT_MAX_TURN_STEPS = 5_000_000;
export const MAX_TURN_STEPS_LIMIT = 50_000_000;
export const DEFAULT_MAX_TURN_MS = 2_000;
export const MAX_TURN_MS_LIMIT = 60_000;
/**
 * Milliseconds a turn computes before it gives the event loop back (the turn's slice): other sessions'
 * requests, `/healthz` included, wait at most about this long for one turn (docs/deploy.md).
 */
export const TURN_SLICE_MS = 10;

/** The seed must be a non-negative safe integer (the dice generator's domain). */
export const MAX_SEED = Number.MAX_SAFE_INTEGER;

/** The limits a caller may change per turn (`runTurn({limits})`); anything left out takes its default. */
export interface TurnLimits {
  readonly maxToolRounds: number;
  readonly maxNpcQueries: number;
  readonly historyMessages: number;
  readonly directorPromptTokens: number;
  readonly narratorPromptTokens: number;
  readonly npcPromptTokens: number;
  readonly loreK: number;
  readonly loreTokenBudget: number;
  readonly worldSummaryTokens: number;
  readonly maxRuleSteps: number;
  readonly maxRuleMs: number;
  readonly maxTurnSteps: number;
  readonly maxTurnMs: number;
}

export const DEFAULT_TURN_LIMITS: TurnLimits = Object.freeze({
  maxToolRounds: DEFAULT_MAX_TOOL_ROUNDS,
  maxNpcQueries: DEFAULT_MAX_NPC_QUERIES,
  historyMessages: DEFAULT_HISTORY_MESSAGES,
  directorPromptTokens: DEFAULT_DIRECTOR_PROMPT_TOKENS,
  narratorPromptTokens: DEFAULT_NARRATOR_PROMPT_TOKENS,
  npcPromptTokens: DEFAULT_NPC_PROMPT_TOKENS,
  loreK: DEFAULT_LORE_K,
  loreTokenBudget: DEFAULT_LORE_TOKEN_BUDGET,
  worldSummaryTokens: DEFAULT_WORLD_SUMMARY_TOKENS,
  maxRuleSteps: DEFAULT_MAX_RULE_STEPS,
  maxRuleMs: DEFAULT_MAX_RULE_MS,
  maxTurnSteps: DEFAULT_MAX_TURN_STEPS,
  maxTurnMs: DEFAULT_MAX_TURN_MS,
});

interface Range {
  readonly min: number;
  readonly max: number;
  readonly limitName: string;
}

const RANGES: Readonly<Record<keyof TurnLimits, Range>> = {
  maxToolRounds: { min: 1, max: MAX_TOOL_ROUNDS_LIMIT, limitName: 'MAX_TOOL_ROUNDS_LIMIT' },
  maxNpcQueries: { min: 0, max: MAX_NPC_QUERIES_LIMIT, limitName: 'MAX_NPC_QUERIES_LIMIT' },
  historyMessages: { min: 0, max: MAX_HISTORY_MESSAGES_LIMIT, limitName: 'MAX_HISTORY_MESSAGES_LIMIT' },
  directorPromptTokens: { min: MIN_PROMPT_TOKENS, max: MAX_PROMPT_TOKENS, limitName: 'MAX_PROMPT_TOKENS' },
  narratorPromptTokens: { min: MIN_PROMPT_TOKENS, max: MAX_PROMPT_TOKENS, limitName: 'MAX_PROMPT_TOKENS' },
  npcPromptTokens: { min: MIN_PROMPT_TOKENS, max: MAX_PROMPT_TOKENS, limitName: 'MAX_PROMPT_TOKENS' },
  loreK: { min: 1, max: MAX_LORE_K, limitName: 'MAX_LORE_K' },
  loreTokenBudget: { min: 0, max: MAX_LORE_TOKEN_BUDGET, limitName: 'MAX_LORE_TOKEN_BUDGET' },
  worldSummaryTokens: {
    min: 0,
    max: MAX_WORLD_SUMMARY_TOKENS_LIMIT,
    limitName: 'MAX_WORLD_SUMMARY_TOKENS_LIMIT',
  },
  maxRuleSteps: { min: 0, max: MAX_RULE_STEPS_LIMIT, limitName: 'MAX_RULE_STEPS_LIMIT' },
  maxRuleMs: { min: 1, max: MAX_RULE_MS_LIMIT, limitName: 'MAX_RULE_MS_LIMIT' },
  maxTurnSteps: { min: 0, max: MAX_TURN_STEPS_LIMIT, limitName: 'MAX_TURN_STEPS_LIMIT' },
  maxTurnMs: { min: 1, max: MAX_TURN_MS_LIMIT, limitName: 'MAX_TURN_MS_LIMIT' },
};

/** Fills in defaults and checks ranges; a value out of range is an error naming the option and the limit. */
export function resolveTurnLimits(
  given: Partial<TurnLimits> | undefined,
): TurnLimits | { readonly error: string } {
  const out: Record<string, number> = { ...DEFAULT_TURN_LIMITS };
  for (const key of Object.keys(given ?? {})) {
    if (!Object.hasOwn(RANGES, key)) {
      return { error: `limits.${key} is not a turn limit (known: ${Object.keys(RANGES).join(', ')})` };
    }
    const value = (given as Record<string, unknown>)[key];
    if (value === undefined) continue;
    const range = RANGES[key as keyof TurnLimits];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < range.min || value > range.max) {
      return {
        error: `limits.${key} must be an integer from ${range.min} to ${range.max} (${range.limitName}), got ${String(value)}`,
      };
    }
    out[key] = value;
  }
  return out as unknown as TurnLimits;
}
