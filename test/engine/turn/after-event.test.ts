// `trigger_on: after_event` (issue 38 item 4): hooks that run after each event the player makes happen —
// the offline matcher's and the Director's tool calls, a mini-game's resolver, a scenario's and explore's
// event steps — in declaration order, each its own transaction, never after an event another event calls;
// a failing hook changes nothing, is a warning, and the next hook still runs. The `kettle` fixture heats by
// 40 after each event while on, and `boil` scores when it reaches 100.

import { beforeAll, describe, expect, it } from 'vitest';
import type { Cartridge } from '../../../src/core/cartridge/index.ts';
import { runPlayerEvent } from '../../../src/core/yare/index.ts';
import { prepareGame } from '../../../src/tools/authoring/explore/game.ts';
import { playEvent, startPlaythrough } from '../../../src/tools/authoring/explore/play.ts';
import { runScenario } from '../../../src/tools/authoring/scenario/run.ts';
import { errorsOf } from '../../helpers/yare.ts';
import { collect, fixture, initialState, scripted } from './helpers.ts';

let kettle: Cartridge;
beforeAll(async () => {
  kettle = await fixture('kettle');
});

type KettleState = {
  kettle: { heat: number; on: boolean };
  score: number;
  followed: string[];
  cards_won: boolean;
};

async function offlineTurn(state: unknown, input: string) {
  const { record } = await collect({
    cartridge: kettle,
    state: state as never,
    messages: [],
    input,
    seed: 1,
    models: null,
  });
  return record;
}

describe('in a turn', () => {
  it('offline: each hook runs after the player’s event, in order, not after an event it calls', async () => {
    const first = await offlineTurn(initialState(kettle), 'switch on');
    expect(first.ruleCalls.map((c) => [c.source, c.event])).toEqual([
      ['offline', 'switch_on'],
      ['after_event', 'heat'],
      ['after_event', 'boil'],
      ['after_event', 'fragile'],
    ]);
    const after = first.stateAfter as unknown as KettleState;
    expect(after.followed).toEqual(['switch_on']);
    expect(after.kettle.heat).toBe(60);
    const second = await offlineTurn(first.stateAfter, 'wait');
    const boiled = second.stateAfter as unknown as KettleState;
    expect(boiled.kettle.heat).toBe(100);
    expect(boiled.score).toBe(1);
    expect(second.notes).toEqual(['[SYSTEM LOG: Time passes.]', '[SYSTEM LOG: The kettle boils.]']);
  });

  it('a failing hook changes nothing, is a warning, and the hooks after it still ran', async () => {
    const record = await offlineTurn(initialState(kettle), 'kick');
    const state = record.stateAfter as unknown as KettleState;
    expect(state.followed).toEqual(['kick']);
    expect(state.score).toBe(0);
    expect(record.warnings).toContainEqual(
      expect.stringMatching(/^after_event 'fragile' failed \(YARE_ZERO_DIVISION\)/),
    );
    expect(record.ruleCalls.at(-1)).toMatchObject({ source: 'after_event', event: 'fragile', ok: false });
  });

  it('the Director’s event: the tool result carries the hooks’ notes', async () => {
    const hot = { ...initialState(kettle), kettle: { heat: 60, on: true } };
    const models = scripted({
      director: [{ text: 'The kettle.', toolCalls: [{ name: 'wait', args: {} }] }],
      narrator: [{ text: 'It boils.' }],
    });
    const { record } = await collect({
      cartridge: kettle,
      state: hot as never,
      messages: [],
      input: 'I wait',
      seed: 2,
      models,
    });
    expect(record.ruleCalls.map((c) => c.source)).toEqual([
      'director',
      'after_event',
      'after_event',
      'after_event',
    ]);
    const result = JSON.parse(record.tools[0]!.content) as { notes: string[] };
    expect(result.notes).toEqual(['[SYSTEM LOG: Time passes.]', '[SYSTEM LOG: The kettle boils.]']);
    // The hooks are no tools.
    const offered = (models.director.requests[0]!.tools ?? []).map((t) => t.name);
    expect(offered).not.toContain('heat');
  });

  it('a mini-game’s resolver is the player’s event too', async () => {
    const started = await offlineTurn(initialState(kettle), 'play cards');
    const { record } = await collect({
      cartridge: kettle,
      state: started.stateAfter,
      messages: [],
      interaction: { minigame_id: 'lights_out', status: 'completed' },
      seed: 3,
      models: null,
    });
    expect(record.ruleCalls.map((c) => [c.source, c.event])).toContainEqual(['resolver', 'resolve_cards']);
    const state = record.stateAfter as unknown as KettleState;
    expect(state.cards_won).toBe(true);
    expect(state.followed).toEqual(['play_cards', 'resolve_cards']);
  });

  it('replaying the record runs the same hooks to the same state', async () => {
    const { replayTurnRules } = await import('../../../src/engine/turn/record.ts');
    const record = await offlineTurn(initialState(kettle), 'switch on');
    const replay = replayTurnRules(kettle, initialState(kettle), record);
    expect(replay.divergences).toEqual([]);
    expect(replay.state).toEqual(record.stateAfter);
  });
});

describe('outside a turn', () => {
  it('runPlayerEvent: the event, then the hooks; an internal event or a failed one runs none', () => {
    const rules = kettle.rules;
    const ran = runPlayerEvent(rules, rules.initialState, 'switch_on', {});
    expect(ran.hooks.map((h) => [h.event, h.result.ok])).toEqual([
      ['heat', true],
      ['boil', true],
      ['fragile', true],
    ]);
    expect((ran.state as unknown as KettleState).kettle.heat).toBe(60);
    expect(ran.notes).toEqual(['[SYSTEM LOG: Something clatters.]', '[SYSTEM LOG: The kettle clicks on.]']);
    expect(runPlayerEvent(rules, rules.initialState, 'clatter', {}).hooks).toEqual([]);
    const refused = runPlayerEvent(rules, rules.initialState, 'wait', { nope: 1 });
    expect(refused.result.ok).toBe(false);
    expect(refused.hooks).toEqual([]);
    expect(refused.state).toEqual(rules.initialState);
  });

  it('a scenario’s event step runs the hooks; a failing one fails the step unless it expects a refusal', async () => {
    const place = { file: 'tests/t.yaml', line: 1, col: 1 };
    const step = (event: string, expect: never[] = []) => ({
      kind: 'event' as const,
      event,
      inputs: {},
      seed: undefined,
      place,
      expect,
    });
    const result = await runScenario(
      { cartridge: kettle, readSave: () => ({ ok: false, message: 'none' }) },
      {
        name: 'boil',
        place,
        seed: 1,
        start: { kind: 'defaults' },
        steps: [step('switch_on'), step('wait')],
        expect: [{ kind: 'equals', path: 'state.score', value: 1, place }],
        transcript: false,
      },
    );
    expect(result.failures).toEqual([]);
    expect([...result.eventsRun]).toEqual(['switch_on', 'heat', 'boil', 'fragile', 'wait']);
    const kicked = await runScenario(
      { cartridge: kettle, readSave: () => ({ ok: false, message: 'none' }) },
      {
        name: 'kick',
        place,
        seed: 1,
        start: { kind: 'defaults' },
        steps: [step('kick')],
        expect: [],
        transcript: false,
      },
    );
    expect(kicked.failures.map((f) => f.message)).toEqual([
      expect.stringMatching(/^event 'fragile' was refused: .*\[YARE_ZERO_DIVISION\]$/),
    ]);
  });

  it('explore plays an event step with its hooks and reports a failing hook as a finding', () => {
    const game = prepareGame(kettle, false);
    const play = startPlaythrough(game, kettle.rules.initialState as never);
    const outcome = playEvent(game, play, { kind: 'event', event: 'kick', inputs: {}, seed: 1 });
    expect(outcome.findings.map((f) => f.message)).toEqual([
      expect.stringMatching(/^event 'fragile' failed \(YARE_ZERO_DIVISION\)/),
    ]);
    expect((play.state as unknown as KettleState).followed).toEqual(['kick']);
  });
});

describe('checked at load', () => {
  it('a hook takes no input but event (a string)', () => {
    const rules = (inputs: string) => `state_schema:
  n: { type: int, default: 0 }
events:
  tick:
    trigger_on: after_event
    inputs: ${inputs}
    steps:
      - { action: mutate, var: state.n, op: add, value: 1 }
`;
    expect(errorsOf(rules('{ event: { type: string } }'))).toEqual([]);
    expect(errorsOf(rules('[event]'))).toEqual([]);
    expect(errorsOf(rules('{ who: { type: string } }'))[0]!.message).toContain("'who' can never be given");
    expect(errorsOf(rules('{ event: { type: int } }'))[0]!.message).toContain("'event' must be a string");
  });

  it('trigger_on names the two triggers when it is neither', () => {
    const errors = errorsOf(`events:
  e:
    trigger_on: after_each
    steps: []
`);
    expect(errors[0]!.message).toContain("trigger_on supports only 'cycle_tick', 'after_event'");
  });
});
