// A planted secret (test/fixtures/cartridges/dial-secret: `dial.code` is private) copied by the rules through
// a temp, a loop item, a call's argument, text built from it and a macro, and dice read from it: neither the
// offline prose nor the Narrator's prompt (captured by a fake OpenAI-compatible server) nor the outcome
// under the prose ever shows it, while the public sentence of the same note does reach them.
import { afterEach, describe, expect, it } from 'vitest';
import { resolveModelConfig } from '../../../src/adapters/llm/config.ts';
import { createModels } from '../../../src/adapters/llm/providers.ts';
import type { ModelSet } from '../../../src/adapters/llm/types.ts';
import { publicOutcome } from '../../../src/engine/turn/public-outcome.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';
import { collect, fixture, initialState } from './helpers.ts';
import { DERIVED_PATHS, SECRET } from './private-derived-fixture.ts';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function modelsCalling(event: string): Promise<ModelSet> {
  fake = await startFakeOpenAI([
    { kind: 'tool-calls', text: 'Describe the dial.', calls: [{ name: event, arguments: {} }] },
    { kind: 'text', text: 'The dial turns under your fingers.' },
  ]);
  const config = resolveModelConfig({ MNESOS_LLM_BASE_URL: fake.url, MNESOS_MODEL: 'test-model' });
  if (config.provider === 'offline') throw new Error('expected an online config');
  const models = createModels(config);
  if (models === null) throw new Error('expected models');
  return models;
}

/** Everything a chat request sent: system and messages, as one text. */
function promptText(body: Record<string, unknown>): string {
  return JSON.stringify(body.messages);
}

describe('offline prose', () => {
  it.each(DERIVED_PATHS)('%s: the public sentence is told, the secret never', async (event, told) => {
    const cartridge = await fixture('dial-secret');
    const { record } = await collect({
      cartridge,
      state: initialState(cartridge),
      messages: [],
      input: `/${event}`,
      seed: 1,
      models: null,
    });
    expect(record.notes.join(' ')).toContain(SECRET); // the rules saw it
    expect(record.narration).toContain(told);
    expect(record.narration).toContain('Visit 1 to the safe.');
    expect(record.narration).not.toContain('4812');
  });

  it('dice read from the secret: the total is told, the dice neither in the prose nor the outcome', async () => {
    const cartridge = await fixture('dial-secret');
    const { record } = await collect({
      cartridge,
      state: initialState(cartridge),
      messages: [],
      input: '/via_dice',
      seed: 1,
      models: null,
    });
    const total = record.rolls[0]!.total;
    expect(record.rolls[0]).toMatchObject({ dice: '3d5', private: true });
    expect(record.narration).toContain(`The dial spins to ${total}.`);
    expect(record.narration).not.toContain('3d5');
    // The roll's label says what it was for (a name from the rules) and its value is the total: the dice
    // read from the secret appear nowhere.
    const rolls = publicOutcome(cartridge.rules, record).rolls;
    expect(rolls).toEqual([expect.objectContaining({ dice: null, faces: null, total, purpose: 'total' })]);
    expect(rolls[0]!.value === null || rolls[0]!.value === total).toBe(true);
    expect(JSON.stringify(rolls)).not.toContain('3d5');
  });
});

describe('the Narrator prompt', () => {
  it.each(DERIVED_PATHS)('%s: the value is hidden, its sentence kept', async (event, told) => {
    const cartridge = await fixture('dial-secret');
    const models = await modelsCalling(event);
    const { record } = await collect({
      cartridge,
      state: initialState(cartridge),
      messages: [],
      input: 'I turn the dial',
      seed: 1,
      models,
    });
    expect(record.tools.map((t) => [t.name, t.ok])).toEqual([[event, true]]);
    const [director, narrator] = fake!.chatRequests();
    // The Director sees the whole state, private fields included; the Narrator never the secret.
    expect(promptText(director!)).toContain(SECRET);
    const shown = promptText(narrator!);
    expect(shown).toContain(told);
    expect(shown).toContain('(hidden)');
    expect(shown).not.toContain('4812');
    expect(record.narration).toBe('The dial turns under your fingers.');
  });
});
