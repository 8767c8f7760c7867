// The builder's "try it" pane: one event run on a chosen state with a seed, as `mnesos run-event` does
// (the same runEvent, the same starting state as its --state file, the same diff), answered as data.

import { formatPlace } from '../../../core/diagnostics.ts';
import {
  type CompiledRules,
  type Dict,
  diffStates,
  runEvent,
  startingState,
  toStateValue,
} from '../../../core/yare/index.ts';

export interface TryChange {
  readonly path: string;
  readonly before: unknown;
  readonly after: unknown;
  readonly op: 'set' | 'delete';
}

export interface TryRoll {
  readonly expr: string;
  readonly dice: string;
  readonly faces: readonly number[];
  readonly total: number;
}

export type TryResult =
  | {
      readonly ok: true;
      readonly notes: readonly string[];
      readonly rolls: readonly TryRoll[];
      readonly changes: readonly TryChange[];
      readonly state: unknown;
    }
  | {
      readonly ok: false;
      readonly notes: readonly string[];
      readonly rolls: readonly TryRoll[];
      readonly error: { readonly code: string; readonly message: string; readonly where: string | null };
    };

export class TryInputError extends Error {
  override readonly name = 'TryInputError';
}

/** The state to run on: `state` (the fields that matter, or a whole state) laid over the rules' initial state. */
export function tryState(rules: CompiledRules, state: unknown): Dict {
  if (state !== undefined && (typeof state !== 'object' || state === null || Array.isArray(state)))
    throw new TryInputError('state: must be an object');
  try {
    return startingState(rules, state);
  } catch (error) {
    throw new TryInputError(`state: ${(error as Error).message}`);
  }
}

export function tryEvent(
  rules: CompiledRules,
  input: { event: string; inputs?: unknown; state?: unknown; seed?: number },
): TryResult {
  if (!rules.events.has(input.event))
    throw new TryInputError(
      `event: there is no event '${input.event.slice(0, 80)}' (events: ${[...rules.events.keys()].slice(0, 20).join(', ') || 'none'})`,
    );
  const before = tryState(rules, input.state);
  const result = runEvent(rules, before, input.event, input.inputs ?? {}, { seed: input.seed ?? 0 });
  const rolls = result.rolls.map((r) => ({
    expr: r.expr,
    dice: r.dice,
    faces: [...r.faces],
    total: r.total,
  }));
  if (!result.ok)
    return {
      ok: false,
      notes: result.notes,
      rolls,
      error: {
        code: result.error.code,
        message: result.error.message,
        where: result.error.place ? formatPlace(result.error.place) : null,
      },
    };
  const after = toStateValue(result.state);
  const changes = diffStates(toStateValue(before), after).map((c) => ({
    path: `state.${c.path.join('.')}`,
    op: c.op,
    before: c.before ?? null,
    after: c.op === 'set' ? c.after : null,
  }));
  return { ok: true, notes: result.notes, rolls, changes, state: after };
}
