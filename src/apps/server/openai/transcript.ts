// What a chat front end sends as `messages`, read as a conversation: its system messages (its own prompts,
// persona, World Info: player context, never rules), the greeting, the exchanges, and what it asks for —
// a reply to a new player message, or a continuation of the last reply (the last message is the
// assistant's, as SillyTavern's "continue" sends it). Pure and bounded.
//
// Front ends rewrite messages: SillyTavern's "Character Names Behavior: Message Content" writes `Wren: …`
// and `Lanternmere: …` into them, and its markdown and whitespace fixes change the text. Name prefixes are
// removed here (namePrefixes); `comparable` is the form two texts are compared in (docs/sillytavern.md).

import { engineCommand } from './commands.ts';

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

/** Whitespace-insensitive form (front ends trim and re-wrap). */
export function normalized(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The form two texts are compared in: whitespace collapsed, markdown emphasis and code marks removed, curly
 * quotes straightened, case folded — the changes a front end makes to a message without changing its words.
 */
export function comparable(text: string): string {
  return normalized(
    text
      .normalize('NFKC')
      .replace(/[*_~`]+/g, '')
      .replace(/[\u201c\u201d\u201e\u00ab\u00bb]/g, '"')
      .replace(/[\u2018\u2019]/g, "'"),
  ).toLowerCase();
}

/** Characters of a `Name: ` prefix a front end writes into a message. */
export const MAX_NAME_PREFIX_CHARS = 40;
const NAME_PREFIX = new RegExp(`^([^\\s:][^:\\n]{0,${MAX_NAME_PREFIX_CHARS - 1}}):[ \\t]+`);

/** The `Name` of a message that starts with `Name: `, or undefined. */
function prefixOf(text: string): string | undefined {
  const name = NAME_PREFIX.exec(text)?.[1]?.trim();
  // A name has at most three words (not a sentence that happens to hold a colon).
  return name !== undefined && name.split(/\s+/).length <= 3 ? name : undefined;
}

/**
 * The name prefix a front end wrote into every message of one role, when it did: all of that role's
 * messages start with the same `Name: `, and either there are two or more of them, or the name is a known
 * one (the cartridge's), or the front end's own prompts mention it ("a chat between Lanternmere and Wren").
 */
function rolePrefix(texts: readonly string[], known: readonly string[], context: string): string | undefined {
  const first = texts[0] === undefined ? undefined : prefixOf(texts[0]);
  if (first === undefined || texts.some((t) => prefixOf(t) !== first)) return undefined;
  const lower = first.toLowerCase();
  if (texts.length >= 2 || known.some((k) => k.toLowerCase() === lower) || context.includes(first))
    return first;
  return undefined;
}

function withoutPrefix(text: string, prefix: string | undefined): string {
  return prefix === undefined ? text : text.replace(NAME_PREFIX, '');
}

export interface ReadOptions {
  /** Names a front end may prefix messages with (the cartridge's name). */
  readonly names?: readonly string[];
}

export function readTranscript(
  messages: readonly WireMessage[],
  options: ReadOptions = {},
): Transcript | { readonly error: string } {
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
  const joined = context.join('\n');
  const prefixes = {
    user: rolePrefix(
      chat.filter((m) => m.role === 'user').map((m) => m.text),
      options.names ?? [],
      joined,
    ),
    assistant: rolePrefix(
      chat.filter((m) => m.role === 'assistant').map((m) => m.text),
      options.names ?? [],
      joined,
    ),
  };
  for (const message of chat) {
    const text = withoutPrefix(message.text, prefixes[message.role]);
    // `!help` through a front end is the game's `/help` (commands.ts).
    message.text = message.role === 'user' ? engineCommand(text) : text;
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
