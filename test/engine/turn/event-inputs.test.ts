// One rule for an event's inputs, whoever proposes them (docs/yare.md, "Inputs"): the Director over real
// HTTP, the offline matcher, `run-event`, a scenario and `checkEventInputs` itself all take "Brine Market"
// for the enum value "brine market" (and keep the rules' spelling), and all refuse a value outside the
// enum with the same message.
import { afterEach, describe, expect, it } from 'vitest';
import { parseScenarioFile } from '../../../src/tools/authoring/scenario/parse.ts';
import { runScenario } from '../../../src/tools/authoring/scenario/run.ts';
import { resolveModelConfig } from '../../../src/adapters/llm/config.ts';
import { createModels } from '../../../src/adapters/llm/providers.ts';
import type { ModelSet } from '../../../src/adapters/llm/types.ts';
import { isTurnError } from '../../../src/engine/turn/errors.ts';
import { runTurn } from '../../../src/engine/turn/run-turn.ts';
import type { TurnRecord } from '../../../src/engine/turn/types.ts';
import { checkEventInputs, runEvent } from '../../../src/core/yare/index.ts';
import { runCliInProcess } from '../../apps/cli/helpers.ts';
import { type FakeOpenAI, type FakeReply, startFakeOpenAI } from '../../helpers/fake-openai-server.ts';
import { collect, initialState, LANTERNMERE, lanternmere, type Loose, ROOT } from './helpers.ts';

const DIRECTIVES = '### 1. Outcomes\nThe player moves on.';
const REFUSAL =
  "Input 'destination' of 'travel' must be one of tallow rest, brine market, reedmaze, drowned chapel; got the moon.";

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

const travelCall = (destination: string): FakeReply => ({
  kind: 'tool-calls',
  text: DIRECTIVES,
  calls: [{ id: 'call_1', name: 'travel', arguments: { destination } }],
});

/** A Director turn over HTTP; a refused call gets a second Director round (directives only). */
async function directorTurn(destination: string, refused = false): Promise<TurnRecord> {
  const cartridge = await lanternmere();
  const second: FakeReply[] = refused ? [{ kind: 'text', text: DIRECTIVES }] : [];
  const models = await httpModels([
    travelCall(destination),
    ...second,
    { kind: 'text', text: 'You arrive.' },
  ]);
  const { record } = await collect({
    cartridge,
    state: initialState(cartridge),
    messages: [],
    input: `I go to the ${destination}`,
    seed: 1,
    models,
  });
  return record;
}

async function offlineTurn(input: string): Promise<{ record?: TurnRecord; reply?: string }> {
  const cartridge = await lanternmere();
  try {
    let record: TurnRecord | undefined;
    const turn = runTurn({
      cartridge,
      state: initialState(cartridge),
      messages: [],
      input,
      seed: 1,
      models: null,
    });
    for await (const event of turn) if (event.type === 'done') record = event.record;
    return { record };
  } catch (error) {
    if (isTurnError(error) && error.kind === 'reply') return { reply: error.message };
    throw error;
  }
}

describe('an enum input in another case', () => {
  it('the Director (a model over HTTP) sends "Brine Market": the event runs with "brine market"', async () => {
    const record = await directorTurn('Brine Market');
    expect(record.tools.map((t) => [t.name, t.ok])).toEqual([['travel', true]]);
    expect((record.stateAfter as Loose).player.location).toBe('brine market');
    // The record keeps what the model asked for, in the rules' spelling.
    expect(record.ruleCalls.filter((c) => c.source === 'director').map((c) => c.inputs)).toEqual([
      { destination: 'brine market' },
    ]);
  });

  it('the offline matcher takes /travel destination="Brine Market"', async () => {
    const { record, reply } = await offlineTurn('/travel destination="Brine Market"');
    expect(reply).toBeUndefined();
    expect(record!.tools.map((t) => [t.name, t.ok])).toEqual([['travel', true]]);
    expect((record!.stateAfter as Loose).player.location).toBe('brine market');
  });

  it('run-event takes --input destination="Brine Market"', async () => {
    const result = await runCliInProcess(
      ['run-event', LANTERNMERE, 'travel', '--input', 'destination=Brine Market', '--json'],
      { cwd: ROOT },
    );
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as Loose;
    expect(out.ok).toBe(true);
    expect(out.state.player.location).toBe('brine market');
  });

  it('a scenario step takes inputs: { destination: Brine Market }', async () => {
    const cartridge = await lanternmere();
    const parsed = parseScenarioFile(
      'scenarios:\n  - name: market\n    steps:\n      - event: travel\n        inputs: { destination: Brine Market }\n        expect: [{ path: state.player.location, equals: brine market }]\n',
      'tests/t.yaml',
    );
    if (!parsed.ok) throw new Error(parsed.errors.map((e) => e.message).join('\n'));
    const result = await runScenario(
      { cartridge, readSave: () => ({ ok: false, message: 'no saves here' }) },
      parsed.file.scenarios[0]!,
    );
    expect(result.failures).toEqual([]);
  });

  it('checkEventInputs gives the inputs the event runs with: declared spelling, defaults filled in', async () => {
    const cartridge = await lanternmere();
    const travel = cartridge.rules.events.get('travel')!;
    const checked = checkEventInputs(travel, { destination: 'BRINE market' });
    expect(checked).toEqual({ ok: true, inputs: { destination: 'brine market' } });
    const given = { destination: 'Brine Market' };
    checkEventInputs(travel, given);
    expect(given).toEqual({ destination: 'Brine Market' });
  });
});

describe('a value outside the enum', () => {
  it('is refused with one message by the Director path, the offline matcher, runEvent and checkEventInputs', async () => {
    const cartridge = await lanternmere();
    const checked = checkEventInputs(cartridge.rules.events.get('travel')!, { destination: 'the moon' });
    expect(checked).toEqual({ ok: false, code: 'YARE_BAD_INPUT', message: REFUSAL });
    const ran = runEvent(cartridge.rules, initialState(cartridge), 'travel', { destination: 'the moon' });
    expect(!ran.ok && [ran.error.code, ran.error.message]).toEqual(['YARE_BAD_INPUT', REFUSAL]);
    const record = await directorTurn('the moon', true);
    expect(record.tools.map((t) => t.ok)).toEqual([false]);
    expect(JSON.parse(record.tools[0]!.content)).toEqual({ ok: false, error: `travel: ${REFUSAL}` });
    expect(record.ruleCalls.filter((c) => c.source === 'director')).toEqual([]);
    expect((record.stateAfter as Loose).player.location).toBe('tallow rest');
    const { reply } = await offlineTurn('/travel destination="the moon"');
    expect(reply).toBe(`That did not work: travel: ${REFUSAL}`);
  });

  it('the Director path refuses first by the bounds every model value has: a string past MAX_TOOL_STRING_CHARS', async () => {
    const record = await directorTurn('x'.repeat(2_001), true);
    expect(record.tools.map((t) => t.ok)).toEqual([false]);
    expect(JSON.parse(record.tools[0]!.content).error).toMatch(
      /^travel: argument 'destination' is 2001 characters; the limit is 2000 \(MAX_TOOL_STRING_CHARS\)$/,
    );
  });
});
