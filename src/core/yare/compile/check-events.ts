// Check pass, events: each raw event's steps checked in its scope (its declared inputs, no locals yet),
// with the problems the shape pass left on the event reported where the walk meets them — its keys
// before its steps, trigger_on, internal and intents after.

import type { SourcePlace } from '../../diagnostics.ts';
import { didYouMean } from '../diagnostics-sink.ts';
import { HOOK_EVENT_INPUT } from '../player-event.ts';
import type { EventDef, InputSpec } from '../program.ts';
import { allPaths, schemaAt } from '../schema.ts';
import { type CheckContext, type EventScope, reportShapeProblems } from './context.ts';
import { checkSteps } from './check-steps.ts';
import type { RawEvent } from './raw-ast.ts';

export function checkEvent(ctx: CheckContext, raw: RawEvent): EventDef {
  reportShapeProblems(ctx, raw.keyProblems);
  const inputs = ctx.eventInputs.get(raw.name) ?? new Map();
  for (const spec of inputs.values()) checkValuesFrom(ctx, raw.name, spec);
  if (raw.triggerOn === 'after_event') checkHookInputs(ctx, raw.name, inputs, raw.place);
  const scope: EventScope = { inputs: new Set(inputs.keys()), locals: new Set() };
  const steps = raw.steps === undefined ? [] : checkSteps(ctx, raw.steps, scope);
  reportShapeProblems(ctx, raw.trailingProblems);
  return {
    name: raw.name,
    description: raw.description,
    inputs,
    inputList: [...inputs.values()],
    inputsListForm: raw.inputs.listForm,
    steps,
    triggerOn: raw.triggerOn,
    internal: raw.internal,
    resolver: false,
    intents: raw.intents,
    place: raw.place,
  };
}

/**
 * An `after_event` hook runs with no inputs but one it may declare: `event`, the name of the player's event
 * it follows (a string). Anything else could never be given.
 */
function checkHookInputs(
  ctx: CheckContext,
  event: string,
  inputs: ReadonlyMap<string, InputSpec>,
  place: SourcePlace,
): void {
  for (const spec of inputs.values()) {
    if (spec.name === HOOK_EVENT_INPUT && (spec.type === undefined || spec.type === 'string')) continue;
    ctx.sink.error(
      'YARE_BAD_SCHEMA',
      `'${event}' runs after_event, which gives it one input at most: ${HOOK_EVENT_INPUT} (a string, the name of the event it follows); '${spec.name}'${spec.name === HOOK_EVENT_INPUT ? ` must be a string` : ' can never be given'}.`,
      place,
    );
  }
}

/** A `values_from: state.…` path must name a list or dict field of state_schema (its items or keys are the values). */
function checkValuesFrom(ctx: CheckContext, event: string, spec: InputSpec): void {
  const from = spec.valuesFrom;
  if (from?.kind !== 'state') return;
  const path = from.path.split('.').slice(1);
  const node = schemaAt(ctx.schema, path);
  const where = `values_from of input '${spec.name}' of event '${event}'`;
  if (node === undefined) {
    ctx.sink.error(
      'YARE_UNKNOWN_PATH',
      `${where}: ${from.path} is not declared in state_schema.${didYouMean(path.join('.'), allPaths(ctx.schema), (c) => `state.${c}`)}`,
      from.place,
    );
  } else if (node.kind !== 'field' || (node.type !== 'list' && node.type !== 'dict')) {
    const type = node.kind === 'field' ? (node.type ?? 'untyped') : undefined;
    const what = type === undefined ? 'a domain' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type} field`;
    ctx.sink.error(
      'YARE_BAD_SCHEMA',
      `${where}: ${from.path} is ${what}; known values come from a list field (its items) or a dict field (its keys).`,
      from.place,
    );
  }
}
