// What a player is told when their action joins a round (the turn route's 202, docs/multiplayer.md): the
// round plays as one turn once everyone has acted or the owner closes it, so nothing is played yet.

import type { z } from 'zod/mini';
import type { roundSubmittedResponse } from '../../contract/index.ts';

export type RoundKept = z.infer<typeof roundSubmittedResponse>['submitted'];

/** The reply shown beside the input: the round, and whom it still waits for (by character). */
export function roundKeptText(kept: RoundKept): string {
  const waiting = kept.waiting;
  const until =
    waiting.length === 0
      ? 'it plays when the round is closed'
      : `it plays when ${waiting.join(', ')} ${waiting.length === 1 ? 'has' : 'have'} acted, or the round is closed`;
  return `Your action is in for round ${kept.round}; ${until}.`;
}
