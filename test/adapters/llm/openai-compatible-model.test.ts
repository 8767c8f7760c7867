// The engine's own OpenAI-compatible client: tool-call delta assembly in both wire shapes, and hostile
// or odd streams from a real HTTP server (CRLF, comments, [DONE], malformed JSON, a line that never ends).

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveModelConfig } from '../../../src/adapters/llm/config.ts';
import { ModelError } from '../../../src/adapters/llm/errors.ts';
import {
  MAX_RESPONSE_CHARS,
  MAX_SSE_EVENT_CHARS,
  MAX_TOOL_CALLS_PER_RESPONSE,
} from '../../../src/adapters/llm/limits.ts';
import { StreamAssembler } from '../../../src/adapters/llm/openai-wire.ts';
import { createOpenAICompatibleChatModel } from '../../../src/adapters/llm/openai-compatible-model.ts';
import { createModels } from '../../../src/adapters/llm/providers.ts';
import type { ChatModel, ModelStreamPart } from '../../../src/adapters/llm/types.ts';
import { type FakeOpenAI, type FakeReply, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';

const delta = (d: Record<string, unknown>, finish: string | null = null) => ({
  model: 'm',
  choices: [{ index: 0, delta: d, finish_reason: finish }],
});

describe('StreamAssembler: tool-call deltas', () => {
  it('OpenAI shape: fragments of two calls interleaved by index become two whole calls in start order', () => {
    const a = new StreamAssembler('m');
    a.chunk(
      delta({
        tool_calls: [{ index: 1, id: 'b', type: 'function', function: { name: 'go', arguments: '' } }],
      }),
    );
    a.chunk(
      delta({
        tool_calls: [{ index: 0, id: 'a', type: 'function', function: { name: 'hit', arguments: '{"t' } }],
      }),
    );
    a.chunk(delta({ tool_calls: [{ index: 1, function: { arguments: '{"to":' } }] }));
    a.chunk(delta({ tool_calls: [{ index: 0, function: { arguments: '":"x"}' } }] }));
    a.chunk(delta({ tool_calls: [{ index: 1, function: { arguments: '"inn"}' } }] }, 'tool_calls'));
    expect(a.toolCalls()).toEqual([
      { id: 'b', name: 'go', args: { to: 'inn' }, rawArgs: '{"to":"inn"}' },
      { id: 'a', name: 'hit', args: { t: 'x' }, rawArgs: '{"t":"x"}' },
    ]);
    expect(a.rawFinishReason).toBe('tool_calls');
  });

  it('Ollama shape: whole calls without an index, also with arguments as an object', () => {
    const a = new StreamAssembler('m');
    a.chunk(delta({ tool_calls: [{ id: 'c1', function: { name: 'hit', arguments: '{"t":"x"}' } }] }));
    a.chunk(delta({ tool_calls: [{ id: 'c2', function: { name: 'hit', arguments: { t: 'y' } } }] }, 'stop'));
    expect(a.toolCalls()).toEqual([
      { id: 'c1', name: 'hit', args: { t: 'x' }, rawArgs: '{"t":"x"}' },
      { id: 'c2', name: 'hit', args: { t: 'y' }, rawArgs: '{"t":"y"}' },
    ]);
  });

  it('a call whose id comes after its first fragment takes that id; a call with no id gets one', () => {
    const a = new StreamAssembler('m');
    a.chunk(delta({ tool_calls: [{ index: 0, function: { name: 'hit', arguments: '{' } }] }));
    a.chunk(delta({ tool_calls: [{ index: 0, id: 'late', function: { arguments: '}' } }] }));
    a.chunk(delta({ tool_calls: [{ function: { name: 'go', arguments: '' } }] }));
    expect(a.toolCalls()).toEqual([
      { id: 'late', name: 'hit', args: {}, rawArgs: '{}' },
      { id: 'call_1', name: 'go', args: {}, rawArgs: '' },
    ]);
  });

  it('malformed arguments stay a call with args undefined; a call with no name is dropped', () => {
    const a = new StreamAssembler('m');
    a.chunk(
      delta({ tool_calls: [{ index: 0, id: 'x', function: { name: 'hit', arguments: '{"t": "gob' } }] }),
    );
    a.chunk(delta({ tool_calls: [{ index: 1, id: 'y', function: { arguments: '{}' } }] }));
    expect(a.toolCalls()).toEqual([{ id: 'x', name: 'hit', args: undefined, rawArgs: '{"t": "gob' }]);
  });

  it(`takes ${MAX_TOOL_CALLS_PER_RESPONSE} calls and refuses one more as a bad response`, () => {
    const a = new StreamAssembler('m');
    const calls = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        index: from + i,
        id: `c${from + i}`,
        function: { name: 'f', arguments: '' },
      }));
    a.chunk(delta({ tool_calls: calls(0, MAX_TOOL_CALLS_PER_RESPONSE) }));
    expect(a.toolCalls()).toHaveLength(MAX_TOOL_CALLS_PER_RESPONSE);
    expect(() => a.chunk(delta({ tool_calls: calls(MAX_TOOL_CALLS_PER_RESPONSE, 1) }))).toThrow(
      /MAX_TOOL_CALLS_PER_RESPONSE/,
    );
  });

  it('collects text, usage (with cached tokens) and the model id the server names', () => {
    const a = new StreamAssembler('asked');
    expect(a.chunk(delta({ role: 'assistant', content: '' }))).toBe('');
    expect(a.chunk(delta({ content: 'Hi ' }))).toBe('Hi ');
    expect(a.chunk(delta({ content: 'there' }, 'stop'))).toBe('there');
    a.chunk({
      model: 'served',
      choices: [],
      usage: { prompt_tokens: 9, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 4 } },
    });
    expect(a.text).toBe('Hi there');
    expect(a.usage).toEqual({ inputTokens: 9, outputTokens: 2, cachedInputTokens: 4 });
    expect(a.responseModelId).toBe('served');
  });

  it(`an answer (text and tool arguments) of ${MAX_RESPONSE_CHARS} characters is read; one more is refused`, () => {
    const a = new StreamAssembler('m');
    const piece = 'x'.repeat(MAX_RESPONSE_CHARS / 8);
    for (let i = 0; i < 7; i++) a.chunk(delta({ content: piece }));
    a.chunk(delta({ tool_calls: [{ index: 0, id: 'c', function: { name: 'f', arguments: piece } }] }));
    expect(a.text.length + (a.toolCalls()[0]?.rawArgs.length ?? 0)).toBe(MAX_RESPONSE_CHARS);
    expect(() => a.chunk(delta({ content: 'y' }))).toThrow(/MAX_RESPONSE_CHARS/);
  });

  it('an error object mid-stream, or a chunk that is not an object, is a bad response', () => {
    const a = new StreamAssembler('m');
    expect(() => a.chunk({ error: { message: 'overloaded' } })).toThrow(/mid-stream: overloaded/);
    expect(() => a.chunk([1, 2])).toThrow(ModelError);
    expect(() => a.chunk(delta({ tool_calls: ['nope'] }))).toThrow(/tool call delta/);
  });
});

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function modelFor(script: FakeReply[]): Promise<ChatModel> {
  fake = await startFakeOpenAI(script);
  const config = resolveModelConfig({ MNESOS_LLM_BASE_URL: fake.url, MNESOS_MODEL: 'm' });
  if (config.provider === 'offline') throw new Error('expected online');
  const models = createModels({
    ...config,
    retry: { timeoutMs: 5_000, maxRetries: 1, backoffInitialMs: 1, backoffFactor: 2, backoffMaxMs: 2 },
  });
  if (models === null) throw new Error('expected models');
  return models.director;
}

const sse = (body: string): FakeReply => ({
  kind: 'raw',
  status: 200,
  contentType: 'text/event-stream',
  body,
});
const req = { system: 's', messages: [{ role: 'user' as const, content: 'u' }] };

async function collect(model: ChatModel): Promise<ModelStreamPart[]> {
  const out: ModelStreamPart[] = [];
  for await (const part of model.stream(req)) out.push(part);
  return out;
}

async function failure(model: ChatModel): Promise<ModelError> {
  try {
    await collect(model);
  } catch (error) {
    if (error instanceof ModelError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

const ev = (value: unknown) => `data: ${JSON.stringify(value)}`;

describe('createModels (openai-compatible): odd and hostile streams', () => {
  it('reads CRLF framing with comments and stops at [DONE], ignoring anything after it', async () => {
    const body = [
      ': ping',
      '',
      ev(delta({ content: 'Hello' })),
      '',
      ev(delta({ content: ', world' }, 'stop')),
      '',
      'data: [DONE]',
      '',
      'data: {not json after the end',
      '',
    ].join('\r\n');
    const parts = await collect(await modelFor([sse(body)]));
    expect(parts).toEqual([
      { type: 'text-delta', text: 'Hello' },
      { type: 'text-delta', text: ', world' },
      {
        type: 'finish',
        response: {
          text: 'Hello, world',
          toolCalls: [],
          usage: { inputTokens: 0, outputTokens: 0 },
          finishReason: 'stop',
          modelId: 'm',
        },
      },
    ]);
  });

  it('malformed JSON in an event is a bad-response error naming it, not a crash', async () => {
    const body = `${ev(delta({ content: 'A' }))}\n\ndata: {"choices": [oops\n\n`;
    const error = await failure(await modelFor([sse(body)]));
    expect(error.kind).toBe('bad-response');
    expect(error.message).toContain('a stream event is not JSON: {"choices": [oops');
    // Text was already delivered: no retry (it would repeat the text).
    expect(error.attempts).toBe(1);
    expect(fake!.chatRequests()).toHaveLength(1);
  });

  it('an event longer than MAX_SSE_EVENT_CHARS is a bad-response error, not unbounded memory', async () => {
    const body = `data: "${'x'.repeat(MAX_SSE_EVENT_CHARS + 10)}"\n\n`;
    const error = await failure(await modelFor([sse(body), sse(body)]));
    expect(error.kind).toBe('bad-response');
    expect(error.message).toContain(
      `model m: unusable response: a server-sent event is longer than ${MAX_SSE_EVENT_CHARS} characters (MAX_SSE_EVENT_CHARS)`,
    );
  });

  it(`a non-streamed body of ${MAX_RESPONSE_CHARS} characters is read; one more is refused`, async () => {
    const shell = JSON.stringify({
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: '' } }],
    });
    const atLimit = shell.replace(
      '"content":""',
      `"content":"${'z'.repeat(MAX_RESPONSE_CHARS - shell.length)}"`,
    );
    expect(atLimit).toHaveLength(MAX_RESPONSE_CHARS);
    const json = (body: string): FakeReply => ({
      kind: 'raw',
      status: 200,
      contentType: 'application/json',
      body,
    });
    const model = await modelFor([json(atLimit), json(`${atLimit} `)]);
    expect((await model.generate(req)).text).toHaveLength(MAX_RESPONSE_CHARS - shell.length);
    await expect(model.generate(req)).rejects.toMatchObject({
      kind: 'bad-response',
      message: expect.stringContaining('MAX_RESPONSE_CHARS'),
    });
  });

  it('a non-JSON body to a non-streamed call is a bad-response error', async () => {
    const model = await modelFor([
      { kind: 'raw', status: 200, contentType: 'application/json', body: '<html>' },
    ]);
    await expect(model.generate(req)).rejects.toMatchObject({ kind: 'bad-response' });
  });

  it('an HTTP error with a plain-text body keeps that text in the message', async () => {
    const model = await modelFor([
      { kind: 'raw', status: 400, contentType: 'text/plain', body: 'context too long' },
    ]);
    await expect(model.generate(req)).rejects.toMatchObject({
      kind: 'http',
      status: 400,
      message: expect.stringContaining('HTTP 400 from the provider: context too long'),
    });
  });
});

describe('after [DONE]', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = undefined;
  });

  /** A server that sends one answer and [DONE], then `after` (or nothing), and never ends the body. */
  async function neverEnding(after?: string): Promise<ChatModel> {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`${ev(delta({ content: 'Whole.' }, 'stop'))}\n\ndata: [DONE]\n\n`);
      if (after !== undefined) res.write(after);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const policy = {
      timeoutMs: 30_000,
      maxRetries: 0,
      backoffInitialMs: 1,
      backoffFactor: 2,
      backoffMaxMs: 2,
    };
    return createOpenAICompatibleChatModel('m', { baseURL: `http://127.0.0.1:${port}/v1`, policy });
  }

  it('a body left open after [DONE] still gives the whole answer, without waiting for the call timeout', async () => {
    const started = Date.now();
    const parts = await collect(await neverEnding());
    expect(parts.at(-1)).toMatchObject({
      type: 'finish',
      response: { text: 'Whole.', finishReason: 'stop' },
    });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('an HTTP error whose body never ends is reported from its first bytes, not read without end', async () => {
    let sent = 0;
    server = createServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      const chunk = `overloaded ${'x'.repeat(16 * 1024)}`;
      const pump = () => {
        // Bounded for the test's own sake: 64 MiB, far past what the client may read.
        while (sent < 64 * 1024 * 1024 && res.write(chunk)) sent += chunk.length;
        if (sent < 64 * 1024 * 1024) res.once('drain', pump);
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const policy = {
      timeoutMs: 30_000,
      maxRetries: 0,
      backoffInitialMs: 1,
      backoffFactor: 2,
      backoffMaxMs: 2,
    };
    const model = createOpenAICompatibleChatModel('m', { baseURL: `http://127.0.0.1:${port}/v1`, policy });
    await expect(model.generate(req)).rejects.toMatchObject({
      kind: 'http',
      status: 500,
      message: expect.stringContaining('HTTP 500 from the provider: overloaded x'),
    });
    // The client stopped reading near the cap: the server could not push the whole 64 MiB.
    expect(sent).toBeLessThan(16 * 1024 * 1024);
  });

  it('junk after [DONE] is ignored (and not read without end)', async () => {
    const parts = await collect(await neverEnding(`data: {broken\n\n${'x'.repeat(200_000)}`));
    expect(parts.map((p) => p.type)).toEqual(['text-delta', 'finish']);
  });
});

describe('the HTTP transport (node:http)', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = undefined;
  });
  const policy = { timeoutMs: 30_000, maxRetries: 1, backoffInitialMs: 1, backoffFactor: 2, backoffMaxMs: 2 };

  async function serve(handler: Parameters<typeof createServer>[1]): Promise<ChatModel> {
    server = createServer(handler);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return createOpenAICompatibleChatModel('m', { baseURL: `http://127.0.0.1:${port}/v1`, policy });
  }

  it('keeps one connection alive across streamed and whole calls', async () => {
    let connections = 0;
    const model = await serve((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        if ((JSON.parse(body) as { stream?: boolean }).stream) {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.end(`${ev(delta({ content: 'Streamed.' }, 'stop'))}\n\ndata: [DONE]\n\n`);
        } else {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              choices: [
                { index: 0, message: { role: 'assistant', content: 'Whole.' }, finish_reason: 'stop' },
              ],
            }),
          );
        }
      });
    });
    server!.on('connection', () => {
      connections += 1;
    });
    for (let i = 0; i < 10; i++) {
      const parts = await collect(model);
      expect(parts.at(-1)).toMatchObject({ type: 'finish', response: { text: 'Streamed.' } });
      expect((await model.generate(req)).text).toBe('Whole.');
    }
    // A call may start before the previous answer's end has been read (the rest of a stream drains in the
    // background): two sockets at most, reused from then on.
    expect(connections).toBeLessThanOrEqual(2);
  });

  it('an answer that breaks off mid-body is kind network (retried), not a half answer', async () => {
    let requests = 0;
    const model = await serve((_req, res) => {
      requests += 1;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"choices":[{"index":0,');
      setTimeout(() => res.socket?.destroy(), 5);
    });
    await expect(model.generate(req)).rejects.toMatchObject({
      kind: 'network',
      attempts: 2,
      message: expect.stringContaining("model m: the provider's answer broke off"),
    });
    expect(requests).toBe(2);
  });

  it('credentials in the base URL go as Basic auth, never into a message', async () => {
    let authorization: string | undefined;
    server = createServer((req, res) => {
      authorization = req.headers.authorization;
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'try again' } }));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const model = createOpenAICompatibleChatModel('m', {
      baseURL: `http://user:s3cret@127.0.0.1:${port}/v1`,
      policy,
    });
    const error = await model.generate(req).then(
      () => undefined,
      (e: unknown) => e as ModelError,
    );
    expect(authorization).toBe(`Basic ${Buffer.from('user:s3cret').toString('base64')}`);
    expect(error).toMatchObject({ kind: 'http', status: 401 });
    expect(error?.message).not.toContain('s3cret');
  });

  it('a redirect is not followed: it is an HTTP error naming the status', async () => {
    let requests = 0;
    const model = await serve((_req, res) => {
      requests += 1;
      res.writeHead(307, { location: 'http://127.0.0.1:9/v1/chat/completions' });
      res.end();
    });
    await expect(model.generate(req)).rejects.toMatchObject({ kind: 'http', status: 307 });
    expect(requests).toBe(1);
  });
});
