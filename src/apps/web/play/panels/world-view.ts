// The world panel's model, from the ledger's world as the server sends it (JSON of `World`): the scene,
// who is present and what each carries, open threads, facts still valid, and any entity on request. The
// world is model-proposed text, so every field is read defensively and shown only as text.

import type { EntityRecord, FactRecord, ThreadRecord, World } from '../../../../core/ledger/index.ts';
import { isRecord } from '../../../../core/is-record.ts';

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

function values<T>(table: unknown): T[] {
  return isRecord(table) ? (Object.values(table).filter(isRecord) as T[]) : [];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function entityLine(
  entity: EntityRecord,
  all: readonly EntityRecord[],
  names: ReadonlyMap<string, string>,
): EntityLine {
  return {
    key: String(entity.key),
    name: text(entity.name) ?? String(entity.key),
    type: text(entity.entityType),
    status: text(entity.status),
    conditions: Array.isArray(entity.conditions)
      ? entity.conditions.filter((c) => typeof c === 'string')
      : [],
    carries: all.filter((e) => e.holder === entity.key).map((e) => text(e.name) ?? String(e.key)),
    location: entity.location === undefined ? undefined : (names.get(entity.location) ?? entity.location),
  };
}

function factLine(fact: FactRecord, names: ReadonlyMap<string, string>): string {
  const name = (key: string | undefined): string => (key === undefined ? '' : (names.get(key) ?? key));
  const value =
    fact.value === undefined
      ? ''
      : ` = ${typeof fact.value === 'string' ? fact.value : JSON.stringify(fact.value)}`;
  return (
    [name(fact.subject), String(fact.predicate ?? ''), name(fact.object)].filter((s) => s !== '').join(' ') +
    value
  );
}

/** The world's facts, from the bucketed table (`{bucket: {id: fact}}`) or a flat list. */
function factsOf(world: Record<string, unknown>): FactRecord[] {
  const facts = world.facts;
  if (Array.isArray(facts)) return facts.filter(isRecord) as unknown as FactRecord[];
  const out: FactRecord[] = [];
  for (const bucket of values<Record<string, unknown>>(facts)) out.push(...values<FactRecord>(bucket));
  return out.sort((a, b) => (a.added?.turn ?? 0) - (b.added?.turn ?? 0));
}

export function worldPanel(input: unknown): WorldPanel {
  const world = isRecord(input) && isRecord(input.world) ? input.world : isRecord(input) ? input : {};
  const entities = values<EntityRecord>((world as Partial<World>).entities).filter(
    (e) => typeof e.key === 'string',
  );
  const names = new Map<string, string>();
  for (const e of entities) names.set(e.key, text(e.name) ?? e.key);
  const scene = isRecord(world.scene) ? world.scene : undefined;
  const presentKeys = Array.isArray(scene?.present)
    ? (scene.present as unknown[]).filter((k) => typeof k === 'string')
    : [];
  const byKey = new Map(entities.map((e) => [e.key, e]));
  const present = presentKeys.flatMap((k) => {
    const e = byKey.get(k);
    return e ? [entityLine(e, entities, names)] : [];
  });
  const open = values<ThreadRecord>(world.threads).filter((t) => t.resolved === undefined);
  const valid = factsOf(world).filter((f) => f.invalidated === undefined);
  return {
    scene: scene
      ? {
          summary: text(scene.summary),
          location:
            typeof scene.location === 'string' ? (names.get(scene.location) ?? scene.location) : undefined,
        }
      : undefined,
    present,
    threads: open.slice(0, MAX_WORLD_ITEMS).map((t) => ({
      key: String(t.key),
      title: text(t.title) ?? String(t.key),
      description: text(t.description),
    })),
    facts: valid.slice(-MAX_WORLD_ITEMS).map((f) => factLine(f, names)),
    entities: entities.slice(0, MAX_WORLD_ITEMS).map((e) => entityLine(e, entities, names)),
    more: {
      facts: Math.max(0, valid.length - MAX_WORLD_ITEMS),
      entities: Math.max(0, entities.length - MAX_WORLD_ITEMS),
      threads: Math.max(0, open.length - MAX_WORLD_ITEMS),
    },
  };
}

/** A ledger log entry (the shape `entityHistory` reads): one turn's events. */
export interface LogEntry {
  readonly turn: number;
  readonly events: readonly unknown[];
}

/** Groups the server's ledger rows (`{depth, position, event}`) into one entry per turn, in order. */
export function logOf(
  rows: readonly { readonly depth: number; readonly position: number; readonly event: unknown }[],
): LogEntry[] {
  const byDepth = new Map<number, { position: number; event: unknown }[]>();
  for (const row of rows) {
    const list = byDepth.get(row.depth) ?? [];
    list.push({ position: row.position, event: row.event });
    byDepth.set(row.depth, list);
  }
  return [...byDepth.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([turn, events]) => ({
      turn,
      events: events.sort((a, b) => a.position - b.position).map((e) => e.event),
    }));
}
