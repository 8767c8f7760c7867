// Check pass, events: each raw event's steps checked in its scope (its declared inputs, no locals yet),
// with the problems the shape pass left on the event reported where the walk meets them — its keys
// before its steps, trigger_on, internal and intents after.

import type { EventDef } from '../program.ts';
import { type CheckContext, type EventScope, reportShapeProblems } from './context.ts';
import { checkSteps } from './check-steps.ts';
import type { RawEvent } from './raw-ast.ts';

export function checkEvent(ctx: CheckContext, raw: RawEvent): EventDef {
  reportShapeProblems(ctx, raw.keyProblems);
  const inputs = ctx.eventInputs.get(raw.name) ?? new Map();
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
