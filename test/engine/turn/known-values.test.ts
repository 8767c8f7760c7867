// String inputs whose values come from the world (`values_from`): the Director's tool schema, sent over
// real HTTP to a fake OpenAI-compatible model, carries them as an enum — the places of a state list, the
// NPCs of the world ledger — and the one input rule (checkEventInputs with the turn's known values) takes a
// value among them in their spelling and refuses any other, naming the source.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveModelConfig } from '../../../src/adapters/llm/config.ts';
import { createModels } from '../../../src/adapters/llm/providers.ts';
import type { ModelSet } from '../../../src/adapters/llm/types.ts';
import { loadCartridgeFromFiles } from '../../../src/adapters/files/load.ts';
import { emptyWorld, type World } from '../../../src/core/ledger/index.ts';
import { checkEventInputs } from '../../../src/core/yare/index.ts';
import type { Cartridge } from '../../../src/core/cartridge/index.ts';
import { MAX_KNOWN_VALUES } from '../../../src/engine/turn/known-values.ts';
import { type FakeOpenAI, type FakeReply, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';
import { collect, initialState, LANTERNMERE, type Loose } from './helpers.ts';

const YARE = readFileSync(join(LANTERNMERE, 'yare.yaml'), 'utf8');
const EVENTS = `events:
  visit:
    description: "Visit a place the player has heard of."
    inputs:
      place:
        type: string
        values_from: state.world.known_places
        description: "Where to go."
    steps:
      - action: note
        message: "[SYSTEM LOG: The player visits {inputs.place}.]"
  greet:
    description: "Greet someone in the world."
    inputs:
      who: { values_from: ledger.npc, description: "Whom to greet." }
    steps:
      - action: note
        message: "[SYSTEM LOG: The player greets {inputs.who}.]"
`;

function cartridgeWith(yare: string): ReturnType<typeof loadCartridgeFromFiles> {
  const files = new Map<string, string>([
    ['yare.yaml', yare],
    ['bot_lore.md', readFileSync(join(LANTERNMERE, 'bot_lore.md'), 'utf8')],
  ]);
  return loadCartridgeFromFiles(files, 'known');
}

function knownYare(places: readonly string[]): string {
  return YARE.replace(/^events:\n/m, EVENTS).replace(
    /^ {2}world:\n/m,
    `  world:\n    known_places: { type: list, default: ${JSON.stringify(places)} }\n`,
  );
}

function knownCartridge(places: readonly string[]): Cartridge {
  const loaded = cartridgeWith(knownYare(places));
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
  return loaded.cartridge;
}

function worldWithNpcs(): World {
  const entity = (key: string, name: string, entityType: string) => ({
    key,
    name,
    entityType,
    aliases: [],
    attributes: Object.create(null),
    conditions: [],
    created: { turn: 0 },
  });
  const entities = Object.assign(Object.create(null), {
    mother_hesk: entity('mother_hesk', 'Mother Hesk', 'npc'),
    tobin_quell: entity('tobin_quell', 'Tobin Quell', 'NPC'),
    iron_hook: entity('iron_hook', 'Iron hook', 'item'),
  });
  return { ...emptyWorld(), entities };
}

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function httpModels(script: FakeReply[]): Promise<ModelSet> {
  fake = await startFakeOpenAI(script);
  const config = resolveModelConfig({ MNESOS_LLM_BASE_URL: fake.url, MNESOS_MODEL: 'test-model' });
  if (config.provider === 'offline') throw new Error('expected an online config');
  const models = createModels({
    ...config,
    retry: { timeoutMs: 5_000, maxRetries: 0, backoffInitialMs: 1, backoffFactor: 2, backoffMaxMs: 5 },
  });
  if (models === null) throw new Error('expected models');
  return models;
}

async function turnCalling(cartridge: Cartridge, name: string, args: Record<string, unknown>) {
  const models = await httpModels([
    { kind: 'tool-calls', calls: [{ id: 'call_1', name, arguments: args }] },
    { kind: 'text', text: 'The player moves on.' },
    { kind: 'text', text: 'You go.' },
  ]);
  const { record } = await collect({
    cartridge,
    state: initialState(cartridge),
    world: worldWithNpcs(),
    messages: [],
    input: 'I go',
    seed: 1,
    models,
  });
  const directed = record.ruleCalls.filter((c) => c.source === 'director');
  const first = fake!.chatRequests()[0]!;
  const tools = first.tools as Loose[];
  const schemaOf = (tool: string) => tools.find((t) => t.function.name === tool)!.function.parameters;
  return { record, directed, schemaOf };
}

describe('values_from: known values as enums in the Director schema', () => {
  it('sends the state list and the ledger NPCs as enums, and runs a value among them in their spelling', async () => {
    const cartridge = knownCartridge(['tallow rest', 'brine market']);
    const { directed, schemaOf } = await turnCalling(cartridge, 'visit', { place: 'Brine Market' });
    expect(schemaOf('visit').properties.place).toMatchObject({
      type: 'string',
      enum: ['brine market', 'tallow rest'],
    });
    expect(schemaOf('visit').properties.place.maxLength).toBeUndefined();
    expect(schemaOf('greet').properties.who.enum).toEqual(['mother_hesk', 'tobin_quell']);
    expect(directed.map((c) => [c.event, c.inputs, c.ok])).toEqual([
      ['visit', { place: 'brine market' }, true],
    ]);
  });

  it('refuses a value the world does not know, naming the source, and runs nothing', async () => {
    const cartridge = knownCartridge(['tallow rest', 'brine market']);
    const { record, directed } = await turnCalling(cartridge, 'visit', { place: 'the moon' });
    expect(directed).toEqual([]);
    expect(record.tools[0]!.ok).toBe(false);
    expect(record.tools[0]!.content).toContain(
      "Input 'place' of 'visit' must be one of the values of state.world.known_places (brine market, tallow rest); got the moon.",
    );
    const greeted = await turnCalling(cartridge, 'greet', { who: 'iron_hook' });
    expect(greeted.record.tools[0]!.content).toContain('must be one of the values of ledger.npc');
  });

  it('with nothing known yet the input is a bounded free string', async () => {
    const cartridge = knownCartridge([]);
    const { directed, schemaOf } = await turnCalling(cartridge, 'visit', { place: 'anywhere' });
    expect(schemaOf('visit').properties.place.enum).toBeUndefined();
    expect(schemaOf('visit').properties.place.maxLength).toBe(500);
    expect(directed[0]).toMatchObject({ event: 'visit', ok: true });
  });

  it(`offers at most MAX_KNOWN_VALUES (${MAX_KNOWN_VALUES}) values`, async () => {
    const many = Array.from({ length: MAX_KNOWN_VALUES }, (_, i) => `place ${String(i).padStart(3, '0')}`);
    const at = knownCartridge(many);
    expect(
      (await turnCalling(at, 'visit', { place: 'place 000' })).schemaOf('visit').properties.place.enum,
    ).toHaveLength(MAX_KNOWN_VALUES);
  });
});

describe('checkEventInputs with known values', () => {
  const cartridge = knownCartridge(['tallow rest']);
  const visit = cartridge.rules.events.get('visit')!;
  it('takes any string without known values, and checks against them when given', () => {
    expect(checkEventInputs(visit, { place: 'Anywhere' })).toMatchObject({
      ok: true,
      inputs: { place: 'Anywhere' },
    });
    const known = new Map([['place', ['tallow rest']]]);
    expect(checkEventInputs(visit, { place: 'TALLOW REST' }, { known })).toMatchObject({
      ok: true,
      inputs: { place: 'tallow rest' },
    });
    expect(checkEventInputs(visit, { place: 'moon' }, { known })).toMatchObject({
      ok: false,
      code: 'YARE_BAD_INPUT',
    });
  });

  it('refuses values_from beside an enum, on a non-string input, or of an unknown form, at its place', () => {
    for (const [spec, message] of [
      ['{ type: string, enum: [a], values_from: state.world.x }', /needs a string input without an enum/],
      ['{ type: int, values_from: state.world.x }', /needs a string input without an enum/],
      ['{ type: string, values_from: "world.x" }', /must be a state path/],
      ['{ type: string, values_from: ledger.npc.name }', /ledger.entities or ledger.<entity type>/],
    ] as const) {
      const yare = YARE.replace(
        /^events:\n/m,
        `events:\n  odd:\n    inputs:\n      x: ${spec}\n    steps:\n      - action: note\n        message: "x"\n`,
      );
      const loaded = cartridgeWith(yare);
      expect(loaded.ok).toBe(false);
      if (loaded.ok) continue;
      const error = loaded.errors.find((e) => message.test(e.message));
      expect(error, spec).toBeDefined();
      expect(error!.place?.line).toBe(YARE.split('\n').findIndex((l) => l === 'events:') + 4);
    }
  });

  it('refuses, at load and at its place, a values_from state path that is not a list or dict field', () => {
    for (const [spec, message] of [
      [
        '{ type: string, values_from: state.world.known_plaecs }',
        /state\.world\.known_plaecs is not declared in state_schema\. Did you mean `state\.world\.known_places`\?/,
      ],
      [
        '{ type: string, values_from: state.player.gold }',
        /state\.player\.gold is an int field; known values come from a list field/,
      ],
      [
        '{ type: string, values_from: state.player }',
        /state\.player is a domain; known values come from a list field/,
      ],
    ] as const) {
      const yare = knownYare([]).replace(
        /^events:\n/m,
        `events:\n  odd:\n    inputs:\n      x: ${spec}\n    steps:\n      - action: note\n        message: "x"\n`,
      );
      const loaded = cartridgeWith(yare);
      expect(loaded.ok, spec).toBe(false);
      if (loaded.ok) continue;
      const error = loaded.errors.find((e) => message.test(e.message));
      expect(error, `${spec}: ${loaded.errors.map((e) => e.message).join(' | ')}`).toBeDefined();
      expect(error!.place?.line).toBe(yare.split('\n').findIndex((l) => l === 'events:') + 4);
    }
    // The list field itself loads.
    expect(cartridgeWith(knownYare(['a'])).ok).toBe(true);
  });
});
