// The one-line notes a reply carries when the chat and the game disagreed (`[MnesOS: …]`), and the mark of an
// answer given without a turn. Every note states a fact the walk established (conversation.ts): "not played"
// only for an exchange no turn of this game holds, with the reason the chat's anchors give.

import { frontEndHints } from './commands.ts';
import type { Exchange } from './transcript.ts';
import { comparable } from './transcript.ts';
import { DETAILS_MARKER, type ExchangeStatus } from './conversation.ts';

/** Characters of a player message quoted in a note. */
const QUOTED_CHARS = 60;

/** The block that marks an answer given without playing a turn, so the walk knows it when it comes back. */
export const NO_TURN_MARK = `${DETAILS_MARKER}: no turn was played]`;

export function isNoTurnReply(reply: string): boolean {
  return comparable(reply).endsWith(comparable(NO_TURN_MARK));
}

export function quoted(text: string): string {
  const flat = text.replace(/\s+/g, ' ').replace(/[[\]]/g, '').trim();
  return `“${flat.length > QUOTED_CHARS ? `${flat.slice(0, QUOTED_CHARS - 1)}…` : flat}”`;
}

/** `[MnesOS: …]`: one line the walk recognises again when the reply comes back in the chat. */
export function noteBlock(text: string): string {
  return `${DETAILS_MARKER}: ${text
    .replace(/[[\]\r\n]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()}]`;
}

/** The text of an answer that played no turn, marked so that the next request knows. */
export function noTurnText(text: string): string {
  return `${text.trim()}\n\n${NO_TURN_MARK}`;
}

/** Why an exchange was not played, in a note's words; undefined for an exchange that needs no note. */
function notPlayedReason(status: ExchangeStatus): string | undefined {
  switch (status.kind) {
    case 'unfinished':
      return 'its reply did not finish';
    case 'not-the-games':
      return 'its reply is not one the game sent';
    case 'other-game':
      return 'its reply is from another of your games';
    case 'no-turn':
    case 'held':
    case 'carried':
      return undefined;
    default: {
      const unreachable: never = status;
      return String(unreachable);
    }
  }
}

/**
 * The note about the chat's last exchange, when the game did not play it: said once, in the reply that
 * follows it, with the reason. (A reply the player edited needs none: the game keeps what its rules did, and
 * the words are the player's to change.)
 */
export function lastExchangeNote(
  exchanges: readonly Exchange[],
  statuses: readonly ExchangeStatus[],
): string {
  const last = exchanges.at(-1);
  const status = statuses.at(-1);
  if (last === undefined || status === undefined) return '';
  const reason = notPlayedReason(status);
  if (reason === undefined) return '';
  // Quoted as the chat shows it: a command the player typed `!a` reads `/a` to the game.
  return noteBlock(
    `${quoted(frontEndHints(last.user))} was not played (${reason}), so the story goes on without it; send it again to play it.`,
  );
}
