// The look-alike name index kept with the world, so checking a new entity's name costs O(its
// names), not a pass over every entity each turn. Skeleton → every existing name with that skeleton, in
// creation order. Names and aliases are fixed when an entity is created, so the index only grows on
// create_entity. It is not part of the world's JSON: it lives beside an entities table (keyed by the
// table object, which never changes), is carried forward by each WorldDraft, and is rebuilt once from
// the table for a world that arrived without one (decoded from a snapshot, built by hand).

import { PersistentHashTrie, TableWriter } from './persistent-hash-trie.ts';
import { nameFold, nameSkeleton } from './text.ts';
import type { EntityRecord } from './world.ts';

export interface NameEntry {
  readonly key: string;
  readonly name: string;
  readonly fold: string;
}

export type NameIndex = PersistentHashTrie<readonly NameEntry[]>;

const indexOfTable = new WeakMap<object, NameIndex>();

/** The index kept beside `entities`, if one was. */
export function keptNameIndex(entities: Readonly<Record<string, EntityRecord>>): NameIndex | undefined {
  return indexOfTable.get(entities);
}

export function keepNameIndex(entities: Readonly<Record<string, EntityRecord>>, index: NameIndex): void {
  indexOfTable.set(entities, index);
}

/** The index of `entities`: the kept one, or built once (O(entities)) and kept. */
export function nameIndexOf(entities: Readonly<Record<string, EntityRecord>>): NameIndex {
  const kept = indexOfTable.get(entities);
  if (kept) return kept;
  const writer = new NameIndexWriter(PersistentHashTrie.empty());
  for (const key of Object.keys(entities)) writer.addEntity(entities[key]!);
  const index = writer.finish();
  indexOfTable.set(entities, index);
  return index;
}

/** A name index being extended; the base index is never changed. */
export class NameIndexWriter {
  private readonly table: TableWriter<readonly NameEntry[]>;
  constructor(base: NameIndex) {
    this.table = new TableWriter(base);
  }

  /** Every existing name with this skeleton. */
  lookalikes(skeleton: string): readonly NameEntry[] {
    return this.table.get(skeleton) ?? [];
  }

  addEntity(entity: Pick<EntityRecord, 'key' | 'name' | 'aliases'>): void {
    this.add(entity.key, entity.name);
    for (const alias of entity.aliases) this.add(entity.key, alias);
  }

  private add(key: string, name: string): void {
    const skeleton = nameSkeleton(name);
    if (skeleton.length === 0) return;
    const entry = { key, name, fold: nameFold(name) };
    this.table.set(skeleton, [...(this.table.get(skeleton) ?? []), entry]);
  }

  finish(): NameIndex {
    return this.table.finish();
  }
}
