// Applying validated events: one exhaustive switch over the union, pure (no clock, no randomness, no
// environment: every stamp comes from `at`). The input world is never mutated: a WorldDraft copies a
// table the first time it is written and replaces records instead of editing them, so snapshots and
// earlier worlds can share every record that did not change. Entities, relationships and threads are
// structurally shared tables (persistent-hash-trie.ts), so a batch costs O(batch) however big the world is.

import { LedgerApplyError } from './errors.ts';
import type {
  AddFact,
  AddRelationship,
  ClearPossession,
  CreateEntity,
  EndRelationship,
  InvalidateFact,
  LedgerEvent,
  OpenStoryThread,
  ResolveStoryThread,
  SetEntityAttribute,
  SetScene,
} from './events.ts';
import { keepNameIndex, keptNameIndex, NameIndexWriter, nameIndexOf } from './name-index.ts';
import { PersistentHashTrie, hashTrieOf, TableWriter, tableView } from './persistent-hash-trie.ts';
import { noteDerivedWorld } from './summary-index.ts';
import { assertNever } from './text.ts';
import {
  type EntityRecord,
  type FactRecord,
  factBucket,
  isRelationshipActive,
  lookup,
  type RelationshipRecord,
  relationshipId,
  type Scene,
  type Stamp,
  type ThreadRecord,
  type World,
  WORLD_VERSION,
} from './world.ts';

function copyTable<T>(table: Readonly<Record<string, T>>): Record<string, T> {
  // for…in over a null-prototype object visits own keys only, and is the fastest copy in V8.
  const out = Object.create(null) as Record<string, T>;
  for (const key in table) out[key] = table[key] as T;
  return out;
}

/** One of the record tables a draft writes through a TableWriter (facts keep their own buckets). */
class DraftTable<T> {
  private writer: TableWriter<T> | undefined;
  constructor(private readonly base: Readonly<Record<string, T>>) {}
  get(key: string): T | undefined {
    return this.writer ? this.writer.get(key) : lookup(this.base, key);
  }
  set(key: string, value: T): void {
    this.writer ??= new TableWriter(hashTrieOf(this.base));
    this.writer.set(key, value);
  }
  /** The table as it is now; the base object itself when nothing was written. */
  view(): Readonly<Record<string, T>> {
    return this.writer ? tableView(this.writer.finish()) : this.base;
  }
}

/** A world being changed: reads see earlier writes; the input world is never touched. */
export class WorldDraft {
  private readonly entityTable: DraftTable<EntityRecord>;
  private readonly relationshipTable: DraftTable<RelationshipRecord>;
  private readonly threadTable: DraftTable<ThreadRecord>;
  private readonly facts: World['facts'];
  /** Writers of the fact buckets this draft changed, by bucket id. */
  private readonly factWriters = new Map<string, TableWriter<FactRecord>>();
  private readonly baseEntities: World['entities'];
  /** Entities this draft created, in order: what the name index gains. */
  private readonly created: EntityRecord[] = [];
  private names: NameIndexWriter | undefined;
  scene: Scene | null;

  constructor(private readonly base: World) {
    this.baseEntities = base.entities;
    this.entityTable = new DraftTable(base.entities);
    this.relationshipTable = new DraftTable(base.relationships);
    this.threadTable = new DraftTable(base.threads);
    this.facts = base.facts;
    this.scene = base.scene;
  }

  entity(key: string): EntityRecord | undefined {
    return this.entityTable.get(key);
  }
  fact(id: string): FactRecord | undefined {
    const name = factBucket(id);
    const writer = this.factWriters.get(name);
    if (writer) return writer.get(id);
    const bucket = lookup(this.facts, name);
    return bucket ? lookup(bucket, id) : undefined;
  }
  relationship(id: string): RelationshipRecord | undefined {
    return this.relationshipTable.get(id);
  }
  thread(key: string): ThreadRecord | undefined {
    return this.threadTable.get(key);
  }
  entities(): Readonly<Record<string, EntityRecord>> {
    return this.entityTable.view();
  }

  /** The look-alike name index of the world as drafted so far (built once if the base kept none). */
  nameIndex(): NameIndexWriter {
    if (!this.names) {
      this.names = new NameIndexWriter(nameIndexOf(this.baseEntities));
      for (const record of this.created) this.names.addEntity(record);
    }
    return this.names;
  }

  putEntity(record: EntityRecord): void {
    if (this.entityTable.get(record.key) === undefined) {
      this.created.push(record);
      this.names?.addEntity(record);
    }
    this.entityTable.set(record.key, record);
  }
  putFact(record: FactRecord): void {
    // Each written bucket is itself a shared table, so a batch's cost does not grow with the facts a
    // bucket holds (about one in 256 of all facts).
    const name = factBucket(record.id);
    let writer = this.factWriters.get(name);
    if (!writer) {
      const old = lookup(this.facts, name);
      writer = new TableWriter(old ? hashTrieOf(old) : PersistentHashTrie.empty<FactRecord>());
      this.factWriters.set(name, writer);
    }
    writer.set(record.id, record);
  }
  putRelationship(id: string, record: RelationshipRecord): void {
    this.relationshipTable.set(id, record);
  }
  putThread(record: ThreadRecord): void {
    this.threadTable.set(record.key, record);
  }

  finish(): World {
    const entities = this.entityTable.view();
    if (entities !== this.baseEntities) {
      // Carry the name index forward when this draft or the base has one: O(entities created), never
      // O(world) (a base without one is not indexed here; its first look-up builds it).
      if (this.names || keptNameIndex(this.baseEntities)) keepNameIndex(entities, this.nameIndex().finish());
    }
    let facts = this.facts;
    if (this.factWriters.size > 0) {
      // The directory of buckets is a shared table too: copying its (up to FACT_BUCKETS) keys each batch
      // was most of a batch's cost once a world's facts filled every bucket.
      const directory = new TableWriter(hashTrieOf(this.facts));
      for (const [name, writer] of this.factWriters) directory.set(name, tableView(writer.finish()));
      facts = tableView(directory.finish());
    }
    const world: World = {
      version: WORLD_VERSION,
      entities,
      facts,
      relationships: this.relationshipTable.view(),
      threads: this.threadTable.view(),
      scene: this.scene,
    };
    // The summary index follows a game from world to world through this link (summary-index.ts).
    noteDerivedWorld(world, this.base);
    return world;
  }
}

/** The id the engine gives a fact proposed without `fact_id`: deterministic, never random. */
export function engineFactId(turn: number, index: number): string {
  return `f_${turn}_${index}`;
}

/** Who learns a new fact: `learned_by` exactly; else those present and those `told_to`; else the public. */
function knownByOf(
  event: { readonly learned_by?: readonly string[]; readonly told_to?: readonly string[] },
  scene: { readonly present: readonly string[] } | null,
): { knownBy?: readonly string[] } {
  const knowers = event.learned_by ?? [...(scene?.present ?? []), ...(event.told_to ?? [])];
  if (event.learned_by === undefined && knowers.length === 0) return {};
  return { knownBy: [...new Set(knowers)].sort() };
}

function stampOf(at: Stamp): Stamp {
  return at.gameTime === undefined ? { turn: at.turn } : { turn: at.turn, gameTime: at.gameTime };
}

function mustEntity(draft: WorldDraft, key: string): EntityRecord {
  const record = draft.entity(key);
  if (!record)
    throw new LedgerApplyError(`entity ${JSON.stringify(key)} does not exist (event not validated?)`);
  return record;
}

/** Applies one validated event to a draft. `index` is the event's position in its batch. */
export function applyEvent(draft: WorldDraft, event: LedgerEvent, index: number, at: Stamp): void {
  switch (event.type) {
    case 'create_entity':
      createEntity(draft, event, at);
      return;
    case 'set_entity_status':
      draft.putEntity({ ...mustEntity(draft, event.entity), status: event.status });
      return;
    case 'set_entity_attribute':
      setEntityAttribute(draft, event);
      return;
    case 'set_entity_conditions':
      draft.putEntity({ ...mustEntity(draft, event.entity), conditions: [...event.conditions] });
      return;
    case 'set_current_location':
      mustEntity(draft, event.location);
      draft.putEntity({ ...mustEntity(draft, event.entity), location: event.location });
      return;
    case 'set_possession':
      mustEntity(draft, event.owner);
      draft.putEntity({ ...mustEntity(draft, event.item), holder: event.owner });
      return;
    case 'clear_possession':
      clearPossession(draft, event);
      return;
    case 'add_fact':
      addFact(draft, event, event.fact_id ?? engineFactId(at.turn, index), at);
      return;
    case 'invalidate_fact':
      invalidateFact(draft, event, at);
      return;
    case 'add_relationship':
      addRelationship(draft, event, at);
      return;
    case 'end_relationship':
      endRelationship(draft, event, at);
      return;
    case 'open_story_thread':
      openStoryThread(draft, event, at);
      return;
    case 'resolve_story_thread':
      resolveStoryThread(draft, event, at);
      return;
    case 'set_scene':
      setScene(draft, event, at);
      return;
    default:
      assertNever(event);
  }
}

/** Absolute: the new scene replaces the old one entirely. */
function setScene(draft: WorldDraft, event: SetScene, at: Stamp): void {
  draft.scene = {
    ...(event.summary === undefined ? {} : { summary: event.summary }),
    ...(event.location === undefined ? {} : { location: event.location }),
    present: [...(event.present ?? [])],
    set: stampOf(at),
  };
}

function createEntity(draft: WorldDraft, event: CreateEntity, at: Stamp): void {
  if (draft.entity(event.entity)) throw new LedgerApplyError(`entity ${event.entity} already exists`);
  draft.putEntity({
    key: event.entity,
    name: event.name,
    ...(event.entity_type === undefined ? {} : { entityType: event.entity_type }),
    ...(event.description === undefined ? {} : { description: event.description }),
    aliases: event.aliases ?? [],
    attributes: Object.create(null),
    conditions: [],
    created: stampOf(at),
  });
}

function setEntityAttribute(draft: WorldDraft, event: SetEntityAttribute): void {
  const record = mustEntity(draft, event.entity);
  const attributes = copyTable(record.attributes);
  attributes[event.attribute] = event.value;
  draft.putEntity({ ...record, attributes });
}

function clearPossession(draft: WorldDraft, event: ClearPossession): void {
  const { holder: _dropped, ...rest } = mustEntity(draft, event.item);
  draft.putEntity(rest);
}

function addFact(draft: WorldDraft, event: AddFact, id: string, at: Stamp): void {
  if (draft.fact(id)) throw new LedgerApplyError(`fact ${id} already exists`);
  draft.putFact({
    id,
    predicate: event.predicate,
    ...(event.subject === undefined ? {} : { subject: event.subject }),
    ...(event.object === undefined ? {} : { object: event.object }),
    ...(event.value === undefined ? {} : { value: event.value }),
    added: stampOf(at),
    ...knownByOf(event, draft.scene),
  });
}

function invalidateFact(draft: WorldDraft, event: InvalidateFact, at: Stamp): void {
  const fact = draft.fact(event.fact_id);
  if (!fact || fact.invalidated) throw new LedgerApplyError(`fact ${event.fact_id} is unknown or withdrawn`);
  draft.putFact({
    ...fact,
    invalidated: { ...stampOf(at), ...(event.reason === undefined ? {} : { reason: event.reason }) },
  });
}

function addRelationship(draft: WorldDraft, event: AddRelationship, at: Stamp): void {
  const id = relationshipId(event.source, event.target, event.relationship);
  const existing = draft.relationship(id);
  if (existing && isRelationshipActive(existing)) throw new LedgerApplyError(`relationship ${id} is active`);
  const period = {
    started: stampOf(at),
    ...(event.description === undefined ? {} : { description: event.description }),
  };
  draft.putRelationship(id, {
    source: event.source,
    target: event.target,
    relationship: event.relationship,
    periods: [...(existing?.periods ?? []), period],
  });
}

function endRelationship(draft: WorldDraft, event: EndRelationship, at: Stamp): void {
  const id = relationshipId(event.source, event.target, event.relationship);
  const existing = draft.relationship(id);
  if (!existing || !isRelationshipActive(existing))
    throw new LedgerApplyError(`relationship ${id} is not active`);
  const periods = existing.periods.slice(0, -1);
  periods.push({ ...existing.periods[existing.periods.length - 1]!, ended: stampOf(at) });
  draft.putRelationship(id, { ...existing, periods });
}

function openStoryThread(draft: WorldDraft, event: OpenStoryThread, at: Stamp): void {
  if (draft.thread(event.thread)) throw new LedgerApplyError(`thread ${event.thread} already exists`);
  draft.putThread({
    key: event.thread,
    title: event.title,
    ...(event.description === undefined ? {} : { description: event.description }),
    opened: stampOf(at),
  });
}

function resolveStoryThread(draft: WorldDraft, event: ResolveStoryThread, at: Stamp): void {
  const thread = draft.thread(event.thread);
  if (!thread || thread.resolved) throw new LedgerApplyError(`thread ${event.thread} is unknown or resolved`);
  draft.putThread({
    ...thread,
    resolved: {
      ...stampOf(at),
      ...(event.resolution === undefined ? {} : { resolution: event.resolution }),
    },
  });
}

/**
 * Applies a validated batch, returning a new world; `world` is unchanged. Throws LedgerApplyError only for
 * an event `validateBatch` would have refused — callers apply to a result they then swap in, so a throw
 * leaves the committed world as it was.
 */
export function applyBatch(world: World, events: readonly LedgerEvent[], at: Stamp): World {
  const draft = new WorldDraft(world);
  for (let index = 0; index < events.length; index++) applyEvent(draft, events[index]!, index, at);
  return draft.finish();
}
