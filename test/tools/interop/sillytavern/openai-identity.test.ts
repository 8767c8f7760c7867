// Exact identity through the OpenAI endpoint (DESIGN.md decision 11, docs/sillytavern.md), by example over
// real HTTP: a chat never lands in a game another conversation opened, on any key, however alike their lines;
// what the chat shows (a middle exchange deleted or hidden, a swipe shown again, a group's second member) is
// what the game plays from, and its head follows; a request that fails — a model failure, a refusal, a
// cancelled stream — leaves every session exactly as it was; a rebase past its per-request limit says so and
// carries on with the next request.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatModel, ModelSet } from '../../../../src/adapters/llm/types.ts';
import { ModelError } from '../../../../src/adapters/llm/errors.ts';
import { inputText } from '../../../../src/engine/session/messages.ts';
import { readAnchors } from '../../../../src/apps/server/openai/anchor.ts';
import { NO_TURN_MARK } from '../../../../src/apps/server/openai/notes.ts';
import { KEY_A, KEY_B, startTestServer, type TestServer } from '../../../apps/server/helpers.ts';
import { GREETING } from './front-end-model.ts';
import { textResponse } from './helpers.ts';

type Message = { role: string; content: string };
const TALLY = join(import.meta.dirname, 'fixtures', 'tally');

interface Answer {
  readonly status: number;
  readonly text: string;
  readonly session: string | null;
  readonly turn: string | null;
}

async function post(
  server: TestServer,
  messages: Message[],
  options: { key?: string; model?: string; stream?: boolean } = {},
): Promise<Answer> {
  const response = await server.call('/openai/v1/chat/completions', {
    method: 'POST',
    json: { model: options.model ?? 'Tally', messages, stream: options.stream ?? false },
    ...(options.key === undefined ? {} : { key: options.key }),
  });
  const raw = await response.text();
  let text = raw;
  if (options.stream === true)
    text = raw
      .split('\n\n')
      .filter((e) => e.startsWith('data: {'))
      .map((e) => JSON.parse(e.slice(6)).choices?.[0]?.delta?.content ?? '')
      .join('');
  else if (response.status === 200) text = JSON.parse(raw).choices[0].message.content;
  return {
    status: response.status,
    text,
    session: response.headers.get('x-mnesos-session'),
    turn: response.headers.get('x-mnesos-turn'),
  };
}

/** Every session of a principal, each with its head and every turn (id, parent, input): the whole store's say. */
async function snapshot(server: TestServer, principalId: string) {
  const sessions = await server.store.listSessions(principalId);
  return Promise.all(
    sessions.map(async (s) => ({
      id: s.id,
      head: s.headTurnId,
      turns: (await server.store.listTree(s.id)).map((n) => n.id),
    })),
  );
}

async function tallyAt(server: TestServer, sessionId: string, turnId: string) {
  const turn = await server.store.getTurn(sessionId, turnId);
  return (turn!.state as { tally: { code: number; count: number } }).tally;
}

/** A chat that sends `lines` one after the other, keeping each reply as the front end does. */
async function played(server: TestServer, lines: string[], options: { key?: string } = {}) {
  const chat: Message[] = [{ role: 'assistant', content: GREETING }];
  let session = '';
  for (const line of lines) {
    chat.push({ role: 'user', content: line });
    const answer = await post(server, chat, options);
    expect(answer.status).toBe(200);
    session = answer.session ?? session;
    chat.push({ role: 'assistant', content: answer.text });
  }
  return { chat, session };
}

/** The tally a game holds after playing `events` in order (the fixture's rule: code·31 + n, mod 1,000,003). */
function tallyOf(events: string[]) {
  const number: Record<string, number> = { '!a': 1, '!b': 2, '!c': 3 };
  return {
    code: events.reduce((code, e) => (code * 31 + number[e]!) % 1_000_003, 0),
    count: events.length,
  };
}

describe('offline (the tally game)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      cartridgeDirs: [TALLY],
      apiKeys: [
        { label: 'a', key: KEY_A },
        { label: 'b', key: KEY_B },
      ],
      limits: { rateLimit: 0, maxRebasedTurns: 3 },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('another client on the same key, with the same lines, never takes a chat over', async () => {
    const sdk = await played(server, ['!a', '!b', '!c'], { key: KEY_A });
    const owner = (await server.store.findSessionForAudit(sdk.session))!.principalId;
    const before = await snapshot(server, owner);
    // Word for word the same chat, replies included, without the other client's anchors: a chat of its own.
    const lookalike = sdk.chat.map((m) => ({ ...m, content: readAnchors(m.content).text }));
    lookalike.push({ role: 'user', content: '!a' });
    const answer = await post(server, lookalike, { key: KEY_A });
    expect(answer.status).toBe(200);
    expect(answer.session).not.toBe(sdk.session);
    const after = await snapshot(server, owner);
    expect(after.find((s) => s.id === sdk.session)).toEqual(before.find((s) => s.id === sdk.session));
  });

  it('on another key, a chat carrying the first key’s replies lands in a game of its own', async () => {
    const mine = await played(server, ['!a', '!b'], { key: KEY_A });
    const owner = (await server.store.findSessionForAudit(mine.session))!.principalId;
    const before = await snapshot(server, owner);
    const answer = await post(server, [...mine.chat, { role: 'user', content: '!c' }], { key: KEY_B });
    expect(answer.status).toBe(200);
    const other = (await server.store.findSessionForAudit(answer.session!))!;
    expect(other.principalId).not.toBe(owner);
    expect(await snapshot(server, owner)).toEqual(before);
  });

  it('a context cut over repeated lines and word-for-word identical replies: placed by the replies it still shows', async () => {
    // Issue 31 case 1. Another client on the same key plays the same lines first (the SDK's session).
    const lines = ['!a', '!a', '!a', '!b', '!a', '!a', '!c', '!a'];
    const sdk = await played(server, lines, { key: KEY_A });
    const { chat, session } = await played(server, lines, { key: KEY_A });
    expect(session).not.toBe(sdk.session);
    const owner = (await server.store.findSessionForAudit(sdk.session))!.principalId;
    const sdkBefore = (await snapshot(server, owner)).find((s) => s.id === sdk.session);
    // Every !a reply reads the same: only the anchors tell them apart.
    expect(new Set([2, 4, 6, 10].map((i) => readAnchors(chat[i]!.content).text)).size).toBe(1);
    const history = [...lines];
    // The front end drops the greeting and the oldest exchanges, more each time, as its context fills.
    for (const [cut, line] of [
      [1 + 2 * 2, '!b'],
      [1 + 2 * 5, '!a'],
      [1 + 2 * 8, '!c'],
    ] as const) {
      chat.push({ role: 'user', content: line });
      const answer = await post(server, chat.slice(cut), { key: KEY_A });
      expect(answer.status).toBe(200);
      expect(answer.session).toBe(session);
      expect(readAnchors(answer.text).text).not.toContain('[MnesOS');
      history.push(line);
      expect(await tallyAt(server, session, answer.turn!)).toEqual(tallyOf(history));
      const lineage = await server.store.getLineage(session, answer.turn!);
      expect(lineage!.slice(1).map((t) => inputText(t.input))).toEqual(
        history.map((l) => l.replace('!', '/')),
      );
      expect((await server.store.findSessionForAudit(session))!.headTurnId).toBe(answer.turn);
      chat.push({ role: 'assistant', content: answer.text });
    }
    // No rebase was needed and none was made: one turn per line, and the other client's game is untouched.
    expect(await server.store.listTree(session)).toHaveLength(1 + history.length);
    expect((await snapshot(server, owner)).find((s) => s.id === sdk.session)).toEqual(sdkBefore);
  });

  it('two chats of one character, switched back and forth, whose first replies are word for word the same', async () => {
    // Issue 31 case 4: each chat stays its own game, whatever the other one plays in between.
    const a = await played(server, ['!a'], { key: KEY_A });
    const b = await played(server, ['!a'], { key: KEY_A });
    expect(b.session).not.toBe(a.session);
    expect(readAnchors(b.chat[2]!.content).text).toBe(readAnchors(a.chat[2]!.content).text);
    const owner = (await server.store.findSessionForAudit(a.session))!.principalId;
    const histories = new Map([
      [a, ['!a']],
      [b, ['!a']],
    ]);
    const steps: [typeof a, string][] = [
      [a, '!b'],
      [b, '!c'],
      [a, '!c'],
      [b, '!a'],
      [a, '!a'],
      [b, '!b'],
    ];
    for (const [chat, line] of steps) {
      const other = chat === a ? b : a;
      const otherBefore = (await snapshot(server, owner)).find((s) => s.id === other.session);
      chat.chat.push({ role: 'user', content: line });
      const answer = await post(server, chat.chat, { key: KEY_A });
      expect(answer.session).toBe(chat.session);
      expect(readAnchors(answer.text).text).not.toContain('[MnesOS');
      chat.chat.push({ role: 'assistant', content: answer.text });
      const history = histories.get(chat)!;
      history.push(line);
      expect(await tallyAt(server, chat.session, answer.turn!)).toEqual(tallyOf(history));
      expect((await server.store.listTree(chat.session)).length).toBe(1 + history.length);
      expect((await snapshot(server, owner)).find((s) => s.id === other.session)).toEqual(otherBefore);
    }
  });

  it('an exchange deleted or hidden in the middle: the later ones are carried onto the shorter history', async () => {
    const { chat, session } = await played(server, ['!a', '!b', '!c'], { key: KEY_A });
    // Delete the !b exchange (the trash can on one pair; hiding both messages sends the same request), then
    // send: the game is a, c, then the new a.
    const shorter = [...chat.slice(0, 3), ...chat.slice(5), { role: 'user', content: '!a' }];
    const answer = await post(server, shorter, { key: KEY_A });
    expect(answer.session).toBe(session);
    expect(readAnchors(answer.text).text).not.toContain('[MnesOS');
    expect(await tallyAt(server, session, answer.turn!)).toEqual({
      code: ((1 * 31 + 3) * 31 + 1) % 1_000_003,
      count: 3,
    });
    const head = (await server.store.findSessionForAudit(session))!.headTurnId;
    expect(head).toBe(answer.turn);
    // The carried turn names its origin and shares its record; the old branch stays in the tree.
    const lineage = await server.store.getLineage(session, answer.turn!);
    expect(lineage!.map((t) => inputText(t.input))).toEqual([undefined, '/a', '/c', '/a']);
    expect(lineage![2]!.originId).toBeDefined();
    // The same chat again follows the carried turn: nothing is carried twice.
    const count = (await server.store.listTree(session)).length;
    const again = await post(
      server,
      [...shorter, { role: 'assistant', content: answer.text }, { role: 'user', content: '!b' }],
      { key: KEY_A },
    );
    expect((await server.store.listTree(session)).length).toBe(count + 1);
    expect((await server.store.getTurn(session, again.turn!))!.parentId).toBe(answer.turn);
  });

  it('a swipe shown again, then a line that spends no turn: the head follows the reply the chat shows', async () => {
    const { chat, session } = await played(server, ['!a', '!b'], { key: KEY_A });
    const first = readAnchors(chat.at(-1)!.content).turnIds[0]!;
    // Swipe right: a second reply to !b (its own turn, now the head).
    const swipe = await post(server, chat.slice(0, -1), { key: KEY_A });
    expect(swipe.turn).not.toBe(first);
    // Swipe left (the chat shows the first reply again), then a line the game answers without a turn.
    const answer = await post(server, [...chat, { role: 'user', content: 'I hum a tune.' }], { key: KEY_A });
    expect(answer.text.endsWith(NO_TURN_MARK)).toBe(true);
    const head = (await server.store.findSessionForAudit(session))!.headTurnId;
    expect(head).toBe(first);
  });

  it(`carries at most maxRebasedTurns per request, says so, and the next request carries the rest`, async () => {
    // At the limit: an edit of the first of three turns carries three, and the new turn is played.
    const three = await played(server, ['!a', '!b', '!c'], { key: KEY_A });
    const edited = [...three.chat];
    edited[1] = { role: 'user', content: '!a (edited)' };
    const atLimit = await post(server, [...edited, { role: 'user', content: '!a' }], { key: KEY_A });
    expect(atLimit.turn).not.toBeNull();
    expect(readAnchors(atLimit.text).text).not.toContain('[MnesOS');
    // Past it: four to carry, three carried, no turn played, and a note that says exactly that.
    const four = await played(server, ['!a', '!b', '!c', '!a'], { key: KEY_A });
    const before = (await server.store.listTree(four.session)).length;
    const changed = [...four.chat];
    changed[1] = { role: 'user', content: '!a (edited)' };
    changed.push({ role: 'user', content: '!b' });
    const past = await post(server, changed, { key: KEY_A });
    expect(past.status).toBe(200);
    expect(past.turn).toBeNull();
    expect(past.text).toContain(
      'the chat changed 4 turns back: 3 of them were carried over onto it (at most 3 per message). Send your message again',
    );
    expect(past.text.endsWith(NO_TURN_MARK)).toBe(true);
    expect((await server.store.listTree(four.session)).length).toBe(before + 3);
    // Sent again (a swipe of that answer): the fourth is carried and the turn played after it.
    const next = await post(server, changed, { key: KEY_A });
    expect(next.turn).not.toBeNull();
    expect((await server.store.listTree(four.session)).length).toBe(before + 5);
    const lineage = await server.store.getLineage(four.session, next.turn!);
    expect(lineage!.map((t) => inputText(t.input))).toEqual([
      undefined,
      '/a (edited)',
      '/b',
      '/c',
      '/a',
      '/b',
    ]);
    expect(await tallyAt(server, four.session, next.turn!)).toMatchObject({ count: 5 });
  });
});

describe('online: failures store nothing, and a group chat’s second member', () => {
  let server: TestServer;
  let mode: 'ok' | 'fail' | 'slow' = 'ok';
  let calls = 0;
  const narrator: ChatModel = {
    id: 'narrator',
    async generate() {
      if (mode === 'fail') throw new ModelError('network', 'the provider went away');
      return textResponse(`Reply ${++calls}.`);
    },
    async *stream(req) {
      const n = ++calls;
      const words = `Reply ${n}: the tally board creaks and the chalk squeaks on.`.split(' ');
      for (const [i, word] of words.entries()) {
        if (req.signal?.aborted) throw req.signal.reason;
        if (mode === 'fail' && i === 2) throw new ModelError('network', 'the provider went away mid-stream');
        if (mode === 'slow') await new Promise((resolve) => setTimeout(resolve, 60));
        yield { type: 'text-delta', text: i === 0 ? word : ` ${word}` };
      }
      yield { type: 'finish', response: textResponse(words.join(' ')) };
    },
  };
  const director: ChatModel = {
    id: 'director',
    async generate() {
      return textResponse('Describe the scene; no rules apply.');
    },
    async *stream() {
      yield { type: 'finish', response: textResponse('Describe the scene; no rules apply.') };
    },
  };
  const models = (): ModelSet => ({ director, narrator, npc: director });
  beforeAll(async () => {
    server = await startTestServer({ cartridgeDirs: [TALLY], models, limits: { rateLimit: 0 } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('a failed model call, a refusal or a cancelled stream after an edit leaves every session as it was', async () => {
    mode = 'ok';
    const { chat } = await played(server, ['I count.', 'I count again.', 'I count once more.']);
    const edited = [...chat];
    edited[1] = { role: 'user', content: 'I count, edited.' };
    const before = await snapshot(server, 'local-user');

    mode = 'fail';
    const failed = await post(server, [...edited, { role: 'user', content: 'Go on.' }]);
    expect(failed.status).toBe(502);
    expect(await snapshot(server, 'local-user')).toEqual(before);
    const failedStream = await post(server, [...edited, { role: 'user', content: 'Go on.' }], {
      stream: true,
    });
    expect(failedStream.status).toBe(200);
    expect(await snapshot(server, 'local-user')).toEqual(before);

    // A refusal: the new message is over the input limit.
    mode = 'ok';
    const refused = await post(server, [...edited, { role: 'user', content: 'x'.repeat(200_000) }]);
    expect(refused.status).toBe(413);
    expect(await snapshot(server, 'local-user')).toEqual(before);

    // Cancelled: the client goes away mid-stream.
    mode = 'slow';
    const control = new AbortController();
    const response = await server.call('/openai/v1/chat/completions', {
      method: 'POST',
      json: { model: 'Tally', messages: [...edited, { role: 'user', content: 'Go on.' }], stream: true },
      signal: control.signal,
    });
    const reader = response.body!.getReader();
    let partial = '';
    while (!partial.includes('Reply')) partial += new TextDecoder().decode((await reader.read()).value);
    control.abort();
    await reader.cancel().catch(() => undefined);
    const started = Date.now();
    while (server.deps.service.turnsInFlight > 0 && Date.now() - started < 5_000)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await snapshot(server, 'local-user')).toEqual(before);

    // Reloaded: the chat shows the line without a reply; sent again, it plays once, after the edit.
    mode = 'ok';
    const reloaded = await post(server, [...edited, { role: 'user', content: 'Go on.' }]);
    expect(reloaded.status).toBe(200);
    const lineage = await server.store.getLineage(reloaded.session!, reloaded.turn!);
    expect(lineage!.map((t) => inputText(t.input))).toEqual([
      undefined,
      'I count, edited.',
      'I count again.',
      'I count once more.',
      'Go on.',
    ]);
  });

  it('a second group member answering the same message is its own turn after the first, not a Continue', async () => {
    mode = 'ok';
    const chat: Message[] = [
      { role: 'system', content: '[Start a new group chat. Group members: Tally, Mira.]' },
      { role: 'assistant', content: GREETING },
      { role: 'user', content: 'Hello, both of you.' },
    ];
    const first = await post(server, [
      ...chat,
      { role: 'system', content: '[Write the next reply only as Tally.]' },
    ]);
    chat.push({ role: 'assistant', content: `Tally: ${first.text}` });
    const second = await post(server, [
      ...chat,
      { role: 'system', content: '[Write the next reply only as Mira.]' },
    ]);
    expect(second.status).toBe(200);
    const turn = (await server.store.getTurn(second.session!, second.turn!))!;
    expect(turn.parentId).toBe(first.turn);
    expect(inputText(turn.input)).toBe("Mira answers the player's last message next.");
    chat.push(
      { role: 'assistant', content: `Mira: ${second.text}` },
      { role: 'user', content: 'Thank you.' },
    );
    const third = await post(server, [
      ...chat,
      { role: 'system', content: '[Write the next reply only as Tally.]' },
    ]);
    expect((await server.store.getTurn(third.session!, third.turn!))!.parentId).toBe(second.turn);
    expect(third.text).not.toContain('[MnesOS');
  });
});
