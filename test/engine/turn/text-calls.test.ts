// Tool calls written in the text (models without tool calling) and input normalisation: every common
// style is read, prose is left alone, the calls go through the one validator, and a cut-off or looping
// answer is asked for again once before the player is asked to say it again.

import { describe, expect, it } from 'vitest';
import { TurnError } from '../../../src/engine/turn/errors.ts';
import { normaliseArgs } from '../../../src/engine/turn/normalise-args.ts';
import { endsInRepetition, textToolCalls } from '../../../src/engine/turn/text-calls.ts';
import { LOST_THREAD } from '../../../src/engine/turn/director.ts';
import {
  MAX_EVENT_STRING_CHARS,
  MAX_TOOL_ARGS_CHARS,
  MAX_TOOL_CALLS_PER_ROUND,
} from '../../../src/engine/turn/limits.ts';
import { checkedArgs, directorTools } from '../../../src/engine/turn/tools.ts';
import { rulesOf } from '../../helpers/yare.ts';
import { collect, failure, initialState, type Loose, lanternmere, plain, scripted } from './helpers.ts';

const KNOWN = new Set(['travel', 'attack', 'buy_item', 'finish_turn']);
const calls = (text: string) => plain(textToolCalls(text, KNOWN, 1).calls.map((c) => [c.name, c.args]));

describe('textToolCalls', () => {
  it.each([
    ['bare JSON', '{"name": "travel", "arguments": {"destination": "reedmaze"}}'],
    [
      'fenced JSON',
      'I will move.\n```json\n{"name": "travel", "parameters": {"destination": "reedmaze"}}\n```',
    ],
    [
      'Hermes/Qwen tags',
      '<tool_call>\n{"name": "travel", "arguments": {"destination": "reedmaze"}}\n</tool_call>',
    ],
    [
      'Llama python_tag',
      '<|python_tag|>{"type": "function", "name": "travel", "parameters": {"destination": "reedmaze"}}<|eom_id|>',
    ],
    ['Llama function tag', '<function=travel>{"destination": "reedmaze"}</function>'],
    ['Mistral', '[TOOL_CALLS] [{"name": "travel", "arguments": {"destination": "reedmaze"}}]'],
    [
      'a function wrapper with string arguments',
      '{"type":"function","function":{"name":"travel","arguments":"{\\"destination\\":\\"reedmaze\\"}"}}',
    ],
    ['event and inputs', '{"event": "travel", "inputs": {"destination": "reedmaze"}}'],
    ['name(arg=value)', 'travel(destination="reedmaze")'],
    ['name(arg: value), unquoted', 'Call: travel(destination: reedmaze).'],
  ])('reads %s', (_style, text) => {
    expect(calls(text)).toEqual([['travel', { destination: 'reedmaze' }]]);
  });

  it('keeps the text around the calls as directives, without the markers', () => {
    const read = textToolCalls(
      '<tool_call>{"name": "attack", "arguments": {}}</tool_call>\n### 1. Outcomes\nThe hook bites.',
      KNOWN,
      2,
    );
    expect(read.calls.map((c) => [c.id, c.name, c.rawArgs])).toEqual([['text_2_1', 'attack', '{}']]);
    expect(read.rest).toBe('### 1. Outcomes\nThe hook bites.');
  });

  it('reads several calls in the order written, python form and JSON mixed, numbers and booleans typed', () => {
    expect(
      calls(
        'attack() then {"name": "buy_item", "arguments": {"item": "lamp oil"}} and travel(n=2, fast=True, x=None)',
      ),
    ).toEqual([
      ['attack', {}],
      ['buy_item', { item: 'lamp oil' }],
      ['travel', { n: 2, fast: true, x: null }],
    ]);
  });

  it('leaves prose alone: unknown names, braces and parentheses that are not calls', () => {
    expect(calls('{"name": "fly", "arguments": {}}')).toEqual([]);
    expect(calls('The wisp (a pale thing) circles {slowly}. You could travel (if you dare).')).toEqual([]);
    expect(calls('untravel(destination="x") or my.travel(x=1)')).toEqual([]);
    expect(calls('{"destination": "reedmaze"}')).toEqual([]);
  });

  it('finds nothing in a call cut off mid-way (truncated JSON)', () => {
    expect(calls('{"name": "travel", "arguments": {"destination": "reedm')).toEqual([]);
    expect(calls('travel(destination="reedm')).toEqual([]);
  });

  it(`reads at most ${MAX_TOOL_CALLS_PER_ROUND} calls of one answer`, () => {
    const text = 'attack() '.repeat(MAX_TOOL_CALLS_PER_ROUND + 3);
    expect(textToolCalls(text, KNOWN, 1).calls).toHaveLength(MAX_TOOL_CALLS_PER_ROUND);
  });

  it('skips a JSON value over MAX_TOOL_ARGS_CHARS and one with duplicate keys', () => {
    const long = `{"name": "travel", "arguments": {"destination": "${'r'.repeat(MAX_TOOL_ARGS_CHARS)}"}}`;
    expect(calls(long)).toEqual([]);
    expect(calls('{"name": "travel", "name": "attack", "arguments": {}}')).toEqual([]);
  });

  it('reads a hostile answer in linear time (a megabyte of open braces and of "travel(")', () => {
    const started = performance.now();
    textToolCalls('{'.repeat(1_000_000), KNOWN, 1);
    textToolCalls('travel('.repeat(150_000), KNOWN, 1);
    textToolCalls('{"a":'.repeat(200_000), KNOWN, 1);
    // A correctness bound (quadratic work on these would take minutes), not a speed target.
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});

describe('endsInRepetition', () => {
  it('flags an answer stuck in a loop, and not ordinary text', () => {
    expect(endsInRepetition(`Directives: ${'the wisp circles, '.repeat(30)}`)).toBe(true);
    expect(endsInRepetition(`{"destination": "${'brine '.repeat(80)}`)).toBe(true);
    expect(endsInRepetition('### 1. Outcomes\nThe player walks to the market. The wisp watches.')).toBe(
      false,
    );
    // The threshold: 300 characters of one repeating period.
    expect(endsInRepetition('ab'.repeat(149))).toBe(false);
    expect(endsInRepetition('ab'.repeat(150))).toBe(true);
  });
});

describe('normaliseArgs', () => {
  const schema = {
    type: 'object',
    properties: {
      destination: { type: 'string', enum: ['tallow rest', 'brine market'] },
      note: { type: 'string' },
    },
  };
  const implied = [{ phrase: 'the inn', inputs: { destination: 'tallow rest' } }];
  it('folds case and whitespace onto enum options, maps intents.yaml phrases, leaves free text alone', () => {
    expect(plain(normaliseArgs(schema, { destination: '  Brine   MARKET ' }))).toEqual({
      destination: 'brine market',
    });
    expect(plain(normaliseArgs(schema, { destination: 'Tallow-Rest' }))).toEqual({
      destination: 'tallow rest',
    });
    expect(plain(normaliseArgs(schema, { destination: 'The Inn' }, implied))).toEqual({
      destination: 'tallow rest',
    });
    expect(plain(normaliseArgs(schema, { destination: 'the moon' }, implied))).toEqual({
      destination: 'the moon',
    });
    expect(plain(normaliseArgs(schema, { note: '  two\n\nlines ' }, implied))).toEqual({
      note: '  two\n\nlines ',
    });
    expect(normaliseArgs(schema, ['not', 'an', 'object'])).toEqual(['not', 'an', 'object']);
  });
});

describe('the Director with a model that writes its calls as text', () => {
  it('runs a call written in the text, records it as such, and keeps the rest as directives', async () => {
    const cartridge = await lanternmere();
    const models = scripted({
      director: [
        {
          text: '<tool_call>{"name": "travel", "arguments": {"destination": "Brine Market"}}</tool_call>\n### 1. Outcomes\nThe player arrives.',
        },
      ],
      narrator: [{ text: 'You reach the market.' }],
    });
    const { record } = await collect({
      cartridge,
      state: initialState(cartridge),
      messages: [],
      input: 'go to the market',
      seed: 1,
      models,
    });
    expect(
      record.ruleCalls.filter((c) => c.source === 'director').map((c) => [c.event, plain(c.inputs)]),
    ).toEqual([['travel', { destination: 'brine market' }]]);
    expect(record.tools[0]).toMatchObject({ name: 'travel', ok: true, fromText: true });
    expect(record.directives).toBe('### 1. Outcomes\nThe player arrives.');
    expect(record.stateAfter.player).toMatchObject({ location: 'brine market' });
  });

  it('refuses a text call with bad arguments through the one validator, and the repair runs', async () => {
    const cartridge = await lanternmere();
    const models = scripted({
      director: [{ text: 'travel(destination="the moon")' }, { text: 'travel(destination="reedmaze")' }],
      narrator: [{ text: 'Reeds.' }],
    });
    const { record } = await collect({
      cartridge,
      state: initialState(cartridge),
      messages: [],
      input: 'go',
      seed: 1,
      models,
    });
    expect(record.tools.map((t) => [t.round, t.ok, t.fromText])).toEqual([
      [1, false, true],
      [2, true, true],
    ]);
    expect(record.tools[0]!.refused?.reason).toContain('must be one of');
  });

  it('asks again once after a cut-off answer, then goes on', async () => {
    const cartridge = await lanternmere();
    const models = scripted({
      director: [
        { text: '{"name": "travel", "arguments": {"destination": "reed', finishReason: 'length' },
        { toolCalls: [{ name: 'travel', args: { destination: 'reedmaze' } }] },
      ],
      narrator: [{ text: 'Reeds.' }],
    });
    const { record } = await collect({
      cartridge,
      state: initialState(cartridge),
      messages: [],
      input: 'go',
      seed: 1,
      models,
    });
    expect(record.ruleCalls.filter((c) => c.source === 'director').map((c) => c.event)).toEqual(['travel']);
    expect(record.warnings.some((w) => w.includes('cut off by the token limit'))).toBe(true);
    const repair = models.director.requests[1]!.messages.at(-1);
    expect(repair).toMatchObject({
      role: 'user',
      content: expect.stringContaining('[engine] Your last answer was cut off'),
    });
  });

  it('asks the player to say it again after two looping answers; nothing is committed', async () => {
    const cartridge = await lanternmere();
    const loop = { text: `### 1. Outcomes\n${'the reeds sway and '.repeat(40)}` };
    const models = scripted({ director: [loop, loop], narrator: [] });
    const { error } = await failure({
      cartridge,
      state: initialState(cartridge),
      messages: [],
      input: 'go',
      seed: 1,
      models,
    });
    expect(error).toBeInstanceOf(TurnError);
    expect((error as TurnError).kind).toBe('reply');
    expect((error as TurnError).message).toBe(LOST_THREAD);
    expect(models.director.requests).toHaveLength(2);
  });
});

describe('bounded arguments', () => {
  const rules = rulesOf(`
events:
  shout:
    description: "Shout something."
    inputs:
      words: { type: string }
      mood: { type: string, enum: [calm, angry] }
    steps:
      - action: note
        message: "{inputs.words}"
`);
  const cartridge = { name: 't', contentHash: 'h', rules, directives: {}, lore: '' };
  const tool = directorTools(cartridge).byName.get('shout')!;
  const call = (words: string) => {
    const rawArgs = JSON.stringify({ words, mood: 'calm' });
    return checkedArgs(tool, { id: 'c', name: 'shout', args: JSON.parse(rawArgs), rawArgs });
  };

  it(`sends free strings with maxLength ${MAX_EVENT_STRING_CHARS} and enum strings as enums`, () => {
    const properties = (tool.spec.inputSchema as Loose).properties;
    expect(properties.words.maxLength).toBe(MAX_EVENT_STRING_CHARS);
    expect(properties.mood).toMatchObject({ enum: ['calm', 'angry'] });
    expect(properties.mood.maxLength).toBeUndefined();
  });

  it(`accepts a free string of ${MAX_EVENT_STRING_CHARS} characters and refuses one more`, () => {
    expect(call('a'.repeat(MAX_EVENT_STRING_CHARS)).ok).toBe(true);
    const past = call('a'.repeat(MAX_EVENT_STRING_CHARS + 1));
    expect(past.ok).toBe(false);
    if (!past.ok) expect(past.outcome.error).toContain(`the limit is ${MAX_EVENT_STRING_CHARS}`);
  });
});
