// The bounds of one exploration: every loop the explorer runs (runs, steps, shrinking replays, lore probes)
// has one, so a cartridge, a request or a command line cannot make it run without end.

/** Random playthroughs per exploration (`--runs`). */
export const MAX_EXPLORE_RUNS = 10_000;
/** Steps (events, mini-game results, waits) per playthrough (`--depth`). */
export const MAX_EXPLORE_DEPTH = 1_000;
/** The largest `--seed`, and the largest seed a step draws (a scenario step's `seed:` takes it). */
export const MAX_EXPLORE_SEED = 0x7fff_ffff;
export const DEFAULT_EXPLORE_RUNS = 100;
export const DEFAULT_EXPLORE_DEPTH = 30;
/** Replays the shrinking of one violation may use (each replays a candidate sequence from the start). */
export const MAX_SHRINK_REPLAYS = 400;
/** Distinct violations kept (and shrunk); more are counted, not kept. */
export const MAX_VIOLATIONS = 50;
/** Distinct notes the lore and World Info coverage probes with (each note is one lookup). */
export const MAX_LORE_PROBES = 400;
/** Characters of a note used as a lore query. */
export const MAX_PROBE_CHARS = 200;
/** One in this many steps is a wait (when the engine keeps the clock): time passes, cycle ticks run. */
export const WAIT_ONE_IN = 60;
