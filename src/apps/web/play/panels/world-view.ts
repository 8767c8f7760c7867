// The world panel's model, from the ledger's world as the server sends it (the contract's worldSchema,
// parsed by the play client): the scene, who is present and what each carries, open threads, facts still
// valid, and any entity on request. The world is model-proposed text, shown only as text.

import type { WorldView } from '../../../contract/index.ts';
import { type LedgerEvent, type LogEntry, parseEvent } from '../../../../core/ledger/index.ts';

/** Facts, threads and entities listed in the panel; the rest is counted. */
export const MAX_WORLD_ITEMS = 100;

export interface EntityLine {
  readonly key: string;
  readonly name: string;
  readonly type?: string | undefined;
  readonly status?: string | undefined;
  readonly conditions: readonly string[];
  readonly carries: readonly string[];
  readonly location?: string | undefined;
}

export interface WorldPanel {
  readonly scene?:
    | { readonly summary?: string | undefined; readonly location?: string | undefined }
    | undefined;
  readonly present: readonly EntityLine[];
  readonly threads: readonly {
    readonly key: string;
    readonly title: string;
    readonly description?: string | undefined;
  }[];
  readonly facts: readonly string[];
  readonly entities: readonly EntityLine[];
  readonly more: { readonly facts: number; readonly entities: number; readonly threads: number };
}

type Entity = WorldView['entities'][string];
type Fact = WorldView['facts'][string][string];

function entityLine(entity: Entity, all: readonly Entity[], names: ReadonlyMap<string, string>): EntityLine {
  return {
    key: entity.key,
    name: entity.name,
    type: entity.entityType,
    status: entity.status,
    conditions: entity.conditions,
    carries: all.filter((e) => e.holder === entity.key).map((e) => e.name),
    location: entity.location === undefined ? undefined : (names.get(entity.location) ?? entity.location),
  };
}

function factLine(fact: Fact, names: ReadonlyMap<string, string>): string {
  const name = (key: string | undefined): string => (key === undefined ? '' : (names.get(key) ?? key));
  const value =
    fact.value === undefined
      ? ''
      : ` = ${typeof fact.value === 'string' ? fact.value : JSON.stringify(fact.value)}`;
  return [name(fact.subject), fact.predicate, name(fact.object)].filter((s) => s !== '').join(' ') + value;
}

/** The world's facts out of their hash buckets, oldest first. */
function factsOf(world: WorldView): Fact[] {
  return Object.values(world.facts)
    .flatMap((bucket) => Object.values(bucket))
    .sort((a, b) => a.added.turn - b.added.turn);
}

export function worldPanel(world: WorldView): WorldPanel {
  const entities = Object.values(world.entities);
  const names = new Map<string, string>(entities.map((e) => [e.key, e.name]));
  const byKey = new Map(entities.map((e) => [e.key, e]));
  const scene = world.scene;
  const present = (scene?.present ?? []).flatMap((k) => {
    const e = byKey.get(k);
    return e ? [entityLine(e, entities, names)] : [];
  });
  const open = Object.values(world.threads).filter((t) => t.resolved === undefined);
  const valid = factsOf(world).filter((f) => f.invalidated === undefined);
  return {
    scene: scene
      ? {
          summary: scene.summary,
          location: scene.location === undefined ? undefined : (names.get(scene.location) ?? scene.location),
        }
      : undefined,
    present,
    threads: open
      .slice(0, MAX_WORLD_ITEMS)
      .map((t) => ({ key: t.key, title: t.title, description: t.description })),
    facts: valid.slice(-MAX_WORLD_ITEMS).map((f) => factLine(f, names)),
    entities: entities.slice(0, MAX_WORLD_ITEMS).map((e) => entityLine(e, entities, names)),
    more: {
      facts: Math.max(0, valid.length - MAX_WORLD_ITEMS),
      entities: Math.max(0, entities.length - MAX_WORLD_ITEMS),
      threads: Math.max(0, open.length - MAX_WORLD_ITEMS),
    },
  };
}

/**
 * Groups the server's ledger rows (`{depth, position, event}`) into one entry per turn, in order, each event
 * read with the ledger's own parser (core/ledger parseEvent): a row whose event does not parse is left out.
 */
export function logOf(
  rows: readonly { readonly depth: number; readonly position: number; readonly event: unknown }[],
): LogEntry[] {
  const byDepth = new Map<number, { position: number; event: LedgerEvent }[]>();
  for (const row of rows) {
    const parsed = parseEvent(row.event, row.position);
    if (!parsed.ok) continue;
    const list = byDepth.get(row.depth) ?? [];
    list.push({ position: row.position, event: parsed.event });
    byDepth.set(row.depth, list);
  }
  return [...byDepth.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([turn, events]) => ({
      turn,
      events: events.sort((a, b) => a.position - b.position).map((e) => e.event),
    }));
}
