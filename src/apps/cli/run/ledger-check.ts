// The work of `mnesos ledger check <events.json> [--world world.json] [--cartridge dir] [--json]`: would this
// batch of world events apply? Prints, for each event, accepted or the rejection code and message. Exit 0
// when the batch would apply, 1 when not (or the input is unreadable), 2 for usage errors (commander).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import {
  applyBatch,
  DEFAULT_LIMITS,
  DEFAULT_POLICY,
  emptyWorld,
  type LedgerError,
  type LedgerPolicy,
  MAX_JSON_BYTES,
  parseToolArguments,
  proposeBatch,
  validateLedgerSection,
  type World,
  worldFromJson,
} from '../../../core/ledger/index.ts';
import { EXIT } from '../exit-codes.ts';

/** Largest world.json / yare.yaml read by the command (a world is much larger than one batch). */
export const MAX_WORLD_FILE_BYTES = 32 * 1024 * 1024;

export interface CheckOptions {
  /** Overrides MAX_WORLD_FILE_BYTES (tests). */
  readonly maxFileBytes?: number;
  readonly world?: string;
  readonly cartridge?: string;
  readonly json?: boolean;
}

type Loaded<T> = { ok: true; value: T } | { ok: false; message: string };

function readText(path: string, maxBytes: number): Loaded<string> {
  try {
    const buffer = readFileSync(path);
    if (buffer.length > maxBytes) return { ok: false, message: `${path}: larger than ${maxBytes} bytes` };
    return { ok: true, value: buffer.toString('utf8') };
  } catch (error) {
    return { ok: false, message: `${path}: ${(error as NodeJS.ErrnoException).code ?? 'cannot read'}` };
  }
}

function loadWorld(path: string, maxBytes: number): Loaded<World> {
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
  /** The cartridge's starting world (`ledger.world`), applied at turn 0. */
  readonly world: World;
}

/** The policy and starting world of a cartridge folder: its yare.yaml `state_schema` and `ledger:` section. */
function loadCartridge(dir: string | undefined, maxBytes: number): Loaded<CartridgeLedger> {
  if (dir === undefined) return { ok: true, value: { policy: DEFAULT_POLICY, world: emptyWorld() } };
  const file = join(dir, 'yare.yaml');
  const text = readText(file, maxBytes);
  if (!text.ok) return text;
  let yare: unknown;
  try {
    yare = parseYaml(text.value, { maxAliasCount: 0, uniqueKeys: true });
  } catch (error) {
    return { ok: false, message: `${file}: ${(error as Error).message.split('\n')[0]}` };
  }
  const root = typeof yare === 'object' && yare !== null ? (yare as Record<string, unknown>) : {};
  const section = validateLedgerSection(root.ledger, { stateSchema: root.state_schema });
  if (!section.ok) {
    const first = section.issues[0]!;
    return { ok: false, message: `${file}: ${first.path.join('.')}: ${first.message} [${first.code}]` };
  }
  const world = applyBatch(emptyWorld(), section.value.world, { turn: 0 });
  return { ok: true, value: { policy: section.value.policy, world } };
}

function eventTypeOf(raw: unknown): string {
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const type = (raw as Record<string, unknown>).event_type;
    if (typeof type === 'string') return JSON.stringify(type).slice(1, -1).slice(0, 40);
  }
  return '?';
}

export function runLedgerCheck(
  eventsPath: string,
  options: CheckOptions,
  out: (line: string) => void,
): number {
  const fail = (message: string): number => {
    if (options.json) out(JSON.stringify({ ok: false, error: message }));
    else out(`error: ${message}`);
    return EXIT.user;
  };
  const text = readText(eventsPath, MAX_JSON_BYTES);
  if (!text.ok) return fail(text.message);
  const parsed = parseToolArguments(text.value, DEFAULT_LIMITS);
  const maxBytes = options.maxFileBytes ?? MAX_WORLD_FILE_BYTES;
  const cartridge = loadCartridge(options.cartridge, maxBytes);
  if (!cartridge.ok) return fail(cartridge.message);
  // Without --world, a cartridge's own starting world is the world the batch is checked against.
  const world =
    options.world === undefined
      ? { ok: true as const, value: cartridge.value.world }
      : loadWorld(options.world, maxBytes);
  if (!world.ok) return fail(world.message);
  const policy = { ok: true as const, value: cartridge.value.policy };

  const raw = parsed.ok ? parsed.value : undefined;
  const errors: readonly LedgerError[] = parsed.ok
    ? (() => {
        const result = proposeBatch(world.value, raw, policy.value);
        return result.ok ? [] : result.errors;
      })()
    : [parsed.error];
  const rawEvents = Array.isArray(raw) ? raw : [];
  const batchErrors = errors.filter((e) => e.index < 0);
  const ok = errors.length === 0;

  if (options.json) {
    out(
      JSON.stringify({
        ok,
        events: rawEvents.map((event, index) => {
          const mine = errors.filter((e) => e.index === index);
          return { index, event_type: eventTypeOf(event), accepted: mine.length === 0, errors: mine };
        }),
        errors: batchErrors,
      }),
    );
  } else {
    for (const e of batchErrors) out(`batch: rejected ${e.code} ${e.message}`);
    rawEvents.forEach((event, index) => {
      const mine = errors.filter((e) => e.index === index);
      const head = `#${index} ${eventTypeOf(event)}`;
      // Per event: accepted means this event passed; the batch line says whether the whole batch applies.
      if (mine.length === 0) out(`${head}: accepted`);
      for (const e of mine) out(`${head}: rejected ${e.code} ${e.message}`);
    });
    out(ok ? `batch accepted (${rawEvents.length} events)` : `batch rejected (${errors.length} errors)`);
  }
  return ok ? EXIT.ok : EXIT.user;
}
