// Validation of lookup inputs. Queries come from a model's tool call, so each refusal says which
// limit was passed; the engine returns the message to the model as a structured tool error.

import { checkedInt } from '../result.ts';
import { LoreError } from './errors.ts';
import {
  DEFAULT_LORE_K,
  DEFAULT_LORE_TOKEN_BUDGET,
  MAX_LORE_K,
  MAX_LORE_QUERIES,
  MAX_LORE_QUERY_CHARS,
  MAX_LORE_TOKEN_BUDGET,
} from './limits.ts';

export interface LoreLookupOptions {
  /** Chunks taken per query (default 3). */
  readonly k?: number;
  /** Estimated tokens the result may use (default 1,500). */
  readonly tokenBudget?: number;
}

export interface CheckedLookup {
  /** Non-blank queries, trimmed, in the order given. */
  readonly queries: readonly string[];
  readonly k: number;
  readonly tokenBudget: number;
}

function intOption(
  name: string,
  value: number | undefined,
  fallback: number,
  range: { readonly min: number; readonly max: number; readonly limit: string },
): number {
  const checked = checkedInt(`lore lookup ${name}`, value, fallback, range);
  if (!checked.ok) throw new LoreError('LORE_BAD_OPTION', checked.message);
  return checked.value;
}

export function checkLookup(queries: readonly string[], options: LoreLookupOptions = {}): CheckedLookup {
  if (queries.length > MAX_LORE_QUERIES) {
    throw new LoreError(
      'LORE_BAD_QUERY',
      `lore lookup got ${queries.length} queries, the limit is ${MAX_LORE_QUERIES} (MAX_LORE_QUERIES)`,
    );
  }
  const kept: string[] = [];
  queries.forEach((query, index) => {
    if (typeof query !== 'string')
      throw new LoreError('LORE_BAD_QUERY', `lore lookup query ${index + 1} is not a string`);
    if (query.length > MAX_LORE_QUERY_CHARS) {
      throw new LoreError(
        'LORE_BAD_QUERY',
        `lore lookup query ${index + 1} is ${query.length} characters, the limit is ${MAX_LORE_QUERY_CHARS} (MAX_LORE_QUERY_CHARS)`,
      );
    }
    if (query.trim() !== '') kept.push(query.trim());
  });
  return {
    queries: kept,
    k: intOption('k', options.k, DEFAULT_LORE_K, { min: 1, max: MAX_LORE_K, limit: 'MAX_LORE_K' }),
    tokenBudget: intOption('tokenBudget', options.tokenBudget, DEFAULT_LORE_TOKEN_BUDGET, {
      min: 0,
      max: MAX_LORE_TOKEN_BUDGET,
      limit: 'MAX_LORE_TOKEN_BUDGET',
    }),
  };
}
