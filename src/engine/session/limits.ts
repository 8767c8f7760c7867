// Bounds of the session layer. Each has a test at the limit and just past it (test/engine/session/limits.test.ts).

/** Turns of history hydrated for a turn's prompt (the turn engine keeps fewer of them; this bounds the read). */
export const TURN_HISTORY_WINDOW = 24;
/** Largest seed the session layer draws for a turn (48 bits: exact in JSON and in PostgreSQL BIGINT). */
export const MAX_DRAWN_SEED = 2 ** 48 - 1;
/** Loaded cartridges kept in memory per process (by content hash and persona); least recently used go first. */
export const CARTRIDGE_CACHE_SIZE = 64;
/**
 * Sessions one principal (API key) may keep: creating one more is refused until one is deleted. The server
 * lets the operator change it (MNESOS_MAX_SESSIONS).
 */
export const MAX_SESSIONS_PER_PRINCIPAL = 1_000;
/** Characters of an author-mode event name. */
export const MAX_EVENT_NAME_CHARS = 100;
/**
 * Milliseconds a turn request waits for another request's turn with the same Idempotency-Key to be stored
 * (longer than the server's turn timeout, so a live winner always finishes first).
 */
export const IDEMPOTENCY_WAIT_MS = 130_000;
/**
 * Milliseconds after which a claim on an Idempotency-Key whose turn never finished is taken over whoever
 * holds it: the backstop behind the owner's lease (below), for a holder whose heartbeat goes on but whose
 * claim was never given back.
 */
export const CLAIM_STALE_MS = 150_000;
/**
 * Milliseconds of silence after which a claiming process counts as gone and its claims are taken over (a
 * replica killed mid-turn): the wait a retry with the same key may have after a crash. Replicas' clocks
 * must agree to well within it.
 */
export const CLAIM_LEASE_MS = 6_000;
/** Milliseconds between a claiming process's heartbeats while it holds claims (a quarter of the lease). */
export const CLAIM_HEARTBEAT_MS = 1_500;
/** Milliseconds after which a silent claiming process's row is removed (by the next process to register). */
export const CLAIM_OWNER_PRUNE_MS = 24 * 60 * 60 * 1_000;
/** Worlds kept in memory per process, by turn id (a session's head is the one its next turn needs). */
export const WORLD_CACHE_SIZE = 256;
/**
 * A branch begins a world snapshot once the ledger events written on it since the last one began reach
 * 1/SNAPSHOT_REPLAY_RATIO of that snapshot's size (and at least MIN_SNAPSHOT_EVENT_CHARS), and stores it
 * a few pieces a turn over about as many turns as that took (see world-cache.ts). Snapshot storage stays
 * at about SNAPSHOT_REPLAY_RATIO × the events' own size per turn however big the world grows, and a cold
 * read, which finds the last complete snapshot, folds at most 2/SNAPSHOT_REPLAY_RATIO of the world's size
 * in events onto it (half: a fold costs about three times a parse per character).
 */
export const SNAPSHOT_REPLAY_RATIO = 4;
/**
 * Turns between two snapshots on a branch, at most, whatever the events: a branch of turns that record
 * nothing (offline play) still gets a snapshot now and then, so a cold read never walks a whole branch.
 * A big world raises the bound to its snapshot's characters / SNAPSHOT_CHARS_PER_WALKED_TURN: a cold read
 * parses the snapshot anyway, and walking a turn costs about as much as parsing a few dozen characters, so
 * the walk stays a fraction of the read while the snapshots of a big, slowly changing world stay rare.
 */
export const MAX_TURNS_BETWEEN_SNAPSHOTS = 1_000;
/** See MAX_TURNS_BETWEEN_SNAPSHOTS. */
export const SNAPSHOT_CHARS_PER_WALKED_TURN = 100;
/** Characters of ledger events between two snapshots on a branch, at least. */
export const MIN_SNAPSHOT_EVENT_CHARS = 16 * 1024;
