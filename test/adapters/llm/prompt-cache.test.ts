// Cache-friendly prompts: Anthropic requests carry cache breakpoints on the system prompt (after
// the tools) and at the end of the history; OpenAI-compatible requests carry none (those servers cache
// prefixes by themselves).
import { afterEach, describe, expect, it } from 'vitest';
import { resolveModelConfig } from '../../../src/adapters/llm/config.ts';
import { createModels } from '../../../src/adapters/llm/providers.ts';
import type { ChatMessage } from '../../../src/adapters/llm/types.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const quick = { MNESOS_LLM_MAX_RETRIES: '0', MNESOS_LLM_TIMEOUT_MS: '5000' };
const messages: ChatMessage[] = [
  { role: 'user', content: 'old question' },
  { role: 'assistant', content: 'old answer', cacheBreakpoint: true },
  { role: 'user', content: 'state now; the player says hello' },
];

describe('prompt cache breakpoints', () => {
  it('Anthropic: on the system prompt and on the last history message, nowhere else', async () => {
    fake = await startFakeOpenAI([]);
    const models = createModels(
      resolveModelConfig({
        ...quick,
        MNESOS_PROVIDER: 'anthropic',
        ANTHROPIC_API_KEY: 'k',
        MNESOS_LLM_BASE_URL: fake.url,
        MNESOS_MODEL: 'm',
      }),
    );
    await expect(models!.director.generate({ system: 'stable rules', messages })).rejects.toMatchObject({
      kind: 'http',
    });
    const body = fake.requests[0]!.body as {
      system: { text: string; cache_control?: unknown }[];
      messages: { role: string; content: { text: string; cache_control?: unknown }[] }[];
    };
    expect(body.system).toEqual([
      { type: 'text', text: 'stable rules', cache_control: { type: 'ephemeral' } },
    ]);
    const marked = body.messages.flatMap((m) =>
      m.content.filter((c) => c.cache_control !== undefined).map((c) => c.text),
    );
    expect(marked).toEqual(['old answer']);
  });

  it('OpenAI-compatible: no cache fields, the system prompt first', async () => {
    fake = await startFakeOpenAI([{ kind: 'text', text: 'ok' }]);
    const models = createModels(
      resolveModelConfig({ ...quick, MNESOS_LLM_BASE_URL: fake.url, MNESOS_MODEL: 'm' }),
    );
    await models!.director.generate({ system: 'stable rules', messages });
    const text = JSON.stringify(fake.chatRequests()[0]);
    expect(text).not.toContain('cache_control');
    expect((fake.chatRequests()[0]!.messages as { role: string }[])[0]!.role).toBe('system');
  });
});
