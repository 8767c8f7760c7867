// `defineRules`: the typed identity an author wraps a `yare.ts` (or `yare.js`) default export in, so an
// editor completes and checks the rules object. The types are the grammar's (docs/yare.md); the compiler
// checks everything these types cannot (paths, expressions, macros, names that must resolve).
//
//   import { defineRules } from 'mnesos';
//   export default defineRules({ version: '1.0', state_schema: { ... }, events: { ... } });
//
// Inside the sandbox, 'mnesos' is a built-in module whose defineRules returns its argument unchanged.

import type {
  CONDITION_SHAPE,
  DOMAIN_SHAPE,
  EVENT_SHAPE,
  FIELD_SHAPE,
  INPUT_SHAPE,
  NPC_TEMPLATE_SHAPE,
  PlainData,
  YARE_GRAMMAR,
  YareValue,
} from '../../yare/index.ts';

// Every type below is read from the yare.yaml grammar (src/core/yare/grammar.ts), so a key the compiler
// learns is a key the author's editor completes; none is written out by hand.

/** Plain data: what a value in the rules may be (it crosses out of the sandbox as JSON). */
export type RulesJson = PlainData;

/** An expression (`"@ roll(1d20) + state.player.attack_bonus"`) or a literal. */
export type RulesValue = RulesJson;

export type FieldType = YareValue<typeof FIELD_SHAPE.props.type>;
export type Visibility = YareValue<typeof FIELD_SHAPE.props.visibility>;
export type FieldSpec = YareValue<typeof FIELD_SHAPE>;
/** A group of fields (`player:`), with settings its fields inherit. */
export type DomainSpec = YareValue<typeof DOMAIN_SHAPE>;
export type InputSpec = YareValue<typeof INPUT_SHAPE>;
/** A step: `action` picks which fields it has. */
export type Step = YareValue<typeof YARE_GRAMMAR.definitions.step>;
/** One arm of a `conditions:` branch. */
export type BranchArm = YareValue<typeof CONDITION_SHAPE>;
export type EventSpec = YareValue<typeof EVENT_SHAPE>;
export type NpcTemplate = YareValue<typeof NPC_TEMPLATE_SHAPE>;
/** The whole rules object: what yare.yaml holds. */
export type RulesObject = YareValue<typeof YARE_GRAMMAR.root>;

/** Returns `rules` unchanged; its only job is the type check in the author's editor. */
export function defineRules<const T extends RulesObject>(rules: T): T {
  return rules;
}
