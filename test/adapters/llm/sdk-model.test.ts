// The AI SDK adapter against a real HTTP server speaking the OpenAI wire format.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveModelConfig } from '../../../src/adapters/llm/config.ts';
import { ModelError } from '../../../src/adapters/llm/errors.ts';
import { createModels } from '../../../src/adapters/llm/providers.ts';
import type { RetryPolicy } from '../../../src/adapters/llm/retry.ts';
import type { ChatModel, ModelRequest, ModelStreamPart, ToolSpec } from '../../../src/adapters/llm/types.ts';
import { type FakeOpenAI, type FakeReply, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';

const FAST: RetryPolicy = {
  timeoutMs: 5_000,
  maxRetries: 2,
  backoffInitialMs: 1,
  backoffFactor: 2,
  backoffMaxMs: 5,
};

const STRIKE: ToolSpec = {
  name: 'combat_strike',
  description: 'Strike a target.',
  inputSchema: { type: 'object', properties: { target: { type: 'string' } }, required: ['target'] },
};

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function modelFor(
  script: FakeReply[],
  policy: Partial<RetryPolicy> = {},
  env: Record<string, string> = {},
): Promise<ChatModel> {
  fake = await startFakeOpenAI(script);
  const config = resolveModelConfig({ MNESOS_LLM_BASE_URL: fake.url, MNESOS_MODEL: 'test-model', ...env });
  if (config.provider === 'offline') throw new Error('expected an online config');
  const models = createModels({ ...config, retry: { ...FAST, ...policy } });
  if (models === null) throw new Error('expected models');
  return models.director;
}

async function collect(parts: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const out: ModelStreamPart[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<ModelError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ModelError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

const base: ModelRequest = {
  system: 'You are the narrator.',
  messages: [{ role: 'user', content: 'I attack.' }],
};

describe('streamed text', () => {
  it('yields each delta, then one finish with the whole text and the usage', async () => {
    const model = await modelFor([
      {
        kind: 'text',
        text: 'The goblin falls.',
        chunks: ['The ', 'goblin ', 'falls.'],
        usage: { prompt_tokens: 12, completion_tokens: 4 },
      },
    ]);
    const parts = await collect(model.stream(base));
    expect(parts.filter((p) => p.type === 'text-delta').map((p) => p.text)).toEqual([
      'The ',
      'goblin ',
      'falls.',
    ]);
    const finish = parts.at(-1);
    expect(finish?.type).toBe('finish');
    if (finish?.type !== 'finish') return;
    expect(finish.response.text).toBe('The goblin falls.');
    expect(finish.response.usage).toEqual({ inputTokens: 12, outputTokens: 4 });
    expect(finish.response.finishReason).toBe('stop');
    const body = fake!.chatRequests()[0]!;
    expect(body.stream).toBe(true);
    expect(body.model).toBe('test-model');
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are the narrator.' },
      { role: 'user', content: 'I attack.' },
    ]);
  });

  it('reports cached input tokens when the provider does', async () => {
    const model = await modelFor([
      { kind: 'text', text: 'ok', usage: { prompt_tokens: 100, completion_tokens: 1, cached_tokens: 64 } },
      { kind: 'text', text: 'ok', usage: { prompt_tokens: 100, completion_tokens: 1, cached_tokens: 64 } },
    ]);
    const parts = await collect(model.stream(base));
    const finish = parts.at(-1);
    expect(finish?.type === 'finish' && finish.response.usage).toEqual({
      inputTokens: 100,
      outputTokens: 1,
      cachedInputTokens: 64,
    });
    const generated = await model.generate(base);
    expect(generated.usage.cachedInputTokens).toBe(64);
  });
});

describe('tool calls', () => {
  it('OpenAI shape: arguments in fragments across chunks are joined into one call per index', async () => {
    const model = await modelFor([
      {
        kind: 'tool-calls',
        fragmentSize: 3,
        calls: [
          { id: 'call_a', name: 'combat_strike', arguments: { target: 'goblin' } },
          { id: 'call_b', name: 'combat_strike', arguments: { target: 'wolf' } },
        ],
      },
    ]);
    const parts = await collect(model.stream({ ...base, tools: [STRIKE] }));
    const calls = parts.flatMap((p) => (p.type === 'tool-call' ? [p.call] : []));
    expect(calls).toEqual([
      { id: 'call_a', name: 'combat_strike', args: { target: 'goblin' }, rawArgs: '{"target":"goblin"}' },
      { id: 'call_b', name: 'combat_strike', args: { target: 'wolf' }, rawArgs: '{"target":"wolf"}' },
    ]);
    const finish = parts.at(-1);
    expect(finish?.type === 'finish' && finish.response.toolCalls).toEqual(calls);
    // The tool is declared to the provider but never executed by the SDK.
    const body = fake!.chatRequests()[0]!;
    expect((body.tools as { function: { name: string } }[]).map((t) => t.function.name)).toEqual([
      'combat_strike',
    ]);
  });

  it.each(['stop', 'tool_calls'])(
    'Ollama shape: whole calls in one chunk each, finish_reason %s',
    async (finishReason) => {
      const model = await modelFor([
        {
          kind: 'tool-calls',
          style: 'ollama',
          finishReason,
          calls: [
            { id: 'call_1', name: 'combat_strike', arguments: { target: 'goblin' } },
            { id: 'call_2', name: 'combat_strike', arguments: { target: 'wolf' } },
          ],
        },
      ]);
      const parts = await collect(model.stream({ ...base, tools: [STRIKE] }));
      const calls = parts.flatMap((p) => (p.type === 'tool-call' ? [p.call] : []));
      expect(calls.map((c) => [c.id, c.args])).toEqual([
        ['call_1', { target: 'goblin' }],
        ['call_2', { target: 'wolf' }],
      ]);
    },
  );

  it('non-streamed generate returns the calls and does not execute them', async () => {
    const model = await modelFor([
      {
        kind: 'tool-calls',
        text: 'Attacking.',
        calls: [{ id: 'c1', name: 'combat_strike', arguments: { target: 'x' } }],
      },
    ]);
    const response = await model.generate({ ...base, tools: [STRIKE], toolChoice: 'required' });
    expect(response.text).toBe('Attacking.');
    expect(response.toolCalls).toEqual([
      { id: 'c1', name: 'combat_strike', args: { target: 'x' }, rawArgs: '{"target":"x"}' },
    ]);
    expect(response.finishReason).toBe('tool-calls');
    expect(fake!.chatRequests()[0]!.tool_choice).toBe('required');
  });

  it('malformed argument JSON comes back as a call with args undefined and the raw text, streamed or not', async () => {
    const bad = '{"target": "gob';
    const model = await modelFor([
      { kind: 'tool-calls', calls: [{ id: 'c1', name: 'combat_strike', arguments: bad }] },
      { kind: 'tool-calls', calls: [{ id: 'c2', name: 'combat_strike', arguments: bad }] },
    ]);
    const response = await model.generate({ ...base, tools: [STRIKE] });
    expect(response.toolCalls).toEqual([{ id: 'c1', name: 'combat_strike', args: undefined, rawArgs: bad }]);
    const parts = await collect(model.stream({ ...base, tools: [STRIKE] }));
    const calls = parts.flatMap((p) => (p.type === 'tool-call' ? [p.call] : []));
    expect(calls).toEqual([{ id: 'c2', name: 'combat_strike', args: undefined, rawArgs: bad }]);
  });

  it('an unknown tool name comes back as a call, not an exception (including "constructor")', async () => {
    const model = await modelFor([
      { kind: 'tool-calls', calls: [{ id: 'c1', name: 'summon_dragon', arguments: { size: 'huge' } }] },
      { kind: 'tool-calls', style: 'ollama', calls: [{ id: 'c2', name: 'constructor', arguments: {} }] },
    ]);
    const response = await model.generate({ ...base, tools: [STRIKE] });
    expect(response.toolCalls).toEqual([
      { id: 'c1', name: 'summon_dragon', args: { size: 'huge' }, rawArgs: '{"size":"huge"}' },
    ]);
    const parts = await collect(model.stream({ ...base, tools: [STRIKE] }));
    const calls = parts.flatMap((p) => (p.type === 'tool-call' ? [p.call] : []));
    expect(calls).toEqual([{ id: 'c2', name: 'constructor', args: {}, rawArgs: '{}' }]);
  });

  it('sends earlier tool calls and tool results back in the OpenAI shape', async () => {
    const model = await modelFor([{ kind: 'text', text: 'Done.' }]);
    await model.generate({
      ...base,
      tools: [STRIKE],
      toolChoice: { tool: 'combat_strike' },
      messages: [
        { role: 'user', content: 'I attack.' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: 'c1', name: 'combat_strike', args: { target: 'goblin' }, rawArgs: '{"target":"goblin"}' },
          ],
        },
        { role: 'tool', toolCallId: 'c1', toolName: 'combat_strike', content: '{"ok":true}' },
      ],
    });
    const body = fake!.chatRequests()[0]!;
    const messages = body.messages as Record<string, unknown>[];
    expect(messages[2]).toMatchObject({
      role: 'assistant',
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'combat_strike', arguments: '{"target":"goblin"}' } },
      ],
    });
    expect(messages[3]).toEqual({ role: 'tool', tool_call_id: 'c1', content: '{"ok":true}' });
    expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'combat_strike' } });
  });

  it('a model that ignores the requested tool choice is returned as is, not turned into an error', async () => {
    const model = await modelFor([
      { kind: 'text', text: 'I would rather talk.', usage: { prompt_tokens: 9, completion_tokens: 5 } },
      { kind: 'tool-calls', calls: [{ id: 'c9', name: 'combat_strike', arguments: { target: 'y' } }] },
    ]);
    const ignored = await model.generate({ ...base, tools: [STRIKE], toolChoice: 'required' });
    expect(ignored).toMatchObject({
      text: 'I would rather talk.',
      toolCalls: [],
      usage: { inputTokens: 9, outputTokens: 5 },
    });
    const parts = await collect(model.stream({ ...base, tools: [STRIKE], toolChoice: 'none' }));
    const calls = parts.flatMap((p) => (p.type === 'tool-call' ? [p.call] : []));
    expect(calls).toEqual([
      { id: 'c9', name: 'combat_strike', args: { target: 'y' }, rawArgs: '{"target":"y"}' },
    ]);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', response: { finishReason: 'tool_calls' } });
  });

  it('refuses a tool name the providers would reject, before any request', async () => {
    const model = await modelFor([{ kind: 'text', text: 'x' }]);
    const error = await rejection(model.generate({ ...base, tools: [{ ...STRIKE, name: 'bad name!' }] }));
    expect(error.kind).toBe('bad-request');
    expect(error.message).toContain('bad name!');
    expect(fake!.requests).toHaveLength(0);
  });
});

describe('retries, timeouts and cancellation', () => {
  it('retries a 500 and then succeeds (generate and stream)', async () => {
    const model = await modelFor([
      { kind: 'error', status: 500 },
      { kind: 'text', text: 'Recovered.' },
      { kind: 'error', status: 503 },
      { kind: 'error', status: 429, headers: { 'retry-after-ms': '1' } },
      { kind: 'text', text: 'Streamed.' },
    ]);
    expect((await model.generate(base)).text).toBe('Recovered.');
    const parts = await collect(model.stream(base));
    const finish = parts.at(-1);
    expect(finish?.type === 'finish' && finish.response.text).toBe('Streamed.');
    expect(fake!.chatRequests()).toHaveLength(5);
  });

  it('gives up after maxRetries with kind http, the status and the attempt count', async () => {
    const model = await modelFor(
      [
        { kind: 'error', status: 500 },
        { kind: 'error', status: 500 },
        { kind: 'error', status: 500 },
      ],
      { maxRetries: 2 },
    );
    const error = await rejection(model.generate(base));
    expect(error).toMatchObject({ kind: 'http', status: 500, attempts: 3 });
    expect(fake!.remaining()).toBe(0);
  });

  it('does not retry a 400', async () => {
    const model = await modelFor([
      { kind: 'error', status: 400, message: 'bad tool schema' },
      { kind: 'text', text: 'never' },
    ]);
    const error = await rejection(model.generate(base));
    expect(error).toMatchObject({ kind: 'http', status: 400, attempts: 1 });
    expect(error.message).toContain('bad tool schema');
    expect(fake!.remaining()).toBe(1);
  });

  it('retries a timeout, then succeeds', async () => {
    const model = await modelFor([{ kind: 'hang' }, { kind: 'text', text: 'Late but fine.' }], {
      timeoutMs: 200,
    });
    expect((await model.generate(base)).text).toBe('Late but fine.');
    expect(fake!.chatRequests()).toHaveLength(2);
  });

  it('rejects with kind timeout when every attempt times out', async () => {
    const model = await modelFor([{ kind: 'hang' }, { kind: 'hang' }], { timeoutMs: 100, maxRetries: 1 });
    const error = await rejection(model.generate(base));
    expect(error).toMatchObject({ kind: 'timeout', attempts: 2 });
  });

  it('a stream that goes silent after output times out without a retry (the text was already shown)', async () => {
    const model = await modelFor(
      [
        { kind: 'stall', chunks: ['The '] },
        { kind: 'text', text: 'never' },
      ],
      {
        timeoutMs: 200,
      },
    );
    const seen: string[] = [];
    let failure: unknown;
    try {
      for await (const part of model.stream(base)) if (part.type === 'text-delta') seen.push(part.text);
    } catch (error) {
      failure = error;
    }
    expect(seen).toEqual(['The ']);
    expect(failure).toBeInstanceOf(ModelError);
    expect(failure).toMatchObject({ kind: 'timeout', attempts: 1 });
    expect(fake!.remaining()).toBe(1);
  });

  it('a stream that times out before any output is retried', async () => {
    const model = await modelFor([{ kind: 'hang' }, { kind: 'text', text: 'Second try.' }], {
      timeoutMs: 200,
    });
    const parts = await collect(model.stream(base));
    expect(parts.at(-1)).toMatchObject({ type: 'finish', response: { text: 'Second try.' } });
  });

  it('cancelling rejects with kind aborted and never retries', async () => {
    const model = await modelFor([{ kind: 'hang' }, { kind: 'text', text: 'never' }], { timeoutMs: 60_000 });
    const controller = new AbortController();
    const pending = model.generate({ ...base, signal: controller.signal });
    // Abort once the server has the request, so the abort cuts an in-flight HTTP call.
    while (fake!.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    const error = await rejection(pending);
    expect(error.kind).toBe('aborted');
    expect(fake!.chatRequests()).toHaveLength(1);
    expect(fake!.remaining()).toBe(1);
    await vi.waitFor(() => expect(fake!.requests[0]!.clientClosed).toBe(true));
  });

  it('cancelling a stream mid-way stops it with kind aborted', async () => {
    const model = await modelFor([{ kind: 'stall', chunks: ['The ', 'goblin '] }], { timeoutMs: 60_000 });
    const controller = new AbortController();
    const seen: string[] = [];
    let failure: unknown;
    try {
      for await (const part of model.stream({ ...base, signal: controller.signal })) {
        if (part.type === 'text-delta') seen.push(part.text);
        if (seen.length === 2) controller.abort();
      }
    } catch (error) {
      failure = error;
    }
    expect(seen).toEqual(['The ', 'goblin ']);
    expect(failure).toMatchObject({ kind: 'aborted' });
  });

  it('a consumer that stops iterating early closes the HTTP request', async () => {
    const model = await modelFor([{ kind: 'stall', chunks: ['The ', 'goblin '] }], { timeoutMs: 60_000 });
    for await (const part of model.stream(base)) {
      if (part.type === 'text-delta') break;
    }
    await vi.waitFor(() => expect(fake!.requests[0]!.clientClosed).toBe(true));
  });

  it('an already-aborted signal makes no request', async () => {
    const model = await modelFor([{ kind: 'text', text: 'never' }]);
    const error = await rejection(model.generate({ ...base, signal: AbortSignal.abort() }));
    expect(error.kind).toBe('aborted');
    await expect(collect(model.stream({ ...base, signal: AbortSignal.abort() }))).rejects.toMatchObject({
      kind: 'aborted',
    });
    expect(fake!.requests).toHaveLength(0);
  });

  it('a refused connection is kind network and is retried', async () => {
    fake = await startFakeOpenAI([]);
    const url = fake.url;
    await fake.close();
    fake = undefined;
    const config = resolveModelConfig({ MNESOS_LLM_BASE_URL: url, MNESOS_MODEL: 'm' });
    if (config.provider === 'offline') throw new Error('expected online');
    const models = createModels({ ...config, retry: { ...FAST, maxRetries: 1 } })!;
    const error = await rejection(models.npc.generate(base));
    expect(error).toMatchObject({ kind: 'network', attempts: 2 });
  });
});

describe('secrets', () => {
  it('sends the key as a bearer token but never puts it in an error message', async () => {
    const key = 'sk-test-very-secret-key-123';
    const model = await modelFor(
      [{ kind: 'error', status: 401, message: `Incorrect API key provided: ${key}` }],
      {},
      {
        MNESOS_LLM_API_KEY: key,
      },
    );
    const error = await rejection(model.generate(base));
    expect(fake!.requests[0]!.headers.authorization).toBe(`Bearer ${key}`);
    expect(error).toMatchObject({ kind: 'http', status: 401 });
    expect(error.message).not.toContain(key);
    expect(error.message).toContain('***');
  });
});
