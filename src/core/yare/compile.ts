// Compiles the parsed `yare.yaml` document into checked rules, in passes that each have files of their
// own (compile/), jlox-style: every finding carries `file:line:col`, and the compiler keeps going after an
// error so an author sees all of them.
//
//   1. shape    (compile/shape*.ts)   YAML → the raw tree (compile/raw-ast.ts): sections, names, fields,
//                                     scalars read, expressions parsed, inputs and settings read; every
//                                     node with its place. Reads only YAML; its problems ride on the nodes.
//   2. resolve  (schema.ts, compile/resolve-macros.ts)
//                                     the state schema, every event's inputs, every macro checked, cycles
//   3. check    (compile/check-*.ts)  each event's steps resolved: paths, inputs, macros, functions, arity,
//                                     targets, calls, notes — into the checked program (program.ts)
//   4. lower    (run/lower.ts)        the checked steps to closures, when an event first runs
//
// The invariants (compile/shape-invariants.ts, compile/check-invariants.ts) are shaped and checked like
// macros, after the events.
//
// Passes 2 and 3 walk the raw tree in file order and report each shape problem when they reach its node,
// so the findings come in the order one walk over the file meets them.

import type { Diagnostic } from '../diagnostics.ts';
import { checkEvent } from './compile/check-events.ts';
import { checkInvariants } from './compile/check-invariants.ts';
import {
  CheckContext,
  type CompileRulesOptions,
  reportShapeProblems,
  type RulesSource,
} from './compile/context.ts';
import type { RawDocument } from './compile/raw-ast.ts';
import { resolveMacros } from './compile/resolve-macros.ts';
import { shapeDocument } from './compile/shape.ts';
import { didYouMean } from './diagnostics-sink.ts';
import type { CompiledRules, EventDef } from './program.ts';
import { buildInitialState, compileSchema } from './schema.ts';

export type { CompileRulesOptions, RulesSource } from './compile/context.ts';
export { KNOWN_TOP_LEVEL } from './compile/shape.ts';
export type { CompiledRules } from './program.ts';

export function compileRules(
  source: RulesSource,
  options: CompileRulesOptions = {},
): { rules?: CompiledRules; diagnostics: Diagnostic[] } {
  const ctx = new CheckContext(source, options);
  // 1. shape
  const raw = shapeDocument({ src: ctx.src }, source.doc);
  // 2.–3. resolve and check
  const rules = checkDocument(ctx, raw);
  return ctx.sink.hasErrors ? { diagnostics: ctx.sink.items } : { rules, diagnostics: ctx.sink.items };
}

function checkDocument(ctx: CheckContext, raw: RawDocument): CompiledRules {
  reportShapeProblems(ctx, raw.problems);
  ctx.schema = compileSchema(raw.stateSchema, ctx.src, ctx.sink);
  reportShapeProblems(ctx, raw.macros.problems);
  for (const macro of raw.macros.items) ctx.macros.set(macro.name, macro);
  reportShapeProblems(ctx, raw.events.problems);
  for (const event of raw.events.items) ctx.events.set(event.name, event);
  // Inputs of every event before any steps: a call may name an event declared later.
  for (const [name, event] of ctx.events) {
    reportShapeProblems(ctx, event.inputs.problems);
    ctx.eventInputs.set(name, event.inputs.specs);
  }
  resolveMacros(ctx);
  const events = new Map<string, EventDef>();
  for (const [name, event] of ctx.events) events.set(name, checkEvent(ctx, event));
  markResolvers(ctx, events);
  const invariants = checkInvariants(ctx, raw.invariants);
  // The settings name nothing: the shape pass read them whole, and the walk meets them last.
  reportShapeProblems(ctx, raw.settings.problems);
  return {
    file: ctx.src.file,
    botName: raw.settings.botName,
    schema: ctx.schema,
    macros: ctx.macroExprs,
    macroFunctions: ctx.macroFunctions,
    events,
    eventNames: [...events.keys()],
    npcTemplates: raw.settings.npcTemplates,
    engineSettings: raw.settings.engineSettings,
    initialState: buildInitialState(ctx.schema),
    invariants,
  };
}

/** Events named as a `resolver_event` are resolvers (never offered to a model); the name must exist. */
function markResolvers(ctx: CheckContext, events: Map<string, EventDef>): void {
  for (const [name, place] of ctx.resolverNames) {
    const ev = events.get(name);
    if (ev) events.set(name, { ...ev, resolver: true });
    else
      ctx.sink.error(
        'YARE_UNKNOWN_EVENT',
        `resolver_event '${name}' is not a declared event.${didYouMean(name, events.keys())}`,
        place,
      );
  }
}
