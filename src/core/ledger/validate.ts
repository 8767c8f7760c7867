// The ledger's boundary: model output is untrusted input, and this is the only way into a ledger event.
// Each event is checked in order — shape first (closed schema from the table), then against a scratch
// copy of the world that already holds the effects of the earlier events in the batch,
// then against the write policy. The batch is all-or-nothing: one error anywhere and nothing applies.

import { applyEvent, WorldDraft } from './apply.ts';
import { type LedgerError, ledgerError } from './errors.ts';
import { type BatchSource, type CheckContext, checkEvent } from './event-checks.ts';
import { parseEvent } from './event-shape.ts';
import type { LedgerEvent } from './events.ts';
import { guardJsonValue } from './json.ts';
import { DEFAULT_LIMITS, type LedgerLimits, MAX_REPORTED_ERRORS, MAX_WORLD_EVENTS } from './limits.ts';
import { checkLedgerSection, DEFAULT_POLICY, type LedgerPolicy, type SectionResult } from './policy.ts';
import { LEDGER_SPECS, type SpecTable } from './spec.ts';
import { STARTING_WORLD_TURN } from './starting-world.ts';
import { emptyWorld, type Stamp, type World } from './world.ts';

export interface ValidateOptions {
  readonly limits?: Partial<LedgerLimits>;
  /** A reduced vocabulary; the full table by default. */
  readonly specs?: SpecTable;
  /**
   * The turn (and clock) the batch would commit at. With it, engine-assigned fact ids are checked for
   * collisions exactly; without it the scratch uses a turn no log reaches.
   */
  readonly at?: Stamp;
  readonly source?: BatchSource;
}

export type ValidateResult =
  | { readonly ok: true; readonly events: LedgerEvent[] }
  | { readonly ok: false; readonly errors: LedgerError[] };

export type ProposeResult =
  | { readonly ok: true; readonly events: LedgerEvent[]; readonly world: World }
  | { readonly ok: false; readonly errors: LedgerError[] };

const SCRATCH_TURN = Number.MAX_SAFE_INTEGER;

/** Validates a batch from untrusted JSON; nothing is applied. */
export function validateBatch(
  world: World,
  rawEvents: unknown,
  policy: LedgerPolicy = DEFAULT_POLICY,
  options: ValidateOptions = {},
): ValidateResult {
  const result = proposeBatch(world, rawEvents, policy, options);
  return result.ok ? { ok: true, events: result.events } : result;
}

/**
 * Validates a batch and, when every event passes, returns the world with the batch applied at
 * `options.at` — the scratch copy validation built, so the turn layer can commit it without a second pass.
 */
export function proposeBatch(
  world: World,
  rawEvents: unknown,
  policy: LedgerPolicy = DEFAULT_POLICY,
  options: ValidateOptions = {},
): ProposeResult {
  const limits: LedgerLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const specs = options.specs ?? LEDGER_SPECS;
  const at: Stamp = options.at ?? { turn: SCRATCH_TURN };
  const source = options.source ?? 'narrator';

  const guard = guardJsonValue(rawEvents, limits);
  if (guard) return { ok: false, errors: [guard] };
  if (!Array.isArray(rawEvents)) {
    return {
      ok: false,
      errors: [ledgerError(-1, 'LEDGER_NOT_ARRAY', 'events must be a JSON array of events')],
    };
  }
  if (rawEvents.length > limits.maxBatchEvents) {
    const message = `a batch holds at most ${limits.maxBatchEvents} events; this one has ${rawEvents.length}`;
    return { ok: false, errors: [ledgerError(-1, 'LEDGER_BATCH_TOO_LARGE', message)] };
  }

  const errors: LedgerError[] = [];
  const events: LedgerEvent[] = [];
  const draft = new WorldDraft(world);
  const ctx: CheckContext = { draft, policy, before: world, at, source };
  rawEvents.forEach((raw, index) => {
    const parsed = parseEvent(raw, index, specs);
    if (!parsed.ok) {
      errors.push(...parsed.errors);
      return;
    }
    const problem = checkEvent(ctx, parsed.event, index);
    if (problem) {
      errors.push(problem);
      return;
    }
    applyEvent(draft, parsed.event, index, at);
    events.push(parsed.event);
  });
  if (errors.length > 0) return { ok: false, errors: capErrors(errors) };
  return { ok: true, events, world: draft.finish() };
}

function capErrors(errors: LedgerError[]): LedgerError[] {
  if (errors.length <= MAX_REPORTED_ERRORS) return errors;
  const kept = errors.slice(0, MAX_REPORTED_ERRORS - 1);
  kept.push(
    ledgerError(-1, 'LEDGER_TOO_MANY_ERRORS', `${errors.length - kept.length} more errors not listed`),
  );
  return kept;
}

/**
 * The optional `ledger:` section of yare.yaml: its policy, and its starting world validated from an empty
 * world (as the cartridge, with rules ownership still enforced). Issue paths start at the yare.yaml root.
 */
export function validateLedgerSection(
  raw: unknown,
  options: { readonly statePaths?: Iterable<readonly string[]> } = {},
): SectionResult {
  return checkLedgerSection(raw, options.statePaths ?? [], (events, policy) => {
    const result = validateBatch(emptyWorld(), events, policy, {
      source: 'cartridge',
      at: { turn: STARTING_WORLD_TURN },
      limits: {
        maxBatchEvents: MAX_WORLD_EVENTS,
        maxJsonNodes: MAX_WORLD_EVENTS * 64,
        maxJsonBytes: MAX_WORLD_EVENTS * 4096,
      },
    });
    return result;
  });
}
