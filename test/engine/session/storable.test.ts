// A finished turn the store would refuse for its size is refused before the commit, at the store's own
// limits and one byte past them, naming what the cartridge made large.
import { describe, expect, it } from 'vitest';
import {
  MAX_NARRATION_BYTES,
  MAX_RECORD_BYTES,
  MAX_STATE_BYTES,
} from '../../../src/adapters/store/limits.ts';
import { unstorableTurn } from '../../../src/engine/session/turn-job/storable.ts';
import type { TurnRecord } from '../../../src/engine/turn/index.ts';

function record(parts: Partial<Record<keyof TurnRecord, unknown>> = {}): TurnRecord {
  return {
    mode: 'online',
    narration: 'n',
    stateAfter: {},
    ruleCalls: [],
    notes: [],
    ...parts,
  } as unknown as TurnRecord;
}

/** A value whose JSON text is exactly `bytes` bytes. */
const jsonOf = (bytes: number) => 'x'.repeat(bytes - 2);
/** The stored record's text: a JSON text of exactly `bytes` bytes. */
const textOf = (bytes: number) => JSON.stringify(jsonOf(bytes));

describe('unstorableTurn', () => {
  it('takes a record of MAX_RECORD_BYTES and refuses one byte more, naming the event whose notes weigh most', () => {
    const notes = ['a'.repeat(1_000), 'b'.repeat(1_000)];
    const heavy = record({
      notes,
      ruleCalls: [
        { event: 'small', notes: ['c'] },
        { event: 'loud', notes },
      ],
    });
    expect(unstorableTurn(heavy, textOf(MAX_RECORD_BYTES))).toBeUndefined();
    const error = unstorableTurn(heavy, textOf(MAX_RECORD_BYTES + 1));
    expect(error?.code).toBe('too-large');
    expect(error?.details).toEqual({
      limit: 'MAX_RECORD_BYTES',
      bytes: MAX_RECORD_BYTES + 1,
      part: 'notes',
      event: 'loud',
    });
    expect(error?.message).toMatch(/event 'loud' wrote 2 notes \(2000 bytes\)/);
  });

  it('takes a state of MAX_STATE_BYTES and refuses one byte more as the state', () => {
    // The stored record holds the state: a record within MAX_RECORD_BYTES, its state at or past its own limit.
    const stored = textOf(MAX_RECORD_BYTES);
    expect(unstorableTurn(record({ stateAfter: jsonOf(MAX_STATE_BYTES) }), stored)).toBeUndefined();
    const error = unstorableTurn(record({ stateAfter: jsonOf(MAX_STATE_BYTES + 1) }), stored);
    expect(error?.details).toMatchObject({ limit: 'MAX_STATE_BYTES', part: 'state' });
  });

  it('takes narration of MAX_NARRATION_BYTES and refuses one byte more; offline, it blames the notes', () => {
    const at = 'é'.repeat(MAX_NARRATION_BYTES / 2);
    expect(unstorableTurn(record({ narration: at }), '{}')).toBeUndefined();
    const past = record({
      mode: 'offline',
      narration: `${at}x`,
      ruleCalls: [{ event: 'chatty', notes: ['x'] }],
    });
    expect(unstorableTurn(past, '{}')?.details).toMatchObject({
      limit: 'MAX_NARRATION_BYTES',
      part: 'notes',
      event: 'chatty',
    });
  });

  it('names the state when the state is what is large in the record', () => {
    const error = unstorableTurn(record({ delta: 'd'.repeat(3_000_000) }), textOf(MAX_RECORD_BYTES + 1));
    expect(error?.details).toMatchObject({ part: 'state' });
  });
});
