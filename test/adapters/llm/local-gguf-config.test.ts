// The local-model settings, checks and messages that need no node-llama-cpp: the MNESOS_MODEL_* settings and
// their limits, the model file check, the JSON-Schema-to-grammar conversion, the config resolution, and the
// one install command `mnesos` prints when MNESOS_MODEL_FILE is set without the package.

import { mkdirSync, mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeModelConfig, resolveConfig } from '../../../src/adapters/llm/config.ts';
import {
  DEFAULT_MODEL_CONTEXT,
  defaultThreads,
  installCommand,
  LLAMA_CPP_VERSION,
  MAX_MODEL_CONTEXT,
  MAX_MODEL_SEED,
  MAX_MODEL_THREADS,
  MIN_MODEL_CONTEXT,
  missingLlamaCppMessage,
  modelFileProblem,
  MAX_MODEL_MEMORY_MB,
  MIN_MODEL_MEMORY_MB,
  readLocalModelOptions,
} from '../../../src/adapters/llm/local-gguf/index.ts';
import {
  grammarSchema,
  MAX_GRAMMAR_REPETITION,
  MAX_INTEGER_ENUM,
  MAX_SCHEMA_DEPTH,
  toolCallSchema,
} from '../../../src/adapters/llm/local-gguf/json-schema.ts';
import { chatHistory } from '../../../src/adapters/llm/local-gguf/history.ts';
import { createLocalChatModel } from '../../../src/adapters/llm/local-gguf/model.ts';
import { createModels } from '../../../src/adapters/llm/providers.ts';
import { runCliInProcess } from '../../apps/cli/helpers.ts';
import { writeTinyGguf } from '../../helpers/tiny-gguf.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnesos-local-'));
const tiny = writeTinyGguf({ seed: 1 });
const emptyPrefix = mkdtempSync(join(tmpdir(), 'mnesos-no-llama-'));

describe('local model settings', () => {
  it('defaults the threads to the cores less one, at least 1 and at most 8', () => {
    expect([1, 2, 3, 4, 9, 64].map(defaultThreads)).toEqual([1, 1, 2, 3, 8, 8]);
    expect(readLocalModelOptions({}, 2)).toEqual({ threads: 1 });
  });

  it('takes each setting at its limits and refuses it just past them, naming the variable and the limit', () => {
    const ok = (env: Record<string, string>) => readLocalModelOptions(env, 4);
    expect(ok({ MNESOS_MODEL_THREADS: '1' }).threads).toBe(1);
    expect(ok({ MNESOS_MODEL_THREADS: String(MAX_MODEL_THREADS) }).threads).toBe(MAX_MODEL_THREADS);
    expect(() => ok({ MNESOS_MODEL_THREADS: '0' })).toThrow('MNESOS_MODEL_THREADS: 0 is out of range 1..64');
    expect(() => ok({ MNESOS_MODEL_THREADS: String(MAX_MODEL_THREADS + 1) })).toThrow('MAX_MODEL_THREADS');
    expect(() => ok({ MNESOS_MODEL_THREADS: '1.5' })).toThrow(
      'MNESOS_MODEL_THREADS: "1.5" is not an integer',
    );
    expect(ok({ MNESOS_MODEL_CONTEXT: String(MIN_MODEL_CONTEXT) }).contextSize).toBe(MIN_MODEL_CONTEXT);
    expect(ok({ MNESOS_MODEL_CONTEXT: String(MAX_MODEL_CONTEXT) }).contextSize).toBe(MAX_MODEL_CONTEXT);
    expect(() => ok({ MNESOS_MODEL_CONTEXT: String(MIN_MODEL_CONTEXT - 1) })).toThrow('MAX_MODEL_CONTEXT');
    expect(() => ok({ MNESOS_MODEL_CONTEXT: String(MAX_MODEL_CONTEXT + 1) })).toThrow('MAX_MODEL_CONTEXT');
    expect(ok({ MNESOS_MODEL_SEED: '0' }).seed).toBe(0);
    expect(ok({ MNESOS_MODEL_SEED: String(MAX_MODEL_SEED) }).seed).toBe(MAX_MODEL_SEED);
    expect(() => ok({ MNESOS_MODEL_SEED: String(MAX_MODEL_SEED + 1) })).toThrow('MAX_MODEL_SEED');
    expect(() => ok({ MNESOS_MODEL_SEED: '-1' })).toThrow('MNESOS_MODEL_SEED: -1 is out of range');
    expect(DEFAULT_MODEL_CONTEXT).toBe(8192);
    expect(ok({ MNESOS_MODEL_MEMORY_MB: String(MIN_MODEL_MEMORY_MB) }).memoryMb).toBe(MIN_MODEL_MEMORY_MB);
    expect(ok({ MNESOS_MODEL_MEMORY_MB: String(MAX_MODEL_MEMORY_MB) }).memoryMb).toBe(MAX_MODEL_MEMORY_MB);
    expect(() => ok({ MNESOS_MODEL_MEMORY_MB: String(MIN_MODEL_MEMORY_MB - 1) })).toThrow(
      'MNESOS_MODEL_MEMORY_MB: 255 is out of range 256..1048576 (the limit is MAX_MODEL_MEMORY_MB)',
    );
    expect(() => ok({ MNESOS_MODEL_MEMORY_MB: String(MAX_MODEL_MEMORY_MB + 1) })).toThrow(
      'MAX_MODEL_MEMORY_MB',
    );
    expect(ok({}).memoryMb).toBeUndefined();
  });
});

describe('the model file check', () => {
  const check = { source: 'MNESOS_MODEL_FILE' };

  it('accepts a real GGUF file', () => {
    expect(modelFileProblem(tiny, check)).toBeUndefined();
  });

  it('names what is wrong: missing, not .gguf, a folder, too short, not GGUF, relative where absolute is required', () => {
    expect(modelFileProblem(join(dir, 'none.gguf'), check)).toBe(`${join(dir, 'none.gguf')}: not found`);
    const text = join(dir, 'model.bin');
    writeFileSync(text, 'GGUF and more bytes than a header needs');
    expect(modelFileProblem(text, check)).toBe(`${text}: is not a .gguf file`);
    const folder = join(dir, 'folder.gguf');
    mkdirSync(folder);
    expect(modelFileProblem(folder, check)).toBe(`${folder}: is not a regular file`);
    const short = join(dir, 'short.gguf');
    writeFileSync(short, 'GGUF');
    expect(modelFileProblem(short, check)).toBe(`${short}: is 4 bytes, too short for a GGUF model`);
    const other = join(dir, 'other.gguf');
    writeFileSync(other, 'PK\u0003\u0004 this is a zip file, not a model');
    expect(modelFileProblem(other, check)).toMatch(/does not start with the GGUF magic/);
    const rel = relative(process.cwd(), tiny);
    expect(modelFileProblem(rel, { ...check, requireAbsolute: true })).toBe(
      `${rel}: must be an absolute path`,
    );
    expect(modelFileProblem(rel, check)).toBeUndefined();
    expect(modelFileProblem('', check)).toBe('is empty');
  });

  it('takes a file at the size limit and refuses one a byte past it', () => {
    const file = join(dir, 'sized.gguf');
    writeFileSync(file, 'GGUF');
    truncateSync(file, 1_000);
    expect(modelFileProblem(file, { ...check, maxBytes: 1_000 })).toBeUndefined();
    expect(modelFileProblem(file, { ...check, maxBytes: 999 })).toBe(
      `${file}: is 1000 bytes, the limit is 999 (MAX_MODEL_FILE_BYTES)`,
    );
  });
});

describe('JSON Schema to grammar schema', () => {
  it('keeps what a grammar enforces and turns unions, single enums and small integer ranges into its forms', () => {
    expect(
      grammarSchema({
        type: 'object',
        properties: {
          a: { anyOf: [{ type: 'string', maxLength: 3 }, { type: 'null' }] },
          b: { type: 'string', enum: ['only'] },
          c: { type: 'integer', minimum: 1, maximum: 3 },
          d: { type: 'integer', minimum: 0 },
          e: { type: 'number', minimum: 0, maximum: 1 },
          f: { type: 'string', pattern: '^x+$', description: 'kept' },
          g: { type: 'array', items: { type: 'boolean' }, maxItems: 2 },
          h: {},
        },
        required: ['a', 'zz'],
      }),
    ).toEqual({
      type: 'object',
      properties: {
        a: { oneOf: [{ type: 'string', maxLength: 3 }, { type: 'null' }] },
        b: { const: 'only' },
        c: { enum: [1, 2, 3] },
        d: { type: 'integer' },
        e: { type: 'number' },
        f: { type: 'string', description: 'kept' },
        g: { type: 'array', items: { type: 'boolean' }, maxItems: 2 },
        h: { type: ['string', 'number', 'integer', 'boolean', 'null'] },
      },
      required: ['a'],
      additionalProperties: false,
    });
  });

  it('makes an integer range of MAX_INTEGER_ENUM values an enum, and one of a value more a plain integer', () => {
    expect(grammarSchema({ type: 'integer', minimum: 0, maximum: MAX_INTEGER_ENUM - 1 })).toMatchObject({
      enum: expect.any(Array),
    });
    expect(grammarSchema({ type: 'integer', minimum: 0, maximum: MAX_INTEGER_ENUM })).toEqual({
      type: 'integer',
    });
  });

  it('lowers repetitions past MAX_GRAMMAR_REPETITION to it, and keeps those at it', () => {
    expect(grammarSchema({ type: 'string', maxLength: MAX_GRAMMAR_REPETITION })).toEqual({
      type: 'string',
      maxLength: MAX_GRAMMAR_REPETITION,
    });
    expect(grammarSchema({ type: 'string', maxLength: MAX_GRAMMAR_REPETITION + 1 })).toEqual({
      type: 'string',
      maxLength: MAX_GRAMMAR_REPETITION,
    });
    expect(grammarSchema({ type: 'array', maxItems: 10_000 })).toEqual({
      type: 'array',
      maxItems: MAX_GRAMMAR_REPETITION,
    });
  });

  it('takes nesting up to MAX_SCHEMA_DEPTH and refuses one level more, naming the place', () => {
    const nested = (levels: number): Record<string, unknown> => {
      let schema: Record<string, unknown> = { type: 'string' };
      for (let i = 0; i < levels; i++) schema = { type: 'array', items: schema };
      return schema;
    };
    expect(() => grammarSchema(nested(MAX_SCHEMA_DEPTH))).not.toThrow();
    expect(() => grammarSchema(nested(MAX_SCHEMA_DEPTH + 1))).toThrow(
      `nested deeper than ${MAX_SCHEMA_DEPTH}`,
    );
    expect(() => grammarSchema({ type: 'object', properties: { x: { type: 'date' } } })).toThrow(
      '$.x: unknown type "date"',
    );
  });

  it('refuses a request whose schema cannot be a grammar as a bad request, before any model is loaded', async () => {
    // An entry that does not exist: the request is refused before anything would be imported or loaded.
    const model = createLocalChatModel({ entry: join(dir, 'no-such-entry.js'), file: tiny, threads: 1 });
    await expect(
      model.generate({
        system: '',
        messages: [{ role: 'user', content: 'x' }],
        responseSchema: { name: 'bad', schema: { type: 'object', properties: { x: { type: 'date' } } } },
      }),
    ).rejects.toMatchObject({
      kind: 'bad-request',
      message: 'a schema of the request cannot be a grammar: $.x: unknown type "date"',
    });
  });

  it('builds one branch per tool for a forced call, the name a constant', () => {
    const look = { name: 'look', description: '', inputSchema: { type: 'object', properties: {} } };
    const wait = { name: 'wait', description: '', inputSchema: { type: 'object', properties: {} } };
    expect(toolCallSchema([look])).toMatchObject({ properties: { name: { const: 'look' } } });
    const both = toolCallSchema([look, wait]) as { oneOf: { properties: { name: unknown } }[] };
    expect(both.oneOf.map((b) => b.properties.name)).toEqual([{ const: 'look' }, { const: 'wait' }]);
  });
});

describe('chat history for the template', () => {
  it('keeps system, user and assistant turns, writes calls as JSON and results as engine lines, and ends with the turn to write', () => {
    expect(
      chatHistory('sys', [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: 'ok',
          toolCalls: [{ id: '1', name: 'look', args: { at: 'door' }, rawArgs: '{"at":"door"}' }],
        },
        { role: 'tool', toolCallId: '1', toolName: 'look', content: 'a door' },
      ]),
    ).toEqual([
      { type: 'system', text: 'sys' },
      { type: 'user', text: 'hi' },
      { type: 'model', response: ['ok\n{"name":"look","arguments":{"at":"door"}}'] },
      { type: 'user', text: '[engine] result of look: a door' },
      { type: 'model', response: [] },
    ]);
  });
});

describe('the local model configuration', () => {
  it('makes MNESOS_MODEL_FILE the provider file, with the local settings', () => {
    const config = resolveConfig({
      MNESOS_MODEL_FILE: tiny,
      MNESOS_MODEL_THREADS: '2',
      MNESOS_MODEL_SEED: '7',
    });
    expect(config).toMatchObject({ provider: 'file', file: tiny, source: 'MNESOS_MODEL_FILE' });
    if (config.provider !== 'file') throw new Error('expected file');
    expect(config.local).toEqual({ threads: 2, seed: 7 });
    expect(describeModelConfig(config)).toContain('2 thread(s)');
    expect(resolveConfig({ MNESOS_PROVIDER: 'offline', MNESOS_MODEL_FILE: tiny }).provider).toBe('offline');
    expect(resolveConfig({}, { provider: 'file', model_file: tiny })).toMatchObject({
      provider: 'file',
      source: 'llm.model_file',
    });
  });

  it('refuses provider file without a file, and a file beside another provider', () => {
    expect(() => resolveConfig({ MNESOS_PROVIDER: 'file' })).toThrow(
      'provider file needs a model: set MNESOS_MODEL_FILE=/path/to/model.gguf',
    );
    expect(() =>
      resolveConfig({
        MNESOS_PROVIDER: 'openai',
        MNESOS_MODEL_FILE: tiny,
        MNESOS_LLM_API_KEY: 'k',
        MNESOS_MODEL: 'm',
      }),
    ).toThrow('MNESOS_MODEL_FILE (a local model) and MNESOS_PROVIDER=openai both choose the models');
  });

  it('refuses a bad file when the models are made, naming the variable', () => {
    expect(() => createModels(resolveConfig({ MNESOS_MODEL_FILE: join(dir, 'nope.gguf') }))).toThrow(
      `MNESOS_MODEL_FILE: ${join(dir, 'nope.gguf')}: not found`,
    );
  });
});

describe('without node-llama-cpp', () => {
  const env = { MNESOS_MODEL_FILE: tiny, MNESOS_LLAMA_CPP_DIR: emptyPrefix };
  const command = `npm install --prefix ${emptyPrefix} node-llama-cpp@${LLAMA_CPP_VERSION}`;

  it('docs/models.md gives the same command, for the project folder', () => {
    const docs = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'models.md'), 'utf8');
    expect(installCommand({}, '.')).toBe('npm install --prefix .cache/node-llama-cpp node-llama-cpp@3.21.1');
    expect(docs.split('\n')).toContain(installCommand({}, '.'));
  });

  it('quotes a folder that needs it', () => {
    expect(installCommand({ MNESOS_LLAMA_CPP_DIR: "/tmp/it's here" })).toBe(
      `npm install --prefix '/tmp/it'\\''s here' node-llama-cpp@${LLAMA_CPP_VERSION}`,
    );
  });

  it('says the one command that installs it', () => {
    expect(installCommand(env)).toBe(command);
    expect(missingLlamaCppMessage(env).split('\n').at(-1)).toBe(`  ${command}`);
    expect(() => createModels(resolveConfig(env))).toThrow(command);
  });

  it('`mnesos turn` prints that command and exits 1', async () => {
    const result = await runCliInProcess(['turn', 'lanternmere', '--input', 'look around'], {
      cwd: dir,
      env,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('node-llama-cpp, which is not installed in MNESOS_LLAMA_CPP_DIR');
    expect(result.stderr.split('\n')).toContain(`  ${command}`);
  });

  it('`mnesos serve` prints it too, before the server starts', async () => {
    const result = await runCliInProcess(['serve', '--port', '0'], { cwd: dir, env });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('unexpected error');
    expect(result.stderr.split('\n')).toContain(`  ${command}`);
    expect(result.stdout).not.toContain('listening');
  });
});
