// Every server limit at its value and just past it, over real HTTP: JSON body size, input length, JSON
// depth, the per-key rate limit, the turn timeout, the upload size. Past a limit: the right 4xx/5xx, a
// clear error naming the limit, and nothing stored.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModels } from '../../../src/adapters/llm/scripted.ts';
import { MAX_JSON_DEPTH, resolveServerLimits } from '../../../src/apps/server/limits.ts';
import { MAX_INPUT_CHARS } from '../../../src/engine/turn/limits.ts';
import { newSession, readSse, startTestServer, type TestServer } from './helpers.ts';

const BODY_LIMIT = 4096;

describe('limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      limits: { maxJsonBodyBytes: BODY_LIMIT, maxInputChars: 100, rateLimit: 10_000 },
    });
  });
  afterAll(() => server.stop());

  /** A JSON body of exactly `bytes` bytes: a persona with padding in `background`. */
  function personaOfBytes(bytes: number): string {
    const base = {
      name: 'A',
      pronoun_sub: 's',
      pronoun_obj: 'o',
      pronoun_poss: 'p',
      pronoun_poss_obj: 'q',
      background: '',
    };
    const empty = JSON.stringify(base).length;
    return JSON.stringify({ ...base, background: 'x'.repeat(bytes - empty) });
  }

  it('a JSON body at the size limit is read; one byte over is 413', async () => {
    const at = personaOfBytes(BODY_LIMIT);
    expect(Buffer.byteLength(at)).toBe(BODY_LIMIT);
    const ok = await server.call('/v1/personas', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: at,
    });
    // 4,000 is the persona background's own limit: 4,096 bytes of body hold about 3,990 characters of it.
    expect(ok.status).toBe(201);
    const over = await server.call('/v1/personas', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: personaOfBytes(BODY_LIMIT + 1),
    });
    expect(over.status).toBe(413);
    expect(((await over.json()) as { error: { code: string } }).error.code).toBe('body_too_large');
    expect((await server.store.listPersonas('local-user')).length).toBe(1);
  });

  it('a chunked body without Content-Length is cut at the limit too', async () => {
    const big = new TextEncoder().encode(personaOfBytes(BODY_LIMIT * 4));
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < big.length; i += 1000) controller.enqueue(big.subarray(i, i + 1000));
        controller.close();
      },
    });
    const response = await fetch(`${server.url}/v1/personas`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it('input at the length limit plays; one character over is 413 input_too_long before any model call', async () => {
    const { id } = await newSession(server);
    const at = await server.json(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      json: { input: `/check_pack ${'a'.repeat(100 - 12)}` },
    });
    expect(at.status).toBe(201);
    const over = await server.json(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      json: { input: 'a'.repeat(101) },
    });
    expect(over.status).toBe(413);
    expect(over.body.error.code).toBe('input_too_long');
    expect(over.body.error.limit).toBe(100);
    expect((await server.store.listTree(id)).length).toBe(2);
  });

  // The one admission of a turn (src/engine/session/turn-job/admission.ts): the operator's limit, the same
  // status and code on every way into a turn, nothing stored past it.
  const atLimit = `/check_pack ${'a'.repeat(100 - 12)}`;
  const pastLimit = `/check_pack ${'a'.repeat(100 - 11)}`;
  const expectTooLong = (
    answer: { status: number; body: { error: Record<string, unknown> } },
    length: number,
  ) => {
    expect(answer.status).toBe(413);
    expect(answer.body.error.code).toBe('input_too_long');
    expect(answer.body.error.limit).toBe(100);
    expect(answer.body.error.message).toBe(`the input is ${length} characters; the limit is 100`);
  };

  it('POST /v1/sessions/{id}/turns streamed: at the limit commits; one over is 413 before the stream', async () => {
    const { id } = await newSession(server);
    const stream = { accept: 'text/event-stream' };
    const at = await server.call(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      headers: stream,
      json: { input: atLimit },
    });
    expect(at.status).toBe(200);
    expect((await readSse(at)).at(-1)?.event).toBe('committed');
    const over = await server.json(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      headers: stream,
      json: { input: pastLimit },
    });
    expectTooLong(over, 101);
    expect((await server.store.listTree(id)).length).toBe(2);
  });

  it('POST /v1/turn (stateless): at the limit plays; one over is 413 input_too_long', async () => {
    const at = await server.json('/v1/turn', {
      method: 'POST',
      json: { cartridge: 'Lanternmere', input: atLimit },
    });
    expect(at.status).toBe(200);
    expect(at.body.narration).not.toBe('');
    expectTooLong(
      await server.json('/v1/turn', { method: 'POST', json: { cartridge: 'Lanternmere', input: pastLimit } }),
      101,
    );
    // Admitted before the cartridge is looked up, as a session turn is before its session.
    expectTooLong(
      await server.json('/v1/turn', {
        method: 'POST',
        json: { cartridge: 'no-such-cartridge', input: pastLimit },
      }),
      101,
    );
  });

  it('POST /openai/v1/chat/completions: at the limit plays; one over is 413 input_too_long, streamed or not', async () => {
    const chat = (content: string, stream = false) =>
      server.json('/openai/v1/chat/completions', {
        method: 'POST',
        json: { model: 'Lanternmere', messages: [{ role: 'user', content }], stream },
      });
    const at = await chat(atLimit);
    expect(at.status).toBe(200);
    const session = at.headers.get('x-mnesos-session')!;
    const tree = await server.store.listTree(session);
    const turns = tree.length;
    // The message at the limit was played: its turn is in the session's tree.
    expect(tree.map((node) => node.id)).toContain(at.headers.get('x-mnesos-turn'));
    const sessions = (await server.store.listSessions('local-user')).length;
    for (const stream of [false, true]) {
      const over = await chat(pastLimit, stream);
      expectTooLong(over, 101);
      expect(over.body.error.type).toBe('invalid_request_error');
    }
    // Refused before the chat is mapped onto a session: no turn, and no new session for a new chat.
    expect((await server.store.listTree(session)).length).toBe(turns);
    expect((await server.store.listSessions('local-user')).length).toBe(sessions);
  });

  it('an input of 156 characters under a limit of 100 is the same 413 on every route', async () => {
    const input = 'b'.repeat(156);
    const { id } = await newSession(server);
    const answers = [
      await server.json(`/v1/sessions/${id}/turns`, { method: 'POST', json: { input } }),
      await server.json('/v1/turn', { method: 'POST', json: { cartridge: 'Lanternmere', input } }),
      await server.json('/openai/v1/chat/completions', {
        method: 'POST',
        json: { model: `session:${id}`, messages: [{ role: 'user', content: input }] },
      }),
    ];
    for (const answer of answers) expectTooLong(answer, 156);
    expect((await server.store.listTree(id)).length).toBe(1);
  });

  it('the input limit cannot be set past the engine’s own', () => {
    expect(() => resolveServerLimits({ maxInputChars: MAX_INPUT_CHARS })).not.toThrow();
    expect(() => resolveServerLimits({ maxInputChars: MAX_INPUT_CHARS + 1 })).toThrow(/MAX_INPUT_CHARS/);
    // 0 turns the rate limit off; below that is refused, and 0 is no other limit's "off".
    expect(resolveServerLimits({ rateLimit: 0 }).rateLimit).toBe(0);
    expect(() => resolveServerLimits({ rateLimit: -1 })).toThrow(/positive integer/);
    expect(() => resolveServerLimits({ turnTimeoutMs: 0 })).toThrow(/positive integer/);
  });

  it(`JSON nesting at ${MAX_JSON_DEPTH} levels is parsed; ${MAX_JSON_DEPTH + 1} is 400 too_deep`, async () => {
    const nested = (depth: number) => `${'['.repeat(depth - 1)}{}${']'.repeat(depth - 1)}`;
    const at = await server.json('/v1/personas', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: nested(MAX_JSON_DEPTH),
    });
    expect(at.status).toBe(400);
    expect(at.body.error.code).toBe('invalid_request');
    const over = await server.json('/v1/personas', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: nested(MAX_JSON_DEPTH + 1),
    });
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('too_deep');
  });
});

describe('the rate limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ limits: { rateLimit: 5, rateWindowMs: 60_000 } });
  });
  afterAll(() => server.stop());

  it('the 5th request in the window is answered; the 6th is 429 with Retry-After', async () => {
    for (let i = 1; i <= 5; i++) expect((await server.call('/v1/me')).status).toBe(200);
    const over = await server.json('/v1/me');
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('rate_limited');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // Health is not rate limited (monitoring must see a busy server).
    expect((await server.call('/healthz')).status).toBe(200);
  });
});

describe('the turn timeout', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      limits: { turnTimeoutMs: 200 },
      models: () =>
        createScriptedModels({
          director: [{ text: 'The fog thickens.', delayMs: 2_000 }],
          narrator: [{ text: 'never' }],
        }),
    });
  });
  afterAll(() => server.stop());

  it('a turn past the timeout is 504 turn_timeout and commits nothing', async () => {
    const { id } = await newSession(server);
    const response = await server.json(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      json: { input: 'wait for the fog' },
    });
    expect(response.status).toBe(504);
    expect(response.body.error.code).toBe('turn_timeout');
    expect((await server.store.listTree(id)).length).toBe(1);
  });
});

describe('the turn timeout, not reached', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      limits: { turnTimeoutMs: 5_000 },
      models: () =>
        createScriptedModels({
          director: [{ text: 'Fog.', delayMs: 50 }],
          narrator: [{ text: 'The fog lifts.' }],
        }),
    });
  });
  afterAll(() => server.stop());

  it('a turn within the timeout commits', async () => {
    const { id } = await newSession(server);
    const response = await server.json(`/v1/sessions/${id}/turns`, {
      method: 'POST',
      json: { input: 'wait for the fog' },
    });
    expect(response.status).toBe(201);
    expect(response.body.turn.narration).toBe('The fog lifts.');
  });
});
