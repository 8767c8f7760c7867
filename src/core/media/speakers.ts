// The names a quoted line can be given to (src/core/media/speech-plan.ts): the cartridge's starting-world
// entities (their names and aliases, from the ledger section) and its lore's `### ` headings, the way
// bot_lore.md introduces its characters. Bounded by the speech plan (it reads at most 200 names).

import type { Cartridge } from '../cartridge/index.ts';

const MAX_NAMES = 200;

export function speakerNames(cartridge: Cartridge): string[] {
  const names = new Set<string>();
  for (const event of cartridge.ledger.world) {
    if (names.size >= MAX_NAMES) break;
    if (event.type !== 'create_entity') continue;
    names.add(event.name);
    for (const alias of event.aliases ?? []) names.add(alias);
  }
  for (const line of cartridge.lore.split('\n')) {
    if (names.size >= MAX_NAMES) break;
    if (line.startsWith('### ')) names.add(line.slice(4).trim());
  }
  names.delete('');
  return [...names].slice(0, MAX_NAMES);
}
