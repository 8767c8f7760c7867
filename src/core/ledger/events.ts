// The ledger event union: one variant per row of the vocabulary table (spec.ts), discriminated by `type`.
// On the wire (model tool calls, events.json, cartridge `ledger.world`) the type is under `event_type`;
// `validateBatch` is the only way in and normalises it to `type`. Optional fields that were absent or null
// are omitted, so "absent" and "null" mean the same thing everywhere after validation.

import type { LedgerEventType, LedgerSpecTable } from './spec.ts';

/** A JSON scalar: what `set_entity_attribute.value` and `add_fact.value` may hold. */
export type LedgerScalar = string | number | boolean | null;

export interface CreateEntity {
  readonly type: 'create_entity';
  readonly entity: string;
  readonly name: string;
  readonly entity_type?: string;
  readonly description?: string;
  readonly aliases?: readonly string[];
}
export interface SetEntityStatus {
  readonly type: 'set_entity_status';
  readonly entity: string;
  readonly status: string;
}
export interface SetEntityAttribute {
  readonly type: 'set_entity_attribute';
  readonly entity: string;
  readonly attribute: string;
  readonly value: LedgerScalar;
}
export interface SetEntityConditions {
  readonly type: 'set_entity_conditions';
  readonly entity: string;
  readonly conditions: readonly string[];
}
export interface SetCurrentLocation {
  readonly type: 'set_current_location';
  readonly entity: string;
  readonly location: string;
}
export interface SetPossession {
  readonly type: 'set_possession';
  readonly item: string;
  readonly owner: string;
}
export interface ClearPossession {
  readonly type: 'clear_possession';
  readonly item: string;
}
export interface AddFact {
  readonly type: 'add_fact';
  readonly predicate: string;
  readonly subject?: string;
  readonly object?: string;
  readonly value?: LedgerScalar;
  readonly fact_id?: string;
  readonly learned_by?: readonly string[];
  readonly told_to?: readonly string[];
}
export interface InvalidateFact {
  readonly type: 'invalidate_fact';
  readonly fact_id: string;
  readonly reason?: string;
}
export interface AddRelationship {
  readonly type: 'add_relationship';
  readonly source: string;
  readonly target: string;
  readonly relationship: string;
  readonly description?: string;
}
export interface EndRelationship {
  readonly type: 'end_relationship';
  readonly source: string;
  readonly target: string;
  readonly relationship: string;
}
export interface OpenStoryThread {
  readonly type: 'open_story_thread';
  readonly thread: string;
  readonly title: string;
  readonly description?: string;
}
export interface ResolveStoryThread {
  readonly type: 'resolve_story_thread';
  readonly thread: string;
  readonly resolution?: string;
}
export interface SetScene {
  readonly type: 'set_scene';
  readonly summary?: string;
  readonly location?: string;
  readonly present?: readonly string[];
}

export type LedgerEvent =
  | CreateEntity
  | SetEntityStatus
  | SetEntityAttribute
  | SetEntityConditions
  | SetCurrentLocation
  | SetPossession
  | ClearPossession
  | AddFact
  | InvalidateFact
  | AddRelationship
  | EndRelationship
  | OpenStoryThread
  | ResolveStoryThread
  | SetScene;

// ---- The event type derived from the table, and the compile-time drift check against the union. ----
/** What a field of each spec type holds once the validator has checked it. */
export type FieldValue<F> = F extends { readonly type: 'text' }
  ? string
  : F extends { readonly type: 'key' }
    ? string
    : F extends { readonly type: 'value' }
      ? LedgerScalar
      : F extends { readonly type: 'labels' }
        ? readonly string[]
        : never;
type Row<K extends LedgerEventType> = LedgerSpecTable[K];
/** The event a table row describes: `type`, its required fields and its optional fields. */
export type DerivedEvent<K extends LedgerEventType> = { readonly type: K } & {
  readonly [F in keyof Row<K>['required']]: FieldValue<Row<K>['required'][F]>;
} & { readonly [F in keyof Row<K>['optional']]?: FieldValue<Row<K>['optional'][F]> };

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Simplify<T> = { [K in keyof T]: T[K] };
type VariantMatches = {
  [K in LedgerEventType]: Equal<Simplify<DerivedEvent<K>>, Simplify<Extract<LedgerEvent, { type: K }>>>;
};
type AllTrue<T> = T[keyof T] extends true ? true : false;
// If a table row and its interface disagree (a field added, removed, renamed, retyped or made optional),
// or the union lacks a type or has an extra one, one of these lines stops compiling.
const unionMatchesTable: AllTrue<VariantMatches> = true;
const unionCoversTable: Equal<LedgerEvent['type'], LedgerEventType> = true;
void unionMatchesTable;
void unionCoversTable;

/** The wire form of an event (what a model or a file writes): `event_type` beside the fields. */
export function toWire(event: LedgerEvent): Record<string, unknown> {
  const { type, ...fields } = event;
  return { event_type: type, ...fields };
}
