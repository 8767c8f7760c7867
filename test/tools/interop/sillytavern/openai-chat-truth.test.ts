// The chat is the truth: a front end's chat that holds replies the game never stored (offline refusals,
// a reply stopped or failed mid-stream), names written into the messages, edited messages, and the front
// end's own generations, played against Lanternmere offline over real HTTP. After each request the tree
// and state are what the chat shows: one session, no orphan or duplicate turns.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSillyTavern } from '../../../../src/tools/interop/sillytavern/import.ts';
import type { ChatModel, ModelSet } from '../../../../src/adapters/llm/types.ts';
import { inputText } from '../../../../src/engine/session/messages.ts';
import { NO_TURN_MARK } from '../../../../src/apps/server/openai/notes.ts';
import { readAnchors } from '../../../../src/apps/server/openai/anchor.ts';
import { LANTERNMERE_DIR, startTestServer, type TestServer } from '../../../apps/server/helpers.ts';
import { textResponse } from './helpers.ts';

type Message = { role: string; content: string };

let demo: TestServer;
let greeting: string;

beforeAll(async () => {
  demo = await startTestServer();
});
afterAll(async () => {
  await demo?.stop();
});

async function post(
  messages: Message[],
  options: { model?: string; stream?: boolean; server?: TestServer } = {},
) {
  const response = await (options.server ?? demo).call('/openai/v1/chat/completions', {
    method: 'POST',
    json: { model: options.model ?? 'Lanternmere', messages, stream: options.stream ?? false },
  });
  const raw = await response.text();
  let text = '';
  if (options.stream === true) {
    for (const event of raw.split('\n\n')) {
      if (!event.startsWith('data: ') || event === 'data: [DONE]') continue;
      const parsed = JSON.parse(event.slice(6));
      text += parsed.choices?.[0]?.delta?.content ?? '';
    }
  } else if (response.status === 200) text = JSON.parse(raw).choices[0].message.content;
  return { status: response.status, text, session: response.headers.get('x-mnesos-session'), raw };
}

/** A reply as the player reads it: without its anchors (invisible characters). */
function visible(text: string): string {
  return readAnchors(text).text;
}

async function sessions(): Promise<number> {
  return (await demo.store.listSessions('local-user')).length;
}

async function tree(sessionId: string) {
  const nodes = await demo.store.listTree(sessionId);
  return Promise.all(nodes.map((n) => demo.store.getTurn(sessionId, n.id))).then((turns) =>
    turns.map((t) => ({
      id: t!.id,
      parentId: t!.parentId,
      input: inputText(t!.input) ?? null,
      state: t!.state as { player: { gold: number; location: string; inventory: string[] } },
    })),
  );
}

describe('a chat through a front end, offline (Lanternmere)', () => {
  let sessionId = '';
  const chat: Message[] = [];

  it('plays on after a refusal, with the names SillyTavern writes into the messages, in one session', async () => {
    const before = await sessions();
    greeting = readFileSync(join(LANTERNMERE_DIR, 'first-message.md'), 'utf8').trim();
    // A first message the game answers without a turn opens no game: nothing is left behind.
    const opening = await post([{ role: 'user', content: '/look' }], { model: 'Lanternmere' });
    expect(opening.status).toBe(200);
    expect(opening.text.endsWith(NO_TURN_MARK)).toBe(true);
    expect(opening.session).toBeNull();
    expect(await sessions()).toBe(before);
    // The chat as SillyTavern sends it with "Character Names Behavior: Message Content".
    chat.push(
      {
        role: 'system',
        content: "Write Lanternmere's next reply in a fictional chat between Lanternmere and Wren.",
      },
      { role: 'assistant', content: `Lanternmere: ${greeting}` },
      { role: 'user', content: 'Wren: I sing a song to the moon.' },
    );
    const refused = await post(chat);
    expect(refused.status).toBe(200);
    expect(refused.text).toContain('is not something the rules can do here');
    expect(refused.text).toContain('!help');
    expect(refused.text).not.toMatch(/(^|\s)\/help/);
    expect(refused.text.endsWith(NO_TURN_MARK)).toBe(true);

    chat.push(
      { role: 'assistant', content: `Lanternmere: ${refused.text}` },
      { role: 'user', content: 'Wren: I go to the brine market.' },
    );
    const travelled = await post(chat);
    expect(travelled.status).toBe(200);
    sessionId = travelled.session!;
    expect(visible(travelled.text)).not.toContain('[MnesOS');
    chat.push(
      { role: 'assistant', content: `Lanternmere: ${travelled.text}` },
      { role: 'user', content: 'Wren: I buy a brine tonic.' },
    );
    const bought = await post(chat, { stream: true });
    expect(bought.session).toBe(sessionId);
    expect(bought.text).not.toContain('no one to buy from');
    chat.push({ role: 'assistant', content: `Lanternmere: ${bought.text}` });

    const turns = await tree(sessionId);
    expect(turns.map((t) => t.input)).toEqual([null, 'I go to the brine market.', 'I buy a brine tonic.']);
    const [genesis, travel, buy] = turns;
    expect(travel!.parentId).toBe(genesis!.id);
    expect(buy!.parentId).toBe(travel!.id);
    expect(buy!.state.player.location).toBe('brine market');
    expect(buy!.state.player.inventory).toContain('brine tonic');
    // The refusals opened no session of their own: one session in all.
    expect(await sessions()).toBe(before + 1);
  });

  it('a reply stopped mid-stream (or "..." after a failure) is not played, and the next reply says so once', async () => {
    const stopped: Message[] = [
      ...chat,
      { role: 'user', content: 'Wren: I buy a lamp oil.' },
      { role: 'assistant', content: 'Lanternmere: The trader reaches for' },
      { role: 'user', content: 'Wren: !check_pack' },
    ];
    const checked = await post(stopped);
    expect(checked.status).toBe(200);
    expect(checked.session).toBe(sessionId);
    expect(checked.text).toContain('[MnesOS: “I buy a lamp oil.” was not played');
    const turns = await tree(sessionId);
    const buy = turns.find((t) => t.input === 'I buy a brine tonic.')!;
    const check = turns.find((t) => t.input === '/check_pack')!;
    expect(check.parentId).toBe(buy.id);
    expect(turns.some((t) => t.input === 'I buy a lamp oil.')).toBe(false);

    const next: Message[] = [
      ...stopped,
      { role: 'assistant', content: `Lanternmere: ${checked.text}` },
      { role: 'user', content: 'Wren: ...' },
      { role: 'assistant', content: '...' },
      { role: 'user', content: 'Wren: I sell the brine tonic.' },
    ];
    const sold = await post(next);
    expect(sold.status).toBe(200);
    expect(sold.session).toBe(sessionId);
    // Only the newest disagreement is named: the lamp oil was said once already.
    expect(sold.text).not.toContain('lamp oil');
    expect(sold.text).toContain('[MnesOS: “...” was not played');
    const after = await tree(sessionId);
    const sell = after.find((t) => t.input === 'I sell the brine tonic.')!;
    expect(sell.parentId).toBe(after.find((t) => t.input === '/check_pack')!.id);
  });

  it('continue offline plays nothing and never shows the engine its own instruction', async () => {
    const count = (await tree(sessionId)).length;
    const answer = await post([...chat.slice(0, -1), { role: 'assistant', content: chat.at(-1)!.content }], {
      stream: true,
    });
    expect(answer.text).not.toContain('Continue the scene');
    expect(answer.text).toContain('cannot be continued');
    expect((await tree(sessionId)).length).toBe(count);
  });

  it('impersonate, a summary and Test Message commit nothing', async () => {
    const count = (await tree(sessionId)).length;
    const before = await sessions();
    const impersonate = await post(
      [
        ...chat,
        {
          role: 'system',
          content:
            "[Write your next reply from the point of view of Wren, using the chat history so far as a guideline for the writing style of Wren. Don't write as Lanternmere or system. Don't describe actions of Lanternmere.]",
        },
      ],
      { stream: true },
    );
    expect(impersonate.status).toBe(200);
    expect(impersonate.text).not.toBe('');
    const summary = await post([
      ...chat,
      {
        role: 'system',
        content:
          'Ignore previous instructions. Summarize the most important facts and events in the story so far. Limit the summary to 200 words or less.',
      },
    ]);
    expect(summary.text).toContain('I buy a brine tonic.');
    const test = await post([{ role: 'user', content: 'Hi' }]);
    expect(test.status).toBe(200);
    expect(test.text).toContain('connected');
    expect((await tree(sessionId)).length).toBe(count);
    expect(await sessions()).toBe(before);
  });

  it('lists sessions with readable names, newest first, and session:<id> resumes at the head', async () => {
    const list = await demo.json('/openai/v1/models');
    const ids: string[] = list.body.data.map((m: { id: string }) => m.id);
    const mine = ids.find((id) => id.endsWith(`session:${sessionId}`))!;
    expect(mine).toMatch(
      /^Lanternmere · Chat \(Lanternmere\) · last played \d{4}-\d\d-\d\d \d\d:\d\d UTC · session:/,
    );
    const listed = ids.filter((id) => id.includes('session:'));
    expect(listed[0]).toBe(mine); // the most recently played
    expect(ids.indexOf('Lanternmere')).toBeLessThan(ids.indexOf(mine));

    const head = (await demo.store.listSessions('local-user')).find((s) => s.id === sessionId)!.headTurnId;
    const resumed = await post(
      [
        { role: 'assistant', content: greeting },
        { role: 'user', content: 'I go to the tallow rest.' },
      ],
      { model: mine },
    );
    expect(resumed.session).toBe(sessionId);
    const turns = await tree(sessionId);
    expect(turns.find((t) => t.input === 'I go to the tallow rest.')!.parentId).toBe(head);
  });

  it('identical first messages at once are two chats, two games; with one Idempotency-Key, one game and one turn', async () => {
    const before = await sessions();
    const first: Message[] = [
      { role: 'assistant', content: greeting },
      { role: 'user', content: 'I go to the reedmaze, twice at once.' },
    ];
    // Nothing in two new chats tells them apart: each is its own conversation (none lands in the other's).
    const answers = await Promise.all([post(first), post(first)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(new Set(answers.map((a) => a.session)).size).toBe(2);
    expect(await sessions()).toBe(before + 2);
    // A retry carries its key: the same game, the turn played once.
    const call = () =>
      demo.call('/openai/v1/chat/completions', {
        method: 'POST',
        json: { model: 'Lanternmere', messages: first },
        headers: { 'idempotency-key': 'reedmaze-retry-1' },
      });
    const retried = await Promise.all([call(), call()]);
    const statuses = retried.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect([200, 409]).toContain(statuses[1]);
    const ids = new Set(
      retried.filter((r) => r.status === 200).map((r) => r.headers.get('x-mnesos-session')),
    );
    expect(ids.size).toBe(1);
    const [keyed] = [...ids];
    expect(await sessions()).toBe(before + 3);
    expect(
      (await tree(keyed!)).filter((t) => t.input === 'I go to the reedmaze, twice at once.'),
    ).toHaveLength(1);
    const again = await call();
    expect(again.headers.get('x-mnesos-session')).toBe(keyed);
    expect(again.headers.get('x-mnesos-replayed')).toBe('true');
  });
});

describe('an edited message keeps the game', () => {
  it('rebases the later turns onto the edited message from their records: the state matches the chat', async () => {
    const chat: Message[] = [
      { role: 'assistant', content: greeting },
      { role: 'user', content: 'I travel to the brine market.' },
    ];
    const one = await post(chat);
    chat.push(
      { role: 'assistant', content: one.text },
      { role: 'user', content: 'I buy the eelskin cloak.' },
    );
    const two = await post(chat);
    expect(two.session).toBe(one.session);
    chat.push({ role: 'assistant', content: two.text });
    const sessionId = one.session!;
    const original = await tree(sessionId);
    const bought = original.find((t) => t.input === 'I buy the eelskin cloak.')!;

    // The player fixes a typo in the first message, then sends another one.
    const edited: Message[] = [
      chat[0]!,
      { role: 'user', content: 'I travel to the Brine Market, quickly.' },
      ...chat.slice(2),
      { role: 'user', content: '!check_pack' },
    ];
    const three = await post(edited);
    expect(three.status).toBe(200);
    expect(three.session).toBe(sessionId);
    expect(three.text).not.toContain('[MnesOS');
    const turns = await tree(sessionId);
    const travel2 = turns.find((t) => t.input === 'I travel to the Brine Market, quickly.')!;
    const buy2 = turns.filter((t) => t.input === 'I buy the eelskin cloak.').find((t) => t.id !== bought.id)!;
    expect(buy2.parentId).toBe(travel2.id);
    expect(buy2.state).toEqual(bought.state);
    expect(turns.find((t) => t.input === '/check_pack' && t.parentId === buy2.id)).toBeDefined();

    // The same chat again follows the rebased branch: nothing is rebased twice.
    const count = turns.length;
    const again = await post([
      ...edited,
      { role: 'assistant', content: three.text },
      // A command that always plays a turn (offline, a request the rules refuse here spends none).
      { role: 'user', content: '!check_pack' },
    ]);
    expect(again.session).toBe(sessionId);
    expect((await tree(sessionId)).length).toBe(count + 1);
  });
});

describe('errors and keys', () => {
  it('a 400 from body validation carries the OpenAI type field', async () => {
    const answer = await demo.json('/openai/v1/chat/completions', {
      method: 'POST',
      json: { model: 'Lanternmere', messages: [] },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request' });
  });
});

const CARD = {
  spec: 'chara_card_v2',
  spec_version: '2.0',
  data: {
    name: 'Mira',
    description: 'Mira keeps the lighthouse.',
    personality: 'calm',
    scenario: 'A stormy night at the lighthouse.',
    first_mes: '*Mira opens the door.* Come in, {{user}}.',
    mes_example: '<START>\n{{char}}: Mind the stairs, they are wet.',
    creator_notes: '',
    system_prompt: '',
    post_history_instructions: '',
    alternate_greetings: [],
    tags: [],
    creator: '',
    character_version: '',
    extensions: {},
  },
};

describe('an imported card through a front end', () => {
  let folder: string;
  let offline: TestServer;
  let online: TestServer;
  /** Each reply is `Reply N to "<input>" …` streamed word by word, slowly enough to be stopped. */
  let replies = 0;
  const slow: ChatModel = {
    id: 'slow-narrator',
    async generate() {
      return textResponse(`Reply ${++replies}.`);
    },
    async *stream(req) {
      const last = req.messages.at(-1);
      const said = last && 'content' in last ? last.content.split('\n').at(-1) : '';
      const text = `*Reply ${++replies}* to ${said} — the lamp turns, the sea answers, and the night goes on.`;
      for (const word of text.split(' ')) {
        await new Promise((resolve) => setTimeout(resolve, 15));
        // A provider's stream ends when the request is cancelled.
        if (req.signal?.aborted) throw req.signal.reason;
        yield { type: 'text-delta', text: `${word} ` };
      }
      yield { type: 'finish', response: textResponse(`${text} `) };
    },
  };
  const director: ChatModel = {
    id: 'fake-director',
    async generate() {
      return textResponse('Describe the scene; no rules apply.');
    },
    async *stream() {
      yield { type: 'finish', response: textResponse('Describe the scene; no rules apply.') };
    },
  };
  const models = (): ModelSet => ({ director, narrator: slow, npc: director });

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'mnesos-card-'));
    for (const [name, content] of importSillyTavern(Buffer.from(JSON.stringify(CARD)), 'mira.json').files)
      writeFileSync(join(folder, name), content);
    offline = await startTestServer({ cartridgeDirs: [folder] });
    online = await startTestServer({ cartridgeDirs: [folder], models });
  });
  afterAll(async () => {
    await offline?.stop();
    await online?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('plays offline: look, talk and wait from the card, no turn spent, no game kept', async () => {
    const chat: Message[] = [
      { role: 'assistant', content: '*Mira opens the door.* Come in, Wren.' },
      { role: 'user', content: 'I look around.' },
    ];
    const look = await post(chat, { model: 'Mira', server: offline });
    expect(look.text).toContain('A stormy night at the lighthouse.');
    expect(look.text.endsWith(NO_TURN_MARK)).toBe(true);
    chat.push({ role: 'assistant', content: look.text }, { role: 'user', content: '"Hello, Mira."' });
    const talk = await post(chat, { model: 'Mira', server: offline, stream: true });
    expect(talk.text).toContain('Mira: Mind the stairs, they are wet.');
    chat.push({ role: 'assistant', content: talk.text }, { role: 'user', content: 'I juggle three fish.' });
    const other = await post(chat, { model: 'Mira', server: offline });
    expect(other.text).toContain('you can look around, talk');
    // Nothing was played: no game was kept for the chat (a streamed answer names the session it opened
    // before it knows, in its headers; that session is removed with the answer).
    expect([look.session, other.session]).toEqual([null, null]);
    expect(await offline.store.listSessions('local-user')).toEqual([]);
  });

  it('Stop mid-stream stores nothing; the next message follows the last stored turn and says so', async () => {
    const chat: Message[] = [
      { role: 'assistant', content: '*Mira opens the door.* Come in, Wren.' },
      { role: 'user', content: 'I step inside.' },
    ];
    const first = await post(chat, { model: 'Mira', server: online, stream: true });
    expect(first.status).toBe(200);
    const sessionId = first.session!;
    // SillyTavern's markdown fix and whitespace changes to the reply it shows.
    chat.push(
      { role: 'assistant', content: `${first.text.trim().replace(' — ', '  —  ')}*` },
      { role: 'user', content: 'I climb the stairs.' },
    );
    // Stop: the client goes away after the first words.
    const control = new AbortController();
    const response = await online.call('/openai/v1/chat/completions', {
      method: 'POST',
      json: { model: 'Mira', messages: chat, stream: true },
      signal: control.signal,
    });
    const reader = response.body!.getReader();
    let partial = '';
    while (!partial.includes('Reply')) partial += new TextDecoder().decode((await reader.read()).value);
    control.abort();
    await reader.cancel().catch(() => undefined);
    const started = Date.now();
    while (online.deps.service.turnsInFlight > 0 && Date.now() - started < 5_000)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(online.deps.service.turnsInFlight).toBe(0);
    expect((await online.store.listTree(sessionId)).length).toBe(2);

    chat.push(
      { role: 'assistant', content: '*Reply 2* to' },
      { role: 'user', content: 'I climb the stairs again.' },
    );
    const next = await post(chat, { model: 'Mira', server: online, stream: true });
    expect(next.session).toBe(sessionId);
    expect(next.text).toContain('[MnesOS: “I climb the stairs.” was not played');
    expect(next.text).not.toContain('its own reply'); // the first reply, reformatted, still matched
    const nodes = await online.store.listTree(sessionId);
    expect(nodes).toHaveLength(3);
    const turns = await Promise.all(nodes.map((n) => online.store.getTurn(sessionId, n.id)));
    const inside = turns.find((t) => inputText(t!.input) === 'I step inside.')!;
    const again = turns.find((t) => inputText(t!.input) === 'I climb the stairs again.')!;
    expect(again.parentId).toBe(inside.id);
  });
});
