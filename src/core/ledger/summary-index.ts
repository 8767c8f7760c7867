// What the world summary reads, kept as an index so a summary costs what it shows, not the world's size:
// who carries what, who is where, the current facts about each key, the current facts newest first, and
// the open threads. An index describes one world at a time and moves to a world near it (its descendant,
// ancestor or sibling, found through the parent links `noteDerivedWorld` leaves) by diffing the two worlds'
// structurally shared tables, so following a game turn by turn costs O(batch) a turn, however many games
// the process plays. A world with no indexed relative nearby is indexed from scratch once (O(world)): the
// first summary of a game in a process.

import { diffTables, tableKeys, tableValues } from './persistent-hash-trie.ts';
import type { EntityRecord, FactRecord, ThreadRecord, World } from './world.ts';

/**
 * Indexes also looked at when a world has no indexed ancestor (an undo, a swipe, a branch), most recent
 * last. Every index stays reachable from its world (a WeakMap) for as long as the world lives, so however
 * many games a process plays, each finds its own index; these few are only the candidates for a jump.
 */
export const SUMMARY_RECENT_INDEXES = 16;
/** Parent links followed when looking for an indexed relative of a world. */
export const SUMMARY_LINEAGE_STEPS = 16;

const parents = new WeakMap<World, WeakRef<World>>();

/** Records that `child` was made from `parent` by applying a batch (WorldDraft.finish). Weak both ways. */
export function noteDerivedWorld(child: World, parent: World): void {
  if (child !== parent) parents.set(child, new WeakRef(parent));
}

function lineage(world: World): World[] {
  const out: World[] = [];
  let at: World | undefined = world;
  for (let i = 0; i < SUMMARY_LINEAGE_STEPS && at !== undefined; i++) {
    at = parents.get(at)?.deref();
    if (at !== undefined) out.push(at);
  }
  return out;
}

/** Newest first: added turn descending, then id ascending (the summary's order for facts of equal score). */
function newerFirst(a: FactRecord, b: FactRecord): number {
  return b.added.turn - a.added.turn || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function addTo(map: Map<string, Set<string>>, key: string | undefined, value: string): void {
  if (key === undefined) return;
  let set = map.get(key);
  if (set === undefined) {
    set = new Set();
    map.set(key, set);
  }
  set.add(value);
}

function removeFrom(map: Map<string, Set<string>>, key: string | undefined, value: string): void {
  if (key === undefined) return;
  const set = map.get(key);
  if (set === undefined) return;
  set.delete(value);
  if (set.size === 0) map.delete(key);
}

export class SummaryIndex {
  /** Holder key → keys of the entities it holds. */
  readonly carried = new Map<string, Set<string>>();
  /** Location key → keys of the entities there. */
  readonly located = new Map<string, Set<string>>();
  /** Entity key or fact id → ids of the current facts whose subject or object it is. */
  readonly factsAbout = new Map<string, Set<string>>();
  /** Current (never invalidated) facts by id. */
  readonly current = new Map<string, FactRecord>();
  /** The current facts oldest first (the reverse of `newerFirst`), so a new fact is usually appended. */
  readonly #byAge: FactRecord[] = [];
  readonly openThreads = new Map<string, ThreadRecord>();

  private constructor(public world: World) {}

  static build(world: World): SummaryIndex {
    const index = new SummaryIndex(world);
    for (const entity of tableValues(world.entities)) index.#entity(entity, 1);
    for (const bucket of tableKeys(world.facts))
      for (const fact of tableValues(world.facts[bucket]!)) index.#fact(fact, 1);
    for (const thread of tableValues(world.threads)) index.#thread(thread, 1);
    return index;
  }

  /** Makes the index describe `world` instead, by the differences between the two worlds' tables. */
  moveTo(world: World): void {
    const from = this.world;
    diffTables(from.entities, world.entities, (_key, old, now) => {
      if (old !== undefined) this.#entity(old, -1);
      if (now !== undefined) this.#entity(now, 1);
    });
    if (from.facts !== world.facts) {
      const buckets = new Set([...tableKeys(from.facts), ...tableKeys(world.facts)]);
      const empty = Object.create(null) as Readonly<Record<string, FactRecord>>;
      for (const bucket of buckets)
        diffTables(from.facts[bucket] ?? empty, world.facts[bucket] ?? empty, (_id, old, now) => {
          if (old !== undefined) this.#fact(old, -1);
          if (now !== undefined) this.#fact(now, 1);
        });
    }
    diffTables(from.threads, world.threads, (_key, old, now) => {
      if (old !== undefined) this.#thread(old, -1);
      if (now !== undefined) this.#thread(now, 1);
    });
    this.world = world;
  }

  /** The current facts in `newerFirst` order, lazily. */
  *newestFacts(): Generator<FactRecord> {
    for (let i = this.#byAge.length - 1; i >= 0; i--) yield this.#byAge[i]!;
  }

  #entity(entity: EntityRecord, sign: 1 | -1): void {
    if (sign > 0) {
      addTo(this.carried, entity.holder, entity.key);
      addTo(this.located, entity.location, entity.key);
    } else {
      removeFrom(this.carried, entity.holder, entity.key);
      removeFrom(this.located, entity.location, entity.key);
    }
  }

  #fact(fact: FactRecord, sign: 1 | -1): void {
    if (fact.invalidated !== undefined) return;
    if (sign > 0) {
      this.current.set(fact.id, fact);
      addTo(this.factsAbout, fact.subject, fact.id);
      addTo(this.factsAbout, fact.object, fact.id);
      this.#byAge.splice(this.#agePlace(fact), 0, fact);
    } else {
      this.current.delete(fact.id);
      removeFrom(this.factsAbout, fact.subject, fact.id);
      removeFrom(this.factsAbout, fact.object, fact.id);
      const at = this.#agePlace(fact);
      if (this.#byAge[at] === fact) this.#byAge.splice(at, 1);
    }
  }

  /** Where `fact` is or would go in #byAge (binary search; ids are unique, so the place is exact). */
  #agePlace(fact: FactRecord): number {
    let low = 0;
    let high = this.#byAge.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (newerFirst(this.#byAge[mid]!, fact) > 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  #thread(thread: ThreadRecord, sign: 1 | -1): void {
    if (thread.resolved !== undefined) return;
    if (sign > 0) this.openThreads.set(thread.key, thread);
    else this.openThreads.delete(thread.key);
  }
}

const indexOf = new WeakMap<World, SummaryIndex>();
const recent: SummaryIndex[] = [];

function touch(index: SummaryIndex): void {
  const at = recent.indexOf(index);
  if (at >= 0) recent.splice(at, 1);
  recent.push(index);
  if (recent.length > SUMMARY_RECENT_INDEXES) recent.shift();
}

/** The index of `world`: its own, moved from an indexed relative, or built (see the module comment). */
export function summaryIndexOf(world: World): SummaryIndex {
  let index = indexOf.get(world);
  if (index === undefined) {
    const up = lineage(world);
    // An ancestor's index first (the next turn of a game), then a recent one whose world descends from this
    // world or from one of its ancestors (an undo, a swipe, a branch).
    for (const ancestor of up) {
      index = indexOf.get(ancestor);
      if (index !== undefined) break;
    }
    if (index === undefined) {
      const near = new Set<World>([world, ...up]);
      index = recent.find((candidate) => lineage(candidate.world).some((w) => near.has(w)));
    }
    if (index !== undefined) {
      indexOf.delete(index.world);
      index.moveTo(world);
    } else index = SummaryIndex.build(world);
    indexOf.set(world, index);
  }
  touch(index);
  return index;
}
