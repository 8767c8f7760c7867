// The library entry: createEngine binds a cartridge to models (offline here) for events and turns.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    const dir = mkdtempSync(join(tmpdir(), 'mnesos-engine-'));
    try {
      writeFileSync(join(dir, 'bot_lore.md'), '# A place\n\nSomewhere.\n');
      // Line 4, column 9: a step with an action the interpreter does not know.
      writeFileSync(
        join(dir, 'yare.yaml'),
        'version: "1.0"\nevents:\n  wave:\n    steps:\n      - action: dance\n',
      );
      const error = await createEngine({ cartridge: dir, models: null }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(EngineLoadError);
      const refused = error as EngineLoadError;
      expect(refused.result.errors.length).toBeGreaterThan(0);
      const first = refused.result.errors[0]!;
      expect(first.place).toMatchObject({ file: join(dir, 'yare.yaml') });
      expect(first.place!.line).toBe(5);
      expect(refused.message).toMatch(
        new RegExp(`^${join(dir, 'yare.yaml').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:5:\\d+: .*dance`),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a missing cartridge folder, naming it', async () => {
    const error = await createEngine({ cartridge: '/nonexistent-cartridge', models: null }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EngineLoadError);
    expect((error as Error).message).toContain('/nonexistent-cartridge');
  });
});
