// The turns the play screen has read, by id: turns are immutable, so each is read once, and the cache of a
// session outlives the play screen (reopening a game reads only what changed). A story opens from its
// newest turns (OPEN_TURNS, one request) and older ones are read a page at a time as the player scrolls up.

import type { TurnView } from '../../contract/index.ts';
import type { PlayApi } from './play-api.ts';

/** Turns read when a story opens: enough to fill a tall screen, few enough to draw at once. */
export const OPEN_TURNS = 40;
/** Turns read (and drawn) each time the player scrolls up to the oldest one shown. */
export const OLDER_PAGE_TURNS = 40;
/** Sessions whose turns are kept when the play screen closes (the most recently opened ones). */
export const KEPT_SESSIONS = 4;

/** The server's HISTORY_MAX_TURNS (apps/server/limits.ts): a history page's most turns. */
const HISTORY_PAGE_MAX = 500;

const kept = new Map<string, Map<string, TurnView>>();

/** The turns already read of a session: the same Map each time the session's play screen opens. */
export function sessionTurns(sessionId: string): Map<string, TurnView> {
  const cache = kept.get(sessionId) ?? new Map<string, TurnView>();
  // Most recently used last, so the first key is the one to drop.
  kept.delete(sessionId);
  kept.set(sessionId, cache);
  for (const oldest of kept.keys()) {
    if (kept.size <= KEPT_SESSIONS) break;
    kept.delete(oldest);
  }
  return cache;
}

/**
 * Reads into `cache` the newest `want` turns of `ids` (a branch, oldest first) it does not hold yet: one
 * request when one is missing (`GET …/turns/:id`), else history pages, newest first, of just what is missing
 * (`GET …/history?limit=`, at most the server's HISTORY_MAX_TURNS a page).
 */
export async function readBranchEnd(
  api: PlayApi,
  sessionId: string,
  cache: Map<string, TurnView>,
  ids: readonly string[],
  want: number,
): Promise<void> {
  const wanted = ids.slice(Math.max(0, ids.length - want));
  for (let guard = 0; guard <= wanted.length; guard++) {
    const missing = wanted.filter((id) => !cache.has(id));
    const last = missing[missing.length - 1];
    if (last === undefined) return;
    if (missing.length === 1) {
      cache.set(last, await api.turn(sessionId, last));
      return;
    }
    // From the newest missing turn back to the oldest wanted one.
    const span = Math.min(wanted.indexOf(last) + 1, HISTORY_PAGE_MAX);
    const { turns, complete } = await api.history(sessionId, last, span);
    for (const t of turns) cache.set(t.id, t);
    if (complete || turns.length === 0) return;
  }
}
