// The `time` of a `record_world_changes` call (the seed's `advance_time` / `set_game_time`), checked with
// the same game-time code as the Director's durations. Both kinds become seconds added to the turn's one
// clock advance, so the total is bounded by MAX_TIME_ADVANCE_SECONDS, the clock keeps its written style,
// and replay (which re-applies `record.time.advancedSeconds`) needs nothing new. A `set` is the distance
// from the clock after the Director to the time given; the clock never goes back.

import type { TimeChange } from '../../../core/ledger/index.ts';
import type { TurnContext } from '../context.ts';
import { checkAdvance, currentGameTime, DEFAULT_GAME_TIME, parseGameTime } from '../game-time.ts';
import { MAX_TIME_ADVANCE_SECONDS } from '../limits.ts';
import type { LedgerIssue } from '../types.ts';

export type TimePlan =
  /** `seconds` more to add to the turn's advance; `warning` when a time was given and ignored. */
  | { readonly ok: true; readonly seconds: number; readonly warning?: string }
  | { readonly ok: false; readonly error: LedgerIssue };

function bad(message: string): TimePlan {
  return { ok: false, error: { index: -1, code: 'LEDGER_BAD_TIME', field: 'time', message } };
}

/** How many seconds the Narrator's `time` adds to this turn, or why it cannot. */
export function planLedgerTime(ctx: TurnContext, time: TimeChange | null): TimePlan {
  if (time === null) return { ok: true, seconds: 0 };
  if (ctx.clock === 'cartridge') {
    // The cartridge moves its own game_time with its own events; the tool did not offer `time` at all.
    return {
      ok: true,
      seconds: 0,
      warning: 'record_world_changes gave a time, but this cartridge keeps its own game_time; it was ignored',
    };
  }
  let seconds: number;
  if (time.kind === 'advance') {
    seconds = time.seconds;
  } else {
    const now = currentGameTime(ctx.state, ctx.clock) ?? DEFAULT_GAME_TIME;
    const from = parseGameTime(now);
    const to = parseGameTime(time.at);
    if (!from.ok) return bad(from.message);
    if (!to.ok) return bad(`time.set: ${to.message}`);
    seconds = to.value.seconds - from.value.seconds;
    if (seconds < 0) {
      return bad(
        `time.set ${JSON.stringify(time.at)} is before the current game time ${JSON.stringify(now)}; the clock never goes back (use a later time, or leave time out)`,
      );
    }
  }
  // The Director's accepted durations were applied once, after its loop; the Narrator's are added to them.
  const total = ctx.timeSeconds + seconds;
  if (total > MAX_TIME_ADVANCE_SECONDS) {
    return bad(
      `this turn would advance time by ${total} seconds in all; the limit is ${MAX_TIME_ADVANCE_SECONDS} (MAX_TIME_ADVANCE_SECONDS)`,
    );
  }
  if (seconds > 0) {
    const check = checkAdvance(ctx.runner.state, total);
    if (!check.ok) return bad(check.message);
  }
  return { ok: true, seconds };
}
