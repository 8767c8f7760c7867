// Why a turn request played no turn: offline, the engine answered the player instead (docs/turn.md,
// "Offline mode"). One list for the engine's replies, the session's `answered` error, the HTTP answer's
// schema (apps/contract/responses.ts) and the clients. Pure, and in the browser bundle (browser.ts).

export const NO_TURN_REASONS = [
  'help',
  'question',
  'unmatched',
  'unknown',
  'free',
  'refused',
  'invalid',
] as const;

/**
 * `help`: the command list; `question`: a missing input, or which of the likely events was meant;
 * `unmatched`: what can be done here; `unknown`: no such command; `free`: a free action's answer (look,
 * examine, talk, inventory, exits, or a deed no event does: offline/attempt.ts); `refused`: the rules'
 * conditions refuse the event here; `invalid`: a command the rules reject as typed (a value out of its
 * enum).
 */
export type NoTurnReason = (typeof NO_TURN_REASONS)[number];
