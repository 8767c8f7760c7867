// The server's user-facing limits, in one place. Each has a test at the limit and just past it
// (test/apps/server/limits.test.ts). `ServerLimits` lets an operator (and tests) change them per server.

import { MAX_INPUT_CHARS } from '../../engine/turn/index.ts';
import { MAX_ARCHIVE_BYTES } from '../../adapters/files/index.ts';
import {
  type AdmissionRules,
  MAX_SESSIONS_PER_PRINCIPAL,
  MAX_TABLE_INVITES,
  MAX_TABLE_MEMBERS,
  resolveAdmission,
} from '../../engine/session/index.ts';

/** Bytes of a JSON request body. A stateless turn carries a whole game state, so this is generous. */
export const DEFAULT_MAX_JSON_BODY_BYTES = 1024 * 1024;
/** Bytes of an uploaded cartridge archive. */
export const DEFAULT_MAX_UPLOAD_BYTES = MAX_ARCHIVE_BYTES;
/** Characters of the player's input: the turn engine's own limit, checked before any model is called. */
export const DEFAULT_MAX_INPUT_CHARS = MAX_INPUT_CHARS;
/** Nesting depth of a JSON body (`{"a":[1]}` has depth 2). */
export const MAX_JSON_DEPTH = 32;
/** Requests per principal (API key, or the local user) per rate window. */
export const DEFAULT_RATE_LIMIT = 120;
/** Length of the rate window in milliseconds. */
export const DEFAULT_RATE_WINDOW_MS = 60_000;
/** Milliseconds a turn may run before it is abandoned (nothing is committed). */
export const DEFAULT_TURN_TIMEOUT_MS = 120_000;
/** Sessions `GET /v1/sessions` returns per page when the client does not say (`?limit=`). */
export const DEFAULT_SESSION_PAGE = 50;
/** Sessions `GET /v1/sessions` returns per page at most. */
export const MAX_SESSION_PAGE_ITEMS = 200;
/** Sessions each principal (API key) may keep: the session layer's MAX_SESSIONS_PER_PRINCIPAL. */
export const DEFAULT_MAX_SESSIONS = MAX_SESSIONS_PER_PRINCIPAL;
/** Turns `GET /v1/sessions/{id}/history` returns at most: the newest of the branch (`complete` says if that is all). */
export const HISTORY_MAX_TURNS = 500;
/**
 * Characters of stored turn content (state, record, input, narration) one history answer may read: a branch
 * of large states comes back in fewer turns (at least one), and the client asks again from where it stopped.
 */
export const HISTORY_MAX_CHARS = 16 * 1024 * 1024;
/**
 * Bytes of stored cartridge files each principal may hold (their uploads' files as stored; a version
 * deleted with `DELETE /v1/cartridge-versions/{id}` gives its bytes back).
 */
export const DEFAULT_CARTRIDGE_QUOTA_BYTES = 64 * 1024 * 1024;
/**
 * Turns one request to the OpenAI-compatible endpoint carries onto a chat's changed history at most (an edit
 * of an early message rebases every later turn): past it the request carries that many, plays no turn and
 * says so; the next one carries on (docs/deploy.md, "Rebases").
 */
export const DEFAULT_MAX_REBASED_TURNS = 200;

/** Live streams one principal may hold open at once (a few tabs and devices). */
export const DEFAULT_MAX_LIVE_STREAMS_PER_PRINCIPAL = 8;
/** Live streams one server holds open at once. */
export const DEFAULT_MAX_LIVE_STREAMS = 2_000;

export interface ServerLimits {
  readonly maxJsonBodyBytes: number;
  readonly maxUploadBytes: number;
  readonly maxInputChars: number;
  readonly rateLimit: number;
  readonly rateWindowMs: number;
  readonly turnTimeoutMs: number;
  readonly cartridgeQuotaBytes: number;
  /** Sessions each principal may keep (a create past it is 409 `session_limit`). */
  readonly maxSessions: number;
  /** Turns one OpenAI-endpoint request rebases at most (DEFAULT_MAX_REBASED_TURNS). */
  readonly maxRebasedTurns: number;
  /** Members of one shared table, its owner included (a join past it is 409 `table_limit`). */
  readonly maxTableMembers: number;
  /** Usable invitations of one shared table (one more is 409 `table_limit`). */
  readonly maxTableInvites: number;
  /** Live streams (`GET /v1/sessions/{id}/live`) one principal may hold open at once on this server. */
  readonly maxLiveStreamsPerPrincipal: number;
  /** Live streams this server holds open at once, everyone's together. */
  readonly maxLiveStreams: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = Object.freeze({
  maxJsonBodyBytes: DEFAULT_MAX_JSON_BODY_BYTES,
  maxUploadBytes: DEFAULT_MAX_UPLOAD_BYTES,
  maxInputChars: DEFAULT_MAX_INPUT_CHARS,
  rateLimit: DEFAULT_RATE_LIMIT,
  rateWindowMs: DEFAULT_RATE_WINDOW_MS,
  turnTimeoutMs: DEFAULT_TURN_TIMEOUT_MS,
  cartridgeQuotaBytes: DEFAULT_CARTRIDGE_QUOTA_BYTES,
  maxSessions: DEFAULT_MAX_SESSIONS,
  maxRebasedTurns: DEFAULT_MAX_REBASED_TURNS,
  maxTableMembers: MAX_TABLE_MEMBERS,
  maxTableInvites: MAX_TABLE_INVITES,
  maxLiveStreamsPerPrincipal: DEFAULT_MAX_LIVE_STREAMS_PER_PRINCIPAL,
  maxLiveStreams: DEFAULT_MAX_LIVE_STREAMS,
});

export function resolveServerLimits(given: Partial<ServerLimits> = {}): ServerLimits {
  const out = { ...DEFAULT_SERVER_LIMITS, ...given };
  for (const [key, value] of Object.entries(out)) {
    // A rate limit of 0 turns it off (a single local player, a benchmark); every other limit is ≥ 1.
    if (key === 'rateLimit' && value === 0) continue;
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(`server limit ${key} must be a positive integer, got ${String(value)}`);
    }
  }
  // The input limit and the turn timeout are the sessions' admission rules: their ranges are checked there.
  try {
    resolveAdmission(admissionOf(out));
  } catch (error) {
    throw new RangeError(`server limit ${(error as Error).message}`);
  }
  return out;
}

/** The limits the session service admits every turn by (SessionServiceOptions.admission). */
export function admissionOf(limits: ServerLimits): AdmissionRules {
  return { maxInputChars: limits.maxInputChars, turnTimeoutMs: limits.turnTimeoutMs };
}

/** Milliseconds a client has to send a whole request (headers and body): a slow-loris upload is cut off. */
export const REQUEST_RECEIVE_TIMEOUT_MS = 30_000;
/** Milliseconds a client has to send the request headers. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** Records `GET /v1/sessions/{id}/world` returns per page by default, and at most (`limit`). */
export const DEFAULT_WORLD_PAGE_RECORDS = 1_000;
export const MAX_WORLD_PAGE_RECORDS = 5_000;
/** Turns of events `GET /v1/sessions/{id}/ledger` returns per page by default (at most MAX_LEDGER_PAGE_TURNS). */
export const DEFAULT_LEDGER_PAGE_TURNS = 200;
