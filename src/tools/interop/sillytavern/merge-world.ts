// A lorebook imported into a folder that already has one (a card's own `character_book`, then the World
// Info file the card links to): the entries are merged, not replaced. The folder's book keeps its settings
// and entries; each imported entry is appended with the next free uid, unless the folder already has an
// entry with the same keys and content (then it is a duplicate, counted in the report).

import {
  MAX_WI_ENTRIES,
  parseJsonText,
  parseWorldInfoFile,
  toWorldInfoFile,
  type WorldInfoBook,
  type WorldInfoEntry,
} from '../../../core/lore/index.ts';
import { ImportError } from './errors.ts';

export interface WorldInfoMerge {
  /** The merged `world_info.json` text. */
  readonly text: string;
  readonly added: number;
  readonly duplicates: number;
}

function sameEntry(a: WorldInfoEntry, b: WorldInfoEntry): boolean {
  return a.content === b.content && JSON.stringify(a.keys) === JSON.stringify(b.keys);
}

function readBook(text: string, where: string): WorldInfoBook {
  const parsed = parseJsonText(text);
  if (!parsed.ok)
    throw new ImportError('IMPORT_BAD_JSON', `${where}:${parsed.at.line}:${parsed.at.col}`, parsed.message);
  const book = parseWorldInfoFile(parsed.value, where);
  if (!book.ok) {
    const issue = book.issues[0]!;
    throw new ImportError('IMPORT_BAD_WORLD_INFO', `${where}: ${issue.path}`, issue.message);
  }
  return book.book;
}

/** `incoming` (a World Info file's text) merged into `existing` (the folder's `world_info.json` text). */
export function mergeWorldInfo(existing: string, incoming: string, where: string): WorldInfoMerge {
  const base = readBook(existing, where);
  const added = readBook(incoming, 'the imported file');
  let next = base.entries.reduce((max, e) => Math.max(max, e.uid), -1) + 1;
  const entries: WorldInfoEntry[] = [...base.entries];
  let duplicates = 0;
  for (const entry of added.entries) {
    if (entries.some((e) => sameEntry(e, entry))) {
      duplicates++;
      continue;
    }
    entries.push({ ...entry, uid: next++ });
  }
  if (entries.length > MAX_WI_ENTRIES)
    throw new ImportError(
      'IMPORT_BAD_WORLD_INFO',
      where,
      `the merged book would have ${entries.length} entries; the limit is ${MAX_WI_ENTRIES} (MAX_WI_ENTRIES)`,
    );
  const text = `${JSON.stringify(toWorldInfoFile({ ...base, entries }), null, 4)}\n`;
  return { text, added: entries.length - base.entries.length, duplicates };
}
