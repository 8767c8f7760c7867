// The chat is the truth, by property (issue 31 item 4): seeded random front-end histories — send, swipe right
// and left, regenerate, continue, Stop, edit any player message or reply, delete or hide any exchange,
// branch, context cuts, names written into messages under a renamed persona, chat switches, another client on
// the same key, lines that repeat and replies that are word for word the same — drive the OpenAI endpoint
// over real HTTP, offline, on a counting cartridge whose state says exactly which events were played in which
// order (fixtures/tally). After every request: the answer is a 200; the game's state for the chat (its
// session's head) is the fold of the events of the replies the chat shows; the request landed in the chat's
// own session (or a new one) and no other session changed; every `[MnesOS: …]` note is true and the
// no-turn mark is there exactly when no turn was stored. Failures shrink to the shortest history.
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAnchors } from '../../../../src/apps/server/openai/anchor.ts';
import { NO_TURN_MARK } from '../../../../src/apps/server/openai/notes.ts';
import { comparable } from '../../../../src/apps/server/openai/transcript.ts';
import { startTestServer, type TestServer } from '../../../apps/server/helpers.ts';
import {
  type Chat,
  chatSession,
  eventOf,
  type Message,
  newChat,
  type Played,
  playedEvents,
  shownPlayed,
  shownText,
  tallyOf,
  wire,
} from './front-end-model.ts';

const PRINCIPAL = 'local-user';
/**
 * Histories and their length: about 1,800 steps in all (about a minute), half of them requests. The seed,
 * the number of histories and a failure's path can be set to reproduce one (MNESOS_CHAT_PROPERTY_SEED,
 * _RUNS, _PATH; _LOG=1 prints each action and request).
 */
const RUNS = Number(process.env.MNESOS_CHAT_PROPERTY_RUNS ?? 100);
const MAX_ACTIONS = 40;
/** Player lines: three events (repeated often), and a line the tally game answers without a turn. */
const LINES = ['!a', '!b', '!c', '!a', 'I hum a tune.'] as const;
const PERSONAS = ['Wren', 'Ash', 'Rook'] as const;
const CONTINUE_NUDGE =
  '[Continue the following message. Do not include ANY parts of the original message. Use capitalization and punctuation as if your reply is a part of the original message: ';

type Action =
  | { readonly kind: 'send'; readonly line: number }
  | { readonly kind: 'swipe' }
  | { readonly kind: 'swipe-left' }
  | { readonly kind: 'regenerate' }
  | { readonly kind: 'continue' }
  | { readonly kind: 'stop'; readonly line: number }
  | { readonly kind: 'edit-user'; readonly at: number; readonly line: number }
  | { readonly kind: 'edit-reply'; readonly at: number }
  | { readonly kind: 'delete'; readonly at: number }
  | { readonly kind: 'hide'; readonly at: number }
  | { readonly kind: 'branch'; readonly at: number }
  | { readonly kind: 'switch'; readonly to: number }
  | { readonly kind: 'new-chat' }
  | { readonly kind: 'cut'; readonly keep: number | null }
  | { readonly kind: 'names'; readonly on: boolean }
  | { readonly kind: 'rename' }
  | { readonly kind: 'sdk'; readonly line: number };

const line = fc.nat({ max: LINES.length - 1 });
const at = fc.nat({ max: 40 });
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('send' as const), line }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'swipe' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'swipe-left' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'regenerate' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'continue' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('stop' as const), line }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('edit-user' as const), at, line }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('edit-reply' as const), at }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), at }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('hide' as const), at }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('branch' as const), at }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('switch' as const), to: fc.nat({ max: 5 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'new-chat' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('cut' as const),
      keep: fc.option(fc.integer({ min: 3, max: 8 })),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('names' as const), on: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'rename' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('sdk' as const), line }) },
);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    cartridgeDirs: [join(import.meta.dirname, 'fixtures', 'tally')],
    // Thousands of requests from one player: the rate limit is another test's subject.
    limits: { rateLimit: 0 },
  });
});
afterAll(async () => {
  await server?.stop();
});

interface Answer {
  readonly status: number;
  /** The reply as the front end keeps it (anchor included). */
  readonly text: string;
  readonly session: string | undefined;
  readonly turnId: string | undefined;
}

/** What every session of the player looks like: its head and how many turns it holds. */
async function sessionsNow(): Promise<Map<string, string>> {
  const all = await server.store.listSessions(PRINCIPAL);
  return new Map(all.map((s) => [s.id, `${s.headTurnId}/${s.turnCount}`]));
}

async function post(messages: { role: string; content: string }[]): Promise<Answer> {
  const response = await server.call('/openai/v1/chat/completions', {
    method: 'POST',
    json: { model: 'Tally', messages },
  });
  const body = await response.json();
  if (process.env.MNESOS_CHAT_PROPERTY_LOG === '1')
    console.log(
      JSON.stringify(
        messages.map((m) => [
          m.role,
          readAnchors(m.content).turnIds.map((i) => i.slice(0, 4)),
          readAnchors(m.content).atIds.map((i) => i.slice(0, 4)),
          readAnchors(m.content).text.slice(0, 24),
        ]),
      ),
      '=>',
      response.headers.get('x-mnesos-turn')?.slice(0, 4),
      JSON.stringify(readAnchors(body.choices?.[0]?.message?.content ?? '').text.slice(0, 60)),
    );
  return {
    status: response.status,
    text: body.choices?.[0]?.message?.content ?? JSON.stringify(body),
    session: response.headers.get('x-mnesos-session') ?? undefined,
    turnId: response.headers.get('x-mnesos-turn') ?? undefined,
  };
}

/** A streamed request the player stops as soon as the reply begins (its anchor arrived). */
async function stopped(messages: { role: string; content: string }[]): Promise<string> {
  const control = new AbortController();
  const response = await server.call('/openai/v1/chat/completions', {
    method: 'POST',
    json: { model: 'Tally', messages, stream: true },
    signal: control.signal,
  });
  const reader = response.body!.getReader();
  let raw = '';
  let text = '';
  while (!raw.includes('\n\n')) {
    const { value, done } = await reader.read();
    if (done) break;
    raw += new TextDecoder().decode(value);
  }
  const first = raw.split('\n\n')[0]!;
  if (first.startsWith('data: {')) text = JSON.parse(first.slice(6)).choices?.[0]?.delta?.content ?? '';
  control.abort();
  await reader.cancel().catch(() => undefined);
  const started = Date.now();
  while (server.deps.service.turnsInFlight > 0 && Date.now() - started < 5_000)
    await new Promise((resolve) => setTimeout(resolve, 5));
  return text;
}

/** The player's world: chats, the one on screen, SillyTavern's settings, and another client's chat. */
class Player {
  readonly chats: Chat[] = [newChat()];
  current = 0;
  keep: number | undefined;
  names = false;
  persona = 0;
  /** The `openai` SDK's conversation on the same key: no greeting, no names. */
  readonly sdk: Chat = { messages: [] };
  readonly log: string[] = [];

  get chat(): Chat {
    return this.chats[this.current]!;
  }

  options() {
    return {
      namesInContent: this.names,
      persona: PERSONAS[this.persona]!,
      ...(this.keep === undefined ? {} : { keep: this.keep }),
    };
  }

  userMessage(text: string): Message {
    return {
      role: 'user',
      swipes: [{ text, played: { kind: 'no-turn' } }],
      shown: 0,
      hidden: false,
      name: PERSONAS[this.persona]!,
    };
  }
}

/** The last visible message of a chat, if it is a reply (not the greeting). */
function lastReply(chat: Chat): { message: Message; index: number } | undefined {
  for (let i = chat.messages.length - 1; i > 0; i--) {
    const m = chat.messages[i]!;
    if (m.hidden) continue;
    return m.role === 'assistant' ? { message: m, index: i } : undefined;
  }
  return undefined;
}

function changed(chat: Chat, index: number): void {
  chat.pendingFrom = Math.min(chat.pendingFrom ?? index, index);
}

/** The user messages of a chat (index into `messages`). */
function userIndexes(chat: Chat): number[] {
  return chat.messages.flatMap((m, i) => (m.role === 'user' ? [i] : []));
}

/** What the game did for an answer, read from the answer and the store (never from the reply's words). */
async function playedBy(answer: Answer, said: string): Promise<Played> {
  if (answer.turnId !== undefined) {
    const event = eventOf(said);
    expect(event, `a turn was stored for “${said}”, which plays no event`).toBeDefined();
    return { kind: 'turn', event: event!, session: answer.session! };
  }
  expect(answer.text.endsWith(NO_TURN_MARK), `no turn and no mark: ${answer.text}`).toBe(true);
  return answer.session === undefined ? { kind: 'no-turn' } : { kind: 'no-turn', session: answer.session };
}

/** The `[MnesOS: “X” was not played (R)…]` notes of a reply. */
function notPlayedNotes(text: string): { said: string; reason: string }[] {
  return [...text.matchAll(/\[MnesOS: “([^”]*)” was not played \(([^)]*)\)/g)].map((m) => ({
    said: m[1]!,
    reason: m[2]!,
  }));
}

/** Checks the notes of an answer against the exchange before the request's new line, as sent. */
function checkNotes(sent: Chat, answer: Answer, session: string | undefined): void {
  const visible = sent.messages.filter((m) => !m.hidden);
  // The exchange before the request's new line (or, for Continue, the one continued).
  const end = visible.at(-1)?.role === 'user' ? visible.length - 2 : visible.length - 1;
  const reply = end >= 2 && visible[end]?.role === 'assistant' ? visible[end] : undefined;
  const user = reply === undefined ? undefined : visible[end - 1];
  const notes = notPlayedNotes(answer.text);
  const played = reply === undefined ? undefined : shownPlayed(reply);
  const unplayed =
    played !== undefined &&
    user?.role === 'user' &&
    (played.kind === 'unfinished' ||
      (played.kind === 'turn' && session !== undefined && played.session !== session));
  expect(notes.length, `notes ${JSON.stringify(notes)} for ${JSON.stringify(played)}`).toBe(unplayed ? 1 : 0);
  if (unplayed) {
    const said = notes[0]!.said.replace(/…$/, '');
    expect(comparable(shownText(user!))).toContain(comparable(said));
    expect(notes[0]!.reason).toBe(
      played!.kind === 'unfinished' ? 'its reply did not finish' : 'its reply is from another of your games',
    );
  }
  expect(answer.text).not.toMatch(/not everything still applies|carried over onto it/);
  // An edited reply, or one cut short by Stop after its turn was stored, needs no note: the game keeps its own.
  expect(answer.text).not.toMatch(/\[MnesOS: (?!“[^”]*” was not played|no turn was played)/);
}

/** After a request: the game's state for the chat is the fold of what the chat shows, and nothing else moved. */
async function checkGame(
  chat: Chat,
  before: Map<string, string>,
  answer: Answer,
  expected: string | undefined,
) {
  expect(answer.status, answer.text).toBe(200);
  // The request landed in the chat's own game, or (a chat with no game yet) in a new one.
  if (expected !== undefined) expect(answer.session).toBe(expected);
  else if (answer.session !== undefined) expect(before.has(answer.session)).toBe(false);
  const after = await sessionsNow();
  for (const [id, shape] of before)
    if (id !== answer.session) expect(after.get(id), `session ${id} changed`).toBe(shape);
  const session = chatSession(chat);
  if (session === undefined) return;
  const stored = await server.store.getSession(session, PRINCIPAL);
  const head = await server.store.getTurn(session, stored!.headTurnId);
  const state = (head!.state as { tally: { code: number; count: number } }).tally;
  expect(state, `the game's state for the chat (events ${playedEvents(chat, session).join('')})`).toEqual(
    tallyOf(playedEvents(chat, session)),
  );
}

/** Sends `messages` for `chat` (the shown history), answers into `apply`, and checks everything. */
async function request(
  player: Player,
  chat: Chat,
  sent: Chat,
  said: string,
  apply: (played: Played, text: string) => void,
  extra: { role: string; content: string }[] = [],
): Promise<void> {
  const before = await sessionsNow();
  const expected = chatSession(sent);
  const answer = await post([...wire(sent, player.options()), ...extra]);
  expect(answer.status, answer.text).toBe(200);
  checkNotes(sent, answer, expected);
  const played = await playedBy(answer, said);
  apply(played, answer.text);
  chat.pendingFrom = undefined;
  await checkGame(chat, before, answer, expected);
}

async function step(player: Player, a: Action): Promise<void> {
  const chat = player.chat;
  switch (a.kind) {
    case 'send': {
      const text = LINES[a.line]!;
      chat.messages.push(player.userMessage(text));
      return request(player, chat, chat, text, (played, reply) => {
        chat.messages.push({
          role: 'assistant',
          swipes: [{ text: reply, played }],
          shown: 0,
          hidden: false,
          name: 'Tally',
        });
      });
    }
    case 'swipe':
    case 'regenerate': {
      const last = lastReply(chat);
      if (last === undefined) return;
      const sent: Chat = {
        messages: chat.messages.slice(0, last.index),
        ...(chat.pendingFrom === undefined ? {} : { pendingFrom: chat.pendingFrom }),
      };
      const user = [...sent.messages].reverse().find((m) => !m.hidden);
      if (user?.role !== 'user') return;
      return request(player, chat, sent, shownText(user), (played, reply) => {
        if (a.kind === 'swipe') {
          last.message.swipes.push({ text: reply, played });
          last.message.shown = last.message.swipes.length - 1;
        } else {
          last.message.swipes.splice(last.message.shown, 1, { text: reply, played });
        }
      });
    }
    case 'swipe-left': {
      const last = lastReply(chat);
      if (last === undefined || last.message.shown === 0) return;
      last.message.shown--;
      return;
    }
    case 'continue': {
      const last = lastReply(chat);
      if (last === undefined) return;
      const nudge = { role: 'system', content: `${CONTINUE_NUDGE}${shownText(last.message)}]` };
      return request(
        player,
        chat,
        chat,
        '',
        (played, reply) => {
          expect(played.kind, 'offline, Continue plays nothing').toBe('no-turn');
          const swipe = last.message.swipes[last.message.shown]!;
          // A reply that never finished now ends with the game's answer, given without a turn.
          const now = swipe.played.kind === 'unfinished' ? played : swipe.played;
          last.message.swipes[last.message.shown] = { text: `${swipe.text} ${reply}`, played: now };
        },
        [nudge],
      );
    }
    case 'stop': {
      const text = LINES[a.line]!;
      chat.messages.push(player.userMessage(text));
      const before = await sessionsNow();
      const partial = await stopped(wire(chat, player.options()));
      const anchors = readAnchors(partial);
      const [found] = await server.store.locateTurns(PRINCIPAL, anchors.turnIds);
      const [follows] = await server.store.locateTurns(PRINCIPAL, anchors.afterIds);
      // Stopped before or after the turn was stored: the store says which (a fast offline turn may win).
      const played: Played =
        found !== undefined
          ? { kind: 'turn', event: eventOf(text)!, session: found.sessionId }
          : follows === undefined
            ? { kind: 'unfinished' }
            : { kind: 'unfinished', session: follows.sessionId };
      chat.messages.push({
        role: 'assistant',
        swipes: [{ text: partial, played }],
        shown: 0,
        hidden: false,
        name: 'Tally',
      });
      // No other game changes. The chat's own may, when the answer was complete before the Stop reached the
      // server (the next request checks that it then holds what the chat shows).
      const after = await sessionsNow();
      const own = found?.sessionId ?? chatSession(chat);
      for (const [sid, shape] of before)
        if (sid !== own) expect(after.get(sid), `session ${sid} changed by a stopped request`).toBe(shape);
      return;
    }
    case 'edit-user': {
      const users = userIndexes(chat);
      if (users.length === 0) return;
      const index = users[a.at % users.length]!;
      chat.messages[index]!.swipes[0]!.text = LINES[a.line]!;
      changed(chat, index);
      return;
    }
    case 'edit-reply': {
      const replies = chat.messages.flatMap((m, i) => (i > 0 && m.role === 'assistant' ? [i] : []));
      if (replies.length === 0) return;
      const m = chat.messages[replies[a.at % replies.length]!]!;
      const swipe = m.swipes[m.shown]!;
      if (!swipe.text.endsWith('(edited)')) swipe.text = `${swipe.text} (edited)`;
      return;
    }
    case 'delete':
    case 'hide': {
      const users = userIndexes(chat);
      if (users.length === 0) return;
      const index = users[a.at % users.length]!;
      const pair = chat.messages[index + 1]?.role === 'assistant' ? 2 : 1;
      if (a.kind === 'delete') chat.messages.splice(index, pair);
      else for (let i = index; i < index + pair; i++) chat.messages[i]!.hidden = true;
      changed(chat, index);
      return;
    }
    case 'branch': {
      const replies = chat.messages.flatMap((m, i) => (i > 0 && m.role === 'assistant' ? [i] : []));
      if (replies.length === 0) return;
      const end = replies[a.at % replies.length]!;
      const copy: Chat = {
        messages: chat.messages
          .slice(0, end + 1)
          .map((m) => ({ ...m, swipes: m.swipes.map((s) => ({ ...s })) })),
        ...(chat.pendingFrom !== undefined && chat.pendingFrom <= end
          ? { pendingFrom: chat.pendingFrom }
          : {}),
      };
      player.chats.push(copy);
      player.current = player.chats.length - 1;
      return;
    }
    case 'switch':
      player.current = a.to % player.chats.length;
      return;
    case 'new-chat':
      player.chats.push(newChat());
      player.current = player.chats.length - 1;
      return;
    case 'cut':
      player.keep = a.keep ?? undefined;
      return;
    case 'names':
      player.names = a.on;
      return;
    case 'rename':
      player.persona = (player.persona + 1) % PERSONAS.length;
      return;
    case 'sdk': {
      const text = LINES[a.line]!;
      const sdk = player.sdk;
      sdk.messages.push(player.userMessage(text));
      const before = await sessionsNow();
      const expected = chatSession(sdk);
      const answer = await post(sdk.messages.map((m) => ({ role: m.role, content: shownText(m) })));
      expect(answer.status, answer.text).toBe(200);
      const played = await playedBy(answer, text);
      sdk.messages.push({
        role: 'assistant',
        swipes: [{ text: answer.text, played }],
        shown: 0,
        hidden: false,
        name: 'Tally',
      });
      await checkGame(sdk, before, answer, expected);
      return;
    }
    default: {
      const unreachable: never = a;
      throw new Error(String(unreachable));
    }
  }
}

describe('front-end histories against the OpenAI endpoint (property)', () => {
  it(`${RUNS} seeded histories of up to ${MAX_ACTIONS} actions: the game is always the chat`, async () => {
    let steps = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(action, { minLength: 1, maxLength: MAX_ACTIONS, size: 'max' }),
        async (actions) => {
          const player = new Player();
          for (const a of actions) {
            steps++;
            await step(player, a);
          }
        },
      ),
      {
        numRuns: RUNS,
        seed: Number(process.env.MNESOS_CHAT_PROPERTY_SEED ?? 31),
        ...(process.env.MNESOS_CHAT_PROPERTY_PATH === undefined
          ? {}
          : { path: process.env.MNESOS_CHAT_PROPERTY_PATH }),
        endOnFailure: false,
      },
    );
    expect(steps).toBeGreaterThan(RUNS * 10);
  }, 600_000);
});
