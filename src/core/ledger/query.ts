// Questions asked of the ledger. History is in the records (facts keep their withdrawal, relationships
// their periods, threads their resolution), so most as-of questions need no fold; an entity's history is
// read from the log.

import type { LedgerEvent } from './events.ts';
import type { LogEntry } from './history.ts';
import { assertNever } from './text.ts';
import {
  allFacts,
  type FactRecord,
  isRelationshipActive,
  type RelationshipRecord,
  type Stamp,
  type ThreadRecord,
  type World,
} from './world.ts';

/** The entity keys an event names, in any field. */
export function keysNamedBy(event: LedgerEvent): string[] {
  switch (event.type) {
    case 'create_entity':
    case 'set_entity_status':
    case 'set_entity_attribute':
    case 'set_entity_conditions':
      return [event.entity];
    case 'set_current_location':
      return [event.entity, event.location];
    case 'set_possession':
      return [event.item, event.owner];
    case 'clear_possession':
      return [event.item];
    case 'add_fact':
      return [event.subject, event.object].filter((k): k is string => k !== undefined);
    case 'invalidate_fact':
    case 'open_story_thread':
    case 'resolve_story_thread':
      return [];
    case 'add_relationship':
    case 'end_relationship':
      return [event.source, event.target];
    case 'set_scene':
      return [...(event.location === undefined ? [] : [event.location]), ...(event.present ?? [])];
    default:
      return assertNever(event);
  }
}

export interface HistoryItem extends Stamp {
  /** The event's position in its batch. */
  readonly index: number;
  readonly event: LedgerEvent;
}

/** Every committed event that names `key`, oldest first. */
export function entityHistory(log: readonly LogEntry[], key: string): HistoryItem[] {
  const out: HistoryItem[] = [];
  for (const entry of log) {
    entry.events.forEach((event, index) => {
      if (keysNamedBy(event).includes(key)) {
        out.push({
          turn: entry.turn,
          ...(entry.gameTime === undefined ? {} : { gameTime: entry.gameTime }),
          index,
          event,
        });
      }
    });
  }
  return out;
}

/** Whether a fact was asserted and not yet withdrawn as of `turn` (withdrawn at T ⇒ valid at T−1). */
export function factValidAt(fact: FactRecord, turn: number): boolean {
  return fact.added.turn <= turn && (fact.invalidated === undefined || fact.invalidated.turn > turn);
}

/** Facts valid as of `turn`, by id order. `world` must be at `turn` or later (records keep their history). */
export function factsValidAt(world: World, turn: number): FactRecord[] {
  return allFacts(world).filter((fact) => factValidAt(fact, turn));
}

/** Facts the ledger asserts now. */
export function currentFacts(world: World): FactRecord[] {
  return factsValidAt(world, Number.POSITIVE_INFINITY);
}

/** Every period of the relationships from `source` to `target` (of kind `relationship`, when given). */
export function relationshipTimeline(
  world: World,
  source: string,
  target: string,
  relationship?: string,
): RelationshipRecord[] {
  return Object.keys(world.relationships)
    .sort()
    .map((id) => world.relationships[id]!)
    .filter(
      (r) =>
        r.source === source &&
        r.target === target &&
        (relationship === undefined || r.relationship === relationship),
    );
}

/** Relationships that hold now. */
export function activeRelationships(world: World): RelationshipRecord[] {
  return Object.keys(world.relationships)
    .sort()
    .map((id) => world.relationships[id]!)
    .filter(isRelationshipActive);
}

export type ThreadStatus = 'open' | 'resolved' | 'all';

/** Story threads by status, oldest first (ties by key). */
export function threads(world: World, options: { readonly status?: ThreadStatus } = {}): ThreadRecord[] {
  const status = options.status ?? 'all';
  return Object.keys(world.threads)
    .map((key) => world.threads[key]!)
    .filter(
      (t) => status === 'all' || (status === 'open' ? t.resolved === undefined : t.resolved !== undefined),
    )
    .sort((a, b) => a.opened.turn - b.opened.turn || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Sorted-key JSON of a world: equal worlds give equal strings, whatever their insertion order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
}
