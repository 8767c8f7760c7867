// What a chat front end sends as `messages`, read as a conversation: its system messages (its own prompts,
// persona, World Info: player context, never rules), the greeting, the exchanges with the anchors their
// replies carry (anchor.ts), and what it asks for — a reply to a new player message, a continuation of the
// last reply (the last message is the assistant's, as SillyTavern's "continue" sends it), or, in a group
// chat, another character's reply to the same player message. Pure and bounded.
//
// Front ends rewrite messages: SillyTavern's "Character Names Behavior: Message Content" writes `Wren: …`
// and `Lanternmere: …` into them, and its markdown and whitespace fixes change the text. Name prefixes are
// removed here (namePrefixes); `comparable` is the form two texts are compared in (docs/sillytavern.md).

import { ANCHOR_CHARACTERS, readAnchors } from './anchor.ts';
import { engineCommand } from './commands.ts';

export const MAX_TRANSCRIPT_MESSAGES = 2_000;
/** Characters of player context kept from the front end's system messages (the start is kept). */
export const MAX_PLAYER_CONTEXT_CHARS = 4_000;
/** Different names one role's messages may be prefixed with (a persona renamed mid-chat, group members). */
export const MAX_PREFIX_NAMES = 4;

export interface WireMessage {
  readonly role: string;
  readonly content?: unknown;
  readonly name?: unknown;
}

export interface Exchange {
  readonly user: string;
  readonly assistant: string;
  /** The turns the reply's anchors name, in order (a continued reply names its continuations after it). */
  readonly anchors: readonly string[];
  /** The turns it was answered at without a turn (anchor.ts, "answered at"). */
  readonly at: readonly string[];
  /** The turns it follows (anchor.ts, "after"). */
  readonly after: readonly string[];
}

interface TranscriptBase {
  readonly context: string;
  /** The chat's opening assistant message ('' when the chat starts with the player). */
  readonly greeting: string;
  /** Anchors in that opening message: a reply the game sent, left first when the front end cut older messages. */
  readonly greetingAnchors: readonly string[];
  /** Its "answered at" anchors. */
  readonly greetingAt: readonly string[];
  /** Its "after" anchors. */
  readonly greetingAfter: readonly string[];
  readonly exchanges: readonly Exchange[];
}

export type Transcript =
  | (TranscriptBase & { readonly kind: 'reply'; readonly user: string })
  /** The last exchange is the one whose reply is continued. */
  | (TranscriptBase & { readonly kind: 'continue' })
  /** A group chat's next member answers the last exchange's player message (SillyTavern's group nudge). */
  | (TranscriptBase & { readonly kind: 'next-speaker'; readonly speaker: string });

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
 * quotes straightened, case folded, what is left of a damaged anchor dropped — the changes a front end makes
 * to a message without changing its words.
 */
export function comparable(text: string): string {
  return normalized(
    text
      .normalize('NFKC')
      .replace(ANCHOR_CHARACTERS, '')
      .replace(/[*_~`]+/g, '')
      .replace(/[\u201c\u201d\u201e\u00ab\u00bb]/g, '"')
      .replace(/[\u2018\u2019]/g, "'"),
  ).toLowerCase();
}

/** Characters of a `Name: ` prefix a front end writes into a message. */
export const MAX_NAME_PREFIX_CHARS = 40;
/** `Name: ` at the start: a name of 1 to MAX_NAME_PREFIX_CHARS characters (a literal, so its linearity is checked). */
const NAME_PREFIX = /^([^\s:][^:\n]{0,39}):[ \t]+/;

/** The `Name` of a message that starts with `Name: `, or undefined. */
export function prefixOf(text: string): string | undefined {
  const name = NAME_PREFIX.exec(text)?.[1]?.trim();
  // A name has at most three words (not a sentence that happens to hold a colon).
  return name !== undefined && name.split(/\s+/).length <= 3 ? name : undefined;
}

/** `text` without its `Name: ` prefix (unchanged when it has none). */
export function withoutPrefix(text: string): string {
  return prefixOf(text) === undefined ? text : text.replace(NAME_PREFIX, '');
}

/**
 * Whether a front end wrote names into every message of one role: each of them starts with `Name: `, with
 * at most MAX_PREFIX_NAMES names in all (a persona renamed mid-chat, a group's members), and one of them is
 * known (the cartridge's), or named in the front end's own prompts ("a chat between Lanternmere and Wren"),
 * or a single name opens two or more messages.
 */
function rolePrefixed(texts: readonly string[], known: readonly string[], context: string): boolean {
  const names = new Set<string>();
  for (const text of texts) {
    const name = prefixOf(text);
    if (name === undefined) return false;
    names.add(name);
    if (names.size > MAX_PREFIX_NAMES) return false;
  }
  if (names.size === 0) return false;
  const lowerKnown = new Set(known.map((k) => k.toLowerCase()));
  const named = [...names].some((n) => lowerKnown.has(n.toLowerCase()) || context.includes(n));
  return named || (names.size === 1 && texts.length >= 2);
}

export interface ReadOptions {
  /** Names a front end may prefix messages with (the cartridge's name). */
  readonly names?: readonly string[];
}

interface ChatItem {
  role: 'user' | 'assistant';
  /** The texts of the consecutive messages of one role this item is, each as the front end sent it. */
  parts: string[];
  /** The parts joined (set once the names are removed, by cleanChat). */
  text: string;
  anchors: string[];
  at: string[];
  after: string[];
}

/** SillyTavern's continue nudges (1.12: "[Continue the following message…", later: "[Continue your last message…"). */
const CONTINUE_NUDGE = /^\[continue (the following|your last) message/i;
/** SillyTavern's group nudge, `[Write the next reply only as {{char}}.]`. */
const GROUP_NUDGE = /^\[write the next reply only as ([^\]\n]{1,60})\.\]$/i;

/** What the front end's messages split into: system context, the chat, and the system messages after it. */
function splitMessages(messages: readonly WireMessage[]) {
  const context: string[] = [];
  const chat: ChatItem[] = [];
  let trailing: string[] = [];
  for (const message of messages) {
    // Anchors first, on the raw text: nothing after this sees one.
    const { text, turnIds, atIds, afterIds } = readAnchors(messageText(message.content));
    switch (message.role) {
      case 'system':
      case 'developer':
        if (text.trim() !== '' && !context.includes(text.trim())) context.push(text.trim());
        trailing.push(text.trim());
        break;
      case 'user':
      case 'assistant': {
        trailing = [];
        const last = chat.at(-1);
        // Consecutive messages of one role are one message (a front end's "send without reply").
        const reply = message.role === 'assistant';
        if (last !== undefined && last.role === message.role) {
          last.parts.push(text);
          if (reply) {
            last.anchors.push(...turnIds);
            last.at.push(...atIds);
            last.after.push(...afterIds);
          }
        } else
          chat.push({
            role: message.role,
            parts: [text],
            text: '',
            anchors: reply ? [...turnIds] : [],
            at: reply ? [...atIds] : [],
            after: reply ? [...afterIds] : [],
          });
        break;
      }
      default:
        break; // tool messages and unknown roles carry nothing for the story
    }
  }
  return { context, chat, trailing };
}

/**
 * Removes the names the front end wrote into the messages, and reads `!command` as the game's `/command`.
 * Whether a role's messages carry names is read from each item's first message (as ever); a later message
 * of the same item (a line sent again after a reply that never came) loses its prefix when it is one of
 * those names, so `Wren: I go.` then `Ash: I go again.` is `I go.` and `I go again.` under a renamed persona.
 */
function cleanChat(chat: ChatItem[], names: readonly string[], context: string): void {
  for (const role of ['user', 'assistant'] as const) {
    const items = chat.filter((m) => m.role === role);
    const firsts = items.map((m) => m.parts[0]!);
    const seen = new Set<string | undefined>();
    if (rolePrefixed(firsts, names, context))
      for (const name of [...firsts.map(prefixOf), ...names]) seen.add(name?.toLowerCase());
    const clean = (part: string, i: number) =>
      seen.size > 0 && (i === 0 || seen.has(prefixOf(part)?.toLowerCase())) ? withoutPrefix(part) : part;
    for (const item of items) item.text = item.parts.map(clean).join('\n');
  }
  // `!help` through a front end is the game's `/help` (commands.ts).
  for (const item of chat) if (item.role === 'user') item.text = engineCommand(item.text);
}

/** What a transcript whose last chat message is the assistant's asks for. */
function afterReply(
  trailing: readonly string[],
): { kind: 'continue' } | { kind: 'next-speaker'; speaker: string } {
  if (trailing.some((t) => CONTINUE_NUDGE.test(t))) return { kind: 'continue' };
  for (const t of trailing) {
    const speaker = GROUP_NUDGE.exec(t)?.[1]?.trim();
    if (speaker !== undefined && speaker !== '') return { kind: 'next-speaker', speaker };
  }
  return { kind: 'continue' };
}

export function readTranscript(
  messages: readonly WireMessage[],
  options: ReadOptions = {},
): Transcript | { readonly error: string } {
  const { context, chat, trailing } = splitMessages(messages);
  cleanChat(chat, options.names ?? [], context.join('\n'));
  let at = 0;
  let greeting = '';
  let greetingAnchors: readonly string[] = [];
  let greetingAt: readonly string[] = [];
  let greetingAfter: readonly string[] = [];
  if (chat[0]?.role === 'assistant') {
    greeting = chat[0].text;
    greetingAnchors = chat[0].anchors;
    greetingAt = chat[0].at;
    greetingAfter = chat[0].after;
    at = 1;
  }
  const exchanges: Exchange[] = [];
  let pendingUser: string | undefined;
  for (; at < chat.length; at++) {
    const item = chat[at]!;
    if (item.role === 'user') pendingUser = item.text;
    else if (pendingUser !== undefined) {
      exchanges.push({
        user: pendingUser,
        assistant: item.text,
        anchors: item.anchors,
        at: item.at,
        after: item.after,
      });
      pendingUser = undefined;
    }
  }
  let contextText = context.join('\n\n');
  if (contextText.length > MAX_PLAYER_CONTEXT_CHARS)
    contextText = `${contextText.slice(0, MAX_PLAYER_CONTEXT_CHARS - 1)}…`;
  const base = { context: contextText, greeting, greetingAnchors, greetingAt, greetingAfter, exchanges };
  if (pendingUser !== undefined) {
    if (normalized(pendingUser) === '') return { error: 'the last user message is empty' };
    return { ...base, kind: 'reply', user: pendingUser.trim() };
  }
  if (exchanges.length === 0) return { error: 'the messages hold no user message to answer' };
  return { ...base, ...afterReply(trailing) };
}
