// The `lore_lookup` tool as the Director sees it, and the check of its arguments. Plain data (no
// dependency on the model layer): the turn engine turns it into a ToolSpec.

import { MAX_LORE_QUERIES, MAX_LORE_QUERY_CHARS } from './limits.ts';

export const LORE_LOOKUP_TOOL_NAME = 'lore_lookup';

export const LORE_LOOKUP_DESCRIPTION =
  'Look up world lore (places, factions, creatures, history). Batch every topic you need into one call: ' +
  'give several short keyword queries at once. Returns the matching lore sections.';

export const LORE_LOOKUP_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    queries: {
      type: 'array',
      description: 'Short keyword queries, one per topic, e.g. ["goblin", "Whispering Woods"].',
      items: { type: 'string', maxLength: MAX_LORE_QUERY_CHARS },
      minItems: 1,
      maxItems: MAX_LORE_QUERIES,
    },
  },
  required: ['queries'],
  additionalProperties: false,
} as const;

export type LoreLookupArgs =
  | { readonly ok: true; readonly queries: string[] }
  | { readonly ok: false; readonly error: string };

/** Accepts `{queries: string[]}` or, as models often send, `{queries: "one query"}`. */
export function parseLoreLookupArgs(args: unknown): LoreLookupArgs {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    return { ok: false, error: 'lore_lookup expects an object like {"queries": ["goblin"]}' };
  }
  const queries = (args as { queries?: unknown }).queries;
  if (typeof queries === 'string') return { ok: true, queries: [queries] };
  if (!Array.isArray(queries) || !queries.every((q) => typeof q === 'string')) {
    return { ok: false, error: 'lore_lookup: "queries" must be a list of strings' };
  }
  return { ok: true, queries: queries as string[] };
}
