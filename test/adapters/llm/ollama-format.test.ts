// Ollama through its OpenAI-compatible endpoint (`/v1`, the only way the engine talks to it): what the
// Director sends under each constrained-decoding setting, seen as Ollama's compatibility layer reads it.
// The fake server below converts every request the way Ollama's layer does before its native `/api/chat`
// (`response_format: {type: "json_schema", json_schema: {schema}}` becomes the native `format`, the schema
// itself; `json_object` becomes `format: "json"`; `tools` pass through; `tool_choice` is not read), and
// answers in Ollama's stream shape (whole tool calls in one chunk, finish reason `stop`). docs/models.md,
// "Constrained decoding", says the same.

import { afterEach, describe, expect, it } from 'vitest';
import { resolveModelConfig } from '../../../src/adapters/llm/config.ts';
import { createModels } from '../../../src/adapters/llm/providers.ts';
import type { ModelSet } from '../../../src/adapters/llm/types.ts';
import { MAX_DIRECTIVES_CHARS, MAX_TOOL_CALLS_PER_ROUND } from '../../../src/engine/turn/limits.ts';
import { type FakeOpenAI, type FakeReply, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';
import { collect, initialState, type Loose, lanternmere } from '../../engine/turn/helpers.ts';

/** A native `/api/chat` request as Ollama's OpenAI layer builds it from a `/v1/chat/completions` body. */
interface NativeChat {
  readonly model: string;
  readonly format: unknown;
  readonly tools: unknown;
  readonly stream: boolean;
}

function asOllamaNative(body: Loose): NativeChat {
  const responseFormat = body.response_format as Loose | undefined;
  let format: unknown;
  const type = typeof responseFormat?.type === 'string' ? responseFormat.type.trim().toLowerCase() : '';
  if (type === 'json_object') format = 'json';
  else if (type === 'json_schema' && responseFormat?.json_schema !== undefined)
    format = responseFormat.json_schema.schema;
  return { model: body.model, format, tools: body.tools, stream: body.stream === true };
}

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const native: NativeChat[] = [];

async function ollamaModels(decoding: string, director: (chat: NativeChat) => FakeReply): Promise<ModelSet> {
  native.length = 0;
  fake = await startFakeOpenAI((request) => {
    const body = request.body as Loose;
    const chat = asOllamaNative(body);
    const isNarrator = JSON.stringify(body.messages).includes('You are the Narrator');
    if (isNarrator) return { kind: 'text', text: 'Reeds close around you.' };
    native.push(chat);
    return director(chat);
  });
  const config = resolveModelConfig({
    // Ollama's OpenAI-compatible base URL has this shape: http://<host>:11434/v1.
    MNESOS_LLM_BASE_URL: fake.url,
    MNESOS_MODEL: 'llama3.1:8b',
    MNESOS_LLM_MAX_RETRIES: '0',
    MNESOS_CONSTRAINED_DECODING: decoding,
  });
  const models = createModels(config);
  if (models === null) throw new Error('expected models');
  return models;
}

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

describe('Ollama: json-schema decoding becomes the native format', () => {
  it("the Director's calls schema is Ollama's `format`, no tools are sent, and the constrained answer runs", async () => {
    const models = await ollamaModels('json-schema', () => ({
      kind: 'text',
      text: JSON.stringify({
        calls: [{ name: 'travel', arguments: { destination: 'reedmaze' } }],
        directives: '### 1. Outcomes\nArrival.',
      }),
    }));
    const { record } = await play(models);
    const first = native[0]!;
    expect(first.model).toBe('llama3.1:8b');
    expect(first.stream).toBe(true);
    expect(first.tools).toBeUndefined();
    const format = first.format as Loose;
    expect(format).toMatchObject({
      type: 'object',
      required: ['calls', 'directives'],
      additionalProperties: false,
      properties: {
        calls: { type: 'array', maxItems: MAX_TOOL_CALLS_PER_ROUND },
        directives: { type: 'string', maxLength: MAX_DIRECTIVES_CHARS },
      },
    });
    const travel = (format.properties.calls.items.anyOf as Loose[]).find(
      (option) => option.properties.name.enum[0] === 'travel',
    )!;
    expect(travel.properties.arguments.properties.destination.enum).toEqual([
      'tallow rest',
      'brine market',
      'reedmaze',
      'drowned chapel',
    ]);
    // Self-contained: a grammar is built from it alone (no references to resolve).
    expect(JSON.stringify(format)).not.toContain('$ref');
    const directed = record.ruleCalls.filter((c) => c.source === 'director');
    expect(directed.map((c) => [c.event, c.inputs.destination, c.ok])).toEqual([
      ['travel', 'reedmaze', true],
    ]);
  });

  it('off: the tools go to Ollama as they are (no format), and its whole-call stream shape is read', async () => {
    let calls = 0;
    const models = await ollamaModels('off', () =>
      calls++ === 0
        ? {
            kind: 'tool-calls',
            style: 'ollama',
            calls: [{ name: 'travel', arguments: { destination: 'reedmaze' } }],
          }
        : { kind: 'text', text: '### 1. Outcomes\nArrival.' },
    );
    const { record } = await play(models);
    expect(native[0]!.format).toBeUndefined();
    const names = (native[0]!.tools as Loose[]).map((t) => t.function.name);
    expect(names).toContain('travel');
    expect(record.ruleCalls.filter((c) => c.source === 'director').map((c) => c.event)).toEqual(['travel']);
  });

  it('auto on an Ollama base URL is off: its support depends on the version, so json-schema is asked for by name', () => {
    const config = resolveModelConfig({
      MNESOS_LLM_BASE_URL: 'http://127.0.0.1:11434/v1',
      MNESOS_MODEL: 'llama3.1:8b',
    });
    expect(config.provider === 'openai-compatible' && config.decoding).toBe('off');
  });
});
