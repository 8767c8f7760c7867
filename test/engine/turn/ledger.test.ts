// The world ledger inside the turn: the Narrator's `record_world_changes` proposal (inline or extracted),
// all-or-nothing validation, at most two repairs, `unledgered` fallback, time, summaries in the prompts,
// the record, replay, and the limits.
import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  currentFacts,
  emptyWorld,
  getFact,
  LEDGER_EVENT_TYPES,
  lookup,
  type World,
} from '../../../src/core/ledger/index.ts';
import { initialWorld, replayTurnRules, resolveTurnLimits } from '../../../src/engine/turn/index.ts';
import {
  echoableCalls,
  isEchoable,
  MAX_ECHO_ARGS_CHARS,
  MAX_ECHO_ARGS_DEPTH,
  MAX_ECHO_ARGS_NODES,
} from '../../../src/engine/turn/echo.ts';
import { repairContent } from '../../../src/engine/turn/ledger/turn.ts';
import {
  DEFAULT_WORLD_SUMMARY_TOKENS,
  MAX_LEDGER_AUDIT_CHARS,
  MAX_LEDGER_REPAIRS,
  MAX_TIME_ADVANCE_SECONDS,
  MAX_TOOL_RESULT_CHARS,
  MAX_WORLD_SUMMARY_TOKENS_LIMIT,
} from '../../../src/engine/turn/limits.ts';
import type { LedgerIssue } from '../../../src/engine/turn/types.ts';
import { promptText, collect, fixture, initialState, lanternmere, scripted } from './helpers.ts';
import { DIRECTIVES, millRoad, millState, millTurn, narrate, rawCall, recordCall } from './ledger-fixture.ts';

const CREATE_TOM = {
  events: [
    { event_type: 'create_entity', entity: 'tom', name: 'Tom the Miller', entity_type: 'person' },
    { event_type: 'set_current_location', entity: 'tom', location: 'mill' },
    { event_type: 'add_fact', subject: 'tom', predicate: 'is hiding from', object: 'duke' },
  ],
};
const BAD_REF = { events: [{ event_type: 'set_current_location', entity: 'ghost', location: 'mill' }] };

function codes(errors: readonly LedgerIssue[]): string[] {
  return errors.map((e) => e.code);
}

describe('initialWorld', () => {
  it("is the cartridge's starting world applied at turn 0, built once per cartridge", () => {
    const world = initialWorld(millRoad());
    expect(world).toBe(initialWorld(millRoad()));
    expect(Object.keys(world.entities)).toHaveLength(8);
    expect(world.entities.crown!.holder).toBe('duke');
    expect(world.entities.crown!.created).toEqual({ turn: 0 });
    expect(world.scene).toMatchObject({ location: 'mill', present: ['player', 'mara'] });
    expect(world.threads.missing_miller!.resolved).toBeUndefined();
  });

  it('is empty for a cartridge without a ledger section', async () => {
    expect(canonicalJson(initialWorld(await lanternmere()))).toBe(canonicalJson(emptyWorld()));
  });
});

describe('inline proposals', () => {
  it('applies a valid batch after the prose and records it, with the world after the turn', async () => {
    const { record, events, models } = await millTurn([narrate('A man steps out of the mill.', CREATE_TOM)], {
      ledgerTurn: 7,
    });
    expect(record.narration).toBe('A man steps out of the mill.');
    expect(record.ledger).toMatchObject({
      status: 'applied',
      mode: 'inline',
      turn: 7,
      gameTime: '1199-01-01T08:00:00',
      time: null,
      repairs: 0,
      errors: [],
    });
    expect(record.ledger.attempts).toEqual([
      {
        kind: 'narrator',
        calls: [{ name: 'record_world_changes', rawArgs: JSON.stringify(CREATE_TOM) }],
        ok: true,
        errors: [],
      },
    ]);
    // Wire form, in order; the engine assigned the fact id from the ledger turn and the event's index.
    expect(record.ledgerEvents.map((e) => e.event_type)).toEqual([
      'create_entity',
      'set_current_location',
      'add_fact',
    ]);
    const after = record.ledger.worldAfter;
    expect(after.entities.tom).toMatchObject({ name: 'Tom the Miller', location: 'mill' });
    expect(after.entities.tom!.created).toEqual({ turn: 7, gameTime: '1199-01-01T08:00:00' });
    expect(getFact(after, 'f_7_2')).toMatchObject({ subject: 'tom', object: 'duke' });
    // The world before is untouched.
    expect(lookup(initialWorld(millRoad()).entities, 'tom')).toBeUndefined();
    expect(events.filter((e) => e.type === 'phase').map((e) => (e as { phase: string }).phase)).toEqual([
      'director',
      'narrator',
      'ledger',
    ]);
    expect(record.timings.ledger).toBeGreaterThanOrEqual(0);
    expect(models.calls.map((c) => c.role)).toEqual(['director', 'narrator']);
  });

  it('offers the Narrator exactly one tool, generated from the ledger table, and explains it', async () => {
    const { models, record } = await millTurn([narrate('Quiet.')]);
    const request = models.narrator.requests[0]!;
    expect(request.tools?.map((t) => t.name)).toEqual(['record_world_changes']);
    expect(request.toolChoice).toBe('auto');
    for (const type of LEDGER_EVENT_TYPES) expect(request.system).toContain(`  ${type}(`);
    expect(request.system).toContain('The player character\'s entity key is "player"');
    expect(JSON.stringify(request.tools)).toContain('never (owned by the rules)');
    // No call: nothing changed, no extra model call.
    expect(record.ledger.status).toBe('none');
    expect(record.ledgerEvents).toEqual([]);
    expect(record.ledger.worldAfter).toBe(initialWorld(millRoad()));
    expect(models.narrator.requests).toHaveLength(1);
  });

  it('ignores events written in the prose: only the tool channel is read', async () => {
    const prose = `You see it.\n\`\`\`json\n${JSON.stringify(CREATE_TOM)}\n\`\`\``;
    const { record } = await millTurn([narrate(prose)]);
    expect(record.narration).toBe(prose);
    expect(record.ledger.status).toBe('none');
    expect(lookup(record.ledger.worldAfter.entities, 'tom')).toBeUndefined();
  });

  it('an empty batch is "none"', async () => {
    const { record } = await millTurn([narrate('Nothing changes.', { events: [] })]);
    expect(record.ledger.status).toBe('none');
    expect(record.ledger.attempts).toHaveLength(1);
  });
});

describe('world summary in prompts', () => {
  it('shows the Director and the Narrator the scene, who is present, what they carry and open threads', async () => {
    const { models, record } = await millTurn([narrate('Dusk.')]);
    for (const role of ['director', 'narrator'] as const) {
      const system = promptText(models[role].requests[0]!);
      expect(system).toContain('--- WORLD LEDGER (recorded from earlier turns');
      expect(system).toContain('Scene (turn 0) at The Old Mill [mill]: "Dusk at the old mill."');
      expect(system).toContain('- Mara [mara] (person); carries: Brass Lantern [lantern]');
      expect(system).toContain('- [missing_miller] The missing miller');
      // The Duke is not in the scene.
      expect(system).not.toContain('Duke Orsin [duke]\n');
      const world = record.prompts.find((p) => p.role === role)!.sections.find((s) => s.id === 'world')!;
      expect(world).toMatchObject({ included: true, kind: 'volatile' });
      expect(world.reason).toContain(
        `within its ${DEFAULT_WORLD_SUMMARY_TOKENS}-token budget: shown scene 1, present 2, threads 1, facts 0`,
      );
    }
  });

  it('worldSummaryTokens 0 leaves the summary out; the limit is checked at and past its ends', async () => {
    const { models, record } = await millTurn([narrate('Dusk.')], { limits: { worldSummaryTokens: 0 } });
    expect(promptText(models.narrator.requests[0]!)).not.toContain('WORLD LEDGER (recorded');
    expect(record.prompts[0]!.sections.find((s) => s.id === 'world')).toMatchObject({
      included: false,
      reason: 'empty',
    });
    expect(resolveTurnLimits({ worldSummaryTokens: MAX_WORLD_SUMMARY_TOKENS_LIMIT })).toMatchObject({
      worldSummaryTokens: MAX_WORLD_SUMMARY_TOKENS_LIMIT,
    });
    expect(resolveTurnLimits({ worldSummaryTokens: MAX_WORLD_SUMMARY_TOKENS_LIMIT + 1 })).toEqual({
      error: `limits.worldSummaryTokens must be an integer from 0 to ${MAX_WORLD_SUMMARY_TOKENS_LIMIT} (MAX_WORLD_SUMMARY_TOKENS_LIMIT), got ${MAX_WORLD_SUMMARY_TOKENS_LIMIT + 1}`,
    });
    expect(resolveTurnLimits({ worldSummaryTokens: -1 })).toHaveProperty('error');
  });

  it('a small budget drops lower-ranked lines and says how many', async () => {
    const { record } = await millTurn([narrate('Dusk.')], { limits: { worldSummaryTokens: 30 } });
    const world = record.prompts[0]!.sections.find((s) => s.id === 'world')!;
    expect(world.reason).toMatch(/left out scene 0, present [12], threads 1, facts 0/);
  });
});

describe('repairs', () => {
  it('sends a rejected batch back with machine-readable errors and applies the repaired one', async () => {
    const { record, models } = await millTurn([
      narrate('A stranger appears.', BAD_REF),
      { text: 'IGNORED PROSE', toolCalls: [{ name: 'record_world_changes', args: CREATE_TOM }] },
    ]);
    expect(record.ledger).toMatchObject({ status: 'applied', repairs: 1, errors: [] });
    expect(record.ledger.attempts.map((a) => [a.kind, a.ok])).toEqual([
      ['narrator', false],
      ['repair', true],
    ]);
    expect(codes(record.ledger.attempts[0]!.errors)).toEqual(['LEDGER_UNKNOWN_REF']);
    // The prose is the first call's; a repair's text is never shown.
    expect(record.narration).toBe('A stranger appears.');
    expect(record.messages[1]!.content).toBe('A stranger appears.');
    const repair = models.narrator.requests[1]!;
    expect(repair.toolChoice).toBe('required');
    expect(repair.tools?.map((t) => t.name)).toEqual(['record_world_changes']);
    expect(repair.system).toBe(models.narrator.requests[0]!.system);
    const [assistant, tool] = repair.messages.slice(-2);
    expect(assistant).toMatchObject({ role: 'assistant', content: 'A stranger appears.' });
    expect(tool).toMatchObject({ role: 'tool', toolName: 'record_world_changes' });
    const sent = JSON.parse((tool as { content: string }).content);
    expect(sent.ok).toBe(false);
    expect(sent.errors[0]).toMatchObject({ index: 0, code: 'LEDGER_UNKNOWN_REF', field: 'entity' });
    expect(sent.instruction).toMatch(/do not write or change any prose/);
    expect(record.usage.narrator.calls).toBe(2);
    const repairPrompt = record.prompts.filter((p) => p.role === 'narrator')[1]!;
    expect(repairPrompt.sections.at(-1)).toMatchObject({ id: 'repair', included: true });
  });

  it(`gives up after MAX_LEDGER_REPAIRS (${MAX_LEDGER_REPAIRS}) repairs: the turn keeps its narration and is unledgered`, async () => {
    const { record, models } = await millTurn([
      narrate('The mill creaks.', BAD_REF),
      recordCall(BAD_REF),
      recordCall({
        events: [{ event_type: 'set_entity_attribute', entity: 'player', attribute: 'gold', value: 9999 }],
      }),
      recordCall(CREATE_TOM),
    ]);
    expect(MAX_LEDGER_REPAIRS).toBe(2);
    expect(record.ledger.status).toBe('unledgered');
    expect(record.ledger.repairs).toBe(MAX_LEDGER_REPAIRS);
    expect(record.ledger.attempts).toHaveLength(MAX_LEDGER_REPAIRS + 1);
    // The errors are the last attempt's; the earlier ones stay in the audit trail.
    expect(codes(record.ledger.errors)).toEqual(['LEDGER_RULES_OWNED']);
    expect(record.narration).toBe('The mill creaks.');
    expect(record.ledgerEvents).toEqual([]);
    expect(record.ledger.worldAfter).toBe(initialWorld(millRoad()));
    // The third repair was never asked for: the good answer is still in the script.
    expect(models.narrator.remaining()).toBe(1);
  });

  it('a repair that fails at the provider leaves the turn unledgered, not failed', async () => {
    const { record } = await millTurn([
      narrate('The mill creaks.', BAD_REF),
      { error: { kind: 'http', status: 500 } },
    ]);
    expect(record.ledger.status).toBe('unledgered');
    expect(codes(record.ledger.errors)).toEqual(['LEDGER_UNKNOWN_REF', 'LEDGER_MODEL_ERROR']);
    expect(record.narration).toBe('The mill creaks.');
    expect(record.warnings.join('\n')).toMatch(/world-ledger call failed \(http\)/);
  });

  it('keeps the raw arguments in the audit trail up to MAX_LEDGER_AUDIT_CHARS and cuts one past it', async () => {
    const at = 'x'.repeat(MAX_LEDGER_AUDIT_CHARS);
    const past = 'y'.repeat(MAX_LEDGER_AUDIT_CHARS + 1);
    const { record } = await millTurn([
      { text: 'Hm.', ...rawCall(at) },
      rawCall(past),
      recordCall({ events: [] }),
    ]);
    const [first, second] = record.ledger.attempts;
    expect(first!.calls[0]!.rawArgs).toBe(at);
    expect(codes(first!.errors)).toEqual(['LEDGER_NOT_JSON']);
    expect(second!.calls[0]!.rawArgs).toBe(
      `${past.slice(0, MAX_LEDGER_AUDIT_CHARS)}… [cut at ${MAX_LEDGER_AUDIT_CHARS} characters (MAX_LEDGER_AUDIT_CHARS)]`,
    );
    expect(record.ledger.status).toBe('none');
  });

  it('keeps the errors sent back within MAX_TOOL_RESULT_CHARS, saying how many were left out', () => {
    const many: LedgerIssue[] = Array.from({ length: 200 }, (_, i) => ({
      index: i,
      code: 'LEDGER_UNKNOWN_REF',
      field: 'entity',
      message: `"${'k'.repeat(40)}" does not exist; create it first with create_entity`,
    }));
    const content = repairContent(many);
    expect(content.length).toBeLessThanOrEqual(MAX_TOOL_RESULT_CHARS);
    const parsed = JSON.parse(content);
    expect(parsed.errors.length + parsed.more_errors).toBe(200);
    expect(JSON.parse(repairContent(many.slice(0, 2))).more_errors).toBeUndefined();
  });
});

describe('modes', () => {
  it('separate: the prose call has no tools; a short extraction call records the changes', async () => {
    const { record, models } = await millTurn([{ text: 'A man steps out.' }, recordCall(CREATE_TOM)], {
      ledgerMode: 'separate',
    });
    const [prose, extraction] = models.narrator.requests;
    expect(prose!.tools).toBeUndefined();
    expect(promptText(prose!)).not.toContain('record_world_changes');
    expect(promptText(prose!)).toContain('WORLD LEDGER (recorded');
    expect(extraction!.toolChoice).toBe('required');
    expect(extraction!.system).toContain('You keep the world ledger');
    expect(extraction!.messages).toHaveLength(1);
    expect(extraction!.messages[0]!.content).toContain(JSON.stringify('A man steps out.'));
    expect(record.ledger).toMatchObject({ status: 'applied', mode: 'separate', repairs: 0 });
    expect(record.ledger.attempts[0]!.kind).toBe('extraction');
    expect(record.ledger.worldAfter.entities.tom).toBeDefined();
    expect(record.prompts.filter((p) => p.role === 'narrator').map((p) => p.call)).toEqual([1, 2]);
  });

  it('separate: an extraction that answers without the tool is repaired like a bad batch (a refusal)', async () => {
    const { record } = await millTurn(
      [{ text: 'A man steps out.' }, { text: 'I cannot help with that.' }, recordCall(CREATE_TOM)],
      { ledgerMode: 'separate' },
    );
    expect(record.ledger.status).toBe('applied');
    expect(codes(record.ledger.attempts[0]!.errors)).toEqual(['LEDGER_NO_CALL']);
  });

  it('off: no tool, no extraction, status off', async () => {
    const { record, models } = await millTurn([{ text: 'Dusk.' }], { ledgerMode: 'off' });
    expect(models.narrator.requests[0]!.tools).toBeUndefined();
    expect(record.ledger).toMatchObject({ status: 'off', mode: 'off', attempts: [] });
  });

  it('offline: no proposals, status off', async () => {
    const cartridge = millRoad();
    const { record } = await collect({
      cartridge,
      state: millState(),
      messages: [],
      input: '/travel woods',
      seed: 1,
      models: null,
    });
    expect(record.ledger).toMatchObject({ status: 'off', mode: 'off' });
    expect(record.ledger.worldAfter).toBe(initialWorld(cartridge));
  });

  it('refuses bad ledger options with an error naming them', async () => {
    await expect(millTurn([], { ledgerTurn: 0 })).rejects.toThrow(/ledgerTurn must be an integer from 1/);
    await expect(millTurn([], { ledgerTurn: 1.5 })).rejects.toThrow(/ledgerTurn/);
    await expect(millTurn([], { ledgerMode: 'sideways' as never })).rejects.toThrow(
      /ledgerMode must be one of inline, separate, off/,
    );
    await expect(millTurn([], { world: { version: 2 } as unknown as World })).rejects.toThrow(
      /world must be a ledger World/,
    );
  });
});

describe('time from record_world_changes', () => {
  const travel = {
    toolCalls: [{ name: 'travel', args: { destination: 'woods', engine_time_delta: 'PT30M' } }],
    text: DIRECTIVES,
  };

  it("adds time.advance to the Director's durations: the clock advances once, by the sum", async () => {
    const { record } = await millTurn([narrate('You walk on.', { events: [], time: { advance: '2h' } })], {
      director: [travel],
    });
    expect(record.ledger).toMatchObject({ status: 'applied', time: { kind: 'advance', seconds: 7200 } });
    expect(record.time).toEqual({
      before: '1199-01-01T08:00:00',
      after: '1199-01-01T10:30:00',
      advancedSeconds: 9000,
      mode: 'engine',
    });
    expect(record.stateAfter.game_time).toBe('1199-01-01T10:30:00');
    expect(record.ledger.gameTime).toBe('1199-01-01T10:30:00');
    // Replay re-applies the recorded total.
    const replay = replayTurnRules(millRoad(), millState(), record);
    expect(canonicalJson(replay.state)).toBe(canonicalJson(record.stateAfter));
  });

  it('time.set moves the clock forward to the time given, and stamps the events with it', async () => {
    const { record } = await millTurn([
      narrate('Night falls.', { ...CREATE_TOM, time: { set: '1199-01-01T21:00:00' } }),
    ]);
    expect(record.stateAfter.game_time).toBe('1199-01-01T21:00:00');
    expect(record.time.advancedSeconds).toBe(13 * 3600);
    expect(record.ledger.worldAfter.entities.tom!.created).toEqual({
      turn: 1,
      gameTime: '1199-01-01T21:00:00',
    });
  });

  it('a time.set in the past, or more time than a turn may take, rejects the batch (then repaired)', async () => {
    const { record } = await millTurn(
      [
        narrate('Back to dawn.', { ...CREATE_TOM, time: { set: '1199-01-01T06:00:00' } }),
        recordCall({ events: [], time: { advance: '366d' } }),
        recordCall({ events: [], time: { advance: '1h' } }),
      ],
      { director: [travel] },
    );
    const [past, tooLong] = record.ledger.attempts;
    expect(past!.errors[0]).toMatchObject({ code: 'LEDGER_BAD_TIME', field: 'time' });
    expect(past!.errors[0]!.message).toMatch(/the clock never goes back/);
    expect(tooLong!.errors[0]!.message).toContain(
      `the limit is ${MAX_TIME_ADVANCE_SECONDS} (MAX_TIME_ADVANCE_SECONDS)`,
    );
    expect(record.ledger.status).toBe('applied');
    expect(record.time.advancedSeconds).toBe(1800 + 3600);
  });

  it('a cartridge that keeps its own game_time is never overwritten: no time argument, a given one is ignored', async () => {
    const cartridge = await fixture('keep-time');
    const state = initialState(cartridge);
    const models = scripted({
      director: [{ text: DIRECTIVES }],
      narrator: [
        narrate('Hours pass.', {
          events: [{ event_type: 'create_entity', entity: 'crow', name: 'A crow' }],
          time: { advance: '5h' },
        }),
      ],
    });
    const { record } = await collect({ cartridge, state, messages: [], input: 'I wait', seed: 2, models });
    const schema = models.narrator.requests[0]!.tools![0]!.inputSchema as { properties: object };
    expect(Object.keys(schema.properties)).toEqual(['events']);
    expect(record.ledger).toMatchObject({ status: 'applied', time: null });
    expect(record.time).toMatchObject({ mode: 'cartridge', advancedSeconds: 0 });
    expect(canonicalJson(record.stateAfter.game_time)).toBe(canonicalJson(state.game_time));
    expect(record.warnings.join('\n')).toMatch(/keeps its own game_time; it was ignored/);
  });
});

describe('replay', () => {
  it('re-validates and re-applies the committed batch when given the world before', async () => {
    const before = initialWorld(millRoad());
    const { record } = await millTurn([narrate('A man steps out.', CREATE_TOM)]);
    const replay = replayTurnRules(millRoad(), millState(), record, { world: before });
    expect(replay.divergences).toEqual([]);
    expect(canonicalJson(replay.world)).toBe(canonicalJson(record.ledger.worldAfter));
    // Through a JSON round trip (as the store keeps it) too.
    const stored = JSON.parse(JSON.stringify(record));
    expect(replayTurnRules(millRoad(), millState(), stored, { world: before }).divergences).toEqual([]);
    // Without the world, the ledger is not checked.
    expect(replayTurnRules(millRoad(), millState(), record).world).toBeUndefined();
  });

  it('reports a tampered batch, a tampered worldAfter and events on a turn that applied none', async () => {
    const before = initialWorld(millRoad());
    const { record } = await millTurn([narrate('A man steps out.', CREATE_TOM)]);
    const gold = { event_type: 'set_entity_attribute', entity: 'player', attribute: 'gold', value: 9999 };
    const tampered = { ...record, ledgerEvents: [...record.ledgerEvents, gold] };
    const rejected = replayTurnRules(millRoad(), millState(), tampered, { world: before });
    expect(rejected.divergences.join('\n')).toMatch(/rejected on replay: #3 LEDGER_RULES_OWNED/);
    expect(rejected.world).toBe(before);

    const otherWorld = { ...record, ledger: { ...record.ledger, worldAfter: before } };
    expect(replayTurnRules(millRoad(), millState(), otherWorld, { world: before }).divergences).toEqual([
      "re-applying the ledger batch gives a different world than the record's worldAfter",
    ]);

    const none = { ...record, ledger: { ...record.ledger, status: 'none' as const } };
    expect(replayTurnRules(millRoad(), millState(), none, { world: before }).divergences).toEqual([
      'the record says none but carries 3 ledger event(s)',
    ]);
  });

  it('a fact the turn added is current in the world after it', async () => {
    const { record } = await millTurn([narrate('A man steps out.', CREATE_TOM)]);
    expect(currentFacts(record.ledger.worldAfter).map((f) => f.id)).toEqual(['f_1_2']);
  });
});

describe('echoing hostile tool calls back to the model', () => {
  const nest = (depth: number): unknown => {
    let value: unknown = 1;
    for (let i = 0; i < depth; i++) value = { a: value };
    return value;
  };
  const callWith = (args: unknown, rawArgs = JSON.stringify(args)) => ({ id: 'c', name: 't', args, rawArgs });

  it(`echoes arguments up to MAX_ECHO_ARGS_DEPTH (${MAX_ECHO_ARGS_DEPTH}), MAX_ECHO_ARGS_NODES and MAX_ECHO_ARGS_CHARS, and {} past them`, () => {
    expect(isEchoable(nest(MAX_ECHO_ARGS_DEPTH))).toBe(true);
    expect(isEchoable(nest(MAX_ECHO_ARGS_DEPTH + 1))).toBe(false);
    // An array of n scalars is n + 1 values.
    expect(isEchoable(new Array(MAX_ECHO_ARGS_NODES - 1).fill(0))).toBe(true);
    expect(isEchoable(new Array(MAX_ECHO_ARGS_NODES).fill(0))).toBe(false);
    const at = callWith({ s: 'x' }, 'x'.repeat(MAX_ECHO_ARGS_CHARS));
    const past = callWith({ s: 'x' }, 'x'.repeat(MAX_ECHO_ARGS_CHARS + 1));
    expect(echoableCalls([at])[0]).toBe(at);
    expect(echoableCalls([past])[0]).toEqual({ id: 'c', name: 't', args: {}, rawArgs: '{}' });
  });

  it('a ledger repair echoes a 30,000-deep call as {}, so nothing downstream recurses into it', async () => {
    const deep = `{"events":${'['.repeat(30_000)}${']'.repeat(30_000)}}`;
    const { record, models } = await millTurn([
      { text: 'Deep.', ...rawCall(deep) },
      recordCall({ events: [] }),
    ]);
    expect(record.ledger.attempts[0]!.errors[0]!.code).toBe('LEDGER_TOO_DEEP');
    const echoed = models.narrator.requests[1]!.messages.find((m) => m.role === 'assistant');
    expect(echoed).toMatchObject({ toolCalls: [{ args: {}, rawArgs: '{}' }] });
  });

  it("the Director's next round echoes a 30,000-deep call as {} too, and the turn goes on", async () => {
    const deep = `{"destination":${'['.repeat(30_000)}${']'.repeat(30_000)}}`;
    const { record, models } = await millTurn([narrate('You stay.')], {
      director: [{ toolCalls: [{ name: 'travel', rawArgs: deep }] }, { text: DIRECTIVES }],
    });
    expect(record.tools[0]!.ok).toBe(false);
    expect(record.tools[0]!.content).toMatch(/MAX_TOOL_ARGS_CHARS/);
    const echoed = models.director.requests[1]!.messages.find((m) => m.role === 'assistant');
    expect(echoed).toMatchObject({ toolCalls: [{ args: {}, rawArgs: '{}' }] });
    expect(record.narration).toBe('You stay.');
  });
});
