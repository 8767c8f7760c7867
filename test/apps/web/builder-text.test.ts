// The builder's pure text helpers (src/apps/web/builder/draft-text.ts) and its generator stream reader: where a
// file:line:col finding falls, the event names offered by "try it" (bounded scan), the JSON fields.
import { describe, expect, it } from 'vitest';
import { generateEventOf } from '../../../src/apps/web/builder/builder-api.ts';
import { ApiFailure, readAnswer } from '../../../src/apps/web/lib/errors.ts';
import {
  eventNames,
  fieldBounds,
  hoverText,
  jsonObjectField,
  MAX_SCANNED_LINES,
  problemRange,
} from '../../../src/apps/web/builder/draft-text.ts';

describe('problemRange', () => {
  const text = 'a: 1\n  var: state.player.hpp\nlast';
  it('covers the word at line:col (1-based)', () => {
    const { from, to } = problemRange(text, 2, 8);
    expect(text.slice(from, to)).toBe('state.player.hpp');
  });
  it('covers one character where no word starts, and clamps a column past the line end to it', () => {
    const at = problemRange(text, 2, 7);
    expect(text.slice(at.from, at.to)).toBe(' ');
    const past = problemRange(text, 1, 99);
    expect(past.from).toBe(4);
    expect(text.slice(past.from, past.to)).toBe('\n');
  });
  it('puts line 0 and a line past the end at the start of the file', () => {
    expect(problemRange(text, 0, 5)).toEqual({ from: 0, to: 1 });
    expect(problemRange(text, 9, 1)).toEqual({ from: 0, to: 1 });
    expect(problemRange('', 1, 1)).toEqual({ from: 0, to: 0 });
    expect(problemRange(text, 3, 1)).toEqual({ from: text.indexOf('last'), to: text.length });
  });
});

describe('eventNames', () => {
  it('lists the keys under events: in order, and nothing from other sections', () => {
    const yare =
      'state_schema:\n  player: {}\nevents:\n  swim:\n    steps: []\n  # note\n  fish_2:\n    steps: []\nmacros:\n  x: "@ 1"\n';
    expect(eventNames(yare)).toEqual(['swim', 'fish_2']);
    expect(eventNames('events: {}\n')).toEqual([]);
  });
  it(`reads the first ${MAX_SCANNED_LINES} lines only`, () => {
    const filler = (n: number) => 'events:\n' + '    # filler\n'.repeat(n);
    expect(eventNames(`${filler(MAX_SCANNED_LINES - 2)}  late:\n`)).toEqual(['late']);
    expect(eventNames(`${filler(MAX_SCANNED_LINES - 1)}  late:\n`)).toEqual([]);
  });
});

describe('jsonObjectField', () => {
  it('takes blank as absent, an object as it is, and names the field otherwise', () => {
    expect(jsonObjectField('  ', 'state')).toEqual({ ok: true, value: undefined });
    expect(jsonObjectField('{"hp": 3}', 'state')).toEqual({ ok: true, value: { hp: 3 } });
    expect(jsonObjectField('[1]', 'state')).toEqual({
      ok: false,
      message: expect.stringMatching(/^state: must be a JSON object/),
    });
    expect(jsonObjectField('{hp', 'inputs')).toEqual({
      ok: false,
      message: expect.stringMatching(/^inputs: not JSON/),
    });
  });
});

describe('generateEventOf', () => {
  it('reads the generator stream with the contract’s schema of each event', () => {
    expect(generateEventOf('round', { round: 2, kind: 'repair', errors: 3 })).toEqual({
      event: 'round',
      data: { round: 2, kind: 'repair', errors: 3 },
    });
    const finding = {
      severity: 'error',
      code: 'C',
      message: 'm',
      where: 'yare.yaml:15:14',
      file: 'yare.yaml',
      line: 15,
      col: 14,
    };
    expect(generateEventOf('checked', { round: 1, errors: [finding], errorCount: 1, warnings: 0 })).toEqual({
      event: 'checked',
      data: { round: 1, errors: [finding], errorCount: 1, warnings: 0 },
    });
    expect(generateEventOf('saved', { draftId: 'd2', ok: true, rounds: 1 })).toEqual({
      event: 'saved',
      data: { draftId: 'd2', ok: true, rounds: 1 },
    });
    expect(generateEventOf('error', { code: 'model', message: 'the model failed: down' })).toEqual({
      event: 'error',
      data: { code: 'model', message: 'the model failed: down' },
    });
    expect(generateEventOf('future_event', {})).toBeUndefined();
    expect(generateEventOf('constructor', {})).toBeUndefined();
  });

  it('fails on an event that does not match, naming the event and its fields', () => {
    const done = generateEventOf('done', { ok: 'yes', draftId: 7 });
    expect(done).toBeInstanceOf(ApiFailure);
    expect((done as ApiFailure).code).toBe('bad_response');
    expect((done as ApiFailure).message).toContain('the generator stream (done)');
    expect((done as ApiFailure).details.problems).toEqual(
      expect.arrayContaining([
        'ok: expected boolean',
        'draftId: expected string',
        'rounds: missing (expected number)',
      ]),
    );
    expect(generateEventOf('error', null)).toBeInstanceOf(ApiFailure);
  });
});

describe('readAnswer', () => {
  it('reads JSON, takes an empty or non-JSON body as undefined, and throws the failure of an error status', async () => {
    expect(await readAnswer(new Response('{"a":1}'))).toEqual({ a: 1 });
    expect(await readAnswer(new Response(''))).toBeUndefined();
    expect(await readAnswer(new Response('<html>'))).toBeUndefined();
    const failure = await readAnswer(
      new Response('{"error":{"code":"not_found","message":"no draft"}}', { status: 404 }),
    ).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiFailure);
    expect(failure).toMatchObject({ status: 404, code: 'not_found', message: 'no draft' });
    await expect(readAnswer(new Response('oops', { status: 502 }))).rejects.toMatchObject({
      code: 'http_502',
    });
  });
});

describe('fieldBounds', () => {
  it('says each kind of mini-game setting in a few words', () => {
    const description = 'd';
    expect(fieldBounds({ kind: 'int', min: 3, max: 7, description })).toBe('int 3–7');
    expect(fieldBounds({ kind: 'number', min: 0.5, max: 2, description })).toBe('number 0.5–2');
    expect(fieldBounds({ kind: 'text', maxChars: 40, description })).toBe('text ≤ 40 chars');
    expect(fieldBounds({ kind: 'text_list', minItems: 2, maxItems: 8, maxChars: 30, description })).toBe(
      'list of 2–8 texts',
    );
  });
});

describe('hoverText', () => {
  it('shows the language server’s Markdown as plain text', () => {
    expect(hoverText('**state.player.hp** — type `int`, default `10`')).toBe(
      'state.player.hp — type int, default 10',
    );
    expect(hoverText('**macros.x**\n\n```\n@ roll(1d6)\n```')).toBe('macros.x\n\n@ roll(1d6)');
  });
});
