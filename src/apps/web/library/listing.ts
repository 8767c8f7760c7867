// What the Library page shows and asks, worked out in the browser: the files a single-file update may
// replace, tags typed as one field, byte sizes as people read them, and the bounded lookup that names the
// cartridge of each game.

import type { CartridgeView } from '../../contract/index.ts';

/** The files a single-file update may replace, in the order the page offers them. */
export const CARTRIDGE_FILE_NAMES = [
  'yare.yaml',
  'bot_lore.md',
  'prompt_directives.yaml',
  'first-message.md',
  'alternate_greetings.json',
  'intents.yaml',
  'world_info.json',
  'yare.js',
  'yare.ts',
] as const;

/** Splits a comma-separated tag field into tags (trimmed, empty ones dropped, each once). */
export function tagsOf(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(',')) {
    const tag = part.trim();
    if (tag !== '' && !out.includes(tag)) out.push(tag);
  }
  return out;
}

/** Bytes as people read them (`12.3 KiB`, `50 MiB`). */
export function byteSize(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = unit === 0 || value >= 100 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${shown} ${units[unit]}`;
}

/** Version lists read at most to name the games' cartridges (the list may hold many public cartridges). */
export const MAX_VERSION_LOOKUPS = 20;

/**
 * The cartridge title of each game's version: the newest versions come with the list; an older one is
 * looked up in the version lists of the player's own and the server's cartridges first, a few at a time,
 * until every game is named or MAX_VERSION_LOOKUPS lists were read.
 */
export async function namesOfVersions(
  cartridges: readonly CartridgeView[],
  sessions: readonly { readonly cartridgeVersionId: string }[],
  versions: (cartridgeId: string) => Promise<readonly { readonly id: string }[]>,
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const c of cartridges) names.set(c.latest.id, c.title);
  const missing = new Set(sessions.map((s) => s.cartridgeVersionId).filter((id) => !names.has(id)));
  const order = [...cartridges].sort((a, b) => Number(a.owner === 'other') - Number(b.owner === 'other'));
  for (let at = 0; at < Math.min(order.length, MAX_VERSION_LOOKUPS) && missing.size > 0; at += 5) {
    const batch = order.slice(at, Math.min(at + 5, MAX_VERSION_LOOKUPS));
    const lists = await Promise.all(batch.map((c) => versions(c.id).catch(() => [])));
    batch.forEach((c, i) => {
      for (const v of lists[i] ?? []) {
        names.set(v.id, c.title);
        missing.delete(v.id);
      }
    });
  }
  return names;
}
