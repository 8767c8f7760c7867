// The world ledger of a session, read from what the store keeps: each turn's batch of world events. The
// world at a turn is the replay of the batches on its branch (genesis first: the cartridge's starting
// world), re-validated under the cartridge's policy, so a tampered row shows up as a failed replay.

import type { Cartridge } from '../../core/cartridge/index.ts';
import {
  emptyWorld,
  WorldDraft,
  applyEvent,
  LedgerApplyError,
  type LedgerError,
  type LedgerEvent,
  type LedgerPolicy,
  type LogEntry,
  parseEvent,
  replayLog,
  toWire,
  type World,
} from '../../core/ledger/index.ts';
import { worldFromJson } from '../../core/ledger/index.ts';
import type { LedgerEntry, WorldBase } from '../../adapters/store/index.ts';

export interface CartridgeLedger {
  readonly policy: LedgerPolicy;
  /** The starting world as wire events: the genesis turn's ledger batch. */
  readonly world: readonly Record<string, unknown>[];
}

const byHash = new Map<string, CartridgeLedger>();

/**
 * The cartridge's ledger policy and starting world. The cartridge loader validates the `ledger:` section
 * (with file:line:col errors) and builds the policy from `state_schema`; this only converts the starting
 * world to wire form, cached by content hash.
 */
export function cartridgeLedger(cartridge: Cartridge): CartridgeLedger {
  const cached = byHash.get(cartridge.contentHash);
  if (cached !== undefined) return cached;
  const ledger: CartridgeLedger = {
    policy: cartridge.ledger.policy,
    world: cartridge.ledger.world.map((event) => toWire(event)),
  };
  byHash.set(cartridge.contentHash, ledger);
  return ledger;
}

/** Groups a branch's stored ledger rows into one log entry per turn (by depth), oldest first. */
export function logEntries(
  rows: readonly LedgerEntry[],
): Array<{ turn: number; gameTime?: string; events: unknown[] }> {
  const out: Array<{ turn: number; gameTime?: string; events: unknown[] }> = [];
  for (const row of rows) {
    const last = out.at(-1);
    if (last !== undefined && last.turn === row.depth) last.events.push(row.event);
    else
      out.push({
        turn: row.depth,
        ...(row.gameTime === undefined ? {} : { gameTime: row.gameTime }),
        events: [row.event],
      });
  }
  return out;
}

export type WorldResult =
  | { readonly ok: true; readonly world: World; readonly log: LogEntry[] }
  | { readonly ok: false; readonly turn: number | null; readonly errors: LedgerError[] };

export function worldFromRows(rows: readonly LedgerEntry[], policy: LedgerPolicy): WorldResult {
  const replay = replayLog(logEntries(rows), policy);
  return replay.ok
    ? { ok: true, world: replay.world, log: replay.log }
    : { ok: false, turn: replay.turn, errors: replay.errors };
}

/**
 * The world a stored base gives: its snapshot (checked field by field, since it is read back from the
 * database) with the batches after it folded on in one draft, so reading it costs the snapshot plus the
 * events, never a table copy per batch. The batches were validated when they were committed; here each
 * event is only parsed and applied (an event that does not apply fails the read with its turn). A full
 * re-validation of a branch, as for an untrusted save, is `worldFromRows` (used by `session verify`).
 */
export function worldFromBase(base: WorldBase): WorldResult {
  let start = emptyWorld();
  if (base.snapshot !== null) {
    const read = worldFromJson(base.snapshot.world);
    if (!read.ok) {
      const message = `the world snapshot at depth ${base.snapshot.depth} is not a world: ${read.message}`;
      return {
        ok: false,
        turn: base.snapshot.depth,
        errors: [{ index: -1, code: 'LEDGER_BAD_TYPE', message }],
      };
    }
    start = read.world;
  }
  const log: LogEntry[] = [];
  for (const entry of logEntries(base.entries)) {
    const events: LedgerEvent[] = [];
    for (let i = 0; i < entry.events.length; i++) {
      const parsed = parseEvent(entry.events[i], i);
      if (!parsed.ok) return { ok: false, turn: entry.turn, errors: parsed.errors };
      events.push(parsed.event);
    }
    log.push({
      turn: entry.turn,
      ...(entry.gameTime === undefined ? {} : { gameTime: entry.gameTime }),
      events,
    });
  }
  const draft = new WorldDraft(start);
  for (const entry of log) {
    const at =
      entry.gameTime === undefined ? { turn: entry.turn } : { turn: entry.turn, gameTime: entry.gameTime };
    try {
      for (const [index, event] of entry.events.entries()) applyEvent(draft, event, index, at);
    } catch (error) {
      if (!(error instanceof LedgerApplyError)) throw error;
      return {
        ok: false,
        turn: entry.turn,
        errors: [{ index: -1, code: 'LEDGER_BAD_TYPE', message: error.message }],
      };
    }
  }
  return { ok: true, world: draft.finish(), log };
}

/** A played turn's record as the store keeps it: the world after the turn is left out (see world-cache.ts). */
export function withoutWorld<R extends { readonly ledger?: unknown }>(record: R): R {
  const ledger = record.ledger as { worldAfter?: unknown } | undefined;
  if (ledger === undefined || !('worldAfter' in ledger)) return record;
  const { worldAfter: _world, ...rest } = ledger;
  return { ...record, ledger: rest };
}
