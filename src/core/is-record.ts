// The one guard for "a JSON object": not null, not an array. Parsed JSON, YAML and request bodies are read
// through it, on the server and in the browser alike.

/** Whether `value` is an object that is neither null nor an array (what JSON calls an object). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
