// What a chat front end sends as `messages`, read as a conversation: its system messages (its own prompts,
// persona, World Info: player context, never rules), the greeting, the exchanges, and what it asks for —
// a reply to a new player message, or a continuation of the last reply (the last message is the
// assistant's, as SillyTavern's "continue" sends it). Pure and bounded.

export const MAX_TRANSCRIPT_MESSAGES = 2_000;
/** Characters of player context kept from the front end's system messages (the start is kept). */
export const MAX_PLAYER_CONTEXT_CHARS = 4_000;

export interface WireMessage {
  readonly role: string;
  readonly content?: unknown;
  readonly name?: unknown;
}

export interface Exchange {
  readonly user: string;
  readonly assistant: string;
}

export type Transcript =
  | {
      readonly kind: 'reply';
      readonly context: string;
      readonly greeting: string;
      readonly exchanges: readonly Exchange[];
      readonly user: string;
    }
  | {
      readonly kind: 'continue';
      readonly context: string;
      readonly greeting: string;
      /** The last exchange is the one whose reply is continued. */
      readonly exchanges: readonly Exchange[];
    };

/** A message's text: a string, or the text parts of a content array. */
function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) =>
        typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string'
          ? (part as { text: string }).text
          : '',
      )
      .filter((t) => t !== '')
      .join('\n');
  }
  return '';
}

/** Whitespace-insensitive comparison form (front ends trim and re-wrap). */
export function normalized(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function readTranscript(messages: readonly WireMessage[]): Transcript | { readonly error: string } {
  const context: string[] = [];
  const chat: { role: 'user' | 'assistant'; text: string }[] = [];
  for (const message of messages) {
    const text = messageText(message.content);
    switch (message.role) {
      case 'system':
      case 'developer':
        if (text.trim() !== '' && !context.includes(text.trim())) context.push(text.trim());
        break;
      case 'user':
      case 'assistant': {
        const last = chat.at(-1);
        // Consecutive messages of one role are one message (a front end's "send without reply").
        if (last !== undefined && last.role === message.role) last.text = `${last.text}\n${text}`;
        else chat.push({ role: message.role, text });
        break;
      }
      default:
        break; // tool messages and unknown roles carry nothing for the story
    }
  }
  let at = 0;
  let greeting = '';
  if (chat[0]?.role === 'assistant') {
    greeting = chat[0].text;
    at = 1;
  }
  const exchanges: Exchange[] = [];
  let pendingUser: string | undefined;
  for (; at < chat.length; at++) {
    const item = chat[at]!;
    if (item.role === 'user') pendingUser = item.text;
    else if (pendingUser !== undefined) {
      exchanges.push({ user: pendingUser, assistant: item.text });
      pendingUser = undefined;
    }
  }
  let contextText = context.join('\n\n');
  if (contextText.length > MAX_PLAYER_CONTEXT_CHARS)
    contextText = `${contextText.slice(0, MAX_PLAYER_CONTEXT_CHARS - 1)}…`;
  if (pendingUser !== undefined) {
    if (normalized(pendingUser) === '') return { error: 'the last user message is empty' };
    return { kind: 'reply', context: contextText, greeting, exchanges, user: pendingUser.trim() };
  }
  if (exchanges.length === 0) return { error: 'the messages hold no user message to answer' };
  return { kind: 'continue', context: contextText, greeting, exchanges };
}
