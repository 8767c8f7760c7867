// Every bound of a turn, in one place. The configurable ones (`TurnLimits`) have a named default and a
// named ceiling; the rest are fixed. Each has a test at the limit and just past it (test/turn/limits.test.ts).

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

/** Characters of the player's input. */
export const MAX_INPUT_CHARS = 4_000;

/** Tool calls run from one Director response; later ones get an error result. */
export const MAX_TOOL_CALLS_PER_ROUND = 8;
/** Characters of one tool call's raw argument JSON. */
export const MAX_TOOL_ARGS_CHARS = 16_000;
/** Characters of any string inside tool arguments. */
export const MAX_TOOL_STRING_CHARS = 2_000;
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

/** Characters in players' mini-game payloads: `minigame_id`, each metric key and string value. */
export const MAX_INTERACTION_STRING_CHARS = 200;
/** Keys of `metrics` and, recursively, items of `data` in a mini-game payload. */
export const MAX_INTERACTION_ITEMS = 50;
/** Nesting depth of a mini-game payload's `data`. */
export const MAX_INTERACTION_DEPTH = 4;

/** NPCs the Director may name in one `query_npc_intent`. */
export const MAX_PRESENT_NPCS = 16;
/** Tags one NPC may carry in a query. */
export const MAX_NPC_TAGS = 8;
/** Story messages the NPC brain may see (the original's 10). */
export const MAX_NPC_HISTORY_TURNS = 10;
/** Characters of each field of one NPC intent (dialogue, action, monologue). */
export const MAX_NPC_FIELD_CHARS = 2_000;

/** The seed must be a non-negative safe integer (the dice generator's domain). */
export const MAX_SEED = Number.MAX_SAFE_INTEGER;
