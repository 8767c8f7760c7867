import { describe, expect, it } from 'vitest';
import { MAX_LORE_QUERIES } from '../../../src/core/lore/limits.ts';
import {
  LORE_LOOKUP_INPUT_SCHEMA,
  LORE_LOOKUP_TOOL_NAME,
  parseLoreLookupArgs,
} from '../../../src/core/lore/tool.ts';

describe('lore_lookup tool', () => {
  it('declares a list of queries bounded by the lookup limit', () => {
    expect(LORE_LOOKUP_TOOL_NAME).toBe('lore_lookup');
    expect(LORE_LOOKUP_INPUT_SCHEMA.required).toEqual(['queries']);
    expect(LORE_LOOKUP_INPUT_SCHEMA.properties.queries.maxItems).toBe(MAX_LORE_QUERIES);
  });

  it('accepts a list or a single string, refuses anything else with a message for the model', () => {
    expect(parseLoreLookupArgs({ queries: ['goblin', 'woods'] })).toEqual({
      ok: true,
      queries: ['goblin', 'woods'],
    });
    expect(parseLoreLookupArgs({ queries: 'goblin' })).toEqual({ ok: true, queries: ['goblin'] });
    expect(parseLoreLookupArgs(undefined)).toMatchObject({ ok: false });
    expect(parseLoreLookupArgs({ queries: [1] })).toEqual({
      ok: false,
      error: 'lore_lookup: "queries" must be a list of strings',
    });
    expect(parseLoreLookupArgs([])).toMatchObject({ ok: false });
  });
});
