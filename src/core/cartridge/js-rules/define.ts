// `defineRules`: the typed identity an author wraps a `yare.ts` (or `yare.js`) default export in, so an
// editor completes and checks the rules object. The shapes mirror yare.yaml (docs/yare.md); the compiler
// is still the authority and checks everything these types cannot (paths, expressions, macros).
//
//   import { defineRules } from 'mnesos';
//   export default defineRules({ version: '1.0', state_schema: { ... }, events: { ... } });
//
// Inside the sandbox, 'mnesos' is a built-in module whose defineRules returns its argument unchanged.

/** Plain data: what a value in the rules may be (it crosses out of the sandbox as JSON). */
export type RulesJson =
  | string
  | number
  | boolean
  | null
  | readonly RulesJson[]
  | { readonly [key: string]: RulesJson };

/** An expression (`"@ roll(1d20) + state.player.attack_bonus"`) or a literal. */
export type RulesValue = RulesJson;

export type FieldType = 'int' | 'float' | 'bool' | 'string' | 'list' | 'dict';
export type Visibility = 'public' | 'private';

export interface FieldSpec {
  readonly type: FieldType;
  readonly default?: RulesJson;
  readonly min?: number;
  readonly max?: number;
  readonly visibility?: Visibility;
  readonly npc_visibility?: boolean;
  readonly description?: string;
}

/** A group of fields (`player:`), with settings its fields inherit. */
export interface DomainSpec {
  readonly visibility?: Visibility;
  readonly npc_visibility?: boolean;
  readonly description?: string;
  readonly [field: string]: FieldSpec | DomainSpec | Visibility | boolean | string | undefined;
}

export interface InputSpec {
  readonly type: FieldType;
  readonly enum?: readonly RulesJson[];
  readonly default?: RulesJson;
  readonly description?: string;
}

export type Step =
  | { readonly action: 'set'; readonly var: string; readonly value: RulesValue }
  | {
      readonly action: 'mutate';
      readonly var: string;
      readonly op: 'add' | 'sub' | 'mul' | 'div';
      readonly value: RulesValue;
    }
  | {
      readonly action: 'branch';
      readonly conditions: readonly BranchArm[];
    }
  | {
      readonly action: 'branch';
      readonly if: RulesValue;
      readonly steps: readonly Step[];
      readonly else?: readonly Step[];
    }
  | {
      readonly action: 'table_roll';
      readonly roll: RulesValue;
      readonly var: string;
      readonly table: { readonly [range: string]: RulesJson };
    }
  | {
      readonly action: 'call';
      readonly event: string;
      readonly args?: { readonly [input: string]: RulesValue };
    }
  | { readonly action: 'note'; readonly message: string }
  | {
      readonly action: 'list_push';
      readonly var: string;
      readonly item?: RulesValue;
      readonly value?: RulesValue;
    }
  | {
      readonly action: 'list_remove';
      readonly var: string;
      readonly index?: RulesValue;
      readonly value?: RulesValue;
    }
  | {
      readonly action: 'dict_set';
      readonly var: string;
      readonly key: RulesValue;
      readonly value: RulesValue;
    }
  | { readonly action: 'dict_delete'; readonly var: string; readonly key: RulesValue }
  | {
      readonly action: 'foreach';
      readonly array: RulesValue;
      readonly item?: string;
      readonly index?: string;
      readonly steps: readonly Step[];
    };

export type BranchArm =
  | { readonly if: RulesValue; readonly steps: readonly Step[] }
  | { readonly else: true; readonly steps: readonly Step[] };

export interface EventSpec {
  readonly description?: string;
  /** The typed form (recommended), or the list form of names only. */
  readonly inputs?: { readonly [name: string]: InputSpec } | readonly string[];
  readonly steps: readonly Step[];
  readonly intents?: readonly string[];
  readonly internal?: boolean;
  readonly trigger_on?: 'cycle_tick';
}

export interface NpcTemplate {
  readonly type: 'name' | 'tag';
  readonly description: string;
  readonly credit?: number;
}

export interface RulesObject {
  readonly version: string;
  readonly bot_name?: string;
  readonly state_schema: { readonly [name: string]: FieldSpec | DomainSpec };
  readonly macros?: { readonly [name: string]: RulesValue };
  readonly events: { readonly [name: string]: EventSpec };
  readonly npc_templates?: { readonly [name: string]: NpcTemplate };
  readonly engine_settings?: {
    readonly npc_min_credit_threshold?: number;
    readonly max_batched_npcs?: number;
  };
  readonly separate_npc?: false;
  /** The world ledger's policy and starting world (docs/ledger.md). */
  readonly ledger?: { readonly [key: string]: RulesJson };
}

/** Returns `rules` unchanged; its only job is the type check in the author's editor. */
export function defineRules<const T extends RulesObject>(rules: T): T {
  return rules;
}
