// Bounds of the scenario runner: a cartridge's test files drive every loop here.

/** Seeds one property may try (`seeds: [1, 200]` is 200). */
export const MAX_PROPERTY_SEEDS = 10_000;
/** Steps in one scenario or property. */
export const MAX_SCENARIO_STEPS = 500;
/** Scenarios and properties in one file. */
export const MAX_SCENARIOS_PER_FILE = 500;
/** Scenario files in one cartridge's tests/ folder. */
export const MAX_SCENARIO_FILES = 200;
/** Bytes of one scenario file or save. */
export const MAX_SCENARIO_FILE_BYTES = 1024 * 1024;
/** Lines of a transcript diff shown before the rest is summarised. */
export const MAX_DIFF_LINES_SHOWN = 60;
/** Lines compared by the transcript diff; longer transcripts are compared line by line without alignment. */
export const MAX_DIFF_LINES = 2_000;
