// Bounds of a shared table. Each has a test at the limit and just past it (test/apps/server/table-limits.test.ts,
// test/engine/session/table-queue.test.ts); the server lets the operator change the counted ones.

/** Members of one table, its owner included (MNESOS_MAX_TABLE_MEMBERS). */
export const MAX_TABLE_MEMBERS = 8;
/** Invitations of one table usable at once (open, not expired, uses left). */
export const MAX_TABLE_INVITES = 20;
/** How long an invitation lives when its owner says nothing (seven days). */
export const DEFAULT_INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1_000;
/** The longest an invitation may live (thirty days). */
export const MAX_INVITE_TTL_MS = 30 * 24 * 60 * 60 * 1_000;
/** The shortest an invitation may live (one minute). */
export const MIN_INVITE_TTL_MS = 60 * 1_000;
/** Uses one invitation may allow at most. */
export const MAX_INVITE_USES = 100;
/** Turn requests of one table waiting in free order at once (the one playing included). */
export const MAX_QUEUED_TURNS = 16;
/** Live events of one table kept for members catching up (older ones: the stream starts over). */
export const TABLE_EVENTS_KEPT = 500;
/** Characters of a character name shown at the table. */
export const MAX_MEMBER_NAME_CHARS = 60;
