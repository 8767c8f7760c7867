// The server limits an operator tunes, from the environment and from `serve` flags (a flag wins over its
// variable). Each is a whole number; the rate limit takes 0 for "off". A bad value is refused with the
// variable or flag named, before anything starts.

import type { ServerLimits } from './limits.ts';

export interface OperatorLimit {
  readonly key: keyof ServerLimits;
  readonly env: string;
  /** The `serve` option, as commander names it in the flags object. */
  readonly flag: string;
  readonly option: string;
  readonly what: string;
}

export const OPERATOR_LIMITS: readonly OperatorLimit[] = [
  {
    key: 'rateLimit',
    env: 'MNESOS_RATE_LIMIT',
    flag: 'rateLimit',
    option: '--rate-limit <n>',
    what: 'requests per principal per rate window (0 = no limit)',
  },
  {
    key: 'rateWindowMs',
    env: 'MNESOS_RATE_WINDOW_MS',
    flag: 'rateWindowMs',
    option: '--rate-window-ms <ms>',
    what: 'length of the rate window in milliseconds',
  },
  {
    key: 'turnTimeoutMs',
    env: 'MNESOS_TURN_TIMEOUT_MS',
    flag: 'turnTimeoutMs',
    option: '--turn-timeout-ms <ms>',
    what: 'milliseconds a turn may run before it is abandoned',
  },
  {
    key: 'maxJsonBodyBytes',
    env: 'MNESOS_MAX_BODY_BYTES',
    flag: 'maxBodyBytes',
    option: '--max-body-bytes <n>',
    what: 'bytes of a JSON request body',
  },
  {
    key: 'maxUploadBytes',
    env: 'MNESOS_MAX_UPLOAD_BYTES',
    flag: 'maxUploadBytes',
    option: '--max-upload-bytes <n>',
    what: 'bytes of an uploaded cartridge archive',
  },
  {
    key: 'maxInputChars',
    env: 'MNESOS_MAX_INPUT_CHARS',
    flag: 'maxInputChars',
    option: '--max-input-chars <n>',
    what: "characters of the player's input",
  },
  {
    key: 'cartridgeQuotaBytes',
    env: 'MNESOS_CARTRIDGE_QUOTA_BYTES',
    flag: 'cartridgeQuotaBytes',
    option: '--cartridge-quota-bytes <n>',
    what: 'bytes of cartridge files each principal may store',
  },
  {
    key: 'maxSessions',
    env: 'MNESOS_MAX_SESSIONS',
    flag: 'maxSessions',
    option: '--max-sessions <n>',
    what: 'sessions each principal may keep',
  },
  {
    key: 'maxTableMembers',
    env: 'MNESOS_MAX_TABLE_MEMBERS',
    flag: 'maxTableMembers',
    option: '--max-table-members <n>',
    what: 'members of one shared table, its owner included',
  },
  {
    key: 'maxTableInvites',
    env: 'MNESOS_MAX_TABLE_INVITES',
    flag: 'maxTableInvites',
    option: '--max-table-invites <n>',
    what: 'usable invitations of one shared table',
  },
  {
    key: 'maxLiveStreamsPerPrincipal',
    env: 'MNESOS_MAX_LIVE_STREAMS_PER_KEY',
    flag: 'maxLiveStreamsPerKey',
    option: '--max-live-streams-per-key <n>',
    what: 'live table streams one principal may hold open',
  },
  {
    key: 'maxLiveStreams',
    env: 'MNESOS_MAX_LIVE_STREAMS',
    flag: 'maxLiveStreams',
    option: '--max-live-streams <n>',
    what: 'live table streams this server holds open',
  },
];

export class OperatorLimitError extends Error {
  override readonly name = 'OperatorLimitError';
}

const WHOLE = /^[0-9]{1,15}$/;

function parseWhole(text: string, source: string): number {
  const trimmed = text.trim();
  if (!WHOLE.test(trimmed))
    throw new OperatorLimitError(`${source} must be a whole number, got '${text.slice(0, 40)}'`);
  return Number(trimmed);
}

/** The limits set by flags or the environment; the rest keep their defaults (resolveServerLimits checks ranges). */
export function operatorLimits(
  env: Readonly<Record<string, string | undefined>>,
  flags: Readonly<Record<string, unknown>> = {},
): Partial<ServerLimits> {
  const out: Partial<Record<keyof ServerLimits, number>> = {};
  for (const limit of OPERATOR_LIMITS) {
    const flag = flags[limit.flag];
    const fromEnv = env[limit.env];
    if (typeof flag === 'string') out[limit.key] = parseWhole(flag, limit.option.split(' ')[0]!);
    else if (fromEnv !== undefined && fromEnv.trim() !== '') out[limit.key] = parseWhole(fromEnv, limit.env);
  }
  return out;
}
