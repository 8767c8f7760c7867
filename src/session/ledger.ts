// The world ledger of a session, read from what the store keeps: each turn's batch of world events. The
// world at a turn is the replay of the batches on its branch (genesis first: the cartridge's starting
// world), re-validated under the cartridge's policy, so a tampered row shows up as a failed replay.

import { parse as parseYaml } from 'yaml';
import type { Cartridge } from '../cartridge/index.ts';
import {
  DEFAULT_POLICY,
  type LedgerError,
  type LedgerPolicy,
  type LogEntry,
  replayLog,
  toWire,
  validateLedgerSection,
  type World,
} from '../ledger/index.ts';
import type { LedgerEntry } from '../store/repository.ts';

export interface CartridgeLedger {
  readonly policy: LedgerPolicy;
  /** The starting world as wire events: the genesis turn's ledger batch. */
  readonly world: readonly Record<string, unknown>[];
  /** Why the cartridge's `ledger:` section was not usable (the default policy is used instead). */
  readonly problem?: string;
}

const byHash = new Map<string, CartridgeLedger>();

/** The cartridge's ledger policy and starting world (cached by content hash: it depends on the files only). */
export function cartridgeLedger(cartridge: Cartridge, yareText?: string): CartridgeLedger {
  const cached = byHash.get(cartridge.contentHash);
  if (cached !== undefined) return cached;
  let stateSchema: unknown;
  try {
    // The file already loaded through the safe YAML reader; this only recovers the raw state_schema.
    const root = yareText === undefined ? undefined : (parseYaml(yareText, { maxAliasCount: 0 }) as unknown);
    stateSchema = typeof root === 'object' && root !== null ? (root as { state_schema?: unknown }).state_schema : undefined;
  } catch {
    stateSchema = undefined;
  }
  const section = validateLedgerSection(cartridge.rules.ledgerSection, { stateSchema });
  const ledger: CartridgeLedger = section.ok
    ? { policy: section.value.policy, world: section.value.world.map((event) => toWire(event)) }
    : {
        policy: DEFAULT_POLICY,
        world: [],
        problem: section.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
      };
  byHash.set(cartridge.contentHash, ledger);
  return ledger;
}

/** Groups a branch's stored ledger rows into one log entry per turn (by depth), oldest first. */
export function logEntries(rows: readonly LedgerEntry[]): Array<{ turn: number; events: unknown[] }> {
  const out: Array<{ turn: number; events: unknown[] }> = [];
  for (const row of rows) {
    const last = out.at(-1);
    if (last !== undefined && last.turn === row.depth) last.events.push(row.event);
    else out.push({ turn: row.depth, events: [row.event] });
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
