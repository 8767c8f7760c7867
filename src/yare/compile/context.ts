// The state the compiler's passes share: where findings go, the source for places, and what earlier
// passes found (the schema, the macros and events by name, each event's inputs, resolver events).

import type { Document, LineCounter } from 'yaml';
import type { SourcePlace } from '../../diagnostics.ts';
import { DiagnosticSink } from '../diagnostics-sink.ts';
import type { Expression } from '../expr/ast.ts';
import type { DomainSchema, InputSpec } from '../program.ts';
import { isAbsent, isMap, type NodeSource, placeOfNode, type YAMLMap } from '../yaml-nodes.ts';

export interface RulesSource {
  readonly file: string;
  readonly doc: Document.Parsed;
  readonly lineCounter: LineCounter;
}

export interface CompileRulesOptions {
  /** Checks a note template for prompt injection; returns a message when it should be refused. */
  readonly checkInjection?: (text: string) => string | undefined;
}

/** Names of macros, events, inputs and foreach locals. */
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The names an expression may read in the event being checked. */
export interface EventScope {
  readonly inputs: ReadonlySet<string>;
  readonly locals: ReadonlySet<string>;
}

export interface MacroEntry {
  readonly node: unknown;
  /** Set by `resolveMacros` when the macro parses. */
  expr?: Expression & { place: SourcePlace };
}

export class CompileContext {
  readonly sink = new DiagnosticSink();
  readonly src: NodeSource;
  readonly doc: Document.Parsed;
  /** Set by the schema pass; every later pass checks paths against it. */
  schema!: DomainSchema;
  /** Macros by name (shape pass), with their parsed expressions (resolve pass). */
  readonly macroNodes = new Map<string, MacroEntry>();
  /** The macros each macro uses (resolve pass), for cycles and the inputs a macro reads. */
  readonly macroRefs = new Map<string, Set<string>>();
  /** Events by name (shape pass). */
  readonly eventNodes = new Map<string, { node: YAMLMap; place: SourcePlace }>();
  /** Each event's declared inputs (resolve pass), so a `call` can be checked before its callee. */
  readonly eventInputs = new Map<string, ReadonlyMap<string, InputSpec>>();
  /** `resolver_event` names found in literal `_pending_interaction` values (step pass). */
  readonly resolverNames = new Map<string, SourcePlace>();

  constructor(
    source: RulesSource,
    readonly options: CompileRulesOptions,
  ) {
    this.src = { file: source.file, lineCounter: source.lineCounter };
    this.doc = source.doc;
  }
}

/** A mapping section, or undefined when it is absent (null) or not a mapping (reported). */
export function mapping(ctx: CompileContext, node: unknown, message: string): YAMLMap | undefined {
  if (isAbsent(node)) return undefined;
  if (isMap(node)) return node;
  ctx.sink.error('YARE_BAD_SCHEMA', message, placeOfNode(ctx.src, node));
  return undefined;
}
