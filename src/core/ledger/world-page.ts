// A world too big for one answer is read in pages: a page holds at most `limit` records, taken from the
// tables in a fixed order (entities, relationships, threads, facts) and, within a table, in the table's
// own order, which never changes for a given world (records are replaced in place, never deleted). The
// cursor names the last record a page held, so the next page starts right after it.

import { tableKeys } from './persistent-hash-trie.ts';
import { type FactTable, lookup, nullTable, type World, WORLD_VERSION } from './world.ts';

export type WorldTable = 'entities' | 'relationships' | 'threads' | 'facts';

const TABLES: readonly WorldTable[] = ['entities', 'relationships', 'threads', 'facts'];

export interface WorldPage {
  /** The page's records in World form (the scene rides on every page). */
  readonly world: World;
  /** Records in this page. */
  readonly records: number;
  /** The cursor of the next page, or null when this page reached the end. */
  readonly next: string | null;
}

export type WorldPageResult = { ok: true; page: WorldPage } | { ok: false; message: string };

function cursorOf(table: WorldTable, key: string): string {
  return `${table}:${key}`;
}

function parseCursor(cursor: string): { table: WorldTable; key: string } | undefined {
  const colon = cursor.indexOf(':');
  if (colon < 0) return undefined;
  const table = cursor.slice(0, colon) as WorldTable;
  return TABLES.includes(table) ? { table, key: cursor.slice(colon + 1) } : undefined;
}

/** Every record of one table in its order, as [key, bucket (facts only), record]. */
function* rowsOf(world: World, table: WorldTable): Generator<[string, string | undefined, unknown]> {
  if (table === 'facts') {
    const facts = world.facts as FactTable;
    for (const bucket in facts)
      for (const id of tableKeys(facts[bucket]!)) yield [id, bucket, lookup(facts[bucket]!, id)];
    return;
  }
  const records = world[table] as Readonly<Record<string, unknown>>;
  for (const key of tableKeys(records)) yield [key, undefined, lookup(records, key)];
}

/** Where a page starts: the table, and the key it follows (none: the table's start). */
function pageStart(
  cursor: string | null,
): { ok: true; startTable: number; after: string | undefined } | { ok: false; message: string } {
  if (cursor === null) return { ok: true, startTable: 0, after: undefined };
  const parsed = parseCursor(cursor);
  if (parsed === undefined)
    return { ok: false, message: `cursor ${JSON.stringify(cursor.slice(0, 80))} is not a world cursor` };
  return { ok: true, startTable: TABLES.indexOf(parsed.table), after: parsed.key };
}

/** The tables of a page being filled: facts by bucket, the others by key. */
interface PageTables {
  readonly entities: Record<string, unknown>;
  readonly relationships: Record<string, unknown>;
  readonly threads: Record<string, unknown>;
  readonly facts: Record<string, Record<string, unknown>>;
}

function putRow(
  out: PageTables,
  table: WorldTable,
  bucket: string | undefined,
  key: string,
  record: unknown,
): void {
  if (bucket === undefined) (out[table] as Record<string, unknown>)[key] = record;
  else {
    out.facts[bucket] ??= nullTable<unknown>();
    out.facts[bucket]![key] = record;
  }
}

/** The page of at most `limit` records after `cursor` (from the start when null). */
export function worldPage(world: World, limit: number, cursor: string | null): WorldPageResult {
  const start = pageStart(cursor);
  if (!start.ok) return start;
  const { startTable, after } = start;
  const out: PageTables = {
    entities: nullTable<unknown>(),
    relationships: nullTable<unknown>(),
    threads: nullTable<unknown>(),
    facts: nullTable<Record<string, unknown>>(),
  };
  let records = 0;
  let last: string | null = null;
  let more = false;
  for (let t = startTable; t < TABLES.length && !more; t++) {
    const table = TABLES[t]!;
    let skipping = t === startTable && after !== undefined;
    let found = !skipping;
    for (const [key, bucket, record] of rowsOf(world, table)) {
      if (skipping) {
        if (key === after) {
          skipping = false;
          found = true;
        }
        continue;
      }
      if (records === limit) {
        more = true;
        break;
      }
      putRow(out, table, bucket, key, record);
      records += 1;
      last = cursorOf(table, key);
    }
    if (!found) return { ok: false, message: `cursor names a record this world does not have` };
  }
  return {
    ok: true,
    page: {
      world: {
        version: WORLD_VERSION,
        ...(out as unknown as Omit<World, 'version' | 'scene'>),
        scene: world.scene,
      },
      records,
      next: more ? last : null,
    },
  };
}
