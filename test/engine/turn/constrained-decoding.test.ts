// Constrained decoding per provider capability: what each setting sends on the wire (a fake
// OpenAI-compatible server, real HTTP), how the Director reads the answer, and how `auto` is resolved.

import { afterEach, describe, expect, it } from 'vitest';
import { resolveModelConfig } from '../../../src/adapters/llm/config.ts';
import { createModels } from '../../../src/adapters/llm/providers.ts';
import type { ModelSet } from '../../../src/adapters/llm/types.ts';
import { type FakeHandler, type FakeOpenAI, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';
import { collect, initialState, type Loose, lanternmere, plain } from './helpers.ts';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function modelsFor(decoding: string, handler: FakeHandler): Promise<ModelSet> {
  fake = await startFakeOpenAI(handler);
  const config = resolveModelConfig({
    MNESOS_LLM_BASE_URL: fake.url,
    MNESOS_MODEL: 'm',
    MNESOS_LLM_MAX_RETRIES: '0',
    MNESOS_CONSTRAINED_DECODING: decoding,
  });
  const models = createModels(config);
  if (models === null) throw new Error('expected models');
  return models;
}

const isDirector = (body: Loose) =>
  body.response_format !== undefined ||
  (body.tools as Loose[] | undefined)?.some((t) => t.function.name === 'finish_turn');

async function play(models: ModelSet) {
  const cartridge = await lanternmere();
  return collect({
    cartridge,
    state: initialState(cartridge),
    messages: [],
    input: 'go to the reedmaze',
    seed: 1,
    models,
    ledgerMode: 'off',
  });
}

describe('json-schema decoding', () => {
  it('sends the calls schema as response_format instead of tools and runs the calls of the answer', async () => {
    const models = await modelsFor('json-schema', (request) => {
      const body = request.body as Loose;
      if (!isDirector(body)) return { kind: 'text', text: 'Reeds close around you.' };
      return {
        kind: 'text',
        text: JSON.stringify({
          calls: [{ name: 'travel', arguments: { destination: 'reedmaze' } }],
          directives: '### 1. Outcomes\nArrival.',
        }),
      };
    });
    const { record } = await play(models);
    const director = fake!.chatRequests()[0] as Loose;
    expect(director.tools).toBeUndefined();
    expect(director.response_format.type).toBe('json_schema');
    const schema = director.response_format.json_schema.schema;
    expect(schema.required).toEqual(['calls', 'directives']);
    const names = schema.properties.calls.items.anyOf.map((s: Loose) => s.properties.name.enum[0]);
    expect(names).toContain('travel');
    expect(names).toContain('finish_turn');
    expect(schema.properties.calls.maxItems).toBe(8);
    expect(
      record.ruleCalls.filter((c) => c.source === 'director').map((c) => [c.event, plain(c.inputs)]),
    ).toEqual([['travel', { destination: 'reedmaze' }]]);
    expect(record.directives).toBe('### 1. Outcomes\nArrival.');
    expect(record.tools[0]?.fromText).toBeUndefined();
  });

  it('sends a failed call back as an engine message (no tool messages without tools), and the repair runs', async () => {
    let round = 0;
    const models = await modelsFor('json-schema', (request) => {
      const body = request.body as Loose;
      if (!isDirector(body)) return { kind: 'text', text: 'Reeds.' };
      round += 1;
      const destination = round === 1 ? 'the moon' : 'reedmaze';
      return {
        kind: 'text',
        text: JSON.stringify({ calls: [{ name: 'travel', arguments: { destination } }], directives: '' }),
      };
    });
    const { record } = await play(models);
    expect(record.tools.map((t) => t.ok)).toEqual([false, true]);
    const second = fake!.chatRequests()[1] as Loose;
    const roles = (second.messages as Loose[]).map((m) => m.role);
    expect(roles).not.toContain('tool');
    expect((second.messages as Loose[]).at(-1)?.content).toMatch(
      /^\[engine\] result of travel: \{"ok":false/,
    );
  });
});

describe('strict-tools decoding', () => {
  it('sends tools with strict: true, every input required, the optional ones nullable; a null input is left out', async () => {
    const models = await modelsFor('strict-tools', (request) => {
      const body = request.body as Loose;
      if (!isDirector(body)) return { kind: 'text', text: 'Reeds.' };
      return {
        kind: 'tool-calls',
        calls: [{ name: 'travel', arguments: { destination: 'reedmaze', engine_time_delta: null } }],
      };
    });
    const { record } = await play(models);
    const travel = (fake!.chatRequests()[0]!.tools as Loose[]).find(
      (t) => t.function.name === 'travel',
    )!.function;
    expect(travel.strict).toBe(true);
    expect(travel.parameters.required).toEqual(['destination', 'engine_time_delta']);
    expect(travel.parameters.properties.engine_time_delta.type).toEqual(['string', 'null']);
    expect(travel.parameters.properties.engine_time_delta.maxLength).toBeUndefined();
    expect(travel.parameters.additionalProperties).toBe(false);
    expect(record.tools[0]).toMatchObject({ name: 'travel', ok: true });
  });

  it('off sends tools as they are', async () => {
    const models = await modelsFor('off', (request) => {
      const body = request.body as Loose;
      if (!isDirector(body)) return { kind: 'text', text: 'Reeds.' };
      return { kind: 'tool-calls', calls: [{ name: 'travel', arguments: { destination: 'reedmaze' } }] };
    });
    await play(models);
    const body = fake!.chatRequests()[0] as Loose;
    expect(body.response_format).toBeUndefined();
    expect((body.tools as Loose[]).every((t) => t.function.strict === undefined)).toBe(true);
  });
});

describe('the constrained decoding setting', () => {
  const base = { MNESOS_MODEL: 'm' };
  const decodingOf = (env: Record<string, string>) => {
    const config = resolveModelConfig({ ...base, ...env });
    return config.provider === 'offline' ? 'offline' : config.decoding;
  };
  it('auto: strict tools on api.openai.com, off on any other server and on the SDK providers', () => {
    expect(decodingOf({ MNESOS_LLM_BASE_URL: 'https://api.openai.com/v1' })).toBe('strict-tools');
    expect(decodingOf({ MNESOS_LLM_BASE_URL: 'http://localhost:8080/v1' })).toBe('off');
    expect(decodingOf({ MNESOS_PROVIDER: 'anthropic', MNESOS_LLM_API_KEY: 'k' })).toBe('off');
  });
  it('takes a named setting, and refuses an unknown one or one the provider cannot do', () => {
    expect(
      decodingOf({
        MNESOS_LLM_BASE_URL: 'http://localhost:8080/v1',
        MNESOS_CONSTRAINED_DECODING: 'json-schema',
      }),
    ).toBe('json-schema');
    expect(() =>
      decodingOf({ MNESOS_LLM_BASE_URL: 'http://localhost:8080/v1', MNESOS_CONSTRAINED_DECODING: 'grammar' }),
    ).toThrow(/unknown setting "grammar"; expected one of auto, off, strict-tools, json-schema/);
    expect(() =>
      decodingOf({
        MNESOS_PROVIDER: 'anthropic',
        MNESOS_LLM_API_KEY: 'k',
        MNESOS_CONSTRAINED_DECODING: 'json-schema',
      }),
    ).toThrow(/needs provider openai-compatible/);
  });
});
