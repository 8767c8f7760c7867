// Every capped field of a model's answer at its cap and one past it: kept as it is, or replaced with the
// refusal kept as reason, length and sha256.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  capResponse,
  MAX_FINISH_REASON_CHARS,
  MAX_MODEL_ID_CHARS,
  MAX_TOOL_CALL_ID_CHARS,
  MAX_TOOL_CALL_NAME_CHARS,
  MAX_USAGE_TOKENS,
} from '../../../src/adapters/llm/output-caps.ts';
import { StreamAssembler } from '../../../src/adapters/llm/openai-wire.ts';
import type { ModelResponse } from '../../../src/adapters/llm/types.ts';

const base: ModelResponse = {
  text: 'ok',
  toolCalls: [{ id: 'call_1', name: 'travel', args: {}, rawArgs: '{}' }],
  usage: { inputTokens: 10, outputTokens: 5 },
  finishReason: 'stop',
  modelId: 'served-model',
};
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('capResponse', () => {
  it('keeps an answer within every cap as it is', () => {
    const atCaps: ModelResponse = {
      ...base,
      modelId: 'm'.repeat(MAX_MODEL_ID_CHARS),
      finishReason: 'f'.repeat(MAX_FINISH_REASON_CHARS),
      toolCalls: [
        {
          id: 'i'.repeat(MAX_TOOL_CALL_ID_CHARS),
          name: 'n'.repeat(MAX_TOOL_CALL_NAME_CHARS),
          args: {},
          rawArgs: '{}',
        },
      ],
      usage: { inputTokens: MAX_USAGE_TOKENS, outputTokens: 0, cachedInputTokens: MAX_USAGE_TOKENS },
    };
    expect(capResponse(atCaps, 'configured')).toBe(atCaps);
  });

  it('a model id one past MAX_MODEL_ID_CHARS becomes the configured id', () => {
    const long = 'm'.repeat(MAX_MODEL_ID_CHARS + 1);
    const capped = capResponse({ ...base, modelId: long }, 'configured');
    expect(capped.modelId).toBe('configured');
    expect(capped.refused).toEqual([
      {
        field: 'modelId',
        reason: `longer than ${MAX_MODEL_ID_CHARS} characters (MAX_MODEL_ID_CHARS)`,
        chars: long.length,
        sha256: sha(long),
      },
    ]);
  });

  it('a call id one past MAX_TOOL_CALL_ID_CHARS becomes a stand-in; a name past its cap is cut', () => {
    const id = 'i'.repeat(MAX_TOOL_CALL_ID_CHARS + 1);
    const name = 'n'.repeat(MAX_TOOL_CALL_NAME_CHARS + 1);
    const capped = capResponse(
      { ...base, toolCalls: [base.toolCalls[0]!, { id, name, args: {}, rawArgs: '{}' }] },
      'configured',
    );
    expect(capped.toolCalls.map((c) => c.id)).toEqual(['call_1', 'call_capped_1']);
    expect(capped.toolCalls[1]!.name).toHaveLength(MAX_TOOL_CALL_NAME_CHARS);
    expect(capped.refused!.map((r) => [r.field, r.chars, r.sha256])).toEqual([
      ['toolCalls[1].id', id.length, sha(id)],
      ['toolCalls[1].name', name.length, sha(name)],
    ]);
  });

  it('a finish reason one past MAX_FINISH_REASON_CHARS becomes unknown', () => {
    const reason = 'f'.repeat(MAX_FINISH_REASON_CHARS + 1);
    const capped = capResponse({ ...base, finishReason: reason }, 'configured');
    expect(capped.finishReason).toBe('unknown');
    expect(capped.refused![0]).toMatchObject({ field: 'finishReason', chars: reason.length });
  });

  it('a token count one past MAX_USAGE_TOKENS, or not an integer, counts 0', () => {
    const capped = capResponse(
      { ...base, usage: { inputTokens: MAX_USAGE_TOKENS + 1, outputTokens: 1.5, cachedInputTokens: 3 } },
      'configured',
    );
    expect(capped.usage).toEqual({ inputTokens: 0, outputTokens: 0, cachedInputTokens: 3 });
    expect(capped.refused!.map((r) => r.field)).toEqual(['usage.inputTokens', 'usage.outputTokens']);
    expect(capped.refused![0]!.reason).toMatch(/MAX_USAGE_TOKENS/);
  });

  it('a configured id over the cap is cut, so nothing over it is ever kept', () => {
    const capped = capResponse({ ...base, modelId: 'm'.repeat(MAX_MODEL_ID_CHARS + 1) }, 'c'.repeat(1_000));
    expect(capped.modelId).toHaveLength(MAX_MODEL_ID_CHARS + 1);
    expect(capped.modelId.endsWith('…')).toBe(true);
  });
});

describe('the stream assembler caps ids and the model id as they arrive', () => {
  it('keeps one refusal for a model id every chunk repeats, and replaces a call id past its cap', () => {
    const assembler = new StreamAssembler('configured');
    const model = 'm'.repeat(MAX_MODEL_ID_CHARS + 1);
    const id = 'i'.repeat(MAX_TOOL_CALL_ID_CHARS + 1);
    for (let i = 0; i < 3; i++) assembler.chunk({ model, choices: [{ delta: { content: 'a' } }] });
    assembler.chunk({
      model,
      choices: [{ delta: { tool_calls: [{ index: 0, id, function: { name: 'travel', arguments: '{}' } }] } }],
    });
    assembler.chunk({
      choices: [
        {
          delta: {
            tool_calls: [{ index: 1, id: 'i'.repeat(MAX_TOOL_CALL_ID_CHARS), function: { name: 'x' } }],
          },
        },
      ],
    });
    expect(assembler.responseModelId).toBeUndefined();
    expect(assembler.toolCalls().map((c) => c.id)).toEqual([
      'call_capped_0',
      'i'.repeat(MAX_TOOL_CALL_ID_CHARS),
    ]);
    expect(assembler.refused.map((r) => r.field)).toEqual(['modelId', 'toolCalls[0].id']);
  });
});

describe('a hostile stream repeating huge ids', () => {
  it('refuses each call id once, however many fragments repeat it', () => {
    const assembler = new StreamAssembler('configured');
    const id = 'i'.repeat(MAX_TOOL_CALL_ID_CHARS + 1);
    assembler.chunk({
      choices: [{ delta: { tool_calls: [{ index: 0, id, function: { name: 'travel', arguments: '' } }] } }],
    });
    for (let i = 0; i < 1_000; i++)
      assembler.chunk({
        choices: [{ delta: { tool_calls: [{ index: 0, id, function: { arguments: '' } }] } }],
      });
    expect(assembler.refused).toHaveLength(1);
    expect(assembler.toolCalls().map((c) => c.id)).toEqual(['call_capped_0']);
  });
});
