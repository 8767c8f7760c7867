// What a session operation can fail with. The server maps each code to an HTTP status
// (src/apps/server/errors.ts); the CLI prints the message. Expected failures are values of this one
// class, never stray strings.

import { NO_TURN_REASONS, type NoTurnReason } from '../turn/index.ts';

export type SessionErrorCode =
  /** The turn request breaks an admission rule (its shape, the Idempotency-Key): nothing was read or claimed. */
  | 'malformed'
  /** The player's input is longer than the operator's limit (`details.limit`): nothing was read or claimed. */
  | 'input-too-long'
  /** The session, turn, save or persona does not exist for this principal (another's is "not found" too). */
  | 'not-found'
  /** Another turn is being played on this session in this process. */
  | 'turn-in-flight'
  /** The head moved while the turn ran (another replica, another tab): nothing was committed. */
  | 'conflict'
  /** The request is well formed but the game refuses it (bad input, pending mini-game, unknown event). */
  | 'invalid'
  /**
   * No turn was played, and that is an answer, not a failure: offline, the engine answered the player
   * instead (a free action, a question back, the rules' refusal here, /help; `details.reason` says which,
   * the message is the answer). Nothing was committed. Clients show it as a reply (HTTP 200, docs/api.md).
   */
  | 'answered'
  /**
   * The finished turn is too large to store (its record, state or narration over the store's limit) because
   * of what the cartridge made (`details.part`, `details.event`): nothing was saved.
   */
  | 'too-large'
  /** The stored cartridge version no longer loads (a newer engine refuses it). */
  | 'cartridge'
  /**
   * The cartridge made the turn too costly: a part of it (`details.part`) passed the turn's compute budget.
   * Nothing was committed; the request was fine, the cartridge is at fault.
   */
  | 'too-costly'
  /** The model failed after its retries. */
  | 'model'
  /** The principal's stored model settings cannot be used on this server (change them, or the operator's flags). */
  | 'settings'
  /** The client went away or the turn ran out of time: nothing was committed. */
  | 'aborted'
  | 'timeout'
  /** The principal keeps the most sessions allowed (`details.limit`): nothing was created. */
  | 'session-cap'
  /** A member of a shared table asked for what only its owner or game master may do (undo, branch, invite). */
  | 'not-allowed'
  /** A shared table is at one of its limits (`details.limit`, `details.what`): members, invitations, the queue. */
  | 'table-limit'
  /** The character a member asked to play is already played at the table. */
  | 'taken';

export class SessionError extends Error {
  override readonly name = 'SessionError';

  constructor(
    readonly code: SessionErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

export function isSessionError(value: unknown): value is SessionError {
  return value instanceof SessionError;
}

/** The one wording of a missing session, turn, persona or cartridge version. */
export function notFound(what: string): SessionError {
  return new SessionError('not-found', `${what} not found`);
}

/** An answer that spends no turn: what the engine says, and why it played nothing. */
export interface NoTurnAnswer {
  readonly played: false;
  readonly reason: NoTurnReason;
  readonly text: string;
}

/** The answer an `answered` session error carries, or undefined for any other error. */
export function noTurnAnswer(error: unknown): NoTurnAnswer | undefined {
  if (!(error instanceof SessionError) || error.code !== 'answered') return undefined;
  const reason = error.details.reason;
  const known = NO_TURN_REASONS.find((r) => r === reason);
  return { played: false, reason: known ?? 'unmatched', text: error.message };
}
