// The names a quoted line can be given to (src/core/media/speech-plan.ts) and their voices: the ledger's
// entities — the cartridge's starting world, and the session's world as it stands, with entities the story
// introduced — by their names and aliases, and the lore's `### ` headings, the way bot_lore.md introduces
// its characters. A voice set for one name of an entity (MNESOS_SPEECH_VOICES) is every name's, so "Hesk"
// speaks as "Mother Hesk" does. Bounded: at most 200 names are read.

import type { Cartridge } from '../cartridge/index.ts';
import type { World } from '../ledger/index.ts';

const MAX_NAMES = 200;

/** Someone who may speak: the names they go by (the first is their own). */
export type SpeakerEntity = readonly string[];

/** The ledger's characters: the starting world's, then those of `world` (the session's) not among them. */
export function speakerEntities(cartridge: Cartridge, world?: World): SpeakerEntity[] {
  const entities: SpeakerEntity[] = [];
  const seen = new Set<string>();
  const add = (key: string, name: string, aliases: readonly string[]) => {
    if (seen.has(key) || entities.length >= MAX_NAMES) return;
    seen.add(key);
    entities.push([name, ...aliases].filter((n) => n !== ''));
  };
  for (const event of cartridge.ledger.world)
    if (event.type === 'create_entity') add(event.entity, event.name, event.aliases ?? []);
  for (const entity of Object.values(world?.entities ?? {})) add(entity.key, entity.name, entity.aliases);
  return entities;
}

/** Every name a quoted line can be given to: the entities' names and aliases, then the lore's headings. */
export function speakerNames(cartridge: Cartridge, world?: World): string[] {
  const names = new Set<string>();
  for (const entity of speakerEntities(cartridge, world))
    for (const name of entity) if (names.size < MAX_NAMES) names.add(name);
  for (const line of cartridge.lore.split('\n')) {
    if (names.size >= MAX_NAMES) break;
    if (line.startsWith('### ')) names.add(line.slice(4).trim());
  }
  names.delete('');
  return [...names];
}

/**
 * The voices by name: each configured `name → voice`, and for an entity with a voice set for one of its names,
 * every other name it goes by (its own name's voice first, then its aliases' in order).
 */
export function castVoices(
  entities: readonly SpeakerEntity[],
  configured: ReadonlyMap<string, string>,
): Map<string, string> {
  const voices = new Map(configured);
  for (const names of entities) {
    const voice = names.map((name) => configured.get(name)).find((v) => v !== undefined);
    if (voice === undefined) continue;
    for (const name of names) if (!configured.has(name)) voices.set(name, voice);
  }
  return voices;
}
