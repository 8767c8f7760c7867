// The compiled form of a cartridge's rules: what `compileRules` produces and `runEvent` executes.
// Everything an author wrote is parsed and checked once; nothing here is re-parsed at turn time.

import type { SourcePlace } from '../diagnostics.ts';
import type { Expression } from './expr/ast.ts';
import type { EVENT_SHAPE, FIELD_SHAPE, STEP_SHAPES } from './grammar.ts';
import type { Value } from './values.ts';

/** A field's type and a field's visibility: the values the grammar allows (grammar.ts). */
export type FieldType = (typeof FIELD_SHAPE.props.type.enum)[number];
/** The type of an input or a record property: a field's types but `collection`. */
export type ValueType = Exclude<FieldType, 'collection'>;
export type Visibility = (typeof FIELD_SHAPE.props.visibility.enum)[number];

export interface FieldSchema {
  readonly kind: 'field';
  readonly name: string;
  readonly path: readonly string[];
  readonly type: FieldType | undefined;
  readonly default: Value;
  readonly min: number | undefined;
  readonly max: number | undefined;
  readonly visibility: Visibility;
  readonly npcVisible: boolean;
  readonly description: string | undefined;
  readonly place: SourcePlace;
  /** A `collection` field: the shape of its records. */
  readonly record?: RecordSchema;
  /** A record's `id`, which the engine keeps equal to its key: never written by a step. */
  readonly readOnly?: boolean;
}

/**
 * The records of a `collection` field (state.objs): each is a dict of these properties, the engine's `id`
 * (its key) among them, every one present with its type (docs/yare.md, "Collections of records").
 */
export interface RecordSchema {
  /** The collection's dotted path (`objs`, `world.things`), for messages. */
  readonly collection: string;
  /** Every property, `id` first, in declaration order. */
  readonly properties: ReadonlyMap<string, FieldSchema>;
  /** The property holding the id of the record containing this one (`parent:`), for containment queries. */
  readonly parent: string | undefined;
  /** What every id a create step makes starts with (`id_prefix:`, default ''). */
  readonly idPrefix: string;
}

export interface DomainSchema {
  readonly kind: 'domain';
  readonly name: string;
  readonly path: readonly string[];
  readonly children: ReadonlyMap<string, SchemaNode>;
  readonly visibility: Visibility;
  readonly npcVisible: boolean;
  readonly place: SourcePlace;
  /**
   * `per_character: true`: at a shared table each character has its own copy of this domain (kept in
   * `state.players.<character>`); the rules see the acting character's as the domain itself.
   */
  readonly perCharacter?: true;
}

export type SchemaNode = FieldSchema | DomainSchema;

/** A value a step field holds: an expression (`@ …`) or a constant. */
export type Operand =
  | { readonly kind: 'const'; readonly value: Value }
  | { readonly kind: 'expr'; readonly expr: Expression; readonly place: SourcePlace };

/** Where a step writes: a path checked at load time, or an expression that yields a path at run time. */
export type Target =
  | {
      readonly kind: 'static';
      readonly root: 'state' | 'temp';
      readonly path: readonly string[];
      readonly text: string;
      /** `[root, ...path]`, precomputed for the hot path. */
      readonly segments: readonly string[];
      /** The typed field written, when the path names one exactly (coercion and bounds). */
      readonly field: FieldSchema | undefined;
    }
  | { readonly kind: 'dynamic'; readonly expr: Operand }
  /**
   * A path with computed keys, `state.objs[inputs.obj].loc`: its names checked at load (a record's
   * property among them), its keys evaluated when the step runs.
   */
  | {
      readonly kind: 'computed';
      readonly root: 'state' | 'temp';
      readonly parts: readonly TargetPart[];
      readonly text: string;
    };

/** One segment of a computed path after its root: a name, or a key computed when the step runs. */
export type TargetPart =
  | { readonly kind: 'name'; readonly name: string }
  | { readonly kind: 'key'; readonly key: Operand };

export type MutateOp = (typeof STEP_SHAPES.mutate.props.op.enum)[number];
export type Trigger = (typeof EVENT_SHAPE.props.trigger_on.enum)[number];

export interface BranchArm {
  /** `undefined` marks the else arm. */
  readonly test: Operand | undefined;
  readonly steps: readonly Step[];
}

export type TableKey =
  | { readonly kind: 'exact'; readonly value: number }
  | { readonly kind: 'range'; readonly low: number; readonly high: number }
  | { readonly kind: 'atLeast'; readonly low: number };

export type NotePart = string | Operand;

interface StepBase {
  readonly place: SourcePlace;
}

export type Step =
  | (StepBase & { readonly kind: 'set'; readonly target: Target; readonly value: Operand })
  | (StepBase & {
      readonly kind: 'mutate';
      readonly target: Target;
      readonly op: MutateOp;
      readonly value: Operand;
    })
  | (StepBase & { readonly kind: 'branch'; readonly arms: readonly BranchArm[] })
  | (StepBase & {
      readonly kind: 'table_roll';
      readonly roll: Operand;
      readonly target: Target;
      readonly table: readonly { readonly key: TableKey; readonly value: Operand }[];
    })
  | (StepBase & {
      readonly kind: 'call';
      readonly event: string;
      readonly args: readonly { readonly name: string; readonly value: Operand }[];
    })
  | (StepBase & { readonly kind: 'note'; readonly parts: readonly NotePart[]; readonly template: string })
  | (StepBase & { readonly kind: 'list_push'; readonly target: Target; readonly item: Operand })
  | (StepBase & {
      readonly kind: 'list_remove';
      readonly target: Target;
      readonly index: Operand | undefined;
      readonly value: Operand | undefined;
    })
  | (StepBase & {
      readonly kind: 'dict_set';
      readonly target: Target;
      readonly key: Operand;
      readonly value: Operand;
    })
  | (StepBase & { readonly kind: 'dict_delete'; readonly target: Target; readonly key: Operand })
  | (StepBase & {
      readonly kind: 'create';
      /** The collection the record joins (a static `state.` path naming it exactly). */
      readonly collection: {
        readonly segments: readonly string[];
        readonly text: string;
        readonly record: RecordSchema;
      };
      /** The values given, by property; the others take their defaults. */
      readonly values: readonly { readonly name: string; readonly value: Operand }[];
      /** Where the new record's id is written, if anywhere. */
      readonly target: Target | undefined;
    })
  | (StepBase & {
      readonly kind: 'foreach';
      readonly array: Operand | { readonly kind: 'path'; readonly target: Target };
      readonly itemName: string;
      readonly indexName: string;
      readonly steps: readonly Step[];
    });

export type StepKind = Step['kind'];

export interface InputSpec {
  readonly name: string;
  /** `undefined` for list-form inputs (any value). */
  readonly type: ValueType | undefined;
  readonly enum: readonly Value[] | undefined;
  /** Enum values by their lower-cased text: inputs match case-insensitively and keep the declared spelling. */
  readonly enumIndex: ReadonlyMap<string, Value> | undefined;
  readonly hasDefault: boolean;
  readonly default: Value;
  readonly description: string | undefined;
  readonly required: boolean;
  /**
   * Where the input's known values come from (`values_from`): a state list (its strings) or dict (its keys),
   * or the world ledger's entities (all, or of one `entity_type`). The Director is offered them as an enum,
   * and its calls are checked against them (`checkEventInputs` with the turn's known values).
   */
  readonly valuesFrom?: ValuesFrom;
}

/** The source of an input's known values, from the world as it is when the turn starts. */
export type ValuesFrom =
  | {
      readonly kind: 'state';
      readonly path: string;
      /** Where `values_from` is written (the check pass finds the path in state_schema). */
      readonly place: SourcePlace;
    }
  | { readonly kind: 'ledger'; readonly entityType: string | undefined };

export interface EventDef {
  readonly name: string;
  readonly description: string;
  readonly inputs: ReadonlyMap<string, InputSpec>;
  /** The same inputs in declaration order, for the hot path. */
  readonly inputList: readonly InputSpec[];
  /** Inputs were written in list form: undeclared types, values pass through. */
  readonly inputsListForm: boolean;
  readonly steps: readonly Step[];
  /** `cycle_tick`: once per turn, before the Director; `after_event`: after each player event. */
  readonly triggerOn: Trigger | undefined;
  /** Never offered to a model: runs only from `call`, cycle ticks or the engine. */
  readonly internal: boolean;
  /** Named as a mini-game `resolver_event` somewhere in the rules. */
  readonly resolver: boolean;
  readonly intents: readonly string[];
  readonly place: SourcePlace;
}

export interface NpcTemplate {
  readonly key: string;
  readonly type: 'name' | 'tag';
  readonly description: string;
  readonly credit: number | undefined;
}

export interface EngineSettings {
  readonly npcMinCreditThreshold: number;
  readonly maxBatchedNpcs: number;
}

/**
 * A condition that must hold after every event (`invariants:` in yare.yaml): checked by `checkInvariants`
 * in play and by the explorer.
 */
export interface InvariantDef {
  readonly name: string;
  /** The condition, parsed and checked at load (it reads `state.` and `macros.`). */
  readonly expr: Expression & { readonly place: SourcePlace };
  readonly place: SourcePlace;
}

/** An expression of the rules with the place it is written at. */
export type PlacedExpression = Expression & { readonly place: SourcePlace };

/**
 * A macro with parameters (`macros.NAME(args)`): pure — it reads its parameters, `state.` and pure macros,
 * and rolls no dice. With `by`, its value is the case of the kind `by` gives (`value` for any other).
 */
export interface MacroFunction {
  readonly name: string;
  readonly params: readonly string[];
  readonly place: SourcePlace;
  /** The value (with `by`: the value for a kind no case names; then it may be absent). */
  readonly value: PlacedExpression | undefined;
  readonly by: PlacedExpression | undefined;
  /** Each kind's value, by the kind's text (a case naming several kinds is here once for each). */
  readonly cases: ReadonlyMap<string, PlacedExpression>;
}

export interface CompiledRules {
  readonly file: string;
  readonly botName: string | undefined;
  readonly schema: DomainSchema;
  readonly macros: ReadonlyMap<string, Expression & { readonly place: SourcePlace }>;
  /** Macros with parameters, by name (`macros` holds the others). */
  readonly macroFunctions: ReadonlyMap<string, MacroFunction>;
  readonly events: ReadonlyMap<string, EventDef>;
  readonly eventNames: readonly string[];
  readonly npcTemplates: ReadonlyMap<string, NpcTemplate>;
  readonly engineSettings: EngineSettings;
  readonly initialState: Readonly<Record<string, unknown>>;
  /** `invariants:` in declaration order (empty when the file has none). */
  readonly invariants: readonly InvariantDef[];
}
