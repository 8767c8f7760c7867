// The work of `mnesos ledger check <events.json> [--world world.json] [--cartridge dir|name] [--json]`: would this
// batch of world events apply? Prints, for each event, accepted or the rejection code and message. Exit 0
// when the batch would apply, 1 when not (or the input is unreadable), 2 for usage errors (commander).

import { readFileSync } from 'node:fs';
import { loadCartridge } from '../../../adapters/files/index.ts';
import type { Checked } from '../../../core/result.ts';
import { formatDiagnostic } from '../../../core/diagnostics.ts';
import {
  DEFAULT_LIMITS,
  DEFAULT_POLICY,
  emptyWorld,
  type LedgerError,
  type LedgerPolicy,
  MAX_JSON_BYTES,
  parseToolArguments,
  proposeBatch,
  startingWorld,
  type World,
  worldFromJson,
} from '../../../core/ledger/index.ts';
import { resolveCartridgePath } from '../cartridge-arg.ts';
import { EXIT } from '../exit-codes.ts';
import { UserError } from '../user-error.ts';
import { isRecord } from '../../../core/is-record.ts';

/** Largest world.json read by the command (a world is much larger than one batch). */
export const MAX_WORLD_FILE_BYTES = 32 * 1024 * 1024;

export interface CheckOptions {
  /** Overrides MAX_WORLD_FILE_BYTES (tests). */
  readonly maxFileBytes?: number;
  readonly world?: string;
  readonly cartridge?: string;
  readonly json?: boolean;
}

function readText(path: string, maxBytes: number): Checked<string> {
  try {
    const buffer = readFileSync(path);
    if (buffer.length > maxBytes) return { ok: false, message: `${path}: larger than ${maxBytes} bytes` };
    return { ok: true, value: buffer.toString('utf8') };
  } catch (error) {
    return { ok: false, message: `${path}: ${(error as NodeJS.ErrnoException).code ?? 'cannot read'}` };
  }
}

function loadWorld(path: string, maxBytes: number): Checked<World> {
  const text = readText(path, maxBytes);
  if (!text.ok) return text;
  let raw: unknown;
  try {
    raw = JSON.parse(text.value);
  } catch {
    return { ok: false, message: `${path}: not valid JSON` };
  }
  const world = worldFromJson(raw);
  return world.ok ? { ok: true, value: world.world } : { ok: false, message: `${path}: ${world.message}` };
}

interface CartridgeLedger {
  readonly policy: LedgerPolicy;
  /** The cartridge's starting world (`startingWorld` of its `ledger:` section). */
  readonly world: World;
}

/**
 * The write policy and starting world of a cartridge (a folder or a shipped cartridge's name), loaded as
 * every command loads one: its errors are the loader's, at `file:line:col`.
 */
async function cartridgeLedger(arg: string | undefined): Promise<Checked<CartridgeLedger>> {
  if (arg === undefined) return { ok: true, value: { policy: DEFAULT_POLICY, world: emptyWorld() } };
  let dir: string;
  try {
    dir = resolveCartridgePath(arg);
  } catch (error) {
    if (error instanceof UserError) return { ok: false, message: error.message };
    throw error;
  }
  const loaded = await loadCartridge(dir);
  if (!loaded.ok) return { ok: false, message: loaded.errors.map(formatDiagnostic).join('\n') };
  const section = loaded.cartridge.ledger;
  return { ok: true, value: { policy: section.policy, world: startingWorld(section) } };
}

function eventTypeOf(raw: unknown): string {
  if (isRecord(raw)) {
    const type = raw.event_type;
    if (typeof type === 'string') return JSON.stringify(type).slice(1, -1).slice(0, 40);
  }
  return '?';
}

/** The batch's events and the problems found: each event's by its index, the batch's own at index -1. */
interface BatchVerdict {
  readonly events: readonly unknown[];
  readonly errors: readonly LedgerError[];
}

/** The world and policy to check against: --world's file, or the cartridge's own starting world. */
async function checkTarget(options: CheckOptions): Promise<Checked<{ world: World; policy: LedgerPolicy }>> {
  const cartridge = await cartridgeLedger(options.cartridge);
  if (!cartridge.ok) return cartridge;
  // Without --world, a cartridge's own starting world is the world the batch is checked against.
  const world =
    options.world === undefined
      ? { ok: true as const, value: cartridge.value.world }
      : loadWorld(options.world, options.maxFileBytes ?? MAX_WORLD_FILE_BYTES);
  if (!world.ok) return world;
  return { ok: true, value: { world: world.value, policy: cartridge.value.policy } };
}

/** The events as text, checked as one batch against the world (unparseable text is the batch's one error). */
function checkBatch(text: string, target: { world: World; policy: LedgerPolicy }): BatchVerdict {
  const parsed = parseToolArguments(text, DEFAULT_LIMITS);
  if (!parsed.ok) return { events: [], errors: [parsed.error] };
  const raw = parsed.value;
  const result = proposeBatch(target.world, raw, target.policy);
  return { events: Array.isArray(raw) ? raw : [], errors: result.ok ? [] : result.errors };
}

function printVerdict(verdict: BatchVerdict, json: boolean | undefined, out: (line: string) => void): void {
  const { events, errors } = verdict;
  const batchErrors = errors.filter((e) => e.index < 0);
  const eventErrors = (index: number) => errors.filter((e) => e.index === index);
  if (json) {
    out(
      JSON.stringify({
        ok: errors.length === 0,
        events: events.map((event, index) => {
          const mine = eventErrors(index);
          return { index, event_type: eventTypeOf(event), accepted: mine.length === 0, errors: mine };
        }),
        errors: batchErrors,
      }),
    );
    return;
  }
  for (const e of batchErrors) out(`batch: rejected ${e.code} ${e.message}`);
  events.forEach((event, index) => {
    const mine = eventErrors(index);
    const head = `#${index} ${eventTypeOf(event)}`;
    // Per event: accepted means this event passed; the batch line says whether the whole batch applies.
    if (mine.length === 0) out(`${head}: accepted`);
    for (const e of mine) out(`${head}: rejected ${e.code} ${e.message}`);
  });
  out(
    errors.length === 0
      ? `batch accepted (${events.length} events)`
      : `batch rejected (${errors.length} errors)`,
  );
}

export async function runLedgerCheck(
  eventsPath: string,
  options: CheckOptions,
  out: (line: string) => void,
): Promise<number> {
  const fail = (message: string): number => {
    if (options.json) out(JSON.stringify({ ok: false, error: message }));
    else out(`error: ${message}`);
    return EXIT.user;
  };
  const text = readText(eventsPath, MAX_JSON_BYTES);
  if (!text.ok) return fail(text.message);
  const target = await checkTarget(options);
  if (!target.ok) return fail(target.message);
  const verdict = checkBatch(text.value, target.value);
  printVerdict(verdict, options.json, out);
  return verdict.errors.length === 0 ? EXIT.ok : EXIT.user;
}
