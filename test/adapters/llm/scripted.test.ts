import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ModelError } from '../../../src/adapters/llm/errors.ts';
import { MAX_SCRIPT_ENTRIES_PER_ROLE, MAX_SCRIPT_FILE_BYTES } from '../../../src/adapters/llm/limits.ts';
import { loadModelScript, parseModelScript, validateModelScript } from '../../../src/adapters/llm/script.ts';
import { createScriptedModels } from '../../../src/adapters/llm/scripted.ts';
import type { ModelRequest, ModelStreamPart } from '../../../src/adapters/llm/types.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnesos-llm-script-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const req: ModelRequest = { system: 'sys', messages: [{ role: 'user', content: 'I attack the goblin.' }] };

async function collect(parts: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const out: ModelStreamPart[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

function configError(run: () => unknown): ModelError {
  try {
    run();
  } catch (error) {
    if (error instanceof ModelError && error.kind === 'config') return error;
    throw error;
  }
  throw new Error('expected a config error');
}

describe('playback', () => {
  it('plays each role in order: text, tool calls, errors; then script-exhausted', async () => {
    const models = createScriptedModels({
      director: [
        { text: '', toolCalls: [{ name: 'combat_strike', args: { target: 'goblin' } }] },
        { error: { kind: 'http', status: 500 } },
      ],
      narrator: [{ text: 'The goblin falls.' }],
    });
    const first = await models.director.generate(req);
    expect(first.toolCalls).toEqual([
      {
        id: 'call_director_1_0',
        name: 'combat_strike',
        args: { target: 'goblin' },
        rawArgs: '{"target":"goblin"}',
      },
    ]);
    expect(first.finishReason).toBe('tool-calls');
    await expect(models.director.generate(req)).rejects.toMatchObject({ kind: 'http', status: 500 });
    const exhausted = models.director.generate(req);
    await expect(exhausted).rejects.toBeInstanceOf(ModelError);
    await expect(models.director.generate(req)).rejects.toMatchObject({ kind: 'script-exhausted' });
    expect((await models.narrator.generate(req)).text).toBe('The goblin falls.');
    await expect(models.npc.generate(req)).rejects.toMatchObject({ kind: 'script-exhausted' });
  });

  it('streams the given chunks, or the text split into words', async () => {
    const models = createScriptedModels({
      narrator: [
        { text: 'The goblin falls.', chunks: ['The ', 'goblin ', 'falls.'] },
        { text: 'Dawn breaks slowly.' },
      ],
    });
    const deltas = (parts: ModelStreamPart[]) =>
      parts.flatMap((p) => (p.type === 'text-delta' ? [p.text] : []));
    expect(deltas(await collect(models.narrator.stream(req)))).toEqual(['The ', 'goblin ', 'falls.']);
    const second = await collect(models.narrator.stream(req));
    expect(deltas(second)).toEqual(['Dawn ', 'breaks ', 'slowly.']);
    expect(second.at(-1)).toMatchObject({
      type: 'finish',
      response: { text: 'Dawn breaks slowly.', modelId: 'scripted-narrator' },
    });
  });

  it('streams tool calls and malformed raw arguments as args undefined', async () => {
    const models = createScriptedModels({
      director: [{ toolCalls: [{ id: 'x1', name: 'combat_strike', rawArgs: '{"target": ' }] }],
    });
    const parts = await collect(models.director.stream(req));
    expect(parts).toContainEqual({
      type: 'tool-call',
      call: { id: 'x1', name: 'combat_strike', args: undefined, rawArgs: '{"target": ' },
    });
  });

  it('records every request (a copy, without the signal), per role and in global order', async () => {
    const models = createScriptedModels({ director: [{ text: 'a' }], narrator: [{ text: 'b' }] });
    const messages = [{ role: 'user' as const, content: 'hello' }];
    await models.narrator.generate({ system: 'N', messages, signal: new AbortController().signal });
    messages.push({ role: 'user', content: 'mutated later' });
    await models.director.generate({ system: 'D', messages: [] });
    expect(models.narrator.requests).toEqual([
      { system: 'N', messages: [{ role: 'user', content: 'hello' }] },
    ]);
    expect(models.calls.map((c) => c.role)).toEqual(['narrator', 'director']);
    expect(models.narrator.remaining()).toBe(0);
  });

  it('usage defaults to token estimates, or is taken from the script', async () => {
    const models = createScriptedModels({
      director: [
        { text: 'abcdefgh' },
        { text: 'x', usage: { inputTokens: 5, outputTokens: 6, cachedInputTokens: 2 } },
      ],
    });
    const estimated = await models.director.generate(req);
    expect(estimated.usage.outputTokens).toBe(2);
    expect(estimated.usage.inputTokens).toBeGreaterThan(0);
    expect((await models.director.generate(req)).usage).toEqual({
      inputTokens: 5,
      outputTokens: 6,
      cachedInputTokens: 2,
    });
  });

  it('honours cancellation: before the call (nothing consumed) and during a scripted delay', async () => {
    const models = createScriptedModels({ director: [{ text: 'slow', delayMs: 60_000 }] });
    await expect(models.director.generate({ ...req, signal: AbortSignal.abort() })).rejects.toMatchObject({
      kind: 'aborted',
    });
    expect(models.director.remaining()).toBe(1);
    const controller = new AbortController();
    const pending = models.director.generate({ ...req, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
  });
});

describe('script validation', () => {
  it('names the file and the entry path', () => {
    const error = configError(() =>
      parseModelScript(
        JSON.stringify({ director: [{ text: 'ok' }, { toolCalls: [{ args: {} }] }] }),
        'turn.json',
      ),
    );
    expect(error.message).toMatch(/^turn\.json: director\[1\]\.toolCalls\[0\]\.name: /);
  });

  it('refuses unknown keys, unknown roles, chunks that do not join to the text, an http error without status', () => {
    expect(configError(() => validateModelScript({ director: [{ txt: 'x' }] })).message).toContain(
      'director[0].txt: unknown key',
    );
    expect(configError(() => validateModelScript({ narator: [] })).message).toContain('narator: unknown key');
    expect(
      configError(() => validateModelScript({ narrator: [{ text: 'ab', chunks: ['a'] }] })).message,
    ).toContain('chunks must join to exactly text');
    expect(configError(() => validateModelScript({ npc: [{ error: { kind: 'http' } }] })).message).toContain(
      'npc[0].error.status',
    );
    expect(
      configError(() =>
        validateModelScript({ npc: [{ toolCalls: [{ name: 'a', args: {}, rawArgs: '{}' }] }] }),
      ).message,
    ).toContain('either args or rawArgs');
  });

  it('entries per role: at the limit is accepted, past it is refused naming the limit', () => {
    const atLimit = Array.from({ length: MAX_SCRIPT_ENTRIES_PER_ROLE }, () => ({ text: 'x' }));
    expect(validateModelScript({ narrator: atLimit }).narrator).toHaveLength(MAX_SCRIPT_ENTRIES_PER_ROLE);
    const error = configError(() => validateModelScript({ narrator: [...atLimit, { text: 'x' }] }));
    expect(error.message).toContain('MAX_SCRIPT_ENTRIES_PER_ROLE');
  });

  it('loads a file; refuses bad JSON, a missing file and an oversized file by name', () => {
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ description: 'one turn', narrator: [{ text: 'Hi.' }] }));
    expect(loadModelScript(good).narrator).toEqual([{ text: 'Hi.' }]);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"narrator": [');
    expect(configError(() => loadModelScript(bad)).message).toMatch(/bad\.json: not valid JSON/);
    expect(configError(() => loadModelScript(join(dir, 'missing.json'))).message).toContain('missing.json');
    const atLimit = join(dir, 'at-limit.json');
    writeFileSync(atLimit, JSON.stringify({ description: 'x'.repeat(MAX_SCRIPT_FILE_BYTES - 18) }));
    expect(loadModelScript(atLimit).description).toHaveLength(MAX_SCRIPT_FILE_BYTES - 18);
    const huge = join(dir, 'huge.json');
    writeFileSync(huge, JSON.stringify({ description: 'x'.repeat(MAX_SCRIPT_FILE_BYTES - 17) }));
    expect(configError(() => loadModelScript(huge)).message).toContain('MAX_SCRIPT_FILE_BYTES');
  });
});
