// The tool-argument checker: what the engine's schemas use, and hostile model output.
import { describe, expect, it } from 'vitest';
import { checkArgs } from '../../../src/engine/turn/args.ts';
import {
  MAX_TOOL_ARGS_DEPTH,
  MAX_TOOL_ARGS_ITEMS,
  MAX_TOOL_STRING_CHARS,
} from '../../../src/engine/turn/limits.ts';

const travel = {
  type: 'object',
  properties: {
    destination: { type: 'string', enum: ['tallow rest', 'brine market'] },
    power: { type: 'integer', default: 0 },
    engine_time_delta: { type: 'string' },
  },
  required: ['destination'],
  additionalProperties: false,
};

const message = (schema: Record<string, unknown>, value: unknown): string => {
  const r = checkArgs(schema, value);
  if (r.ok) throw new Error('expected a refusal');
  return r.message;
};

describe('checkArgs', () => {
  it('accepts valid arguments and returns a null-prototype copy', () => {
    const input = { destination: 'brine market', power: 2 };
    const r = checkArgs(travel, input);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Object.getPrototypeOf(r.value)).toBeNull();
    expect({ ...(r.value as object) }).toEqual(input);
    expect(r.value).not.toBe(input);
  });

  it('checks type, enum, required and unknown properties, naming the argument', () => {
    expect(message(travel, { destination: 'the moon' })).toMatch(
      /'destination' must be one of "tallow rest", "brine market"/,
    );
    expect(message(travel, { destination: 'brine market', power: 1.5 })).toMatch(
      /'power' must be an integer, got number/,
    );
    expect(message(travel, { destination: 'brine market', power: '3' })).toMatch(
      /'power' must be an integer, got string/,
    );
    expect(message(travel, {})).toMatch(/missing required property 'destination'/);
    expect(message(travel, { destination: 'brine market', gold: 9999 })).toMatch(
      /unknown property "gold"; expected: destination, power, engine_time_delta/,
    );
    expect(message(travel, ['brine market'])).toMatch(/arguments must be an object, got array/);
    expect(message(travel, null)).toMatch(/got null/);
  });

  it('treats __proto__ and constructor as unknown properties, never as prototypes', () => {
    const hostile = JSON.parse('{"destination":"brine market","__proto__":{"polluted":true}}') as unknown;
    expect(message(travel, hostile)).toMatch(/unknown property "__proto__"/);
    expect(message(travel, { destination: 'brine market', constructor: 1 })).toMatch(
      /unknown property "constructor"/,
    );
    // Without additionalProperties:false the key is kept as plain data on a null-prototype object.
    const r = checkArgs({ type: 'object' }, hostile);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(Object.getPrototypeOf(r.value)).toBeNull();
      expect(Object.hasOwn(r.value as object, '__proto__')).toBe(true);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('accepts a string of MAX_TOOL_STRING_CHARS and refuses one character more', () => {
    const schema = { type: 'object', properties: { s: { type: 'string' } } };
    expect(checkArgs(schema, { s: 'x'.repeat(MAX_TOOL_STRING_CHARS) }).ok).toBe(true);
    expect(message(schema, { s: 'x'.repeat(MAX_TOOL_STRING_CHARS + 1) })).toMatch(/MAX_TOOL_STRING_CHARS/);
    expect(message({ type: 'string', maxLength: 3 }, 'abcd')).toMatch(/limit is 3/);
  });

  it('accepts MAX_TOOL_ARGS_ITEMS items or keys and refuses one more', () => {
    expect(checkArgs({ type: 'array' }, new Array(MAX_TOOL_ARGS_ITEMS).fill(1)).ok).toBe(true);
    expect(message({ type: 'array' }, new Array(MAX_TOOL_ARGS_ITEMS + 1).fill(1))).toMatch(
      /MAX_TOOL_ARGS_ITEMS/,
    );
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    expect(checkArgs({ type: 'object' }, keys(MAX_TOOL_ARGS_ITEMS)).ok).toBe(true);
    expect(message({ type: 'object' }, keys(MAX_TOOL_ARGS_ITEMS + 1))).toMatch(/MAX_TOOL_ARGS_ITEMS/);
  });

  it('accepts nesting to MAX_TOOL_ARGS_DEPTH and refuses one level more', () => {
    const nest = (levels: number): unknown => (levels === 1 ? {} : { a: nest(levels - 1) });
    expect(checkArgs({ type: 'object' }, nest(MAX_TOOL_ARGS_DEPTH)).ok).toBe(true);
    expect(message({ type: 'object' }, nest(MAX_TOOL_ARGS_DEPTH + 1))).toMatch(/MAX_TOOL_ARGS_DEPTH/);
  });

  it('checks array items, minItems, minimum and maximum', () => {
    const queries = { type: 'array', minItems: 1, items: { type: 'string' } };
    expect(message(queries, [])).toMatch(/at least 1 item/);
    expect(message(queries, ['a', 2])).toMatch(/argument '1' must be a string/);
    expect(message({ type: 'integer', minimum: 0, maximum: 10 }, 11)).toMatch(/at most 10/);
    expect(message({ type: 'integer', minimum: 0, maximum: 10 }, -1)).toMatch(/at least 0/);
  });

  it('refuses what is not JSON data', () => {
    expect(message({}, () => 1)).toMatch(/not JSON data/);
    expect(message({ type: 'number' }, Number.NaN)).toMatch(/must be a number/);
    expect(message({}, Number.POSITIVE_INFINITY)).toMatch(/finite/);
  });
});
