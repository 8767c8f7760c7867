// Sorted-key JSON: two states are the same game state exactly when their canonical texts are equal.

export { canonicalJson } from '../../core/ledger/index.ts';

/** A plain JSON copy (null-prototype objects become ordinary ones); what the store and clients receive. */
export function plainJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
