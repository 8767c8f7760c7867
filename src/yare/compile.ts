// Compiles the parsed `yare.yaml` document into checked rules, in passes that each have a file of their
// own (compile/): every finding carries `file:line:col`, and the compiler keeps going after an error so
// an author sees all of them.
//
//   1. shape     (compile/shape.ts)       the top level; name → node tables of macros and events
//   2. resolve   (schema.ts, compile/events.ts `resolveInputs`, compile/macros.ts)
//                                          the state schema, every event's inputs, every macro parsed and
//                                          checked, macro cycles
//   3. check     (compile/events.ts `checkEvent`, compile/steps.ts, compile/expressions.ts)
//                                          each event's steps: shapes, expressions parsed and checked (paths,
//                                          inputs, macros, functions, arity), targets, calls
//   4. settings  (compile/settings.ts)    npc_templates, engine_settings, separate_npc, bot_name
//
// The result (program.ts) is lowered to closures when an event first runs (run/lower.ts).

import type { Diagnostic, SourcePlace } from '../diagnostics.ts';
import { CompileContext, type CompileRulesOptions, type RulesSource } from './compile/context.ts';
import { checkEvent, resolveInputs } from './compile/events.ts';
import { resolveMacros } from './compile/macros.ts';
import { checkEngineSettings, checkNpcTemplates, checkTopLevelSettings } from './compile/settings.ts';
import { shapeDocument, shapeEvents, shapeMacros } from './compile/shape.ts';
import { didYouMean } from './diagnostics-sink.ts';
import type { Expression } from './expr/ast.ts';
import type { CompiledRules, EventDef } from './program.ts';
import { buildInitialState, compileSchema } from './schema.ts';
import { getNode } from './yaml-nodes.ts';

export type { CompileRulesOptions, RulesSource } from './compile/context.ts';
export { KNOWN_TOP_LEVEL } from './compile/shape.ts';
export type { CompiledRules } from './program.ts';

export function compileRules(
  source: RulesSource,
  options: CompileRulesOptions = {},
): { rules?: CompiledRules; diagnostics: Diagnostic[] } {
  const ctx = new CompileContext(source, options);
  const rules = compilePasses(ctx);
  return ctx.sink.hasErrors ? { diagnostics: ctx.sink.items } : { rules, diagnostics: ctx.sink.items };
}

function compilePasses(ctx: CompileContext): CompiledRules {
  // 1. shape
  const top = shapeDocument(ctx);
  const section = (key: string): unknown => (top ? getNode(top, key) : undefined);
  ctx.schema = compileSchema(section('state_schema'), ctx.src, ctx.sink);
  shapeMacros(ctx, section('macros'));
  shapeEvents(ctx, section('events'));
  // 2. resolve: inputs of every event before any steps (a call may name an event declared later)
  for (const [name, { node }] of ctx.eventNodes)
    ctx.eventInputs.set(name, resolveInputs(ctx, name, getNode(node, 'inputs')));
  resolveMacros(ctx);
  // 3. check
  const events = new Map<string, EventDef>();
  for (const [name, { node, place }] of ctx.eventNodes) events.set(name, checkEvent(ctx, name, node, place));
  markResolvers(ctx, events);
  const macros = new Map<string, Expression & { place: SourcePlace }>();
  for (const [name, m] of ctx.macroNodes) if (m.expr) macros.set(name, m.expr);
  // 4. settings
  const botName = checkTopLevelSettings(ctx, top);
  return {
    file: ctx.src.file,
    botName,
    schema: ctx.schema,
    macros,
    events,
    eventNames: [...events.keys()],
    npcTemplates: checkNpcTemplates(ctx, section('npc_templates')),
    engineSettings: checkEngineSettings(ctx, section('engine_settings')),
    initialState: buildInitialState(ctx.schema),
  };
}

/** Events named as a `resolver_event` are resolvers (never offered to a model); the name must exist. */
function markResolvers(ctx: CompileContext, events: Map<string, EventDef>): void {
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
