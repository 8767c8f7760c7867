// Bounds of the session layer. Each has a test at the limit and just past it (test/session/limits.test.ts).

/** Turns of history hydrated for a turn's prompt (the turn engine keeps fewer of them; this bounds the read). */
export const TURN_HISTORY_WINDOW = 24;
/** Largest seed the session layer draws for a turn (48 bits: exact in JSON and in PostgreSQL BIGINT). */
export const MAX_DRAWN_SEED = 2 ** 48 - 1;
/** Loaded cartridges kept in memory per process (by content hash and persona); least recently used go first. */
export const CARTRIDGE_CACHE_SIZE = 64;
/** Characters of an author-mode event name. */
export const MAX_EVENT_NAME_CHARS = 100;
