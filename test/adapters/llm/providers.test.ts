import { afterEach, describe, expect, it } from 'vitest';
import { resolveModelConfig } from '../../../src/adapters/llm/config.ts';
import { createModels } from '../../../src/adapters/llm/providers.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const quick = { MNESOS_LLM_MAX_RETRIES: '0', MNESOS_LLM_TIMEOUT_MS: '5000' };

describe('createModels', () => {
  it('builds one model per role with its own model id', async () => {
    fake = await startFakeOpenAI([
      { kind: 'text', text: 'd' },
      { kind: 'text', text: 'n' },
    ]);
    const models = createModels(
      resolveModelConfig({
        MNESOS_LLM_BASE_URL: fake.url,
        MNESOS_MODEL: 'small',
        MNESOS_NARRATOR_MODEL: 'big',
      }),
    );
    expect(models?.director.id).toBe('small');
    expect(models?.narrator.id).toBe('big');
    expect(models?.npc.id).toBe('small');
    await models!.director.generate({ system: 's', messages: [{ role: 'user', content: 'u' }] });
    await models!.narrator.generate({ system: 's', messages: [{ role: 'user', content: 'u' }] });
    expect(fake.chatRequests().map((b) => b.model)).toEqual(['small', 'big']);
  });

  it('native OpenAI uses Chat Completions (here pointed at the fake server) with the key as bearer', async () => {
    fake = await startFakeOpenAI([{ kind: 'text', text: 'Hello from OpenAI.' }]);
    const models = createModels(
      resolveModelConfig({
        ...quick,
        MNESOS_PROVIDER: 'openai',
        OPENAI_API_KEY: 'sk-native',
        MNESOS_LLM_BASE_URL: fake.url,
        MNESOS_MODEL: 'gpt-x',
      }),
    );
    const response = await models!.director.generate({
      system: 's',
      messages: [{ role: 'user', content: 'u' }],
    });
    expect(response.text).toBe('Hello from OpenAI.');
    expect(fake.requests[0]?.path).toBe('/v1/chat/completions');
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer sk-native');
  });

  it.each([
    ['anthropic', 'ANTHROPIC_API_KEY', '/v1/messages'],
    ['google', 'GOOGLE_GENERATIVE_AI_API_KEY', '/v1/models/gem:generateContent'],
  ])('%s is built and its HTTP errors come back as ModelError kind http', async (provider, keyVar, path) => {
    fake = await startFakeOpenAI([]);
    const models = createModels(
      resolveModelConfig({
        ...quick,
        MNESOS_PROVIDER: provider,
        [keyVar]: 'k',
        MNESOS_LLM_BASE_URL: fake.url,
        MNESOS_MODEL: 'gem',
      }),
    );
    await expect(
      models!.npc.generate({ system: 's', messages: [{ role: 'user', content: 'u' }] }),
    ).rejects.toMatchObject({ kind: 'http', status: 404 });
    expect(fake.requests[0]?.path).toBe(path);
  });
});
