// The state the check pass shares: where findings go, the source for places, and what it has resolved so
// far (the schema, the macros and events by name, each event's inputs, the macros each macro uses,
// resolver events).

import type { Document, LineCounter } from 'yaml';
import type { Diagnostic, SourcePlace } from '../../diagnostics.ts';
import { DiagnosticSink } from '../diagnostics-sink.ts';
import type { Expression } from '../expr/ast.ts';
import { IDENTIFIER } from '../grammar.ts';
import type { DomainSchema, InputSpec, MacroFunction, RecordSchema } from '../program.ts';
import type { StateValue } from '../values.ts';
import type { NodeSource } from '../yaml-nodes.ts';
import type { Problems, RawEvent, RawMacro } from './raw-ast.ts';

export interface RulesSource {
  readonly file: string;
  readonly doc: Document.Parsed;
  readonly lineCounter: LineCounter;
}

export interface CompileRulesOptions {
  /** Checks a note template for prompt injection; returns a message when it should be refused. */
  readonly checkInjection?: (text: string) => string | undefined;
  /**
   * Checks a literal mapping a step writes to `state._pending_interaction` (a mini-game it starts, as
   * JSON), given the place of any path inside it; its findings are reported where the walk meets the step.
   */
  readonly checkPendingInteraction?: (
    value: StateValue,
    placeAt: (path: readonly (string | number)[]) => SourcePlace,
  ) => readonly Diagnostic[];
}

/** Names of macros, events, inputs and foreach locals (the grammar's pattern). */
export { IDENTIFIER };

/** The names an expression may read in the event being checked. */
export interface EventScope {
  readonly inputs: ReadonlySet<string>;
  readonly locals: ReadonlySet<string>;
  /** The foreach locals known to hold a record of a collection (`array: "@ values(state.objs)"`). */
  readonly recordLocals?: ReadonlyMap<string, RecordSchema>;
}

export class CheckContext {
  readonly sink = new DiagnosticSink();
  readonly src: NodeSource;
  /** Set by the schema pass; every later check reads paths against it. */
  schema!: DomainSchema;
  /** Macros by name (a later one of the same name replaces an earlier one, as YAML reads them). */
  readonly macros = new Map<string, RawMacro>();
  /** Each macro that parsed, by name (resolve). */
  readonly macroExprs = new Map<string, Expression & { place: SourcePlace }>();
  /** Each macro with parameters, by name (resolve). */
  readonly macroFunctions = new Map<string, MacroFunction>();
  /** The macros each macro uses (resolve), for cycles and the inputs a macro reads. */
  readonly macroRefs = new Map<string, Set<string>>();
  /** Events by name. */
  readonly events = new Map<string, RawEvent>();
  /** Each event's declared inputs, so a `call` can be checked before its callee. */
  readonly eventInputs = new Map<string, ReadonlyMap<string, InputSpec>>();
  /** `resolver_event` names found in literal `_pending_interaction` values (step checks). */
  readonly resolverNames = new Map<string, SourcePlace>();

  constructor(
    source: RulesSource,
    readonly options: CompileRulesOptions,
  ) {
    this.src = { file: source.file, lineCounter: source.lineCounter };
  }
}

/** The macros an expression may use: plain ones by name, and those with parameters with their parameters. */
export function macroScope(ctx: CheckContext): {
  macros: ReadonlySet<string>;
  macroParams: ReadonlyMap<string, readonly string[]>;
} {
  const macros = new Set<string>();
  const macroParams = new Map<string, readonly string[]>();
  for (const [name, macro] of ctx.macros) {
    if (macro.kind === 'plain') macros.add(name);
    else macroParams.set(name, macro.params);
  }
  return { macros, macroParams };
}

/** Reports the problems the shape pass left on a node, now that the walk has reached it. */
export function reportShapeProblems(ctx: CheckContext, problems: Problems | undefined): void {
  if (problems) for (const problem of problems) ctx.sink.items.push(problem);
}

/** One problem the shape pass left on a node, if there is one. */
export function reportShapeProblem(ctx: CheckContext, problem: Diagnostic | undefined): void {
  if (problem) ctx.sink.items.push(problem);
}
