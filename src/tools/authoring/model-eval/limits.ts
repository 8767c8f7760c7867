// Limits of `mnesos model-eval`: a suite is author input, so its size is bounded before anything runs.

/** Largest suite file read. */
export const MAX_SUITE_FILE_BYTES = 1_048_576;
/** Most cases in one run (a suite file's, or the cartridge's generated suite). */
export const MAX_EVAL_CASES = 2_000;
/** Longest player line of a case (the turn's own limit, MAX_INPUT_CHARS, applies too). */
export const MAX_CASE_INPUT_CHARS = 4_000;
/** Most history messages of one case. */
export const MAX_CASE_HISTORY = 50;
