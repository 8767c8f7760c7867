// Checks and encodes the caller's turn content into column values, before any transaction starts.

import { checkBytes, encodeJson } from './json.ts';
import { storableTextProblem } from '../../core/text-policy.ts';
import { StoreInputError } from './errors.ts';
import {
  MAX_INPUT_BYTES,
  MAX_LEDGER_EVENT_BYTES,
  MAX_LEDGER_EVENTS_PER_TURN,
  MAX_LEDGER_GAME_TIME_CHARS,
  MAX_NARRATION_BYTES,
  MAX_RECORD_BYTES,
  MAX_STATE_BYTES,
} from './limits.ts';
import type { TurnContent } from './turn-log-records.ts';
import { checkSeed, checkTimestamp } from './validate.ts';

export interface EncodedTurnContent {
  input: string | null;
  narration: string;
  record: string;
  state: string;
  seed: number;
  created_at: number;
  ledgerEvents: string[];
  ledgerGameTime: string | null;
}

export function encodeTurnContent(place: string, content: TurnContent): EncodedTurnContent {
  if (typeof content.narration !== 'string')
    throw new StoreInputError(`${place}.narration`, 'must be a string');
  checkBytes(`${place}.narration`, content.narration, MAX_NARRATION_BYTES, 'MAX_NARRATION_BYTES');
  const unstorable = storableTextProblem(content.narration);
  if (unstorable !== undefined) throw new StoreInputError(`${place}.narration`, unstorable);
  const events = content.ledgerEvents ?? [];
  if (!Array.isArray(events)) throw new StoreInputError(`${place}.ledgerEvents`, 'must be an array');
  if (events.length > MAX_LEDGER_EVENTS_PER_TURN) {
    throw new StoreInputError(
      `${place}.ledgerEvents`,
      `has ${events.length} events, over the limit MAX_LEDGER_EVENTS_PER_TURN = ${MAX_LEDGER_EVENTS_PER_TURN}`,
    );
  }
  return {
    input:
      content.input === undefined || content.input === null
        ? null
        : encodeJson(`${place}.input`, content.input, MAX_INPUT_BYTES, 'MAX_INPUT_BYTES'),
    narration: content.narration,
    record: encodeJson(`${place}.record`, content.record, MAX_RECORD_BYTES, 'MAX_RECORD_BYTES'),
    state: encodeJson(`${place}.state`, content.state, MAX_STATE_BYTES, 'MAX_STATE_BYTES'),
    seed: checkSeed(`${place}.seed`, content.seed),
    created_at: checkTimestamp(`${place}.createdAt`, content.createdAt),
    ledgerEvents: events.map((event, i) =>
      encodeJson(`${place}.ledgerEvents[${i}]`, event, MAX_LEDGER_EVENT_BYTES, 'MAX_LEDGER_EVENT_BYTES'),
    ),
    ledgerGameTime: checkGameTime(`${place}.ledgerGameTime`, content.ledgerGameTime),
  };
}

function checkGameTime(place: string, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new StoreInputError(place, 'must be a string');
  if (value.length > MAX_LEDGER_GAME_TIME_CHARS)
    throw new StoreInputError(
      place,
      `is ${value.length} characters, over the limit MAX_LEDGER_GAME_TIME_CHARS = ${MAX_LEDGER_GAME_TIME_CHARS}`,
    );
  return value;
}
