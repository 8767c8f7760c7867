// Whether a finished turn fits the store's limits, checked before the commit so that a turn too large to
// keep is the game's failure, named by the part of the cartridge that made it large (an event's notes, the
// state), never the store's refusal of the request (a 400 that blames the client). The limits are the
// store's own (adapters/store/limits.ts): one source for each.

import { MAX_NARRATION_BYTES, MAX_RECORD_BYTES, MAX_STATE_BYTES } from '../../../adapters/store/index.ts';
import type { TurnRecord } from '../../turn/index.ts';
import { SessionError } from '../errors.ts';

function bytesOf(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

function tooLarge(
  what: string,
  bytes: number,
  limit: number,
  limitName: string,
  blame: { readonly part: string; readonly detail: string; readonly event?: string },
): SessionError {
  return new SessionError(
    'too-large',
    `the turn's ${what} is ${bytes} bytes, over the limit ${limitName} = ${limit}: ${blame.detail}; nothing was saved`,
    {
      limit: limitName,
      bytes,
      part: blame.part,
      ...(blame.event === undefined ? {} : { event: blame.event }),
    },
  );
}

/** The event whose notes weigh most in the record, with how many and how heavy. */
function heaviestNotes(record: TurnRecord): { event: string; notes: number; bytes: number } | undefined {
  const byEvent = new Map<string, { notes: number; bytes: number }>();
  for (const call of record.ruleCalls) {
    const sum = byEvent.get(call.event) ?? { notes: 0, bytes: 0 };
    sum.notes += call.notes.length;
    for (const note of call.notes) sum.bytes += Buffer.byteLength(note, 'utf8');
    byEvent.set(call.event, sum);
  }
  let best: { event: string; notes: number; bytes: number } | undefined;
  for (const [event, sum] of byEvent)
    if (best === undefined || sum.bytes > best.bytes) best = { event, ...sum };
  return best;
}

/** What made the record large: the heaviest of its parts, said in the cartridge's terms where it is the cartridge's. */
function blameRecord(record: TurnRecord): {
  readonly part: string;
  readonly detail: string;
  readonly event?: string;
} {
  const parts = Object.entries(record).map(([key, value]) => ({ key, bytes: bytesOf(value) }));
  parts.sort((a, b) => b.bytes - a.bytes);
  const top = parts[0]?.key ?? 'record';
  switch (top) {
    case 'notes':
    case 'ruleCalls': {
      const heaviest = heaviestNotes(record);
      if (heaviest !== undefined) {
        return {
          part: 'notes',
          event: heaviest.event,
          detail: `the cartridge's event '${heaviest.event}' wrote ${heaviest.notes} notes (${heaviest.bytes} bytes) this turn`,
        };
      }
      return { part: 'notes', detail: "the cartridge's rule calls" };
    }
    case 'stateAfter':
    case 'delta':
      return { part: 'state', detail: "the cartridge's game state (and its changes this turn)" };
    case 'rolls':
      return { part: 'rolls', detail: "the dice rolls of the cartridge's events" };
    case 'prompts':
      return { part: 'prompts', detail: "the cartridge's lore and prompt sections" };
    case 'ledgerEvents':
    case 'ledger':
      return { part: 'ledger', detail: 'the world-ledger changes of this turn' };
    default:
      return { part: top, detail: `most of it is the record's ${top}` };
  }
}

/** UTF-8 bytes of `text`, or a bound under `max` when its length alone proves it fits (1–3 bytes a unit). */
function bytesWithin(text: string, max: number): number {
  return text.length * 3 <= max ? text.length : Buffer.byteLength(text, 'utf8');
}

/**
 * The SessionError for a turn the store would refuse for its size, or undefined when it fits. `recordText`
 * is the record exactly as it will be stored. One serialisation of it serves every check: the state is a
 * part of the record, so a record that fits the state's limit has a state that does too.
 */
export function unstorableTurn(record: TurnRecord, recordText: string): SessionError | undefined {
  if (recordText.length * 3 > MAX_STATE_BYTES) {
    const state = bytesOf(record.stateAfter);
    if (state > MAX_STATE_BYTES) {
      return tooLarge('state', state, MAX_STATE_BYTES, 'MAX_STATE_BYTES', {
        part: 'state',
        detail: "the cartridge's game state",
      });
    }
  }
  const narration = bytesWithin(record.narration, MAX_NARRATION_BYTES);
  if (narration > MAX_NARRATION_BYTES) {
    const heaviest = record.mode === 'offline' ? heaviestNotes(record) : undefined;
    return tooLarge('narration', narration, MAX_NARRATION_BYTES, 'MAX_NARRATION_BYTES', {
      part: heaviest === undefined ? 'narration' : 'notes',
      ...(heaviest === undefined ? {} : { event: heaviest.event }),
      detail:
        heaviest === undefined
          ? 'the narration'
          : `the narration is told from the notes, and the cartridge's event '${heaviest.event}' wrote ${heaviest.notes} notes (${heaviest.bytes} bytes)`,
    });
  }
  const size = bytesWithin(recordText, MAX_RECORD_BYTES);
  if (size > MAX_RECORD_BYTES) {
    return tooLarge('record', size, MAX_RECORD_BYTES, 'MAX_RECORD_BYTES', blameRecord(record));
  }
  return undefined;
}
