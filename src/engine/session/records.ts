// What the session layer stores as a turn's `record`. Three kinds, told apart by `kind`:
// - `genesis`: turn 0, the cartridge's first message and initial state; it names the cartridge version and
//   persona, so a session can be verified from its turns alone;
// - `turn`: a played turn, the turn engine's TurnRecord as it returned it;
// - `author-event`: an event run by hand in author mode, with its seed, so replay reproduces it.

import type { Persona } from '../../core/cartridge/index.ts';
import type { RollRecord } from '../../core/yare/index.ts';
import type { TurnRecord } from '../turn/index.ts';

export interface GenesisRecord {
  readonly kind: 'genesis';
  readonly version: 1;
  readonly cartridge: { readonly name: string; readonly contentHash: string; readonly versionId: string };
  readonly persona: Persona | null;
  readonly seed: number;
}

export interface AuthorEventRecord {
  readonly kind: 'author-event';
  readonly version: 1;
  readonly event: string;
  readonly inputs: unknown;
  readonly seed: number;
  readonly notes: readonly string[];
  readonly rolls: readonly RollRecord[];
  readonly stateAfter: unknown;
}

export type StoredTurnRecord = { readonly kind: 'turn' } & TurnRecord;

export type SessionRecord = GenesisRecord | StoredTurnRecord | AuthorEventRecord;

export function turnRecordOf(record: TurnRecord): StoredTurnRecord {
  return { kind: 'turn', ...record };
}

/** Reads a stored record's kind; anything else is an unknown record (a newer engine, or tampering). */
export function classifyRecord(value: unknown): SessionRecord | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const kind = (value as { kind?: unknown }).kind;
  if (kind === 'genesis' || kind === 'turn' || kind === 'author-event') return value as SessionRecord;
  return undefined;
}

/**
 * World-ledger events a turn's record carries. The turn engine does not propose ledger events yet; when it
 * does they arrive as `ledgerEvents` on the record, and the session stores them with the turn unchanged.
 */
export function ledgerEventsOf(record: TurnRecord): unknown[] {
  const events = (record as { ledgerEvents?: unknown }).ledgerEvents;
  return Array.isArray(events) ? events : [];
}
