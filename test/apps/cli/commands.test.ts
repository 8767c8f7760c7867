// What the player types, parsed: the game's slash commands, everything else a turn, and typed values for
// /event and /resolve. In-process: no terminal needed.

import { describe, expect, it } from 'vitest';
import { type CommandArgs, parseArgs, parseLine } from '../../../src/apps/cli/play/commands.ts';
import { splitWords } from '../../../src/apps/cli/play/words.ts';
import { MAX_LINE_CHARS, MAX_PLAY_NAME_CHARS } from '../../../src/apps/cli/play/limits.ts';
import { eventInputs, interactionFromArgs } from '../../../src/apps/cli/play/values.ts';
import { coerceTypedWord as coerceInput } from '../../../src/engine/turn/offline/choose.ts';
import type { EventDef } from '../../../src/core/yare/program.ts';
import { lanternmere } from '../../engine/turn/helpers.ts';

function args(text: string): CommandArgs {
  const parsed = parseArgs(text);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed;
}

async function event(name: string): Promise<EventDef> {
  const found = (await lanternmere()).rules.events.get(name);
  if (found === undefined) throw new Error(`no event ${name}`);
  return found;
}

describe('parseLine', () => {
  it('knows the game commands, case-insensitively, and leaves other lines to the turn engine', () => {
    expect(parseLine('/state')).toEqual({ kind: 'state' });
    expect(parseLine('  /DEBUG  ')).toEqual({ kind: 'debug' });
    expect(parseLine('/undo')).toEqual({ kind: 'undo' });
    expect(parseLine('/retry')).toEqual({ kind: 'retry' });
    expect(parseLine('/saves')).toEqual({ kind: 'saves' });
    expect(parseLine('/help')).toEqual({ kind: 'help' });
    expect(parseLine('/quit')).toEqual({ kind: 'quit' });
    expect(parseLine('/exit')).toEqual({ kind: 'quit' });
    expect(parseLine('')).toEqual({ kind: 'empty' });
    expect(parseLine('   ')).toEqual({ kind: 'empty' });
    expect(parseLine('I light the lamp')).toEqual({ kind: 'say', text: 'I light the lamp' });
    // The offline matcher's commands are turns, not game commands.
    expect(parseLine('/travel destination="brine market"')).toEqual({
      kind: 'say',
      text: '/travel destination="brine market"',
    });
    expect(parseLine('/wait 15m')).toEqual({ kind: 'say', text: '/wait 15m' });
  });

  it('parses /save and /load names with spaces, and refuses empty names and control characters', () => {
    expect(parseLine('/save before the chapel')).toEqual({ kind: 'save', name: 'before the chapel' });
    expect(parseLine('/load x')).toEqual({ kind: 'load', name: 'x' });
    expect(parseLine('/save')).toMatchObject({ kind: 'invalid', message: 'usage: /save NAME' });
    expect(parseLine('/load a\u0007b')).toMatchObject({ kind: 'invalid' });
  });

  it(`accepts a save name of ${MAX_PLAY_NAME_CHARS} characters and refuses one more (MAX_PLAY_NAME_CHARS)`, () => {
    const atLimit = 'n'.repeat(MAX_PLAY_NAME_CHARS);
    expect(parseLine(`/save ${atLimit}`)).toEqual({ kind: 'save', name: atLimit });
    const past = parseLine(`/save ${atLimit}n`);
    expect(past.kind).toBe('invalid');
    expect(past).toMatchObject({ message: expect.stringContaining('MAX_PLAY_NAME_CHARS') });
  });

  it(`accepts a line of ${MAX_LINE_CHARS} characters and refuses one more (MAX_LINE_CHARS)`, () => {
    expect(parseLine('a'.repeat(MAX_LINE_CHARS)).kind).toBe('say');
    const past = parseLine('a'.repeat(MAX_LINE_CHARS + 1));
    expect(past).toMatchObject({ kind: 'invalid', message: expect.stringContaining('MAX_LINE_CHARS') });
  });

  it('parses /event with its name, pairs and bare words, and /resolve with its pairs', () => {
    expect(parseLine('/event travel destination="brine market"')).toEqual({
      kind: 'event',
      name: 'travel',
      args: { pairs: [['destination', 'brine market']], bare: [] },
    });
    expect(parseLine('/event cast_spell flare')).toEqual({
      kind: 'event',
      name: 'cast_spell',
      args: { pairs: [], bare: ['flare'] },
    });
    expect(parseLine('/event')).toMatchObject({
      kind: 'invalid',
      message: 'usage: /event NAME [key=value]…',
    });
    expect(parseLine('/event travel destination="open')).toMatchObject({
      kind: 'invalid',
      message: '/event: unclosed " quote',
    });
    expect(parseLine("/resolve status=completed data.grid='[1, 2]'")).toEqual({
      kind: 'resolve',
      args: {
        pairs: [
          ['status', 'completed'],
          ['data.grid', '[1, 2]'],
        ],
        bare: [],
      },
    });
  });
});

describe('splitWords', () => {
  it('groups quoted text, keeps empty quoted words, and removes the quotes', () => {
    expect(splitWords(`a  b="c d" 'e f' ""`)).toEqual(['a', 'b=c d', 'e f', '']);
    expect(splitWords("it's")).toEqual({ error: "unclosed ' quote" });
  });
});

describe('eventInputs', () => {
  it('converts values to the declared input types', () => {
    expect(coerceInput('12', 'int')).toBe(12);
    expect(coerceInput('1.5', 'float')).toBe(1.5);
    expect(coerceInput('twelve', 'int')).toBe('twelve');
    expect(coerceInput('true', 'bool')).toBe(true);
    expect(coerceInput('false', 'bool')).toBe(false);
    expect(coerceInput('[1,2]', 'list')).toEqual([1, 2]);
    expect(coerceInput('{"a":1}', 'dict')).toEqual({ a: 1 });
    expect(coerceInput('12', 'string')).toBe('12');
  });

  it('takes key=value pairs, or one bare value for a single-input event, into a null-prototype table', async () => {
    const travel = await event('travel');
    const pairs = eventInputs(travel, args('destination="brine market"'));
    expect(pairs).toEqual({ ok: true, value: { destination: 'brine market' } });
    if (pairs.ok) expect(Object.getPrototypeOf(pairs.value)).toBeNull();
    expect(eventInputs(travel, args('reedmaze'))).toEqual({ ok: true, value: { destination: 'reedmaze' } });
    expect(eventInputs(travel, args('gold=99'))).toEqual({
      ok: false,
      message: "travel has no input 'gold' (inputs: destination)",
    });
    expect(eventInputs(await event('attack'), args('hard'))).toMatchObject({ ok: false });
    expect(eventInputs(travel, args('__proto__=x'))).toMatchObject({ ok: false });
  });
});

describe('interactionFromArgs', () => {
  it('builds the mini-game result: status, metrics typed, data.KEY as JSON', () => {
    const result = interactionFromArgs(
      'lights_out',
      args('status=completed moves=9 perfect=true by=hand data.grid=[1,0]'),
    );
    expect(result).toEqual({
      ok: true,
      value: {
        minigame_id: 'lights_out',
        status: 'completed',
        metrics: { moves: 9, perfect: true, by: 'hand' },
        data: { grid: [1, 0] },
      },
    });
  });

  it('requires a known status and refuses stray words and dotted metric names', () => {
    expect(interactionFromArgs('g', args('moves=1'))).toMatchObject({
      ok: false,
      message: expect.stringContaining('status=completed'),
    });
    expect(interactionFromArgs('g', args('status=won'))).toMatchObject({
      ok: false,
      message: expect.stringContaining("'won'"),
    });
    expect(interactionFromArgs('g', args('status=failed quickly'))).toMatchObject({ ok: false });
    expect(interactionFromArgs('g', args('status=failed a.b=1'))).toMatchObject({ ok: false });
  });
});
