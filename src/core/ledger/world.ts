// The world as the ledger knows it: plain JSON (it is stored, sent to clients and read back by
// `ledger check --world`), with null-prototype tables for everything keyed by model text. Nothing is ever
// deleted: facts are invalidated, relationships ended and threads resolved, each keeping when and why.

import type { LedgerScalar } from './events.ts';
import { tableGet, tableKeys, tableValues } from './persistent-hash-trie.ts';

export const WORLD_VERSION = 1;

/** When something happened: the turn that committed it, and the story clock if the turn had one. */
export interface Stamp {
  readonly turn: number;
  readonly gameTime?: string;
}

export interface EntityRecord {
  readonly key: string;
  readonly name: string;
  readonly entityType?: string;
  readonly description?: string;
  readonly aliases: readonly string[];
  readonly status?: string;
  /** Narrator-owned values, absolute. Null prototype. */
  readonly attributes: Readonly<Record<string, LedgerScalar>>;
  readonly conditions: readonly string[];
  /** Where the entity is (an entity key), if anywhere. */
  readonly location?: string;
  /** Who holds it (an entity key), if anyone; at most one holder. */
  readonly holder?: string;
  readonly created: Stamp;
}

export interface FactRecord {
  readonly id: string;
  readonly predicate: string;
  readonly subject?: string;
  /** An entity key or a fact id. */
  readonly object?: string;
  readonly value?: LedgerScalar;
  readonly added: Stamp;
  /**
   * Who learned it (entity keys, sorted): those `learned_by` named, else those present in the scene when
   * it was recorded and those it was `told_to`. Absent: the public world, known to everyone (a cartridge's
   * starting world, a fact recorded with no scene and no one named). docs/ledger.md, "Who knows what".
   */
  readonly knownBy?: readonly string[];
  /** Set once, when the fact is withdrawn; the record stays. */
  readonly invalidated?: Stamp & { readonly reason?: string };
}

export interface RelationshipPeriod {
  readonly started: Stamp;
  readonly description?: string;
  readonly ended?: Stamp;
}

export interface RelationshipRecord {
  readonly source: string;
  readonly target: string;
  readonly relationship: string;
  /** Every time this tie held, oldest first; only the last may be open. */
  readonly periods: readonly RelationshipPeriod[];
}

export interface ThreadRecord {
  readonly key: string;
  readonly title: string;
  readonly description?: string;
  readonly opened: Stamp;
  readonly resolved?: Stamp & { readonly resolution?: string };
}

export interface Scene {
  readonly summary?: string;
  readonly location?: string;
  readonly present: readonly string[];
  readonly set: Stamp;
}

/**
 * Facts grow by about one a turn, so they are kept in FACT_BUCKETS hash buckets: a batch copies only the
 * buckets it writes, which keeps `applyBatch` and `stateAt` independent of how many facts exist. The
 * outer record is keyed by a two-hex-digit bucket id (`factBucket(id)`), the inner by fact id; both
 * null-prototype. Read it through `getFact` / `allFacts`.
 */
export type FactTable = Readonly<Record<string, Readonly<Record<string, FactRecord>>>>;

export const FACT_BUCKETS = 256;

/** The bucket of a fact id: FNV-1a of its characters, modulo FACT_BUCKETS, as two hex digits. */
export function factBucket(id: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return ((hash >>> 0) % FACT_BUCKETS).toString(16).padStart(2, '0');
}

export function getFact(world: Pick<World, 'facts'>, id: string): FactRecord | undefined {
  const bucket = lookup(world.facts, factBucket(id));
  return bucket ? lookup(bucket, id) : undefined;
}

/** Every fact record, sorted by id. */
export function allFacts(world: Pick<World, 'facts'>): FactRecord[] {
  const out: FactRecord[] = [];
  for (const b in world.facts) out.push(...tableValues(world.facts[b]!));
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export function factCount(world: Pick<World, 'facts'>): number {
  let n = 0;
  for (const b in world.facts) n += tableKeys(world.facts[b]!).length;
  return n;
}

/** Whether `entity` knows `fact`: a public fact, or one it learned. */
export function knowsFact(fact: Pick<FactRecord, 'knownBy'>, entity: string): boolean {
  return fact.knownBy === undefined || fact.knownBy.includes(entity);
}

export interface World {
  readonly version: typeof WORLD_VERSION;
  readonly entities: Readonly<Record<string, EntityRecord>>;
  /** Hash-bucketed: use getFact / allFacts. */
  readonly facts: FactTable;
  /** Keyed by `relationshipId(source, target, relationship)`. */
  readonly relationships: Readonly<Record<string, RelationshipRecord>>;
  readonly threads: Readonly<Record<string, ThreadRecord>>;
  readonly scene: Scene | null;
}

export function nullTable<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

export function emptyWorld(): World {
  return {
    version: WORLD_VERSION,
    entities: nullTable(),
    facts: nullTable(),
    relationships: nullTable(),
    threads: nullTable(),
    scene: null,
  };
}

/**
 * The table key of a relationship. JSON of the triple, so a relationship text containing any separator
 * cannot make two different triples share a key.
 */
export function relationshipId(source: string, target: string, relationship: string): string {
  return JSON.stringify([source, target, relationship]);
}

export function isRelationshipActive(record: RelationshipRecord): boolean {
  const last = record.periods[record.periods.length - 1];
  return last !== undefined && last.ended === undefined;
}

/** Own-property lookup in a world table; never reaches a prototype, whatever the key. */
export function lookup<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return tableGet(table, key);
}
