// The bounds of `mnesos mcp` (docs/agents.md, Limits): every argument a tool takes is bounded here, or by the
// engine's own limit it names, so an agent's call is bounded like any request. Each has a test at the limit
// and just past it (test/apps/mcp/limits.test.ts).

/** Characters of a cartridge argument (a shipped cartridge's name or a folder path). */
export const MAX_CARTRIDGE_ARG_CHARS = 1_024;
/** Characters of a session id, a turn id or a session title. */
export const MAX_ID_CHARS = 200;
/** Keys of an event's `inputs` object. */
export const MAX_EVENT_INPUTS = 64;
/** Characters of a state given as JSON (`state` of run_event, eval_expression, lore_lookup, explore_cartridge). */
export const MAX_STATE_JSON_CHARS = 256 * 1024;
/** Characters of a lore_lookup text (the CLI's `lore` looks up the first 500 of them too). */
export const MAX_LORE_TEXT_CHARS = 500;
/** Characters of an idea or a problem description given to a prompt. */
export const MAX_PROMPT_ARG_CHARS = 8_000;
/** Cartridges list_cartridges returns at most (shipped and found in the allowed folders). */
export const MAX_LISTED_CARTRIDGES = 200;
/** Folder entries list_cartridges reads under each allowed folder (two levels deep) before it stops. */
export const MAX_LISTED_ENTRIES = 2_000;
/** Entities, facts, relationships or threads one ledger_query answer lists per table. */
export const MAX_LEDGER_ROWS = 200;
/** Characters of one text answer of a tool: longer answers are cut with a line saying so. */
export const MAX_TOOL_TEXT_CHARS = 64 * 1024;
/** Folders `mnesos mcp --folder` may allow. */
export const MAX_ALLOWED_FOLDERS = 32;
/** Bytes of one JSON-RPC line on stdio: a longer line is refused without being held whole. */
export const MAX_STDIO_LINE_BYTES = 1024 * 1024;
/** Milliseconds a play_turn may run over stdio before it is abandoned, nothing committed (the server's default). */
export const MCP_TURN_TIMEOUT_MS = 120_000;
