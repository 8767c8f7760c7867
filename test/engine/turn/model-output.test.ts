// Model output is bounded before it is stored: per-response and per-turn tool-call caps,
// refused arguments kept as a reason and a hash (never raw), nesting depth and duplicate keys found in the
// raw text before any parse, and no turn that fails because of what the model sent.
import { describe, expect, it } from 'vitest';
import { MAX_LORE_QUERIES } from '../../../src/core/lore/limits.ts';
import { scanRawArgs } from '../../../src/engine/turn/args.ts';
import { checkedArgs, directorTools } from '../../../src/engine/turn/tools.ts';
import {
  MAX_TOOL_ARGS_CHARS,
  MAX_TOOL_ARGS_DEPTH,
  MAX_TOOL_CALLS_PER_ROUND,
  MAX_TOOL_CALLS_PER_TURN,
} from '../../../src/engine/turn/limits.ts';
import { collect, initialState, lanternmere, scripted } from './helpers.ts';

const DIRECTIVES = 'Describe it plainly.';

async function turnOf(director: unknown[]) {
  const cartridge = await lanternmere();
  const models = scripted({ director: director as never, narrator: [{ text: 'The fen is quiet.' }] });
  const { record, events } = await collect({
    cartridge,
    state: initialState(cartridge),
    messages: [],
    input: 'look around',
    seed: 3,
    models,
    limits: { maxToolRounds: 5 },
  });
  return { record, events, models };
}

/** Lore lookups: their results go back to the Director, so each response earns another round. */
const lookups = (n: number) =>
  Array.from({ length: n }, () => ({ name: 'lore_lookup', args: { queries: ['fen'] } }));

describe('raw argument scan (before any parse)', () => {
  const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
  it('accepts MAX_TOOL_ARGS_DEPTH levels and refuses one more', () => {
    expect(scanRawArgs(nested(MAX_TOOL_ARGS_DEPTH))).toEqual({ ok: true });
    expect(scanRawArgs(nested(MAX_TOOL_ARGS_DEPTH + 1))).toMatchObject({ ok: false, reason: 'too-deep' });
  });

  it('finds 100,000 levels without recursion', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(scanRawArgs(deep)).toMatchObject({ ok: false, reason: 'too-deep' });
  });

  it('refuses a key named twice in one object, at any depth; the same key in two objects is fine', () => {
    expect(scanRawArgs('{"a":1,"a":2}')).toMatchObject({ ok: false, reason: 'duplicate-key' });
    expect(scanRawArgs('{"x":{"a":1,"b":{"c":[1,2]},"\\u0061":2}}')).toMatchObject({
      ok: false,
      reason: 'duplicate-key',
    });
    expect(scanRawArgs('{"a":{"a":1},"b":[{"a":1},{"a":2}]}')).toEqual({ ok: true });
    expect(scanRawArgs('{"a":"{\\"a\\":1,\\"a\\":2}"}')).toEqual({ ok: true });
  });

  it('says what is malformed', () => {
    expect(scanRawArgs('{"a":1')).toMatchObject({ ok: false, reason: 'malformed' });
    expect(scanRawArgs('{"a":"x}')).toMatchObject({ ok: false, reason: 'malformed' });
    expect(scanRawArgs(']')).toMatchObject({ ok: false, reason: 'malformed' });
  });
});

describe('tool calls a model sends', () => {
  it('1,000 calls in one response: 8 run, the rest are dropped unrecorded, and the next prompt stays small', async () => {
    const { record, models } = await turnOf([{ toolCalls: lookups(1_000) }, { text: DIRECTIVES }]);
    expect(record.tools).toHaveLength(MAX_TOOL_CALLS_PER_ROUND);
    expect(record.tools.at(-1)!.content).toMatch(/992 more tool call\(s\)/);
    const second = models.calls.filter((c) => c.role === 'director')[1]!;
    // user input, the assistant's 8 calls, 8 results (plus any history): not 2,001 messages.
    expect(second.request.messages.length).toBeLessThanOrEqual(1 + 1 + MAX_TOOL_CALLS_PER_ROUND + 2);
    expect(record.narration).toBe('The fen is quiet.');
  });

  it(`at most MAX_TOOL_CALLS_PER_TURN (${MAX_TOOL_CALLS_PER_TURN}) calls run in a turn; then the Director stops`, async () => {
    const responses = Array.from({ length: 5 }, () => ({ toolCalls: lookups(MAX_TOOL_CALLS_PER_ROUND) }));
    const { record, models } = await turnOf(responses);
    expect(record.tools).toHaveLength(MAX_TOOL_CALLS_PER_TURN);
    expect(record.tools.every((t) => t.ok)).toBe(true);
    // Three rounds fill the turn's calls; the fourth response's calls are all dropped and no fifth is asked.
    expect(models.calls.filter((c) => c.role === 'director')).toHaveLength(
      MAX_TOOL_CALLS_PER_TURN / MAX_TOOL_CALLS_PER_ROUND + 1,
    );
    expect(record.warnings.some((w) => w.includes('MAX_TOOL_CALLS_PER_TURN'))).toBe(true);
  });

  it('a refused 1 MB argument, five rounds running, is kept as a reason and a hash: the record stays small', async () => {
    const huge = JSON.stringify({ destination: 'x'.repeat(1_000_000) });
    const responses = Array.from({ length: 5 }, () => ({ toolCalls: [{ name: 'travel', rawArgs: huge }] }));
    const { record, events } = await turnOf(responses);
    expect(record.tools).toHaveLength(5);
    for (const tool of record.tools) {
      expect(tool.ok).toBe(false);
      expect(tool.rawArgs).toBe('');
      expect(tool.args).toBeNull();
      expect(tool.refused).toMatchObject({
        chars: huge.length,
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(tool.refused!.reason).toMatch(/MAX_TOOL_ARGS_CHARS/);
    }
    expect(JSON.stringify(record).length).toBeLessThan(200_000);
    expect(JSON.stringify(events).length).toBeLessThan(200_000);
    expect(huge.length).toBeGreaterThan(MAX_TOOL_ARGS_CHARS);
  });

  it('arguments nested 100,000 deep are refused as too deep; the turn completes', async () => {
    const deep = `{"destination":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const { record } = await turnOf([
      { toolCalls: [{ name: 'travel', rawArgs: deep.slice(0, MAX_TOOL_ARGS_CHARS) }] },
      { text: DIRECTIVES },
    ]);
    expect(record.tools[0]).toMatchObject({ ok: false, rawArgs: '', args: null });
    expect(record.tools[0]!.refused!.reason).toMatch(/nested deeper than 6 levels/);
    const { record: big } = await turnOf([
      { toolCalls: [{ name: 'travel', rawArgs: deep }] },
      { text: DIRECTIVES },
    ]);
    expect(big.tools[0]).toMatchObject({ ok: false, rawArgs: '' });
    expect(big.narration).toBe('The fen is quiet.');
  });

  it('duplicate keys in Director arguments are refused, not last-wins', async () => {
    const { record } = await turnOf([
      { toolCalls: [{ name: 'travel', rawArgs: '{"destination":"reedmaze","destination":"brine market"}' }] },
      { text: DIRECTIVES },
    ]);
    expect(record.tools[0]).toMatchObject({ ok: false, rawArgs: '' });
    expect(record.tools[0]!.content).toMatch(/appears twice/);
    expect((record.stateAfter as { player: { location: string } }).player.location).toBe('tallow rest');
  });

  it('an unknown tool with a huge name is refused with the name cut and no raw arguments kept', async () => {
    const { record } = await turnOf([
      { toolCalls: [{ name: 'x'.repeat(10_000), args: { a: 1 } }] },
      { text: DIRECTIVES },
    ]);
    expect(record.tools[0]!.name.length).toBeLessThanOrEqual(65);
    expect(record.tools[0]).toMatchObject({ ok: false, rawArgs: '' });
  });
});

describe('engine tools: one zod object gives the JSON Schema and the check', () => {
  it('lore_lookup takes MAX_LORE_QUERIES queries and refuses one more, and unknown keys, as its schema says', async () => {
    const tool = directorTools(await lanternmere()).byName.get('lore_lookup')!;
    expect(tool.spec.inputSchema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['queries'],
      properties: { queries: { type: 'array', minItems: 1, maxItems: MAX_LORE_QUERIES } },
    });
    const call = (args: unknown) =>
      checkedArgs(tool, { id: 'c', name: 'lore_lookup', args, rawArgs: JSON.stringify(args) });
    const queries = (n: number) => Array.from({ length: n }, (_, i) => `q${i}`);
    expect(call({ queries: queries(MAX_LORE_QUERIES) }).ok).toBe(true);
    const past = call({ queries: queries(MAX_LORE_QUERIES + 1) });
    expect(past.ok).toBe(false);
    if (!past.ok)
      expect(past.outcome.error).toMatch(
        `has ${MAX_LORE_QUERIES + 1} items; the limit is ${MAX_LORE_QUERIES}`,
      );
    const extra = call({ queries: ['a'], also: 1 });
    if (!extra.ok) expect(extra.outcome.error).toMatch(/unknown property "also"/);
    expect(extra.ok).toBe(false);
    const missing = call({});
    if (!missing.ok) expect(missing.outcome.error).toMatch(/missing required property 'queries'/);
    expect(missing.ok).toBe(false);
  });
});
