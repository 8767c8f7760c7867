// The stored form of a rebased turn (migration 0011): its payload holds only what differs from the payload of
// the played turn it was made from (`origin_id`). The record column holds a patch of the record's top-level
// fields (`{"set": {…}, "removed": […]}`), the state column is empty when the state is the origin's. Writers
// call `sharedPayload` before their transaction; every reader of a payload calls `resolveSharedPayloads`, so
// callers always see the whole record and state, exactly as a full copy would have read.

import { StoreInputError } from './errors.ts';
import { decodeJson, type JsonValue } from './json.ts';
import type { SqlRunner } from './runner.ts';

/** A rebased turn's state column when its state is its origin's (never valid JSON, so never a real state). */
export const SAME_STATE = '';
/** Origin payloads read per query (well under either database's bound-parameter limit). */
const ORIGINS_PER_QUERY = 500;

interface RecordPatch {
  readonly set: { [key: string]: JsonValue };
  readonly removed: readonly string[];
}

type JsonObject = { [key: string]: JsonValue };

function isObject(value: JsonValue): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface PayloadText {
  readonly record: string;
  readonly state: string;
}

/** What a rebased turn stores, given its origin's stored payload and its own full record and state (JSON text). */
export function sharedPayload(place: string, origin: PayloadText, own: PayloadText): PayloadText {
  const base = decodeJson(origin.record);
  const next = decodeJson(own.record);
  if (!isObject(base) || !isObject(next))
    throw new StoreInputError(place, 'a rebased turn and its origin must both have object records');
  const set: JsonObject = {};
  for (const [key, value] of Object.entries(next)) {
    const before = Object.hasOwn(base, key) ? base[key] : undefined;
    if (before === undefined || JSON.stringify(before) !== JSON.stringify(value)) set[key] = value;
  }
  const removed = Object.keys(base).filter((key) => !Object.hasOwn(next, key));
  const patch: RecordPatch = { set, removed };
  return { record: JSON.stringify(patch), state: own.state === origin.state ? SAME_STATE : own.state };
}

/** The full payload of a rebased turn from its stored patch and its origin's payload. */
export function mergedPayload(origin: PayloadText, stored: PayloadText): PayloadText {
  const base = decodeJson(origin.record);
  const patch = decodeJson(stored.record) as unknown as RecordPatch;
  const merged: JsonObject = {};
  const removed = new Set(patch.removed);
  if (isObject(base))
    for (const [key, value] of Object.entries(base)) if (!removed.has(key)) merged[key] = value;
  for (const [key, value] of Object.entries(patch.set)) merged[key] = value;
  return { record: JSON.stringify(merged), state: stored.state === SAME_STATE ? origin.state : stored.state };
}

/** Rows of a payload read: rebased ones (origin_id set) get their full record and state in place. */
export interface PayloadRow {
  origin_id?: string | null;
  record: string | null;
  state: string | null;
}

/** The stored payloads of `ids` (origins are played turns: their payloads are whole). */
export async function readPayloads(
  run: SqlRunner,
  ids: readonly string[],
): Promise<Map<string, PayloadText>> {
  const out = new Map<string, PayloadText>();
  for (let i = 0; i < ids.length; i += ORIGINS_PER_QUERY) {
    const rows = await run.rows(
      run.queries
        .selectFrom('turn_payloads')
        .select(['turn_id', 'record', 'state'])
        .where('turn_id', 'in', ids.slice(i, i + ORIGINS_PER_QUERY))
        .compile(),
    );
    for (const row of rows) out.set(row.turn_id, { record: row.record, state: row.state });
  }
  return out;
}

/** Completes the payloads of the rebased rows among `rows` (one query for all their origins). */
export async function resolveSharedPayloads<R extends PayloadRow>(run: SqlRunner, rows: R[]): Promise<R[]> {
  const shared = rows.filter(
    (r) => r.origin_id !== undefined && r.origin_id !== null && r.record !== null && r.state !== null,
  );
  if (shared.length === 0) return rows;
  const origins = await readPayloads(run, [...new Set(shared.map((r) => r.origin_id as string))]);
  for (const row of shared) {
    const origin = origins.get(row.origin_id as string);
    if (origin === undefined) throw new Error(`the origin ${row.origin_id} of a rebased turn is missing`);
    const full = mergedPayload(origin, { record: row.record as string, state: row.state as string });
    row.record = full.record;
    row.state = full.state;
  }
  return rows;
}
