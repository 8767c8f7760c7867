// The seed's Narrator tool, `end_of_narration(actions=[...])`, read as the `record_world_changes` call it
// amounts to. Prompts written for the original (cartridge directives, a model tuned on them) still name
// it; it only ever moved the clock, so `{"type": "advance_time", "duration": "PT15M"}` becomes
// `time: {advance: "PT15M"}`, `{"type": "set_game_time", "value": "…"}` becomes `time: {set: "…"}`, and
// the call records no world events. It is accepted, never offered (docs/turn.md, "Tools of the original").

import { type LedgerError, ledgerError } from './errors.ts';
import { parseToolArguments } from './json.ts';
import { DEFAULT_LIMITS } from './limits.ts';
import type { LedgerPolicy } from './policy.ts';
import { checkRecordWorldChanges, type ToolInputResult } from './tool.ts';
import type { ValidateOptions } from './validate.ts';
import type { World } from './world.ts';

export const END_OF_NARRATION_TOOL = 'end_of_narration';

/** The action types of the seed's tool, and the `time` field of record_world_changes each one fills. */
const TIME_ACTIONS: ReadonlyMap<string, { readonly field: 'advance' | 'set'; readonly key: string }> =
  new Map([
    ['advance_time', { field: 'advance', key: 'duration' }],
    ['set_game_time', { field: 'set', key: 'value' }],
  ]);

function refused(message: string): ToolInputResult {
  const error: LedgerError = ledgerError(
    -1,
    'LEDGER_BAD_TIME',
    `${END_OF_NARRATION_TOOL}: ${message}`,
    'actions',
  );
  return { ok: false, errors: [error] };
}

/** Checks an `end_of_narration` call (raw argument text) as the record_world_changes call it amounts to. */
export function checkEndOfNarration(
  world: World,
  rawArgs: string,
  policy: LedgerPolicy,
  options: ValidateOptions = {},
): ToolInputResult {
  const parsed = parseToolArguments(rawArgs, { ...DEFAULT_LIMITS, ...options.limits });
  if (!parsed.ok) return { ok: false, errors: [parsed.error] };
  const args = parsed.value;
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    return refused('arguments must be an object {actions: [...]}');
  const keys = Object.keys(args);
  if (keys.some((key) => key !== 'actions')) return refused('the only argument is actions');
  const actions = (args as { actions?: unknown }).actions ?? [];
  if (!Array.isArray(actions)) return refused('actions must be a list');
  // record_world_changes moves the clock once a turn: one action at most.
  if (actions.length > 1) return refused(`takes at most one action, got ${actions.length}`);
  const time: Record<string, unknown> = {};
  for (const action of actions) {
    const type =
      typeof action === 'object' && action !== null ? (action as { type?: unknown }).type : undefined;
    const kind = typeof type === 'string' ? TIME_ACTIONS.get(type.toLowerCase()) : undefined;
    if (kind === undefined)
      return refused('an action is {type: advance_time, duration} or {type: set_game_time, value}');
    time[kind.field] = (action as Record<string, unknown>)[kind.key];
  }
  const record = actions.length === 0 ? { events: [] } : { events: [], time };
  return checkRecordWorldChanges(world, record, policy, options);
}
