// The compiled form of a cartridge's rules: what `compileRules` produces and `runEvent` executes.
// Everything an author wrote is parsed and checked once; nothing here is re-parsed at turn time.

import type { SourcePlace } from '../diagnostics.ts';
import type { Expression } from './expr/ast.ts';
import type { FIELD_SHAPE, STEP_SHAPES } from './grammar.ts';
import type { Value } from './values.ts';

/** A field's type and a field's visibility: the values the grammar allows (grammar.ts). */
export type FieldType = (typeof FIELD_SHAPE.props.type.enum)[number];
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
  | { readonly kind: 'dynamic'; readonly expr: Operand };

export type MutateOp = (typeof STEP_SHAPES.mutate.props.op.enum)[number];

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
  readonly type: FieldType | undefined;
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
  readonly triggerOn: 'cycle_tick' | undefined;
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

export interface CompiledRules {
  readonly file: string;
  readonly botName: string | undefined;
  readonly schema: DomainSchema;
  readonly macros: ReadonlyMap<string, Expression & { readonly place: SourcePlace }>;
  readonly events: ReadonlyMap<string, EventDef>;
  readonly eventNames: readonly string[];
  readonly npcTemplates: ReadonlyMap<string, NpcTemplate>;
  readonly engineSettings: EngineSettings;
  readonly initialState: Readonly<Record<string, unknown>>;
  /** `invariants:` in declaration order (empty when the file has none). */
  readonly invariants: readonly InvariantDef[];
}
