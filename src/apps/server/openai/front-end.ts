// Requests a chat front end makes for itself rather than for the story — SillyTavern's Impersonate (write
// the player's next message), its Summarize extension, and the connection's "Test Message" — recognised by
// the prompts SillyTavern 1.12 ships, and answered without touching the turn tree (docs/sillytavern.md).

import { comparable, type Exchange, type WireMessage } from './transcript.ts';

export type FrontEndRequest =
  | { readonly kind: 'impersonate' }
  | { readonly kind: 'summary' }
  | { readonly kind: 'connection-test' };

/** Words of SillyTavern's default impersonation prompt ("[Write your next reply from the point of view of {{user}}…"). */
const IMPERSONATE = comparable('Write your next reply from the point of view of');
/** Words of SillyTavern's default Summarize prompt. */
const SUMMARY = comparable('Summarize the most important facts and events in the story so far');
/** Characters of a message searched for those prompts (they open it). */
const PROMPT_HEAD_CHARS = 400;

function textOf(message: WireMessage): string {
  return typeof message.content === 'string' ? message.content : '';
}

/** What a request is for, when it is one of the front end's own generations; undefined for a story turn. */
export function frontEndRequest(
  messages: readonly WireMessage[],
  stream: boolean,
): FrontEndRequest | undefined {
  const only = messages[0];
  // SillyTavern's "Test Message": exactly one user message "Hi", not streamed.
  if (!stream && messages.length === 1 && only?.role === 'user' && textOf(only).trim() === 'Hi')
    return { kind: 'connection-test' };
  // Both prompts come after the chat: the last message, or the last one before the front end's trailing notes.
  for (const message of messages.slice(-3).reverse()) {
    const head = comparable(textOf(message).slice(0, PROMPT_HEAD_CHARS));
    if (head.includes(IMPERSONATE)) return { kind: 'impersonate' };
    if (head.includes(SUMMARY)) return { kind: 'summary' };
  }
  return undefined;
}

/** Player messages a summary lists (the newest). */
const MAX_SUMMARY_INPUTS = 30;

/** The story so far as the chat shows it (the player's messages), for a front end's summary request. */
function storySummary(exchanges: readonly Exchange[]): string {
  const said = exchanges
    .map((e) => e.user.replace(/\s+/g, ' ').trim())
    .filter((t) => t !== '')
    .slice(-MAX_SUMMARY_INPUTS);
  return said.length === 0 ? 'Nothing has happened yet.' : `So far the player: ${said.join('; ')}`;
}

/** The answer to one of the front end's own generations; nothing is stored. */
export function frontEndAnswer(kind: FrontEndRequest['kind'], exchanges: readonly Exchange[]): string {
  switch (kind) {
    case 'connection-test':
      return 'MnesOS is connected. Send a message in a chat to play.';
    case 'impersonate':
      // The player's next message is the player's to write: a neutral suggestion, never a turn.
      return 'I look around.';
    case 'summary':
      return storySummary(exchanges);
    default: {
      const unreachable: never = kind;
      return String(unreachable);
    }
  }
}
