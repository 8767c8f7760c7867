import { describe, expect, it } from 'vitest';
import { createScriptedModels } from '../../../src/adapters/llm/scripted.ts';
import { meterModels, UsageMeter } from '../../../src/adapters/llm/usage.ts';

describe('UsageMeter', () => {
  it('sums per role and in total, cached tokens included', () => {
    const meter = new UsageMeter();
    meter.add('director', { inputTokens: 100, outputTokens: 10, cachedInputTokens: 80 });
    meter.add('director', { inputTokens: 50, outputTokens: 5 });
    meter.add('narrator', { inputTokens: 200, outputTokens: 300 });
    expect(meter.byRole()).toEqual({
      director: { calls: 2, inputTokens: 150, outputTokens: 15, cachedInputTokens: 80 },
      narrator: { calls: 1, inputTokens: 200, outputTokens: 300, cachedInputTokens: 0 },
      npc: { calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
    });
    expect(meter.total()).toEqual({ calls: 3, inputTokens: 350, outputTokens: 315, cachedInputTokens: 80 });
  });

  it('meterModels counts finished generate and stream calls, and nothing for failed ones', async () => {
    const scripted = createScriptedModels({
      director: [
        { text: 'a', usage: { inputTokens: 7, outputTokens: 1 } },
        { error: { kind: 'http', status: 500 } },
      ],
      narrator: [{ text: 'b c', usage: { inputTokens: 9, outputTokens: 2, cachedInputTokens: 4 } }],
    });
    const meter = new UsageMeter();
    const models = meterModels(scripted, meter);
    await models.director.generate({ system: '', messages: [] });
    await expect(models.director.generate({ system: '', messages: [] })).rejects.toMatchObject({
      kind: 'http',
    });
    for await (const _part of models.narrator.stream({ system: '', messages: [] })) {
      // drain
    }
    expect(meter.get('director')).toEqual({
      calls: 1,
      inputTokens: 7,
      outputTokens: 1,
      cachedInputTokens: 0,
    });
    expect(meter.get('narrator')).toEqual({
      calls: 1,
      inputTokens: 9,
      outputTokens: 2,
      cachedInputTokens: 4,
    });
    expect(models.director.id).toBe('scripted-director');
  });
});
