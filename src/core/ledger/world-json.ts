// Reading a World back from JSON (a stored world, `ledger check --world`). JSON.parse gives objects with
// Object.prototype and no guarantees, so every table is rebuilt with a null prototype and every record
// is checked for the fields and types the World type promises. Keys must still be valid ledger keys.

import { sharedView } from './persistent-hash-trie.ts';
import type { LedgerScalar } from './events.ts';
import { KEY_PATTERN, RESERVED_KEYS } from './limits.ts';
import {
  type EntityRecord,
  type FactRecord,
  type FactTable,
  factBucket,
  nullTable,
  type RelationshipPeriod,
  type RelationshipRecord,
  relationshipId,
  type Scene,
  type Stamp,
  type ThreadRecord,
  type World,
  WORLD_VERSION,
} from './world.ts';

class WorldJsonError extends Error {}

type Obj = Record<string, unknown>;

function obj(value: unknown, where: string): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new WorldJsonError(`${where} must be an object`);
  return value as Obj;
}
function str(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new WorldJsonError(`${where} must be a string`);
  return value;
}
function optStr(value: unknown, where: string): string | undefined {
  return value === undefined ? undefined : str(value, where);
}
function key(value: unknown, where: string): string {
  const k = str(value, where);
  if (!KEY_PATTERN.test(k) || RESERVED_KEYS.has(k))
    throw new WorldJsonError(`${where} ${JSON.stringify(k.slice(0, 40))} is not a ledger key`);
  return k;
}
function optKey(value: unknown, where: string): string | undefined {
  return value === undefined ? undefined : key(value, where);
}
function strList(value: unknown, where: string): string[] {
  if (!Array.isArray(value)) throw new WorldJsonError(`${where} must be a list of strings`);
  return value.map((v, i) => str(v, `${where}[${i}]`));
}
function scalar(value: unknown, where: string): LedgerScalar {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  throw new WorldJsonError(`${where} must be a JSON scalar`);
}
function stamp(value: unknown, where: string): Stamp {
  const o = obj(value, where);
  if (typeof o.turn !== 'number' || !Number.isSafeInteger(o.turn) || o.turn < 0) {
    throw new WorldJsonError(`${where}.turn must be an integer ≥ 0`);
  }
  const gameTime = optStr(o.gameTime, `${where}.gameTime`);
  return gameTime === undefined ? { turn: o.turn } : { turn: o.turn, gameTime };
}
function defined<T extends Obj>(record: T): T {
  for (const k of Object.keys(record)) if (record[k] === undefined) delete record[k];
  return record;
}

function table<T>(
  value: unknown,
  where: string,
  read: (raw: unknown, id: string, at: string) => T,
): Record<string, T> {
  const out = nullTable<T>();
  const source = obj(value, where);
  for (const id of Object.keys(source))
    out[id] = read(source[id], id, `${where}[${JSON.stringify(id.slice(0, 40))}]`);
  return out;
}

function readEntity(raw: unknown, id: string, at: string): EntityRecord {
  const o = obj(raw, at);
  if (key(o.key, `${at}.key`) !== id) throw new WorldJsonError(`${at}.key does not match its table key`);
  const attributes = nullTable<LedgerScalar>();
  const rawAttributes = obj(o.attributes, `${at}.attributes`);
  for (const name of Object.keys(rawAttributes)) {
    attributes[key(name, `${at}.attributes key`)] = scalar(rawAttributes[name], `${at}.attributes.${name}`);
  }
  return defined({
    key: id,
    name: str(o.name, `${at}.name`),
    entityType: optStr(o.entityType, `${at}.entityType`),
    description: optStr(o.description, `${at}.description`),
    aliases: strList(o.aliases, `${at}.aliases`),
    status: optStr(o.status, `${at}.status`),
    attributes,
    conditions: strList(o.conditions, `${at}.conditions`),
    location: optKey(o.location, `${at}.location`),
    holder: optKey(o.holder, `${at}.holder`),
    created: stamp(o.created, `${at}.created`),
  }) as EntityRecord;
}

function readFact(raw: unknown, id: string, at: string): FactRecord {
  const o = obj(raw, at);
  if (o.knownBy !== undefined && !Array.isArray(o.knownBy))
    throw new WorldJsonError(`${at}.knownBy must be a list of ledger keys`);
  if (key(o.id, `${at}.id`) !== id) throw new WorldJsonError(`${at}.id does not match its table key`);
  let invalidated: FactRecord['invalidated'];
  if (o.invalidated !== undefined) {
    const reason = optStr(obj(o.invalidated, `${at}.invalidated`).reason, `${at}.invalidated.reason`);
    invalidated = {
      ...stamp(o.invalidated, `${at}.invalidated`),
      ...(reason === undefined ? {} : { reason }),
    };
  }
  return defined({
    id,
    predicate: str(o.predicate, `${at}.predicate`),
    subject: optKey(o.subject, `${at}.subject`),
    object: optKey(o.object, `${at}.object`),
    value: o.value === undefined ? undefined : scalar(o.value, `${at}.value`),
    added: stamp(o.added, `${at}.added`),
    knownBy:
      o.knownBy === undefined
        ? undefined
        : (o.knownBy as unknown[]).map((k, i) => key(k, `${at}.knownBy[${i}]`)),
    invalidated,
  }) as FactRecord;
}

function readFacts(raw: unknown): FactTable {
  const out = nullTable<Record<string, FactRecord>>();
  const directory = obj(raw, 'facts');
  for (const name of Object.keys(directory)) {
    const bucket = table(directory[name], `facts[${JSON.stringify(name.slice(0, 8))}]`, readFact);
    for (const id of Object.keys(bucket)) {
      if (factBucket(id) !== name)
        throw new WorldJsonError(`facts: fact ${JSON.stringify(id)} is in the wrong bucket`);
    }
    out[name] = sharedView(bucket);
  }
  return out;
}

function readRelationship(raw: unknown, id: string, at: string): RelationshipRecord {
  const o = obj(raw, at);
  const source = key(o.source, `${at}.source`);
  const target = key(o.target, `${at}.target`);
  const relationship = str(o.relationship, `${at}.relationship`);
  if (relationshipId(source, target, relationship) !== id)
    throw new WorldJsonError(`${at} does not match its table key`);
  if (!Array.isArray(o.periods) || o.periods.length === 0)
    throw new WorldJsonError(`${at}.periods must be a non-empty list`);
  const periods: RelationshipPeriod[] = o.periods.map((p, i) => {
    const po = obj(p, `${at}.periods[${i}]`);
    return defined({
      started: stamp(po.started, `${at}.periods[${i}].started`),
      description: optStr(po.description, `${at}.periods[${i}].description`),
      ended: po.ended === undefined ? undefined : stamp(po.ended, `${at}.periods[${i}].ended`),
    }) as RelationshipPeriod;
  });
  if (periods.slice(0, -1).some((p) => p.ended === undefined))
    throw new WorldJsonError(`${at}: only the last period may be open`);
  return { source, target, relationship, periods };
}

function readThread(raw: unknown, id: string, at: string): ThreadRecord {
  const o = obj(raw, at);
  if (key(o.key, `${at}.key`) !== id) throw new WorldJsonError(`${at}.key does not match its table key`);
  let resolved: ThreadRecord['resolved'];
  if (o.resolved !== undefined) {
    const resolution = optStr(obj(o.resolved, `${at}.resolved`).resolution, `${at}.resolved.resolution`);
    resolved = {
      ...stamp(o.resolved, `${at}.resolved`),
      ...(resolution === undefined ? {} : { resolution }),
    };
  }
  return defined({
    key: id,
    title: str(o.title, `${at}.title`),
    description: optStr(o.description, `${at}.description`),
    opened: stamp(o.opened, `${at}.opened`),
    resolved,
  }) as ThreadRecord;
}

function readScene(raw: unknown): Scene | null {
  if (raw === null || raw === undefined) return null;
  const o = obj(raw, 'scene');
  return defined({
    summary: optStr(o.summary, 'scene.summary'),
    location: optKey(o.location, 'scene.location'),
    present: strList(o.present, 'scene.present').map((k, i) => key(k, `scene.present[${i}]`)),
    set: stamp(o.set, 'scene.set'),
  }) as Scene;
}

/** A World from parsed JSON, or a message naming the first place it is wrong. */
export function worldFromJson(raw: unknown): { ok: true; world: World } | { ok: false; message: string } {
  try {
    const o = obj(raw, 'world');
    if (o.version !== WORLD_VERSION) return { ok: false, message: `world.version must be ${WORLD_VERSION}` };
    return {
      ok: true,
      world: {
        version: WORLD_VERSION,
        // Shared tables, so the batches applied after a snapshot cost O(batch), not O(world).
        entities: sharedView(table(o.entities, 'entities', readEntity)),
        facts: readFacts(o.facts),
        relationships: sharedView(table(o.relationships, 'relationships', readRelationship)),
        threads: sharedView(table(o.threads, 'threads', readThread)),
        scene: readScene(o.scene),
      },
    };
  } catch (error) {
    if (error instanceof WorldJsonError) return { ok: false, message: error.message };
    throw error;
  }
}
