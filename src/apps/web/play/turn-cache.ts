// The turns the play screen has read, by id: turns are immutable, so each is read once. A branch's missing
// turns come in one request when one is missing (`GET …/turns/:id`), else in history pages of at most the
// server's HISTORY_MAX_TURNS (500) turns, newest first.

import type { TurnView } from '../../contract/index.ts';
import type { PlayApi } from './play-api.ts';

/**
 * History pages read for one branch: each is one request of at most the server's HISTORY_MAX_TURNS (500)
 * turns, so a story of up to 10,000 turns loads whole; older turns of a longer one stay out of view.
 */
export const MAX_HISTORY_PAGES = 20;

/** Reads into `cache` the turns of `ids` (a branch, oldest first) it does not hold yet. */
export async function readBranch(
  api: PlayApi,
  sessionId: string,
  cache: Map<string, TurnView>,
  ids: readonly string[],
): Promise<void> {
  const missing = ids.filter((id) => !cache.has(id));
  const last = missing[missing.length - 1];
  if (last === undefined) return;
  if (missing.length === 1) {
    cache.set(last, await api.turn(sessionId, last));
    return;
  }
  // One request per page of the branch, newest first, until every missing turn is cached.
  let from: string | null = last;
  for (let page = 0; from !== null && page < MAX_HISTORY_PAGES; page++) {
    const { turns, complete } = await api.history(sessionId, from);
    for (const t of turns) cache.set(t.id, t);
    if (complete || missing.every((id) => cache.has(id))) break;
    from = turns[0]?.parentId ?? null;
  }
}
