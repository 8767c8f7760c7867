// Bounds of World Info. A lorebook comes from a stranger's card, so every loop it can drive is bounded.
// Each has a test at the limit and just past it (test/tools/interop/sillytavern/limits.test.ts,
// test/tools/interop/sillytavern/world-info-limits.test.ts).

/** Bytes of a cartridge's `world_info.json`. */
export const MAX_WORLD_INFO_BYTES = 4 * 1024 * 1024;
/** Entries in one book. */
export const MAX_WI_ENTRIES = 2_000;
/** Keys (primary + secondary) of one entry. */
export const MAX_WI_KEYS_PER_ENTRY = 100;
/** Characters of one key. */
export const MAX_WI_KEY_CHARS = 300;
/** Characters of one entry's content. */
export const MAX_WI_CONTENT_CHARS = 50_000;
/** Characters of a `/regex/flags` key's pattern (see world-info-regex.ts for the whole policy). */
export const MAX_WI_REGEX_CHARS = 200;
/**
 * Characters a regex key runs against: the newest part of the messages, and of each recursion pass's new
 * content. RE2 reads each character once per live automaton state (world-info-regex.ts).
 */
export const MAX_WI_REGEX_TEXT_CHARS = 2_000;
/** Regex tests in one activation (each key on each piece of text at most once); past it regex keys do not match. */
export const MAX_WI_REGEX_TESTS = 100;
/** `/regex/` keys in one book (compiling one costs up to about 2 ms: a book's worth is bounded at import). */
export const MAX_WI_REGEX_KEYS = 500;
/** Instructions of one regex key's compiled automaton (RE2's program); a bigger pattern is refused. */
export const MAX_WI_REGEX_INSTRUCTIONS = 1_000;
/**
 * Regex work in one activation: each test costs its automaton's instructions × the characters it reads
 * (RE2's worst case is proportional to that product); past it regex keys do not match. About a quarter
 * of a second at worst (bench/world-info.ts), a few hundred tests of ordinary keys.
 */
export const MAX_WI_REGEX_WORK = 5_000_000;
/** Characters of the scan text (messages and recursion buffer) the plain keys run against. */
export const MAX_WI_SCAN_CHARS = 100_000;
/**
 * Characters the plain-key searches of one activation may read (each distinct key on each piece of text
 * once, memoised): a tenth of a second or so; past it plain keys that need a search do not match, and the
 * decisions say so. Whole-word keys of ASCII word characters are set lookups and cost nothing here.
 */
export const MAX_WI_SCAN_WORK = 200_000_000;
/** Messages an entry or book may scan (SillyTavern's own maximum). */
export const MAX_WI_SCAN_DEPTH = 1_000;
/** Recursion passes of one activation. */
export const MAX_WI_RECURSION_STEPS = 10;
/** Token budget of one activation. */
export const MAX_WI_TOKEN_BUDGET = 32_000;
/** Default budget when the book sets none (SillyTavern uses 25% of the context). */
export const DEFAULT_WI_TOKEN_BUDGET = 2_000;
/** SillyTavern's default scan depth. */
export const DEFAULT_WI_SCAN_DEPTH = 2;
/** `depth`, `sticky`, `cooldown` and `delay` values. */
export const MAX_WI_MESSAGES_SETTING = 10_000;
/** Timed effects (sticky + cooldown) kept in a session's state. */
export const MAX_WI_TIMED_EFFECTS = 100;
