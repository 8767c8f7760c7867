// Every bound the store enforces, in one place. Each has a test at the limit and just past it.
// The store is the last line of defence: the server and session layers have tighter, user-facing limits;
// these only stop a bug or a hostile caller from writing rows that would make hydration slow or huge.

/** UTF-8 bytes of a turn's game-state snapshot (JSON text). */
export const MAX_STATE_BYTES = 2 * 1024 * 1024;
/** UTF-8 bytes of a turn's `TurnRecord` (JSON text). */
export const MAX_RECORD_BYTES = 2 * 1024 * 1024;
/** UTF-8 bytes of a turn's player input (JSON text: a string or an interaction object). */
export const MAX_INPUT_BYTES = 64 * 1024;
/** UTF-8 bytes of a turn's narration. */
export const MAX_NARRATION_BYTES = 256 * 1024;
/** World-ledger events recorded by one turn. */
export const MAX_LEDGER_EVENTS_PER_TURN = 1_000;
/** UTF-8 bytes of one world-ledger event (JSON text). */
export const MAX_LEDGER_EVENT_BYTES = 16 * 1024;
/** UTF-8 bytes of a cartridge version's files (JSON text). */
export const MAX_CARTRIDGE_BYTES = 16 * 1024 * 1024;
/** UTF-8 bytes of a persona's data (JSON text). */
export const MAX_PERSONA_BYTES = 64 * 1024;
/** Characters of a name: cartridge, persona, principal, session title, save name, API key label. */
export const MAX_NAME_LENGTH = 200;
/** Characters of an `Idempotency-Key`. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;
/** Turns whose messages `hydrate` returns when the caller does not ask for a window. */
export const DEFAULT_MESSAGE_WINDOW = 50;
/** Largest message window `hydrate` accepts; the whole branch is `getLineage`. */
export const MAX_MESSAGE_WINDOW = 1_000;
/** UTF-8 bytes of a principal's model settings (JSON text). */
export const MAX_SETTINGS_BYTES = 16 * 1024;
/** Turns `getBranch` returns at most (the newest ones of the branch). */
export const MAX_BRANCH_TURNS = 1_000;
/** Characters of turn content (state, record, input, narration) `getBranch` may read in one call. */
export const MAX_BRANCH_CHARS = 64 * 1024 * 1024;
/** UTF-8 bytes of one stored world snapshot (JSON text of a ledger World). */
export const MAX_WORLD_SNAPSHOT_BYTES = 64 * 1024 * 1024;
/** UTF-8 bytes of one stored piece of a world snapshot (see snapshot-pieces.ts). */
export const MAX_SNAPSHOT_PIECE_BYTES = 64 * 1024;
/** Pieces of one world snapshot: MAX_WORLD_SNAPSHOT_BYTES in pieces of 16 Ki characters. */
export const MAX_SNAPSHOT_PIECES = 4_096;
/** Turns of ledger events one `getLedgerPage` call returns at most. */
export const MAX_LEDGER_PAGE_TURNS = 1_000;
/** Characters of the story-clock stamp stored with a turn's ledger events (an ISO date-time is 20–30). */
export const MAX_LEDGER_GAME_TIME_CHARS = 64;
/** Sessions one `listSessions` page returns at most. */
export const MAX_SESSION_PAGE = 1_000;
/** Turns one `locateTurns` call looks up at most. */
export const MAX_LOCATED_TURNS = 2_000;
/** Rebased turns one append stores before its turn (or alone, `appendRebased`) at most. */
export const MAX_REBASED_PER_APPEND = 1_000;
