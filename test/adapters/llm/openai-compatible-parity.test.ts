// The engine's own OpenAI-compatible client and the AI SDK adapter it replaced for that wire
// (still used for openai/anthropic/google) must behave alike: the same script from the fake server
// gives the same stream parts, responses and error kinds through both.

import { afterEach, describe, expect, it } from 'vitest';
import { resolveModelConfig } from '../../../src/adapters/llm/config.ts';
import { ModelError } from '../../../src/adapters/llm/errors.ts';
import { createOpenAICompatibleChatModel } from '../../../src/adapters/llm/openai-compatible-model.ts';
import { languageModelFactory } from '../../../src/adapters/llm/sdk-providers.ts';
import type { RetryPolicy } from '../../../src/adapters/llm/retry.ts';
import { createSdkChatModel } from '../../../src/adapters/llm/sdk-model.ts';
import type { ChatModel, ModelRequest, ModelStreamPart, ToolSpec } from '../../../src/adapters/llm/types.ts';
import { type FakeOpenAI, type FakeReply, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';

const POLICY: RetryPolicy = {
  timeoutMs: 2_000,
  maxRetries: 1,
  backoffInitialMs: 1,
  backoffFactor: 2,
  backoffMaxMs: 2,
};
const STRIKE: ToolSpec = {
  name: 'combat_strike',
  description: 'Strike.',
  inputSchema: { type: 'object', properties: { target: { type: 'string' } } },
};
const base: ModelRequest = { system: 's', messages: [{ role: 'user', content: 'u' }], tools: [STRIKE] };

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** Both clients on one fake server that plays `script` once for each. */
async function bothClients(script: FakeReply[]): Promise<{ own: ChatModel; sdk: ChatModel }> {
  fake = await startFakeOpenAI((_request, index) => script[index % script.length]!);
  const config = resolveModelConfig({ MNESOS_LLM_BASE_URL: fake.url, MNESOS_MODEL: 'm' });
  if (config.provider === 'offline' || config.baseURL === undefined) throw new Error('expected online');
  return {
    own: createOpenAICompatibleChatModel('m', { baseURL: config.baseURL, policy: POLICY }),
    sdk: createSdkChatModel(languageModelFactory(config)('m'), 'm', { policy: POLICY }),
  };
}

async function outcome(run: () => AsyncIterable<ModelStreamPart>): Promise<unknown> {
  const parts: ModelStreamPart[] = [];
  try {
    for await (const part of run()) parts.push(part);
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    return { parts, error: { kind: error.kind, status: error.status, attempts: error.attempts } };
  }
  return { parts };
}

async function generated(model: ChatModel): Promise<unknown> {
  try {
    return await model.generate(base);
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    return { kind: error.kind, status: error.status, attempts: error.attempts };
  }
}

const scenarios: Array<[string, FakeReply]> = [
  [
    'text with usage and cached tokens',
    {
      kind: 'text',
      text: 'The goblin falls.',
      usage: { prompt_tokens: 9, completion_tokens: 4, cached_tokens: 3 },
    },
  ],
  [
    'OpenAI-shaped tool-call fragments',
    {
      kind: 'tool-calls',
      text: 'Striking.',
      fragmentSize: 2,
      calls: [
        { id: 'a', name: 'combat_strike', arguments: { target: 'goblin' } },
        { id: 'b', name: 'combat_strike', arguments: { target: 'wolf' } },
      ],
    },
  ],
  [
    'Ollama-shaped whole calls',
    {
      kind: 'tool-calls',
      style: 'ollama',
      calls: [{ id: 'o1', name: 'combat_strike', arguments: { target: 'x' } }],
    },
  ],
  [
    'malformed arguments',
    { kind: 'tool-calls', calls: [{ id: 'm1', name: 'combat_strike', arguments: '{"target": "gob' }] },
  ],
  ['an unknown tool', { kind: 'tool-calls', calls: [{ id: 'u1', name: 'summon', arguments: {} }] }],
  ['HTTP 400', { kind: 'error', status: 400, message: 'bad schema' }],
  ['HTTP 500 every time', { kind: 'error', status: 500 }],
  ['a length finish', { kind: 'text', text: 'cut', finishReason: 'length' }],
];

describe('own OpenAI-compatible client vs the AI SDK adapter', () => {
  it.each(scenarios)('%s: the same stream parts and errors', async (_name, reply) => {
    const { own, sdk } = await bothClients([reply]);
    expect(await outcome(() => own.stream(base))).toEqual(await outcome(() => sdk.stream(base)));
  });

  it.each(scenarios)('%s: the same generate result', async (_name, reply) => {
    const { own, sdk } = await bothClients([reply]);
    expect(await generated(own)).toEqual(await generated(sdk));
  });

  it('the same request body on the wire, tool history and options included', async () => {
    const { own, sdk } = await bothClients([{ kind: 'text', text: 'ok' }]);
    const req: ModelRequest = {
      ...base,
      toolChoice: { tool: 'combat_strike' },
      temperature: 0.5,
      maxOutputTokens: 100,
      messages: [
        { role: 'user', content: 'I attack.' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'c1', name: 'combat_strike', args: { target: 'g' }, rawArgs: '{"target":"g"}' }],
        },
        { role: 'tool', toolCallId: 'c1', toolName: 'combat_strike', content: '{"ok":true}' },
        { role: 'assistant', content: 'Done.' },
        { role: 'user', content: 'Again.' },
      ],
    };
    for await (const _ of own.stream(req)) {
      // drain
    }
    for await (const _ of sdk.stream(req)) {
      // drain
    }
    const [ownBody, sdkBody] = fake!.chatRequests();
    expect(ownBody).toEqual(sdkBody);
  });
});
