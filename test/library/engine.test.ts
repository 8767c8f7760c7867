// The library entry: createEngine binds a cartridge to models (offline here) for events and turns.
import { describe, expect, it } from 'vitest';
import { createEngine, EngineLoadError } from '../../src/index.ts';

describe('createEngine', () => {
  it('loads the demo cartridge, runs an event and an offline turn', async () => {
    const engine = await createEngine({ cartridge: 'cartridges/lanternmere', models: null });
    const state = engine.initialState();
    expect(engine.tools().map((t) => t.name)).toContain('attack');
    const rested = engine.runEvent(state, 'rest_at_inn', {}, 1);
    expect(rested.ok).toBe(true);
    expect(
      engine.evaluate(state, '@ 1 + 1').ok && (engine.evaluate(state, '@ 1 + 1') as { value: unknown }).value,
    ).toBe(2);
    let done = false;
    for await (const event of engine.turn({ state, input: '/rest_at_inn', seed: 1 })) {
      if (event.type === 'done') done = true;
    }
    expect(done).toBe(true);
  });

  it('refuses a broken cartridge with file:line:col errors', async () => {
    await expect(createEngine({ cartridge: '/nonexistent-cartridge', models: null })).rejects.toBeInstanceOf(
      EngineLoadError,
    );
  });
});
