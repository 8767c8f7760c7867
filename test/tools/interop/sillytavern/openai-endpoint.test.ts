// The OpenAI-compatible endpoint, driven by the official `openai` client over real HTTP: a whole game from a
// card imported in the test (with World Info), with swipes, an edit, a continue and a retried request, and
// no duplicate turns in the store. Plus the raw SSE wire format SillyTavern reads, errors and API keys.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSillyTavern } from '../../../../src/tools/interop/sillytavern/import.ts';
import type { ChatModel, ModelRequest, ModelSet } from '../../../../src/adapters/llm/types.ts';
import { inputText } from '../../../../src/engine/session/messages.ts';
import { ModelError } from '../../../../src/adapters/llm/errors.ts';
import { readAnchors } from '../../../../src/apps/server/openai/anchor.ts';
import { CONTINUE_INPUT } from '../../../../src/apps/server/openai/conversation.ts';
import { MAX_TRANSCRIPT_MESSAGES } from '../../../../src/apps/server/openai/transcript.ts';
import { MAX_INPUT_CHARS } from '../../../../src/engine/turn/limits.ts';
import { KEY_A, startTestServer, type TestServer } from '../../../apps/server/helpers.ts';
import { ApiHttp } from '../../../../src/apps/web/lib/http.ts';
import { LibraryApi } from '../../../../src/apps/web/library/library-api.ts';
import { base64Json, png, textChunk, textResponse } from './helpers.ts';

const CARD = {
  spec: 'chara_card_v2',
  spec_version: '2.0',
  data: {
    name: 'Mira',
    description: '{{char}} keeps the lighthouse and talks to {{user}} about the sea.',
    personality: 'calm',
    scenario: 'A stormy night at the lighthouse.',
    first_mes: '*{{char}} opens the door.* Come in, {{user}}, out of the rain.',
    mes_example: '',
    creator_notes: '',
    system_prompt: '',
    post_history_instructions: '',
    alternate_greetings: [],
    tags: [],
    creator: '',
    character_version: '',
    extensions: {},
    character_book: {
      extensions: {},
      entries: [
        {
          keys: ['moonstone'],
          content: 'The moonstone is the lighthouse lens, cut from a fallen star.',
          extensions: {},
          enabled: true,
          insertion_order: 10,
          use_regex: false,
        },
      ],
    },
  },
};

let calls = 0;
/** A narrator that says which call it is and whether World Info reached its prompt. */
const narrator: ChatModel = {
  id: 'fake-narrator',
  async generate(req) {
    return textResponse(narrate(req));
  },
  async *stream(req) {
    const text = narrate(req);
    const half = Math.floor(text.length / 2);
    yield { type: 'text-delta', text: text.slice(0, half) };
    yield { type: 'text-delta', text: text.slice(half) };
    yield { type: 'finish', response: textResponse(text) };
  },
};
function narrate(req: ModelRequest): string {
  calls++;
  const last = req.messages.at(-1);
  const content = last && 'content' in last ? last.content : '';
  // The player's words end the last message (after the turn's volatile context, when the prompt carries it there).
  const marker = '--- THE PLAYER NOW ---\n';
  const said = content.includes(marker)
    ? content.slice(content.lastIndexOf(marker) + marker.length)
    : content;
  const everything = [req.system, ...req.messages.map((m) => ('content' in m ? m.content : ''))].join('\n');
  const lore = everything.includes('fallen star') ? ' The lens shines like a fallen star.' : '';
  const context = everything.includes('NOTES FROM THE PLAYER') ? ' (context seen)' : '';
  return `Narration ${calls} for "${said}".${lore}${context}`;
}
const director: ChatModel = {
  id: 'fake-director',
  async generate() {
    return textResponse('Describe the scene; no rules apply.');
  },
  async *stream() {
    yield { type: 'finish', response: textResponse('Describe the scene; no rules apply.') };
  },
};
const models = (): ModelSet => ({ director, narrator, npc: director });

let server: TestServer;
let keyed: TestServer;
let folder: string;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'mnesos-openai-'));
  const imported = importSillyTavern(Buffer.from(JSON.stringify(CARD)), 'mira.json');
  for (const [name, content] of imported.files) writeFileSync(join(folder, name), content);
  server = await startTestServer({ cartridgeDirs: [folder], models });
  keyed = await startTestServer({ cartridgeDirs: [folder], models, apiKeys: [{ label: 'a', key: KEY_A }] });
});

afterAll(async () => {
  await server?.stop();
  await keyed?.stop();
  rmSync(folder, { recursive: true, force: true });
});

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/** A reply as the player reads it: its anchors (which name its turn, in invisible characters) left out. */
function shown(text: string): string {
  return readAnchors(text).text;
}

function client(s: TestServer, options: { apiKey?: string; fetch?: typeof fetch } = {}): OpenAI {
  return new OpenAI({
    baseURL: `${s.url}/openai/v1`,
    apiKey: options.apiKey ?? 'unused-in-local-mode',
    maxRetries: 2,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

let keyCount = 0;
const key = (): { headers: Record<string, string> } => ({
  headers: { 'Idempotency-Key': `test-${++keyCount}` },
});

async function streamed(openai: OpenAI, messages: Message[], headers = key()): Promise<string> {
  const stream = await openai.chat.completions.create({ model: 'Mira', messages, stream: true }, headers);
  let text = '';
  for await (const part of stream) text += part.choices[0]?.delta?.content ?? '';
  return text;
}

async function plain(openai: OpenAI, messages: Message[], headers = key()): Promise<string> {
  const done = await openai.chat.completions.create({ model: 'Mira', messages }, headers);
  return done.choices[0]!.message.content ?? '';
}

async function turnsOf(s: TestServer, sessionId: string) {
  const nodes = await s.store.listTree(sessionId);
  return Promise.all(nodes.map((n) => s.store.getTurn(sessionId, n.id))).then((turns) =>
    turns.map((t) => ({
      id: t!.id,
      parentId: t!.parentId,
      input: inputText(t!.input) ?? null,
      narration: t!.narration,
    })),
  );
}

describe('the OpenAI-compatible endpoint with the openai client', () => {
  it('lists cartridges and sessions as models', async () => {
    const list = await client(server).models.list();
    expect(list.data.map((m) => m.id)).toContain('Mira');
  });

  it('plays a whole game: new messages, swipes, a retried request, an edit and a continue, without duplicate turns', async () => {
    const openai = client(server);
    const system: Message = {
      role: 'system',
      content: "Write Mira's next reply. The user's persona: a tired sailor.",
    };
    const greeting: Message = {
      role: 'assistant',
      content: '*Mira opens the door.* Come in, Sailor, out of the rain.',
    };

    // 1. A new conversation: a new session, one turn.
    const history: Message[] = [
      system,
      greeting,
      { role: 'user', content: 'Thank you. What is that light?' },
    ];
    const reply1 = await streamed(openai, history);
    expect(shown(reply1)).toMatch(/^Narration \d+ for "Thank you\. What is that light\?"\./);
    expect(reply1).toContain('(context seen)');
    // Its first characters are the anchors of its turn: invisible, and never part of the story.
    expect(readAnchors(reply1).turnIds).toHaveLength(1);
    expect(reply1.startsWith(shown(reply1))).toBe(false);
    const sessions = await server.store.listSessions('local-user');
    expect(sessions).toHaveLength(1);
    const sessionId = sessions[0]!.id;

    // 2. The next message, matched to the first turn; World Info activates on "moonstone".
    history.push(
      { role: 'assistant', content: reply1 },
      { role: 'user', content: 'Tell me about the moonstone.' },
    );
    const reply2 = await plain(openai, history);
    expect(reply2).toContain('The lens shines like a fallen star.');

    // 3. Two swipes of that reply: siblings with the same parent and input.
    const swipe1 = await plain(openai, history);
    const swipe2 = await streamed(openai, history);
    expect(new Set([reply2, swipe1, swipe2].map(shown)).size).toBe(3);

    // 4. A retried request: the first answer is lost on the way back; the client retries with the same
    // Idempotency-Key, and the stored turn comes back instead of a new one.
    let dropped = 0;
    const lossy: typeof fetch = async (input, init) => {
      const answer = await fetch(input, init);
      if (dropped === 0 && String(input).includes('/chat/completions')) {
        dropped++;
        await answer.text();
        throw new TypeError('connection reset');
      }
      return answer;
    };
    history.push({ role: 'assistant', content: swipe2 }, { role: 'user', content: 'I sit by the fire.' });
    const before = (await turnsOf(server, sessionId)).length;
    const retried = await plain(client(server, { fetch: lossy }), history, key());
    expect(dropped).toBe(1);
    expect((await turnsOf(server, sessionId)).length).toBe(before + 1);
    const fireTurns = (await turnsOf(server, sessionId)).filter((t) => t.input === 'I sit by the fire.');
    expect(fireTurns).toHaveLength(1);
    expect(fireTurns[0]!.narration).toBe(shown(retried));
    expect(readAnchors(retried).turnIds).toEqual([fireTurns[0]!.id]);

    // 5. An edit: the player rewrote their second message (the reply stays as shown); the turn is rebased
    // onto the edited message from its record (no model call) and the new message follows it.
    const edited: Message[] = [
      system,
      greeting,
      { role: 'user', content: 'Thank you. What is that light?' },
      { role: 'assistant', content: reply1 },
      { role: 'user', content: 'Tell me about the moonstone, please.' },
      { role: 'assistant', content: reply2 },
      { role: 'user', content: 'I look out to sea.' },
    ];
    const callsBefore = calls;
    const branched = await plain(openai, edited);
    expect(calls - callsBefore).toBe(1); // the new message's narration only
    const afterEdit = await turnsOf(server, sessionId);
    const first = afterEdit.find((t) => t.input === 'Thank you. What is that light?')!;
    const rebased = afterEdit.find((t) => t.input === 'Tell me about the moonstone, please.')!;
    expect(rebased).toMatchObject({ parentId: first.id, narration: shown(reply2) });
    const sea = afterEdit.find((t) => t.input === 'I look out to sea.')!;
    expect(sea.parentId).toBe(rebased.id);
    expect(sea.narration).toBe(shown(branched));
    expect(branched).toContain('(context seen)');

    // 6. Continue: the transcript ends with the assistant's message; a turn extends the narration, and the
    // next message (with the reply as the front end shows it, continuation appended) follows it.
    const cont: Message[] = [...history, { role: 'assistant', content: retried }];
    const continuation = await plain(openai, cont);
    const continued = (await turnsOf(server, sessionId)).find((t) => t.input === CONTINUE_INPUT)!;
    expect(continued.parentId).toBe(fireTurns[0]!.id);
    expect(continued.narration).toBe(shown(continuation));
    const next: Message[] = [
      ...history,
      { role: 'assistant', content: `${retried} ${continuation}` },
      { role: 'user', content: 'I fall asleep.' },
    ];
    await plain(openai, next);
    const asleep = (await turnsOf(server, sessionId)).find((t) => t.input === 'I fall asleep.')!;
    expect(asleep.parentId).toBe(continued.id);

    // No duplicates: the only turns sharing a parent and an input are the two swipes of reply 2.
    const all = await turnsOf(server, sessionId);
    const byPlace = new Map<string, number>();
    for (const t of all)
      byPlace.set(`${t.parentId}|${t.input}`, (byPlace.get(`${t.parentId}|${t.input}`) ?? 0) + 1);
    const repeated = [...byPlace.entries()].filter(([, n]) => n > 1);
    expect(repeated).toEqual([[expect.stringContaining('|Tell me about the moonstone.'), 3]]);
    // genesis, light, moonstone ×3, moonstone (edited), fire, sea, continue, asleep
    expect(all).toHaveLength(10);
    expect(await server.store.listSessions('local-user')).toHaveLength(1);
  });

  it('follows a transcript whose oldest messages the front end cut to fit its context', async () => {
    const call = async (messages: Message[]) => {
      const answer = await server.json('/openai/v1/chat/completions', {
        method: 'POST',
        json: { model: 'Mira', messages },
        headers: { 'idempotency-key': `trim-${++keyCount}` },
      });
      expect(answer.status).toBe(200);
      return {
        text: answer.body.choices[0].message.content as string,
        session: answer.headers.get('x-mnesos-session')!,
      };
    };
    const full: Message[] = [
      { role: 'assistant', content: 'Welcome.' },
      { role: 'user', content: 'Trim one.' },
    ];
    const one = await call(full);
    full.push({ role: 'assistant', content: one.text }, { role: 'user', content: 'Trim two.' });
    const two = await call(full);
    full.push({ role: 'assistant', content: two.text }, { role: 'user', content: 'Trim three.' });
    const three = await call(full);
    expect(new Set([one.session, two.session, three.session]).size).toBe(1);
    // The front end drops the greeting and the first exchange: the same session, after the third turn.
    const trimmed: Message[] = [
      { role: 'user', content: 'Trim two.' },
      { role: 'assistant', content: two.text },
      { role: 'user', content: 'Trim three.' },
      { role: 'assistant', content: three.text },
      { role: 'user', content: 'Trim four.' },
    ];
    const four = await call(trimmed);
    expect(four.session).toBe(one.session);
    const turns = await turnsOf(server, one.session);
    const third = turns.find((t) => t.input === 'Trim three.')!;
    expect(turns.find((t) => t.input === 'Trim four.')!.parentId).toBe(third.id);
  });

  it('an identical request after a completed answer is a swipe: a new sibling with new text', async () => {
    const openai = client(server);
    const messages: Message[] = [
      { role: 'assistant', content: 'Hello.' },
      { role: 'user', content: 'A brand new chat begins here.' },
    ];
    const first = await plain(openai, messages, { headers: {} });
    messages.push({ role: 'assistant', content: first }, { role: 'user', content: 'And goes on here.' });
    const a = await plain(openai, messages, { headers: {} });
    const b = await plain(openai, messages, { headers: {} });
    expect(shown(b)).not.toBe(shown(a));
    const [turnId] = readAnchors(a).turnIds;
    const sessionId = (await server.store.locateTurns('local-user', [turnId!]))[0]!.sessionId;
    const swipes = (await turnsOf(server, sessionId)).filter((t) => t.input === 'And goes on here.');
    expect(swipes.map((t) => t.narration).sort()).toEqual([shown(a), shown(b)].sort());
    expect(new Set(swipes.map((t) => t.parentId)).size).toBe(1);
  });

  it('the same first message again opens another game: nothing in it names the first one', async () => {
    const openai = client(server);
    const messages: Message[] = [
      { role: 'assistant', content: 'Hello.' },
      { role: 'user', content: 'Two chats begin alike.' },
    ];
    const a = await plain(openai, messages, { headers: {} });
    const b = await plain(openai, messages, { headers: {} });
    const [one] = await server.store.locateTurns('local-user', readAnchors(a).turnIds);
    const [two] = await server.store.locateTurns('local-user', readAnchors(b).turnIds);
    expect(one!.sessionId).not.toBe(two!.sessionId);
  });
});

describe('importing a card through the API', () => {
  it('POST /v1/cartridges/import stores the cartridge and answers the loss report; the endpoint can play it', async () => {
    const card = { ...CARD, data: { ...CARD.data, name: 'Uploaded Mira', alternate_greetings: ['Hi.'] } };
    const file = png([textChunk('chara', base64Json(card))]);
    const response = await server.call('/v1/cartridges/import', {
      method: 'POST',
      body: new Uint8Array(file),
      headers: { 'content-type': 'image/png' },
    });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toMatchObject({ kind: 'png', spec: 'v2', created: true });
    expect(body.loss.map((l: { name: string }) => l.name)).not.toContain('alternate_greetings');
    const list = await client(server).models.list();
    expect(list.data.map((m) => m.id)).toContain('Uploaded Mira');

    const broken = await server.json('/v1/cartridges/import', {
      method: 'POST',
      body: new Uint8Array(png([textChunk('chara', '%%%')])),
      headers: { 'content-type': 'image/png' },
    });
    expect(broken.status).toBe(422);
    expect(broken.body.error.code).toBe('import_bad_base64');
    expect(broken.body.error.where).toMatch(/^upload: chunk 3/);
  });
});

describe("the web client's upload", () => {
  it('imports a .png or .json card through /v1/cartridges/import', async () => {
    const api = new LibraryApi(new ApiHttp(server.url));
    const card = { ...CARD, data: { ...CARD.data, name: 'Web Mira' } };
    const fromJson = await api.upload(new Blob([JSON.stringify(card)]), 'web-mira.json');
    expect(fromJson.version.name).toBe('Web Mira');
    const pngCard = { ...CARD, data: { ...CARD.data, name: 'Web Mira PNG' } };
    const fromPng = await api.upload(
      new Blob([new Uint8Array(png([textChunk('chara', base64Json(pngCard))]))]),
      'mira.png',
    );
    expect(fromPng.version.name).toBe('Web Mira PNG');
  });
});

describe('the request SillyTavern sends', () => {
  it("accepts SillyTavern's default Chat Completion body: system prompts anywhere, example messages, samplers", async () => {
    const body = {
      messages: [
        { role: 'system', content: "Write Mira's next reply in a fictional chat between Mira and Sailor." },
        { role: 'system', content: 'The moonstone is the lighthouse lens.' },
        { role: 'system', content: 'Mira keeps the lighthouse.' },
        { role: 'system', content: '[Example Chat]' },
        { role: 'system', name: 'example_user', content: 'Hello?' },
        { role: 'system', name: 'example_assistant', content: 'Come in.' },
        { role: 'system', content: '[Start a new Chat]' },
        { role: 'assistant', content: 'Come in, Sailor, out of the rain.' },
        { role: 'user', content: 'A SillyTavern-shaped hello.' },
        { role: 'system', content: "[Mira's note: stay calm]" },
      ],
      model: 'Mira',
      temperature: 1,
      frequency_penalty: 0,
      presence_penalty: 0,
      top_p: 1,
      max_tokens: 300,
      stream: false,
      seed: 7,
      stop: ['\nSailor:'],
      logit_bias: {},
      custom_extra: { from: 'include_body' },
    };
    const answer = await server.json('/openai/v1/chat/completions', {
      method: 'POST',
      json: body,
      headers: { authorization: 'Bearer ' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.object).toBe('chat.completion');
    expect(answer.body.choices[0].message).toMatchObject({ role: 'assistant' });
    expect(shown(answer.body.choices[0].message.content)).toMatch(
      /^Narration \d+ for "A SillyTavern-shaped hello\."\. \(context seen\)$/,
    );
  });
});

describe('the wire format SillyTavern reads', () => {
  it('streams data-only events with choices[0].delta.content, ending with data: [DONE]', async () => {
    const response = await server.call('/openai/v1/chat/completions', {
      method: 'POST',
      json: { model: 'Mira', stream: true, messages: [{ role: 'user', content: 'Wire format check.' }] },
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await response.text();
    const events = text.split('\n\n').filter((e) => e !== '');
    for (const event of events) expect(event).toMatch(/^data: /);
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice(6)));
    expect(
      chunks.every((c) => c.object === 'chat.completion.chunk' && !('message' in c) && !('error' in c)),
    ).toBe(true);
    // The first chunk carries the reply's anchors (its turn, the turn it follows) before any prose.
    expect(readAnchors(chunks[0].choices[0].delta.content)).toMatchObject({ text: '' });
    expect(readAnchors(chunks[0].choices[0].delta.content).turnIds).toHaveLength(1);
    expect(shown(chunks.map((c) => c.choices[0].delta.content ?? '').join(''))).toMatch(
      /^Narration \d+ for "Wire format check\."/,
    );
    expect(chunks.at(-1).choices[0].finish_reason).toBe('stop');
  });

  it('appends the details block when asked, and the next request still matches the turn', async () => {
    const messages = [{ role: 'user', content: 'Details, please.' }];
    const first = await server.json('/openai/v1/chat/completions', {
      method: 'POST',
      json: { model: 'Mira', messages, mnesos_details: true },
    });
    expect(first.status).toBe(200);
    const content: string = first.body.choices[0].message.content;
    // This cartridge has no dice and no public state: nothing to add.
    expect(content).not.toContain('[MnesOS');
  });

  it('answers errors as {error: {...}} with the right status', async () => {
    const unknown = await server.json('/openai/v1/chat/completions', {
      method: 'POST',
      json: { model: 'no-such-cartridge', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('model_not_found');
    expect(typeof unknown.body.error.message).toBe('string');
    const empty = await server.json('/openai/v1/chat/completions', {
      method: 'POST',
      json: { model: 'Mira', messages: [{ role: 'system', content: 'only a system prompt' }] },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toMatch(/no user message/);
  });

  it('needs a valid bearer API key when the server has keys', async () => {
    const none = await keyed.json('/openai/v1/models', { headers: { authorization: 'Bearer ' } });
    expect(none.status).toBe(401);
    expect(none.body.error).toBeDefined();
    await expect(client(keyed, { apiKey: 'wrong-key-wrong-key' }).models.list()).rejects.toThrow(/401/);
    const list = await client(keyed, { apiKey: KEY_A }).models.list();
    expect(list.data.map((m) => m.id)).toContain('Mira');
  });
});

describe('hostile and failing requests', () => {
  let failing: TestServer;
  beforeAll(async () => {
    const broken: ChatModel = {
      id: 'broken',
      async generate() {
        throw new ModelError('network', 'the provider is down');
      },
      // biome-ignore lint/correctness/useYield: a stream that fails before its first part
      async *stream() {
        throw new ModelError('network', 'the provider is down');
      },
    };
    failing = await startTestServer({
      cartridgeDirs: [folder],
      models: () => ({ director, narrator: broken, npc: director }),
    });
  });
  afterAll(async () => {
    await failing?.stop();
  });

  it('a model failure after the stream began is one data: {"error"} event, then [DONE]; nothing is stored', async () => {
    const response = await failing.call('/openai/v1/chat/completions', {
      method: 'POST',
      json: { model: 'Mira', stream: true, messages: [{ role: 'user', content: 'Anyone there?' }] },
    });
    expect(response.status).toBe(200);
    const events = (await response.text()).split('\n\n').filter((e) => e !== '');
    expect(events.at(-1)).toBe('data: [DONE]');
    const error = JSON.parse(events.at(-2)!.slice(6));
    expect(error.error).toMatchObject({ code: 'model_failed', type: 'server_error' });
    // Nothing stored: the session this first message opened is removed with its failure.
    expect(await failing.store.listSessions('local-user')).toEqual([]);
  });

  it('without streaming, a model failure is a 502 with an error object', async () => {
    const answer = await failing.json('/openai/v1/chat/completions', {
      method: 'POST',
      json: { model: 'Mira', messages: [{ role: 'user', content: 'Anyone there?' }] },
    });
    expect(answer.status).toBe(502);
    expect(answer.body.error.code).toBe('model_failed');
  });

  it('refuses malformed bodies with 400 and never a 500', async () => {
    const bodies: unknown[] = [
      { model: 'Mira', messages: [] },
      { model: 'Mira', messages: [{ role: 'user', content: 42 }] },
      { model: 'Mira', messages: 'hello' },
      {
        model: 'Mira',
        messages: Array.from({ length: MAX_TRANSCRIPT_MESSAGES + 1 }, () => ({ role: 'user', content: 'x' })),
      },
      { model: 7, messages: [{ role: 'user', content: 'x' }] },
    ];
    for (const json of bodies) {
      const answer = await server.json('/openai/v1/chat/completions', { method: 'POST', json });
      expect(answer.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      expect(answer.body.error).toBeDefined();
    }
    const unknownSession = await server.json('/openai/v1/chat/completions', {
      method: 'POST',
      json: { model: 'session:not-a-session', messages: [{ role: 'user', content: 'x' }] },
    });
    expect(unknownSession.status).toBe(404);
    const tooLong = await server.json('/openai/v1/chat/completions', {
      method: 'POST',
      json: { model: 'Mira', messages: [{ role: 'user', content: 'y'.repeat(MAX_INPUT_CHARS + 1) }] },
    });
    // The server's input limit (by default the engine's MAX_INPUT_CHARS), answered as on /v1.
    expect(tooLong.status).toBe(413);
    expect(tooLong.body.error.code).toBe('input_too_long');
    expect(tooLong.body.error.limit).toBe(MAX_INPUT_CHARS);
    expect(tooLong.body.error.type).toBe('invalid_request_error');
  });
});

describe('the details block on a cartridge with dice (Lanternmere, offline)', () => {
  let demo: TestServer;
  beforeAll(async () => {
    demo = await startTestServer();
  });
  afterAll(async () => {
    await demo?.stop();
  });

  it('appends dice and public changes, and the next request still follows that turn', async () => {
    const first = [{ role: 'user', content: '/travel destination="brine market"' }];
    const answer = await demo.json('/openai/v1/chat/completions', {
      method: 'POST',
      json: { model: 'Lanternmere', messages: first, mnesos_details: true },
    });
    expect(answer.status).toBe(200);
    const content: string = answer.body.choices[0].message.content;
    expect(content).toMatch(/\n\n\[MnesOS · [^\]]*player location: tallow rest → brine market[^\]]*\]$/);
    expect(content).not.toContain('_elapsed_minutes');
    const session = answer.headers.get('x-mnesos-session')!;
    const next = [
      ...first,
      { role: 'assistant', content },
      { role: 'user', content: '/travel destination="tallow rest"' },
    ];
    const second = await demo.json('/openai/v1/chat/completions', {
      method: 'POST',
      json: { model: 'Lanternmere', messages: next, mnesos_details: true },
    });
    expect(second.status).toBe(200);
    expect(second.headers.get('x-mnesos-session')).toBe(session);
    const tree = await demo.store.listTree(session);
    expect(tree.map((t) => t.depth).sort()).toEqual([0, 1, 2]);
  });
});
