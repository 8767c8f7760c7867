// JSON columns are stored as text on both databases (not `jsonb`): the store does not interpret turn
// content, and text round-trips exactly (key order, duplicate-free output of JSON.stringify).

import { StoreInputError } from './errors.ts';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * A value its caller has serialised already (`JSON.stringify(value)`), to check a limit of its own: stored
 * as this text instead of being serialised a second time (a turn's record: engine/session/turn-job/commit.ts).
 */
export class JsonText {
  /**
   * `value`: what the text was made from, when the caller still has it. A store method that answers with
   * what it stored answers with it rather than parsing the text again (a generated draft's megabyte:
   * src/apps/server/routes/builder-generate.ts).
   */
  constructor(
    readonly text: string,
    readonly value?: unknown,
  ) {}
}

/**
 * Serialises `value` (a JsonText is its own text), refusing what JSON cannot hold and anything over
 * `maxBytes` UTF-8 bytes.
 */
export function encodeJson(place: string, value: unknown, maxBytes: number, limitName: string): string {
  let text: string | undefined;
  try {
    text = value instanceof JsonText ? value.text : JSON.stringify(value);
  } catch (error) {
    throw new StoreInputError(place, `not serialisable as JSON (${(error as Error).message})`);
  }
  if (text === undefined)
    throw new StoreInputError(place, 'not serialisable as JSON (undefined or a function)');
  checkBytes(place, text, maxBytes, limitName);
  return text;
}

export function checkBytes(place: string, text: string, maxBytes: number, limitName: string): void {
  // Cheap pre-check: a UTF-8 encoding is at least one byte per UTF-16 unit and at most three.
  if (text.length * 3 <= maxBytes) return;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxBytes) {
    throw new StoreInputError(place, `is ${bytes} bytes, over the limit ${limitName} = ${maxBytes}`);
  }
}

export function decodeJson(text: string): JsonValue {
  return JSON.parse(text) as JsonValue;
}

export function decodeNullableJson(text: string | null): JsonValue | null {
  return text === null ? null : decodeJson(text);
}
