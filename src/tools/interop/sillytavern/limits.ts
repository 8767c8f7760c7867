// Bounds of SillyTavern imports. A card or lorebook is a stranger's file, so each size and count is capped
// before the work it would drive. Each has a test at the limit and just past it
// (test/tools/interop/sillytavern/limits.test.ts).

const MIB = 1024 * 1024;

/** Bytes of one imported file (PNG, APNG, JSON or CHARX). Real cards are under 5 MiB. */
export const MAX_IMPORT_FILE_BYTES = 16 * MIB;
/** Chunks in one PNG. */
export const MAX_PNG_CHUNKS = 10_000;
/** Bytes of one `chara`/`ccv3` text chunk (RisuAI's cap). */
export const MAX_CARD_CHUNK_BYTES = 5 * MIB;
/** Characters of a card's or lorebook's JSON text. */
export const MAX_CARD_JSON_CHARS = 8 * MIB;
/** Characters of one card text field (description, first message, …). */
export const MAX_CARD_FIELD_CHARS = 200_000;
/** Alternate greetings kept from one card. */
export const MAX_ALTERNATE_GREETINGS = 100;
