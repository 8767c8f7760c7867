// The world as text for a person (`mnesos ledger show`, the MCP tool `ledger_query`): every table sorted by
// key, model prose JSON-quoted. A reader may ask for some tables only, or for what concerns one entity.

import {
  allFacts,
  type EntityRecord,
  type FactRecord,
  lookup,
  type RelationshipRecord,
  type Stamp,
  type ThreadRecord,
  type World,
} from './world.ts';

export const WORLD_TABLES = ['scene', 'entities', 'facts', 'relationships', 'threads'] as const;
export type WorldTable = (typeof WORLD_TABLES)[number];

export interface WorldTextOptions {
  /** The tables to show (default: all of them, in WORLD_TABLES order). */
  readonly tables?: readonly WorldTable[];
  /** Only the records that concern this entity key (itself, its facts, its ties); threads are kept whole. */
  readonly entity?: string;
  /** Records listed per table at most; the rest are counted in one line. */
  readonly maxRows?: number;
}

function when(stamp: Stamp): string {
  return stamp.gameTime === undefined ? `turn ${stamp.turn}` : `turn ${stamp.turn}, ${stamp.gameTime}`;
}

function name(world: World, key: string): string {
  const entity = lookup(world.entities, key);
  return entity === undefined ? `[${key}]` : `${entity.name} [${key}]`;
}

function entityLine(world: World, e: EntityRecord, holds: readonly string[]): string {
  const parts = [`${e.name} [${e.key}]${e.entityType === undefined ? '' : ` (${e.entityType})`}`];
  if (e.status !== undefined) parts.push(`status: ${e.status}`);
  if (e.location !== undefined) parts.push(`at: ${name(world, e.location)}`);
  if (e.holder !== undefined) parts.push(`held by: ${name(world, e.holder)}`);
  if (holds.length > 0) parts.push(`holds: ${holds.map((k) => name(world, k)).join(', ')}`);
  if (e.conditions.length > 0) parts.push(`conditions: ${e.conditions.join(', ')}`);
  const attrs = Object.keys(e.attributes).sort();
  if (attrs.length > 0)
    parts.push(`attributes: ${attrs.map((a) => `${a}=${JSON.stringify(e.attributes[a])}`).join(', ')}`);
  if (e.description !== undefined) parts.push(`description: ${JSON.stringify(e.description)}`);
  return `  - ${parts.join('; ')}`;
}

function factLine(world: World, f: FactRecord): string {
  const subject = f.subject === undefined ? '' : `${name(world, f.subject)} `;
  const object =
    f.object === undefined
      ? ''
      : ` ${lookup(world.entities, f.object) ? name(world, f.object) : `fact [${f.object}]`}`;
  const value = f.value === undefined ? '' : ` = ${JSON.stringify(f.value)}`;
  const withdrawn =
    f.invalidated === undefined
      ? ''
      : `; withdrawn at ${when(f.invalidated)}${f.invalidated.reason === undefined ? '' : `: ${JSON.stringify(f.invalidated.reason)}`}`;
  return `  - [${f.id}] ${subject}${JSON.stringify(f.predicate)}${object}${value} (${when(f.added)}${withdrawn})`;
}

/** The world as text for a person: the chosen tables, each sorted by key. */
export function formatWorld(world: World, options: WorldTextOptions = {}): string[] {
  const tables = options.tables ?? WORLD_TABLES;
  const lines: string[] = [];
  for (const table of WORLD_TABLES) {
    if (!tables.includes(table)) continue;
    lines.push(...tableLines(world, table, options));
  }
  return lines;
}

function tableLines(world: World, table: WorldTable, options: WorldTextOptions): string[] {
  switch (table) {
    case 'scene':
      return sceneLines(world);
    case 'entities':
      return entityLines(world, options);
    case 'facts':
      return factLines(world, options);
    case 'relationships':
      return relationshipLines(world, options);
    case 'threads':
      return threadLines(world, options);
    default: {
      const unreachable: never = table;
      throw new Error(`unknown world table ${String(unreachable)}`);
    }
  }
}

/** The first `maxRows` of `rows`, then one line counting the rest. */
function capped(rows: readonly string[], maxRows: number | undefined): string[] {
  if (maxRows === undefined || rows.length <= maxRows) return [...rows];
  return [...rows.slice(0, maxRows), `  … ${rows.length - maxRows} more`];
}

function sceneLines(world: World): string[] {
  const scene = world.scene;
  if (scene === null) return ['Scene: none'];
  const where = scene.location === undefined ? '' : ` at ${name(world, scene.location)}`;
  return [
    `Scene (${when(scene.set)})${where}${scene.summary === undefined ? '' : `: ${JSON.stringify(scene.summary)}`}`,
    `  present: ${scene.present.length === 0 ? 'nobody' : scene.present.map((k) => name(world, k)).join(', ')}`,
  ];
}

function entityLines(world: World, options: WorldTextOptions): string[] {
  const keys = Object.keys(world.entities).sort();
  const holds = new Map<string, string[]>();
  for (const key of keys) {
    const holder = world.entities[key]!.holder;
    if (holder !== undefined) holds.set(holder, [...(holds.get(holder) ?? []), key]);
  }
  const shown = keys.filter((key) => concernsEntity(world.entities[key]!, options.entity));
  const rows = shown.map((key) => entityLine(world, world.entities[key]!, holds.get(key) ?? []));
  return [`Entities (${shown.length}):`, ...capped(rows, options.maxRows)];
}

function concernsEntity(e: EntityRecord, key: string | undefined): boolean {
  return key === undefined || e.key === key || e.holder === key || e.location === key;
}

function factLines(world: World, options: WorldTextOptions): string[] {
  const entity = options.entity;
  const facts = allFacts(world).filter(
    (f: FactRecord) => entity === undefined || f.subject === entity || f.object === entity,
  );
  const withdrawn = facts.filter((f) => f.invalidated !== undefined).length;
  const rows = facts.map((fact) => factLine(world, fact));
  return [
    `Facts (${facts.length - withdrawn} current, ${withdrawn} withdrawn):`,
    ...capped(rows, options.maxRows),
  ];
}

function relationshipLines(world: World, options: WorldTextOptions): string[] {
  const entity = options.entity;
  const ties = Object.keys(world.relationships)
    .sort()
    .map((id) => world.relationships[id]!)
    .filter((t: RelationshipRecord) => entity === undefined || t.source === entity || t.target === entity);
  const rows = ties.map((tie) => {
    const periods = tie.periods
      .map((p) =>
        p.ended === undefined ? `since ${when(p.started)}` : `${when(p.started)} to ${when(p.ended)}`,
      )
      .join('; ');
    return `  - ${name(world, tie.source)} ${JSON.stringify(tie.relationship)} ${name(world, tie.target)} (${periods})`;
  });
  return [`Relationships (${ties.length}):`, ...capped(rows, options.maxRows)];
}

function threadLines(world: World, options: WorldTextOptions): string[] {
  const threadKeys = Object.keys(world.threads).sort();
  const rows = threadKeys.map((key) => {
    const t: ThreadRecord = world.threads[key]!;
    const state =
      t.resolved === undefined
        ? `open since ${when(t.opened)}`
        : `resolved at ${when(t.resolved)}${t.resolved.resolution === undefined ? '' : `: ${JSON.stringify(t.resolved.resolution)}`}`;
    return `  - [${t.key}] ${JSON.stringify(t.title)} (${state})`;
  });
  return [`Threads (${threadKeys.length}):`, ...capped(rows, options.maxRows)];
}
