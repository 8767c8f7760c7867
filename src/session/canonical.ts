// Sorted-key JSON: two states are the same game state exactly when their canonical texts are equal.

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
}

/** A plain JSON copy (null-prototype objects become ordinary ones); what the store and clients receive. */
export function plainJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
