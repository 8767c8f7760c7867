// The raw tree: what the shape pass (shape.ts, shape-steps.ts) makes of yare.yaml, and all the check pass
// (check-*.ts) reads: no YAML node goes past the shape pass but `state_schema`, which schema.ts compiles.
// Every node carries its place, scalars are read, expressions are parsed, and names are not resolved
// yet: paths, inputs, macros, callees and types are the check pass's job.
//
// The shape pass finds problems too (a missing field, a bad op, an expression that does not parse). It
// keeps each on the node it is about rather than reporting it, and the check pass reports it when its walk
// reaches that node. So an author sees the findings in source-walk order, as one pass over the file
// would give them, and a problem inside a subtree the check pass skips (the arguments of a call to an
// unknown event, the steps of an arm whose test does not parse) is not reported, as before.

import type { Diagnostic, SourcePlace } from '../../diagnostics.ts';
import type { Expression } from '../expr/ast.ts';
import type { EngineSettings, InputSpec, MutateOp, NpcTemplate, TableKey, Trigger } from '../program.ts';
import type { Value } from '../values.ts';

/** Problems the shape pass found on a node, in the order one walk over the file meets them. */
export type Problems = readonly Diagnostic[];

// ---- expressions and values ------------------------------------------------------------------------

/** An expression read from a YAML scalar: parsed, with the place and offset of its first character. */
export type RawExpression =
  | {
      readonly ok: true;
      /** `base`: offset of the expression's first character in the file, when the scalar has a range. */
      readonly expr: Expression & { readonly place: SourcePlace; readonly base: number | undefined };
    }
  | { readonly ok: false; readonly problem: Diagnostic };

/** Expression text parsed as it stands (inside a note's braces), or the parse error. */
export type RawParse =
  | { readonly ok: true; readonly expr: Expression }
  | { readonly ok: false; readonly problem: Diagnostic };

/** A value field: an `@` expression, a constant, or a value the shape pass refused (a plain-text test). */
export type RawOperand =
  | { readonly kind: 'expr'; readonly expr: RawExpression }
  | { readonly kind: 'const'; readonly value: Value }
  | { readonly kind: 'refused'; readonly problem: Diagnostic };

/** A `var:` field: a `state.`/`temp.` path, an `@` expression yielding one, or something refused. */
export type RawTarget =
  | {
      readonly kind: 'static';
      readonly root: 'state' | 'temp';
      readonly path: readonly string[];
      readonly text: string;
      readonly place: SourcePlace;
    }
  | { readonly kind: 'dynamic'; readonly operand: RawOperand }
  /** A path with computed keys (`state.objs[inputs.obj].loc`), parsed as an expression. */
  | { readonly kind: 'computed'; readonly expr: RawExpression; readonly text: string }
  | { readonly kind: 'refused'; readonly problem: Diagnostic };

/** One property a create step gives: its name, where it is written, and its value. */
export interface RawRecordValue {
  readonly name: string;
  readonly place: SourcePlace;
  readonly value: RawOperand;
}

/** A step field: its raw content (absent when the field is), and the problem of a missing required one. */
export interface RawField<T> {
  readonly missing: Diagnostic | undefined;
  readonly raw: T | undefined;
}

// ---- steps -------------------------------------------------------------------------------------------

/** A list of steps; `problems` holds the refusal of a `steps:` that is not a list. */
export interface RawStepList {
  readonly problems: Problems;
  readonly items: readonly RawStep[];
}

interface RawStepBase {
  readonly place: SourcePlace;
  /** The step's path in the file, for messages: `events.attack.steps[2]`. */
  readonly where: string;
  /** Fields the action does not have. */
  readonly problems: Problems;
}

export type RawBranchArm =
  | {
      readonly kind: 'arm';
      /** Problems of the arm itself (unknown keys, an arm after an else). */
      readonly problems: Problems;
      /** `undefined` marks the else arm. */
      readonly test: RawOperand | undefined;
      readonly steps: RawStepList;
    }
  | { readonly kind: 'refused'; readonly problems: Problems };

export type RawTableRow =
  | { readonly kind: 'row'; readonly key: TableKey; readonly value: RawOperand }
  | { readonly kind: 'refused'; readonly problem: Diagnostic };

export type RawNotePart =
  | string
  | {
      readonly kind: 'expr';
      readonly expr: RawParse;
      readonly place: SourcePlace;
      /** Offset of the expression text in the file, when the scalar has a range. */
      readonly base: number | undefined;
    };

export type RawNote =
  | {
      readonly kind: 'template';
      readonly template: string;
      readonly parts: readonly RawNotePart[];
      /** The place of the message scalar. */
      readonly place: SourcePlace;
    }
  | { readonly kind: 'refused'; readonly problem: Diagnostic };

/** A foreach local name (`item:`, `index:`), with the default it fell back to when refused. */
export interface RawLocalName {
  readonly name: string;
  readonly problem: Diagnostic | undefined;
}

/** A literal value and the place of each node in it, by its path from the value (`JSON.stringify(path)`). */
export interface RawLiteral {
  readonly value: Value;
  readonly places: ReadonlyMap<string, SourcePlace>;
}

export type RawStep =
  | { readonly kind: 'invalid'; readonly problem: Diagnostic }
  | (RawStepBase & {
      readonly kind: 'set';
      readonly target: RawField<RawTarget>;
      readonly value: RawField<RawOperand>;
      /** `resolver_event` of a literal mapping value, for a write to `state._pending_interaction`. */
      readonly resolver: { readonly name: string; readonly place: SourcePlace } | undefined;
      /** A literal mapping value, for a write to `state._pending_interaction`. */
      readonly literal: RawLiteral | undefined;
    })
  | (RawStepBase & {
      readonly kind: 'mutate';
      readonly target: RawField<RawTarget>;
      readonly op: RawField<MutateOp> & { readonly problem: Diagnostic | undefined };
      /** Not read when the op is refused. */
      readonly value: RawField<RawOperand>;
    })
  | (RawStepBase &
      (
        | { readonly kind: 'branch'; readonly arms: readonly RawBranchArm[] }
        | { readonly kind: 'branch-refused'; readonly problem: Diagnostic }
        | {
            readonly kind: 'branch-if';
            readonly test: RawOperand | undefined;
            readonly steps: RawStepList;
            readonly orElse: RawStepList | undefined;
          }
      ))
  | (RawStepBase & {
      readonly kind: 'table_roll';
      readonly roll: RawField<RawOperand>;
      readonly target: RawField<RawTarget>;
      readonly table: RawField<readonly RawTableRow[]> & { readonly problem: Diagnostic | undefined };
    })
  | (RawStepBase & {
      readonly kind: 'call';
      /** The callee as written (any scalar), with the place of its node; resolved by the check pass. */
      readonly event: RawField<{ readonly name: unknown; readonly place: SourcePlace }>;
      readonly args:
        | {
            readonly kind: 'args';
            readonly items: readonly {
              readonly name: string;
              readonly place: SourcePlace;
              readonly value: RawOperand | undefined;
            }[];
          }
        | { readonly kind: 'refused'; readonly problem: Diagnostic };
    })
  | (RawStepBase & { readonly kind: 'note'; readonly message: RawField<RawNote> })
  | (RawStepBase & {
      readonly kind: 'list_push';
      readonly target: RawField<RawTarget>;
      /** `item:` (or `value:`); refused when neither is there. */
      readonly item: RawOperand | undefined;
    })
  | (RawStepBase & {
      readonly kind: 'list_remove';
      readonly target: RawField<RawTarget>;
      /** Exactly one of `index:` and `value:`; the problem otherwise. */
      readonly which:
        | { readonly kind: 'index' | 'value'; readonly operand: RawOperand | undefined }
        | { readonly kind: 'refused'; readonly problem: Diagnostic };
    })
  | (RawStepBase & {
      readonly kind: 'dict_set';
      readonly target: RawField<RawTarget>;
      readonly key: RawField<RawOperand>;
      readonly value: RawField<RawOperand>;
    })
  | (RawStepBase & {
      readonly kind: 'dict_delete';
      readonly target: RawField<RawTarget>;
      readonly key: RawField<RawOperand>;
    })
  | (RawStepBase & {
      readonly kind: 'create';
      /** `in:`: the collection's path, as written. */
      readonly collection: RawField<{ readonly text: string; readonly place: SourcePlace }>;
      /** `record:`: each property given and its value. */
      readonly values: RawField<readonly RawRecordValue[]>;
      /** `var:`, optional: where the new id goes. */
      readonly target: RawTarget | undefined;
    })
  | (RawStepBase & {
      readonly kind: 'foreach';
      /** `array:` — a bare `state.`/`temp.` path read directly, or a value. */
      readonly array: RawField<
        | { readonly kind: 'path'; readonly target: RawTarget }
        | { readonly kind: 'operand'; readonly operand: RawOperand }
      >;
      readonly itemName: RawLocalName;
      readonly indexName: RawLocalName;
      readonly steps: RawField<RawStepList>;
    });

// ---- events, macros, settings ------------------------------------------------------------------------

export interface RawInputs {
  readonly problems: Problems;
  readonly specs: ReadonlyMap<string, InputSpec>;
  /** Written as a list of names: undeclared types, values pass through. */
  readonly listForm: boolean;
}

export interface RawEvent {
  readonly name: string;
  readonly place: SourcePlace;
  /** Keys an event does not have. */
  readonly keyProblems: Problems;
  readonly inputs: RawInputs;
  readonly steps: RawStepList | undefined;
  readonly description: string;
  readonly triggerOn: Trigger | undefined;
  readonly internal: boolean;
  readonly intents: readonly string[];
  /** Problems of trigger_on, internal and intents, which one walk meets after the steps. */
  readonly trailingProblems: Problems;
}

/** A macro: an expression (`macros.NAME`), or a macro with parameters (`macros.NAME(args)`). */
export type RawMacro =
  | {
      readonly kind: 'plain';
      readonly name: string;
      readonly place: SourcePlace;
      /** A macro is always an expression; the leading `@` is optional. */
      readonly expr: RawExpression;
    }
  | {
      readonly kind: 'function';
      readonly name: string;
      readonly place: SourcePlace;
      readonly params: readonly string[];
      /** Parameters declared as records of a collection (`params: [o: state.objs]`): the path, where written. */
      readonly paramRecords: ReadonlyMap<string, { readonly path: string; readonly place: SourcePlace }>;
      /** `value:`: the macro's value, or with `by:` its value for a kind no case names. */
      readonly value: RawExpression | undefined;
      /** `by:`: the kind the macro dispatches on. */
      readonly by: RawExpression | undefined;
      readonly cases: readonly RawMacroCase[];
      /** Unknown keys, bad parameter names, a missing value or a case without `by:`, in file order. */
      readonly problems: Problems;
    };

/** One entry of a macro's `cases:`: the kinds its key names (`"cup, plate"`) and their value. */
export interface RawMacroCase {
  readonly kinds: readonly string[];
  readonly place: SourcePlace;
  readonly expr: RawExpression;
}

/** One `invariants:` entry: a name and its condition, read like a macro but always with its `@`. */
export interface RawInvariant {
  readonly name: string;
  readonly place: SourcePlace;
  readonly expr: RawExpression;
}

export interface RawSettings {
  readonly problems: Problems;
  readonly botName: string | undefined;
  readonly npcTemplates: ReadonlyMap<string, NpcTemplate>;
  readonly engineSettings: EngineSettings;
}

/** A named table (macros, events): its entries, and the problems of the section and its names. */
export interface RawTable<T> {
  readonly problems: Problems;
  readonly items: readonly T[];
}

export interface RawDocument {
  /** The top level: not a mapping, unknown keys, prompt directives. */
  readonly problems: Problems;
  /** The `state_schema` node, compiled by schema.ts in the check pass. */
  readonly stateSchema: unknown;
  readonly macros: RawTable<RawMacro>;
  readonly events: RawTable<RawEvent>;
  /** The optional `invariants:` map (compile/shape-invariants.ts). */
  readonly invariants: RawTable<RawInvariant>;
  readonly settings: RawSettings;
}
