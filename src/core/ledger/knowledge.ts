// Who knows what (docs/ledger.md, "Who knows what"): a fact is public (no `knownBy`) or known to the entities
// that learned it. These queries answer for one entity, newest first, within a scan bound, so a prompt that
// shows a character's knowledge costs what it shows, not the size of the world.

import { summaryIndexOf } from './summary-index.ts';
import { type FactRecord, knowsFact, type World } from './world.ts';

export interface KnownFactsOptions {
  /** Facts returned at most (newest first). */
  readonly limit: number;
  /** Current facts looked at, at most (the newest). */
  readonly scan: number;
  /** Only facts the entity learned (not the public ones). */
  readonly privateOnly?: boolean;
}

/** The current facts `entity` knows, newest first. */
export function factsKnownBy(world: World, entity: string, options: KnownFactsOptions): FactRecord[] {
  const out: FactRecord[] = [];
  let scanned = 0;
  for (const fact of summaryIndexOf(world).newestFacts()) {
    if (out.length >= options.limit || ++scanned > options.scan) break;
    if (options.privateOnly && fact.knownBy === undefined) continue;
    if (knowsFact(fact, entity)) out.push(fact);
  }
  return out;
}

/**
 * The current facts `entity` does not know (learned by others only), newest first; every such fact when
 * `entity` is undefined (someone the ledger does not track knows only what is public).
 */
export function factsUnknownTo(
  world: World,
  entity: string | undefined,
  options: Omit<KnownFactsOptions, 'privateOnly'>,
): FactRecord[] {
  const out: FactRecord[] = [];
  let scanned = 0;
  for (const fact of summaryIndexOf(world).newestFacts()) {
    if (out.length >= options.limit || ++scanned > options.scan) break;
    if (fact.knownBy === undefined) continue;
    if (entity === undefined || !knowsFact(fact, entity)) out.push(fact);
  }
  return out;
}

/**
 * Every current fact, newest first, split by whether `entity` knows it (undefined: someone the ledger does not
 * track, who knows only what is public). `complete` is false when the world holds more than `scan` current
 * facts: the older ones were not looked at, so a caller that must account for every secret cannot rely on it.
 */
export function factsSplitFor(
  world: World,
  entity: string | undefined,
  scan: number,
): { known: FactRecord[]; unknown: FactRecord[]; complete: boolean } {
  const known: FactRecord[] = [];
  const unknown: FactRecord[] = [];
  let scanned = 0;
  for (const fact of summaryIndexOf(world).newestFacts()) {
    if (++scanned > scan) return { known, unknown, complete: false };
    const knows = fact.knownBy === undefined || (entity !== undefined && knowsFact(fact, entity));
    (knows ? known : unknown).push(fact);
  }
  return { known, unknown, complete: true };
}
