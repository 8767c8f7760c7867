// A chat front end as the property test drives it (openai-chat-property.test.ts): chats made of messages with
// swipes, as SillyTavern keeps them, turned into the `messages` SillyTavern sends — hidden messages left out,
// only the shown swipe of each message, names written into the content under the name each message was sent
// with, the oldest messages cut to fit a context. Each reply remembers what the game did when it answered
// (a turn of the tally game, an answer without a turn, a reply that never finished), read from the answer
// itself and the store, never from the replies' words: that is what the oracle folds.

export type Played =
  /** A turn of the tally game was stored for this reply: the event it played, and its session. */
  | { readonly kind: 'turn'; readonly event: 'a' | 'b' | 'c'; readonly session: string }
  /** The game answered without a turn, in this session (none when it opened none for it). */
  | { readonly kind: 'no-turn'; readonly session?: string }
  /** The reply never finished (stopped): no turn holds it; it names the stored turn it followed, if any. */
  | { readonly kind: 'unfinished'; readonly session?: string };

export interface Swipe {
  text: string;
  readonly played: Played;
}

export interface Message {
  readonly role: 'user' | 'assistant';
  /** A user message has one swipe; a reply one per generation. */
  swipes: Swipe[];
  shown: number;
  hidden: boolean;
  /** The persona (or character) name the message was sent under. */
  readonly name: string;
}

export interface Chat {
  readonly messages: Message[];
  /** The first message index changed since the game last heard this chat (undefined: none). */
  pendingFrom?: number;
}

export const CHARACTER = 'Tally';
export const GREETING = 'The tally board is clean. Say !a, !b or !c.';
export const TALLY_MODULUS = 1_000_003;
const EVENT_NUMBER = { a: 1, b: 2, c: 3 } as const;

export function newChat(): Chat {
  return {
    messages: [
      {
        role: 'assistant',
        swipes: [{ text: GREETING, played: { kind: 'no-turn' } }],
        shown: 0,
        hidden: false,
        name: CHARACTER,
      },
    ],
  };
}

export function shownText(m: Message): string {
  return m.swipes[m.shown]!.text;
}

export function shownPlayed(m: Message): Played {
  return m.swipes[m.shown]!.played;
}

/** The event a player line plays in the tally game, if any (`!a` → a). */
export function eventOf(line: string): 'a' | 'b' | 'c' | undefined {
  const m = /^!([abc])\s*$/.exec(line.trim());
  return m === null ? undefined : (m[1] as 'a' | 'b' | 'c');
}

/** The tally state a list of played events leaves: what the game's state for the chat must be. */
export function tallyOf(events: readonly ('a' | 'b' | 'c')[]): { code: number; count: number } {
  let code = 0;
  for (const e of events) code = (code * 31 + EVENT_NUMBER[e]) % TALLY_MODULUS;
  return { code, count: events.length };
}

/**
 * The chat's played events in `session`, in order: each visible exchange whose shown reply is a stored turn of
 * that game (a reply of another game counts for nothing there).
 */
export function playedEvents(chat: Chat, session: string): ('a' | 'b' | 'c')[] {
  const out: ('a' | 'b' | 'c')[] = [];
  for (const m of chat.messages) {
    if (m.hidden || m.role !== 'assistant') continue;
    const played = shownPlayed(m);
    if (played.kind === 'turn' && played.session === session) out.push(played.event);
  }
  return out;
}

/** The session of the newest visible reply the game gave in one (a turn, or an answer without one): the chat's game. */
export function chatSession(chat: Chat): string | undefined {
  for (const m of [...chat.messages].reverse()) {
    if (m.hidden || m.role !== 'assistant') continue;
    const played = shownPlayed(m);
    if (played.session !== undefined) return played.session;
  }
  return undefined;
}

export interface SendOptions {
  /** Messages kept from the end (the oldest cut first, the greeting among them); undefined: all. */
  readonly keep?: number;
  /** "Character Names Behavior: Message Content". */
  readonly namesInContent: boolean;
  /** The persona's name now (SillyTavern's prompts name it). */
  readonly persona: string;
}

/** The visible messages as SillyTavern sends them, from index `from` of the visible list on. */
export function wire(chat: Chat, options: SendOptions): { role: string; content: string }[] {
  const visible = chat.messages.filter((m) => !m.hidden);
  let from = options.keep === undefined ? 0 : Math.max(0, visible.length - options.keep);
  // A cut that leaves no reply that is a turn places the chat by what its other replies said when they were
  // given, which an edit since may have made stale (docs/sillytavern.md, "Context cuts"): not generated.
  if (!visible.slice(from).some((m) => m.role === 'assistant' && shownPlayed(m).kind === 'turn')) from = 0;
  // What changed since the game last heard the chat is sent, with the exchange before it, so the game sees it.
  if (chat.pendingFrom !== undefined) {
    const changed = chat.messages.slice(0, chat.pendingFrom).filter((m) => !m.hidden).length;
    from = Math.min(from, Math.max(0, changed - 2));
    if (from <= 1) from = 0;
  }
  const system = [
    {
      role: 'system',
      content: `Write ${CHARACTER}'s next reply in a fictional chat between ${CHARACTER} and ${options.persona}.`,
    },
  ];
  return [
    ...system,
    ...visible.slice(from).map((m) => ({
      role: m.role,
      content: options.namesInContent ? `${m.name}: ${shownText(m)}` : shownText(m),
    })),
  ];
}
