import { afterEach, describe, expect, it } from 'vitest';
import { resolveModelConfig } from '../../../src/adapters/llm/config.ts';
import { createEmbedder, embed } from '../../../src/adapters/llm/embeddings.ts';
import { withEmbeddings } from '../../../src/core/lore/embedded.ts';
import { buildLoreIndex } from '../../../src/core/lore/lore-index.ts';
import { type FakeOpenAI, hashedWordsEmbedding, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const fastPolicy = {
  timeoutMs: 5_000,
  maxRetries: 0,
  backoffInitialMs: 0,
  backoffFactor: 2,
  backoffMaxMs: 0,
};

describe('embeddings', () => {
  it('embed() calls /v1/embeddings once and returns one vector per text, in order', async () => {
    fake = await startFakeOpenAI();
    const texts = ['goblin scavengers', 'dire wolves', 'stone golems'];
    const vectors = await embed(texts, { baseURL: fake.url, model: 'nomic-embed-text', policy: fastPolicy });
    expect(vectors).toEqual(texts.map((t) => hashedWordsEmbedding(t)));
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.path).toBe('/v1/embeddings');
    expect(fake.requests[0]?.body).toMatchObject({ model: 'nomic-embed-text', input: texts });
  });

  it('an empty list makes no request', async () => {
    fake = await startFakeOpenAI();
    expect(await embed([], { baseURL: fake.url, model: 'm' })).toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });

  it('errors come back as ModelError with the status', async () => {
    fake = await startFakeOpenAI([], { embeddingsError: { status: 404, message: 'model not found' } });
    await expect(
      embed(['x'], { baseURL: fake.url, model: 'missing', policy: fastPolicy }),
    ).rejects.toMatchObject({
      kind: 'http',
      status: 404,
    });
  });

  it('createEmbedder follows the config: null offline, without an embedding model, or on Anthropic', async () => {
    fake = await startFakeOpenAI();
    expect(createEmbedder(resolveModelConfig({}))).toBeNull();
    expect(
      createEmbedder(resolveModelConfig({ MNESOS_LLM_BASE_URL: fake.url, MNESOS_MODEL: 'm' })),
    ).toBeNull();
    expect(
      createEmbedder(
        resolveModelConfig({
          MNESOS_PROVIDER: 'anthropic',
          ANTHROPIC_API_KEY: 'k',
          MNESOS_MODEL: 'm',
          MNESOS_EMBEDDING_MODEL: 'e',
        }),
      ),
    ).toBeNull();
    const embedder = createEmbedder(
      resolveModelConfig({ MNESOS_LLM_BASE_URL: fake.url, MNESOS_MODEL: 'm', MNESOS_EMBEDDING_MODEL: 'e5' }),
    );
    expect(await embedder!(['a b'])).toEqual([hashedWordsEmbedding('a b')]);
  });

  it('plugs into lore: chunk vectors fetched once at build, query vectors once per lookup', async () => {
    fake = await startFakeOpenAI();
    const url = fake.url;
    const lore = '# Goblins\nGoblin scavengers ambush travelers.\n# Wolves\nDire wolves roam the woods.';
    const index = await withEmbeddings(buildLoreIndex(lore), (texts) =>
      embed(texts, { baseURL: url, model: 'e', policy: fastPolicy }),
    );
    const result = await index.lookupAsync(['goblin ambush'], { k: 1 });
    expect(result.chunks.map((c) => c.heading)).toEqual(['Goblins']);
    expect(fake.requests.map((r) => (r.body as { input: string[] }).input.length)).toEqual([2, 1]);
  });
});
