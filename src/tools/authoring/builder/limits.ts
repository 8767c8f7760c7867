// The bounds of the AI generator: every loop a model can drive has a budget, and nothing a model sends is
// kept unbounded. Each has a test at the limit and just past it (test/tools/authoring/builder/generate.test.ts).

/** Repair rounds after the first draft, by default (the original retried 3 times). */
export const DEFAULT_REPAIR_ROUNDS = 3;
/** Repair rounds a caller may ask for. */
export const MAX_REPAIR_ROUNDS = 8;
/** Characters of one model answer that are read; a longer answer is refused (a runaway model). */
export const MAX_ANSWER_CHARS = 600_000;
/** Characters of the plain-English requirements. */
export const MAX_REQUIREMENTS_CHARS = 8_000;
/** Checker findings sent back to the model per round (the first ones point at the cause). */
export const MAX_ERRORS_SENT = 20;
/** Characters of a model answer kept in the transcript per round (the files themselves are kept whole). */
export const MAX_TRANSCRIPT_ANSWER_CHARS = 100_000;
/**
 * Checker findings listed per round in the transcript, and per list in the server's stream events (their
 * counts are given whole): a model can write a draft with thousands of errors.
 */
export const MAX_LISTED_FINDINGS = 100;
/** Output tokens asked of the model per round: four files of a small cartridge fit easily. */
export const GENERATE_MAX_OUTPUT_TOKENS = 16_000;
/** Playthroughs the builder's Explore pane may ask for (the command allows more; the server shares its CPU). */
export const MAX_BUILDER_EXPLORE_RUNS = 200;
/** Steps per playthrough the Explore pane may ask for. */
export const MAX_BUILDER_EXPLORE_DEPTH = 50;
/** Milliseconds of play one Explore request may use before it reports what it reached (stopped early). */
export const BUILDER_EXPLORE_MS = 5_000;
