// Mini-games. An event starts one by setting `state._pending_interaction` to
// `{interaction_type, minigame_id, resolver_event, config}`; the client plays it and sends back
// `{minigame_id, status, metrics, data}`. That turn runs the stored resolver event deterministically (no
// model decides anything), clears the pending interaction, and the Narrator tells the outcome. While one is
// pending, free text is refused. The checks and messages follow the original's input router.

import {
  type CompiledRules,
  type Dict,
  newDict,
  PENDING_KEY,
  type StateValue,
} from '../../core/yare/index.ts';
import { checkArgs } from './args.ts';
import { MAX_METRIC_LIST_ITEMS } from '../../core/minigames/index.ts';
import { MAX_INTERACTION_STRING_CHARS } from './limits.ts';
import type { InteractionInput } from './types.ts';
import type { Checked } from '../../core/result.ts';

type StateLike = { readonly [key: string]: unknown };

export { PENDING_KEY };
export const MINIGAME_STATUSES = ['completed', 'failed', 'aborted'] as const;

export interface PendingInteraction {
  readonly interactionType: string;
  readonly minigameId: string;
  readonly resolverEvent: string;
}

/** Whether the state holds a pending interaction: `_pending_interaction` is a non-empty mapping. */
export function hasPendingInteraction(state: StateLike): boolean {
  const pending = state[PENDING_KEY];
  return (
    typeof pending === 'object' &&
    pending !== null &&
    !Array.isArray(pending) &&
    Object.keys(pending).length > 0
  );
}

const interactionSchema = {
  type: 'object',
  properties: {
    interaction_type: { type: 'string', enum: ['minigame'] },
    minigame_id: { type: 'string', minLength: 1, maxLength: MAX_INTERACTION_STRING_CHARS },
    status: { type: 'string', enum: [...MINIGAME_STATUSES] },
    metrics: { type: 'object' },
    data: { type: 'object' },
  },
  required: ['minigame_id', 'status'],
  additionalProperties: false,
} as const;

/** Checks the client's payload (untrusted) and returns a null-prototype copy. */
export function checkInteractionInput(input: unknown): Checked<InteractionInput> {
  const checked = checkArgs(interactionSchema, input);
  if (!checked.ok)
    return { ok: false, message: `interaction: ${checked.message.replace(/^arguments/, 'payload')}` };
  const value = checked.value as InteractionInput;
  const scalar = (metric: unknown) =>
    typeof metric === 'boolean' ||
    (typeof metric === 'number' && Number.isFinite(metric)) ||
    (typeof metric === 'string' && metric.length <= MAX_INTERACTION_STRING_CHARS);
  for (const [key, metric] of Object.entries(value.metrics ?? {})) {
    // A list of scalars is a metric too (articulation_scramble's selected_sequence; the original refused it).
    const fine = Array.isArray(metric)
      ? metric.length <= MAX_METRIC_LIST_ITEMS && metric.every(scalar)
      : scalar(metric);
    if (!fine || key.length > MAX_INTERACTION_STRING_CHARS) {
      return {
        ok: false,
        message: `interaction: metric '${key.slice(0, 60)}' must be a string (at most ${MAX_INTERACTION_STRING_CHARS} characters, MAX_INTERACTION_STRING_CHARS), a number, a boolean, or a list of at most ${MAX_METRIC_LIST_ITEMS} of them (MAX_METRIC_LIST_ITEMS)`,
      };
    }
  }
  return { ok: true, value };
}

/** The pending interaction matching the payload, or the reason it cannot be resolved. */
export function matchPending(
  rules: CompiledRules,
  state: StateLike,
  input: InteractionInput,
): Checked<PendingInteraction> {
  const pending = state[PENDING_KEY] as Record<string, unknown> | null | undefined;
  if (
    typeof pending !== 'object' ||
    pending === null ||
    Array.isArray(pending) ||
    Object.keys(pending).length === 0
  ) {
    return { ok: false, message: 'There is no pending mini-game to resolve.' };
  }
  const type = pending.interaction_type ?? 'minigame';
  if (type !== 'minigame')
    return {
      ok: false,
      message: `The pending interaction is not a minigame (it is ${JSON.stringify(type)}).`,
    };
  if (pending.minigame_id !== input.minigame_id) {
    return {
      ok: false,
      message: `minigame_id mismatch: the pending mini-game is ${JSON.stringify(pending.minigame_id)}, the result is for ${JSON.stringify(input.minigame_id)}.`,
    };
  }
  const resolver = pending.resolver_event;
  if (typeof resolver !== 'string' || resolver === '') {
    return { ok: false, message: 'The pending mini-game has no resolver_event.' };
  }
  if (!rules.events.has(resolver))
    return { ok: false, message: `Unknown resolver_event: ${JSON.stringify(resolver)}.` };
  return {
    ok: true,
    value: { interactionType: 'minigame', minigameId: input.minigame_id, resolverEvent: resolver },
  };
}

/**
 * The resolver's inputs: `status`, `metrics`, and the mini-game's data under whichever of `data` and
 * `minigame_specific_data` the resolver declares (MnesOS cartridges use the latter); inputs it does not
 * declare are left out, so any resolver signature works.
 */
export function resolverInputs(rules: CompiledRules, resolver: string, input: InteractionInput): Dict {
  const declared = rules.events.get(resolver)?.inputs ?? new Map();
  const out = newDict();
  const offer: [string, StateValue][] = [
    ['status', input.status],
    ['metrics', (input.metrics ?? newDict()) as StateValue],
    ['minigame_id', input.minigame_id],
  ];
  if (declared.has('data')) offer.push(['data', (input.data ?? newDict()) as StateValue]);
  else if (declared.has('minigame_specific_data'))
    offer.push(['minigame_specific_data', (input.data ?? newDict()) as StateValue]);
  for (const [name, value] of offer) if (declared.has(name)) out[name] = value as Dict[string];
  return out;
}

/** The state with the pending interaction cleared: reset to `{}` when the schema declares it, else removed. */
export function clearPending(rules: CompiledRules, state: Dict): Dict {
  const out = newDict();
  for (const key of Object.keys(state)) if (key !== PENDING_KEY) out[key] = state[key] as Dict[string];
  if (rules.schema.children.has(PENDING_KEY)) out[PENDING_KEY] = newDict();
  return out;
}

/** The player-side line for the story (the original route's synthesised user text). */
export function interactionText(input: InteractionInput): string {
  const metrics = Object.entries(input.metrics ?? {})
    .map(([k, v]) => ` ${k}=${String(v)}`)
    .join('');
  return `[minigame:${input.minigame_id} status=${input.status}${metrics}]`;
}

/** The engine's scene directives for a mini-game turn (there is no Director call). */
export function interactionDirectives(input: InteractionInput): string {
  return [
    '### 1. Outcomes',
    `The player finished the mini-game ${input.minigame_id} with status "${input.status}". The engine notes say what it caused.`,
    '### 4. Guardrails',
    'The mini-game is over: do not restart it or describe playing it again. Do not print scores or metrics.',
  ].join('\n');
}
