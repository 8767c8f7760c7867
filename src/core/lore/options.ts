// Validation of lookup inputs. Queries come from a model's tool call, so each refusal says which
// limit was passed; the engine returns the message to the model as a structured tool error.

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
  min: number,
  max: number,
  limit: string,
): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new LoreError(
      'LORE_BAD_OPTION',
      `lore lookup ${name} must be an integer ${min}..${max} (${limit}), got ${value}`,
    );
  }
  return value;
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
    k: intOption('k', options.k, DEFAULT_LORE_K, 1, MAX_LORE_K, 'MAX_LORE_K'),
    tokenBudget: intOption(
      'tokenBudget',
      options.tokenBudget,
      DEFAULT_LORE_TOKEN_BUDGET,
      0,
      MAX_LORE_TOKEN_BUDGET,
      'MAX_LORE_TOKEN_BUDGET',
    ),
  };
}
